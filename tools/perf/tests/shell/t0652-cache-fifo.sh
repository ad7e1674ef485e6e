#!/bin/sh
test_description='a FIFO or a device in place of a cache file is refused, never waited on'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=fs_fifo
test_probe_group $G

# refused_in_time PATTERN CMD...: CMD fails within 10 s (not killed by the
# timeout, not by a signal), with one line on stderr matching PATTERN.
refused_in_time() {
	_pat=$1
	shift
	timeout 10 "$@" >out 2>err
	_rc=$?
	case $_rc in
	0 | 124 | 13[0-9] | 14[0-3])
		echo "exit $_rc: $*" >&2
		cat err >&2
		return 1
		;;
	esac
	test_error_lines err && [ "$(wc -l <err1)" -eq 1 ] && grep -q "$_pat" err1
}

test_expect_success 'setup: a program and its cached spec' '
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	E=$(dirname "$(probes_file "$TEST_TMP/app")") && test -d "$E" &&
	echo "$E" >"$TEST_TMP/entry" && cp "$E/probes" "$TEST_TMP/probes.good"
'
E=$(cat "$TEST_TMP/entry" 2>/dev/null)

test_expect_success 'a FIFO as the probes file: -x, --cache and --cache --list answer at once' '
	rm "$E/probes" && mkfifo "$E/probes" &&
	refused_in_time "refusing $E/probes: not a regular file (a FIFO); remove it" \
		"$PERF" probe -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	refused_in_time "refusing $E/probes: not a regular file (a FIFO)" \
		"$PERF" probe --cache -n -x "$TEST_TMP/app" -a "$G:e2=handle" &&
	timeout 10 "$PERF" probe --cache --list >out 2>err &&
	test_line_count = 1 err && grep -q "^Warning: refusing $E/probes: not a regular file" err &&
	test -p "$E/probes"
'

test_expect_success '/dev/zero linked as the probes file is refused, nothing read' '
	rm "$E/probes" && ln -s /dev/zero "$E/probes" &&
	refused_in_time "refusing $E/probes: not a regular file (a symbolic link)" \
		"$PERF" probe -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	test -L "$E/probes"
'

test_expect_success ROOT 'a device node as the probes file is refused' '
	rm "$E/probes" && mknod "$E/probes" c 1 5 &&
	refused_in_time "refusing $E/probes: not a regular file (a device or socket)" \
		"$PERF" probe -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	rm "$E/probes" && cp "$TEST_TMP/probes.good" "$E/probes"
'

test_expect_success 'a FIFO as the index or its list of changes: a search does not hang' '
	R=$HOME/.debug &&
	"$PERF" probe -n -D "%$G:e1" >out &&
	grep -q "^p:$G/e1 " out &&
	for f in .probe-index .probe-index.dirty; do
		rm -f "$R/$f" && mkfifo "$R/$f" &&
		timeout 10 "$PERF" probe -n -D "%$G:e1" >out 2>err ||
			{ echo "with a FIFO as $f" >&2; cat err >&2; exit 1; }
		grep -q "^p:$G/e1 " out &&
		grep -q "^Warning: refusing $R/$f: not a regular file (a FIFO)" err &&
		rm -f "$R/$f" || exit 1
	done
'

test_expect_success 'a new write with a FIFO as the list of changes does not hang either' '
	R=$HOME/.debug && mkfifo "$R/.probe-index.dirty" &&
	timeout 10 "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e3=handle" &&
	grep -q "^#$G:e3=handle" "$E/probes" &&
	rm -f "$R/.probe-index.dirty"
'

test_done
