#!/bin/sh
test_description='probe cache entries the system perf and we read of each other, across paths and binaries'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

G=perftest_cache14
# -n checks names against tracefs: the groups of our binaries are ours.
test_probe_group $G
test_probe_group probe_c14app
test_probe_group probe_c14other
# each_spec CMD...: CMD SPEC for each spec of lines the system perf caches
# under keys of its own ("@cache-compat.c:6", "probe_c14app:c14_handle_L2=c14_handle:2",
# "probe_c14app:c14lnev=@cache-compat.c:6"); stops at the first failure.
each_spec() {
	printf '%s\n' "cache-compat.c:6" "c14_handle:2" "c14lnev=cache-compat.c:6" "$G:fl=c14_handle:2" "cache-compat.c:14 i" \
		"c14_loop:5 i" "c14_handle:0 seq" |
		while IFS= read -r _spec; do
			"$@" "$_spec" || { echo "each_spec: failed on '$_spec'" >&2; return 1; }
		done
}

test_expect_success 'setup: a -g build at prod/c14app, its stripped copy at bin/c14other' '
	mkdir -p "$TEST_TMP/prod" "$TEST_TMP/bin" "$HOME" &&
	build_workload cache-compat "$TEST_TMP/app.full" -g -O0 &&
	cp "$TEST_TMP/app.full" "$TEST_TMP/prod/c14app" &&
	strip -g -o "$TEST_TMP/bin/c14other" "$TEST_TMP/app.full" &&
	BID=$(build_id_of "$TEST_TMP/prod/c14app") && test -n "$BID" &&
	test "$BID" = "$(build_id_of "$TEST_TMP/bin/c14other")"
'
BID=$(build_id_of "$TEST_TMP/prod/c14app")

test_expect_success 'a copy at another path gets unnamed cached events in its own group' '
	"$PERF" probe --cache -n -q -x "$TEST_TMP/prod/c14app" -a "c14_handle r->len" -a "$G:nm=c14_handle r->len" -a "c14myev=c14_handle r->len" &&
	"$PERF" probe -x "$TEST_TMP/bin/c14other" -D "c14_handle r->len" -D "$G:nm=c14_handle r->len" -D "c14myev=c14_handle r->len" >out &&
	printf "%s\n" "p:probe_c14other/c14_handle $TEST_TMP/bin/c14other:0x" "p:$G/nm $TEST_TMP/bin/c14other:0x" \
		"p:probe_c14other/c14myev $TEST_TMP/bin/c14other:0x" >expect &&
	sed "s/:0x.*/:0x/" out >actual &&
	test_cmp_file expect actual &&
	grep -q " len=+0(" out
'

test_expect_success 'caching for the copy leaves the .build-id link with the first path, as perf does' '
	link=$HOME/.debug/.build-id/$(echo "$BID" | cut -c1-2)/$(echo "$BID" | cut -c3-) &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/c14app/$BID" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/bin/c14other" -a "c14_handle%return \$retval" &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/c14app/$BID" &&
	"$PERF" buildid-cache -a "$TEST_TMP/bin/c14other" &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/c14app/$BID" &&
	grep -q "^r:probe_c14other/c14_handle__return $TEST_TMP/bin/c14other:0x[0-9a-f]* \\\$retval$" "$(probes_file "$TEST_TMP/bin/c14other")" &&
	if test_have_prereq SYSTEM_PERF; then
		H=$TEST_TMP/home-sys && mkdir -p "$H" &&
		HOME=$H "$SYSTEM_PERF" buildid-cache -a "$TEST_TMP/prod/c14app" &&
		HOME=$H "$SYSTEM_PERF" buildid-cache -a "$TEST_TMP/bin/c14other" &&
		test "$(readlink "$H/.debug/.build-id/$(echo "$BID" | cut -c1-2)/$(echo "$BID" | cut -c3-)")" = "../..$TEST_TMP/prod/c14app/$BID"
	fi
'

test_expect_success 'our entries for line specs are written under the system perf'"'"'s keys' '
	H=$TEST_TMP/home-ours && mkdir -p "$H" &&
	cp "$TEST_TMP/app.full" "$TEST_TMP/prod/c14app" &&
	(export HOME=$H && each_spec "$PERF" probe --cache -n -q -x "$TEST_TMP/prod/c14app" -a) &&
	grep "^#" "$(probes_file --home "$H" "$TEST_TMP/prod/c14app")" >actual &&
	printf "%s\n" "#@cache-compat.c:6" "#probe_c14app:c14_handle_L2=c14_handle:2" "#probe_c14app:c14lnev=@cache-compat.c:6" \
		"#$G:fl=c14_handle:2" "#@cache-compat.c:14 i" "#probe_c14app:c14_loop_L5=c14_loop:5 i" "#c14_handle seq" >expect &&
	test_cmp_file expect actual
'

test_expect_success SYSTEM_PERF_PROBE 'the system perf writes the same probes file for the line specs' '
	H=$TEST_TMP/home-theirs && mkdir -p "$H" &&
	(export HOME=$H && each_spec "$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/prod/c14app" -a) &&
	test_cmp_file "$(probes_file --home "$TEST_TMP/home-ours" "$TEST_TMP/prod/c14app")" \
		"$(probes_file --home "$H" "$TEST_TMP/prod/c14app")"
'

test_expect_success SYSTEM_PERF_PROBE 'a stripped host places the system perf'"'"'s line entries as the system perf does' '
	strip -g "$TEST_TMP/prod/c14app" &&
	test_must_fail "$PERF" probe -x "$TEST_TMP/prod/c14app" -D "cache-compat.c:6" 2>/dev/null &&
	(export HOME=$TEST_TMP/home-theirs && each_spec test_same_as_system_perf probe -x "$TEST_TMP/prod/c14app" -D) 
'

test_expect_success SYSTEM_PERF_PROBE 'the system perf places our line entries on the stripped host' '
	(export HOME=$TEST_TMP/home-ours && each_spec test_same_as_system_perf probe -x "$TEST_TMP/prod/c14app" -D) 
'

test_expect_success 'entries of the older keys ("cache-compat.c:6", "c14_handle:2") are still found' '
	H=$TEST_TMP/home-old && mkdir -p "$H" &&
	HOME=$H "$PERF" buildid-cache -a "$TEST_TMP/prod/c14app" &&
	# The lines our perf resolved (cached lines are checked against the file).
	O=$(probes_file --home "$TEST_TMP/home-ours" "$TEST_TMP/prod/c14app") &&
	a=$(sed -n "/^#@cache-compat.c:6\$/{n;p;}" "$O") &&
	b=$(sed -n "/^#probe_c14app:c14_handle_L2=c14_handle:2\$/{n;p;}" "$O") &&
	test -n "$a" && test -n "$b" &&
	printf "%s\n" "#cache-compat.c:6" "$a" "#c14_handle:2" "$b" \
		>"$(probes_file --home "$H" "$TEST_TMP/prod/c14app")" &&
	HOME=$H "$PERF" probe -x "$TEST_TMP/prod/c14app" -D cache-compat.c:6 -D c14_handle:2 >out &&
	printf "%s\n" "$a" "$b" >expect &&
	test_cmp_file expect out
'

# SDT and cached events with no -x: every cached binary is searched.
test_expect_success SDT 'setup: an SDT program and the app in a build-id cache of their own' '
	H=$TEST_TMP/home-every && mkdir -p "$H" "$TEST_TMP/every" &&
	build_sdt_prog "$TEST_TMP/every/sdtprog" &&
	cp "$TEST_TMP/app.full" "$TEST_TMP/every/c14app" &&
	HOME=$H "$PERF" buildid-cache -a "$TEST_TMP/every/sdtprog" &&
	HOME=$H "$PERF" probe --cache -n -q -x "$TEST_TMP/every/c14app" -a "$G:nm=c14_handle r->len"
'

test_expect_success SDT 'with no -x an SDT event is placed on the cached binary that has it' '
	HOME=$TEST_TMP/home-every "$PERF" probe -D "$SDT_GROUP:foo__bar" >out &&
	grep -q "^p:$SDT_GROUP/foo__bar $TEST_TMP/every/sdtprog:0x[0-9a-f]*(0x[0-9a-f]*) arg1=" out &&
	test_line_count = 1 out &&
	HOME=$TEST_TMP/home-every "$PERF" probe -D "%$SDT_GROUP:*" >out &&
	test "$(grep -c "^p:$SDT_GROUP/" out)" -eq 5 &&
	HOME=$TEST_TMP/home-every "$PERF" probe -D "%$G:nm" >out &&
	grep -q "^p:$G/nm $TEST_TMP/every/c14app:0x[0-9a-f]* len=" out
'

test_expect_success SDT,SYSTEM_PERF_PROBE 'with no -x SDT and cached events are placed as the system perf places them' '
	export HOME=$TEST_TMP/home-every &&
	test_same_as_system_perf probe -D "$SDT_GROUP:foo__bar" &&
	test_same_as_system_perf probe -D "%$SDT_GROUP:*" &&
	test_same_as_system_perf probe -D "$SDT_GROUP:t*" &&
	test_same_as_system_perf probe -D "%$G:nm"
'

test_expect_success SDT,ROOT,TRACEFS 'with no -x a cached event is added to uprobe_events on its binary' '
	export HOME=$TEST_TMP/home-every &&
	"$PERF" probe -q -a "%$G:nm" &&
	grep -q "^p:$G/nm $TEST_TMP/every/c14app:0x[0-9a-f]* len=" "$TRACEFS/uprobe_events" &&
	! grep -q "$G/nm" "$TRACEFS/kprobe_events" &&
	"$PERF" probe -q -d "$G:nm" &&
	! grep -q "$G/nm" "$TRACEFS/uprobe_events"
'

test_expect_success SDT 'with no -x an unknown SDT event is refused and nothing is written' '
	export HOME=$TEST_TMP/home-every &&
	test_refuses "$PERF" probe -D "$SDT_GROUP:nosuch" &&
	grep -q "is not a cached or SDT event" err
'

test_expect_success SDT,SYSTEM_PERF 'the search sees what was cached after it, by either perf' '
	export HOME=$TEST_TMP/home-every &&
	test -e "$HOME/.debug/.probe-index" &&
	sed "s/r->len + seq/r->len - seq/" "$WORKLOADS/cache-compat.c" >app2.c &&
	build_prog "$TEST_TMP/every/c14app2" app2.c -g -O0 &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/every/c14app2" -a "$G:late=c14_handle" &&
	"$PERF" probe -D "%$G:late" >out &&
	grep -q "^p:$G/late $TEST_TMP/every/c14app2:0x" out &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/every/c14app" -a "$G:inplace=c14_handle" &&
	"$PERF" probe -D "%$G:inplace" >out &&
	grep -q "^p:$G/inplace $TEST_TMP/every/c14app:0x" out
'

test_expect_success SDT,SYSTEM_PERF 'the system perf reads the build-id cache with our index in it' '
	export HOME=$TEST_TMP/home-every &&
	test -e "$HOME/.debug/.probe-index" &&
	for args in "buildid-cache -l" "probe --cache --list" "list sdt"; do
		# shellcheck disable=SC2086 # split the command line
		"$SYSTEM_PERF" $args >with 2>&1 &&
		mv "$HOME/.debug/.probe-index" index.saved &&
		"$SYSTEM_PERF" $args >without 2>&1 &&
		mv index.saved "$HOME/.debug/.probe-index" &&
		test_cmp_file without with || return 1
	done
'

# The index is brought up to date, not rebuilt: after a change, a search
# (LeakSanitizer does not run under strace: not with SANITIZE=1)
# reads the probes files of what changed only (strace counts the opens: the
# new build's, once for the index and once for its events).
test_lazy_prereq STRACE 'command -v strace'
probes_opened() {
	strace -f -e trace=openat -o trace.out "$@" >out 2>err
	_rc=$?
	# By path or relative to the entry's directory fd.
	grep -cE "(/|\")probes\", O_RDONLY" trace.out
	return "$_rc"
}

test_expect_success SDT,STRACE,NOT_SANITIZE 'a search after a build is added reads that build only' '
	export HOME=$TEST_TMP/home-every &&
	"$PERF" probe -D "%$G:nm" >/dev/null &&
	test "$(probes_opened "$PERF" probe -D "%$G:nm")" = 1 &&
	build_prog "$TEST_TMP/every/more" app2.c -g -O0 -Wl,--build-id=0x00112233445566778899aabbccddeeff00112233 &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/every/more" -a "$G:more=c14_handle" &&
	test -s "$HOME/.debug/.probe-index.dirty" &&
	n=$(probes_opened "$PERF" probe -D "%$G:more") &&
	grep -q "^p:$G/more $TEST_TMP/every/more:0x" out &&
	test "$n" = 2 &&
	test ! -e "$HOME/.debug/.probe-index.dirty" &&
	test "$(probes_opened "$PERF" probe -D "%$G:nm")" = 1 &&
	grep -q "^p:$G/nm $TEST_TMP/every/c14app:0x" out &&
	# a build cached with no probes yet, then given one
	build_prog "$TEST_TMP/every/bare" app2.c -g -O0 -Wl,--build-id=0x01112233445566778899aabbccddeeff00112233 &&
	"$PERF" buildid-cache -a "$TEST_TMP/every/bare" &&
	"$PERF" probe -D "%$G:nm" >/dev/null &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/every/bare" -a "$G:bare=c14_handle" &&
	n=$(probes_opened "$PERF" probe -D "%$G:bare") &&
	grep -q "^p:$G/bare $TEST_TMP/every/bare:0x" out &&
	test "$n" = 2
'

test_expect_success SDT,STRACE,NOT_SANITIZE,SYSTEM_PERF 'what the system perf adds or removes is seen, reading only that' '
	export HOME=$TEST_TMP/home-every &&
	build_prog "$TEST_TMP/every/sys" app2.c -g -O0 -Wl,--build-id=0xfe112233445566778899aabbccddeeff00112233 &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/every/sys" -a "$G:sys=c14_handle" &&
	n=$(probes_opened "$PERF" probe -D "%$G:sys") &&
	grep -q "^p:$G/sys $TEST_TMP/every/sys:0x" out &&
	test "$n" = 2 &&
	"$SYSTEM_PERF" buildid-cache -r "$TEST_TMP/every/sys" &&
	test_refuses "$PERF" probe -D "%$G:sys" &&
	"$PERF" probe -D "%$G:more" >out &&
	grep -q "^p:$G/more $TEST_TMP/every/more:0x" out
'

test_expect_success SDT 'a truncated, corrupt or older index is made again, the search unharmed' '
	export HOME=$TEST_TMP/home-every &&
	idx=$HOME/.debug/.probe-index &&
	"$PERF" probe -D "%$G:nm" >/dev/null &&
	cp "$idx" good &&
	mkdir -p "$HOME/.debug/.build-id/00" &&
	test_when_finished "rm -f \"$HOME/.debug/.build-id/00/ffffff\"" &&
	for v in trunc head offsets entries v2 empty; do
		case $v in
		trunc) head -c 5000 good >"$idx" ;;
		head) { printf "perf-probe-index 3 zz"; tail -c +22 good; } >"$idx" ;;
		offsets) { head -c 4200 good; printf "ffffffffffffffff"; tail -c +4217 good; } >"$idx" ;;
		entries) { head -c $(($(wc -c <good) - 60)) good; printf "\t\t\n"; } >"$idx" ;;
		v2) sed "1s/index 3/index 2/" good >"$idx" ;;
		empty) : >"$idx" ;;
		esac
		# with a change pending, so that the update reads the bad index
		ln -sfn "../../gone/$v" "$HOME/.debug/.build-id/00/ffffff" &&
		"$PERF" probe -D "%$G:nm" >out 2>err &&
		grep -q "^p:$G/nm $TEST_TMP/every/c14app:0x" out &&
		test_line_count = 0 err &&
		head -c 19 "$idx" | grep -q "^perf-probe-index 3" || { echo "variant $v" >&2; return 1; }
	done
'

# buildid-cache -a keeps the distribution's separate debuginfo as `debug`.
test_expect_success ROOT 'setup: a stripped build whose debuginfo is in /usr/lib/debug/.build-id' '
	bid=$(od -An -N20 -tx1 /dev/urandom | tr -d " \n") &&
	build_workload cache-compat "$TEST_TMP/dbg.full" -g -O0 "-Wl,--build-id=0x$bid" &&
	objcopy --only-keep-debug "$TEST_TMP/dbg.full" "$TEST_TMP/c14dbg.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$TEST_TMP/c14dbg.debug" "$TEST_TMP/dbg.full" "$TEST_TMP/c14dbg" &&
	test "$(build_id_of "$TEST_TMP/c14dbg")" = "$bid" &&
	DEBUGFILE=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug &&
	echo "$DEBUGFILE" >debugfile &&
	{ test -d "$(dirname "$DEBUGFILE")" || { mkdir -p "$(dirname "$DEBUGFILE")" && : >debugdir-made; }; } &&
	cp "$TEST_TMP/c14dbg.debug" "$DEBUGFILE"
'
DEBUGFILE=$(cat "$TEST_TMP/debugfile" 2>/dev/null)
# Ours only: a random build-id no one else has.
if [ -n "$DEBUGFILE" ]; then
	test_cleanup "rm -f '$DEBUGFILE'"
	[ -e "$TEST_TMP/debugdir-made" ] && test_cleanup "rmdir '$(dirname "$DEBUGFILE")'"
fi

test_expect_success ROOT 'buildid-cache -a keeps the debuginfo as the entry'"'"'s debug file' '
	H=$TEST_TMP/home-dbg && mkdir -p "$H" &&
	HOME=$H "$PERF" buildid-cache -a "$TEST_TMP/c14dbg" &&
	d=$(dirname "$(probes_file --home "$H" "$TEST_TMP/c14dbg")") &&
	cmp "$d/debug" "$TEST_TMP/c14dbg.debug" &&
	cmp "$d/elf" "$TEST_TMP/c14dbg" &&
	(cd "$d" && ls) >actual &&
	printf "%s\n" debug elf probes >expect &&
	test_cmp_file expect actual
'

test_expect_success ROOT,SYSTEM_PERF 'the entry is laid out as the system perf lays it out' '
	H=$TEST_TMP/home-dbg-sys && mkdir -p "$H" &&
	HOME=$H "$SYSTEM_PERF" buildid-cache -a "$TEST_TMP/c14dbg" &&
	(cd "$H/.debug" && find . -printf "%y %p %s\n" | sort) >theirs &&
	(cd "$TEST_TMP/home-dbg/.debug" && find . -printf "%y %p %s\n" | sort) >ours &&
	test_cmp_file theirs ours
'

test_expect_success ROOT 'the kept debuginfo serves DWARF specs once the distribution'"'"'s is gone' '
	rm -f "$DEBUGFILE" &&
	HOME=$TEST_TMP/home-dbg "$PERF" probe -x "$TEST_TMP/c14dbg" -D "c14_handle r->len" >out 2>/dev/null &&
	grep -q "^p:probe_c14dbg/c14_handle $TEST_TMP/c14dbg:0x[0-9a-f]* len=+0(" out
'

# perf list: the tracepoints of tracefs, probe events among them.
test_expect_success SYSTEM_PERF,ROOT,TRACEFS 'perf list tracepoint lists the kernel'"'"'s tracepoints as perf does' '
	# Probe events of other scripts come and go: only the kernel'"'"'s are compared.
	"$PERF" list tracepoint | grep -v -E "^  (probe|perftest|sdt_)" >ours &&
	"$SYSTEM_PERF" list tracepoint | grep -v -E "^  (probe|perftest|sdt_)" >theirs &&
	test_cmp_file theirs ours &&
	grep -q "^  sched:sched_switch  *\[Tracepoint event\]$" ours &&
	test_same_as_system_perf list "sched:sched_process_*"
'

test_expect_success SYSTEM_PERF,ROOT,TRACEFS 'perf list shows a probe event among the tracepoints, as perf does' '
	"$PERF" probe -q -x "$TEST_TMP/app.full" -a "$G:c14list=c14_handle" &&
	test_same_as_system_perf list "$G:*" &&
	grep -q "^  $G:c14list  *\[Tracepoint event\]$" ours &&
	"$PERF" list >all &&
	grep -q "^  $G:c14list  *\[Tracepoint event\]$" all &&
	grep -q "^  sched:sched_switch  *\[Tracepoint event\]$" all &&
	"$PERF" probe -q -d "$G:c14list"
'

test_done
