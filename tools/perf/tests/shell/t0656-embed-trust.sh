#!/bin/sh
test_description='--cache --embed FILE: root rewrites only its own or your files, in a directory nobody else writes, never setuid'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The attacker (uid 65534) plants files where root will name them: their
# own setuid copy of a cached binary, one root owns in a directory open to
# all, links, a FIFO.  Root runs perf probe --cache --embed on each.
G=fs_embed
test_probe_group $G

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# what FILE is: owner, mode, type and content
state() {
	stat -c '%u %a %F' "$1" && cksum <"$1"
}

# refused_at_once FILE: --embed FILE is refused in one line within 5 s
# (not by the timeout), nothing else changed.
refused_at_once() {
	_start=$(date +%s)
	test_refuses timeout 10 "$PERF" probe --cache --embed "$1" &&
	test $(($(date +%s) - _start)) -lt 5
}

# same_sections A B: every section of A but .perf.probes and .shstrtab has
# the same header line (offset, size, flags) and the same bytes in B, and
# so have the program headers.
same_sections() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		grep -v -e '^\.perf\.probes ' -e '^\.shstrtab ' -e '^NULL ' >secs.a &&
	readelf -SW "$2" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		grep -v -e '^\.perf\.probes ' -e '^\.shstrtab ' -e '^NULL ' >secs.b &&
	test_cmp_file secs.a secs.b && test "$(wc -l <secs.a)" -gt 20 &&
	readelf -lW "$1" | grep -v "^Elf file type" >ph.a &&
	readelf -lW "$2" | grep -v "^Elf file type" >ph.b && test_cmp_file ph.a ph.b &&
	while read -r name type addr off size rest; do
		[ "$type" = NOBITS ] && continue
		tail -c +$((0x$off + 1)) "$1" | head -c $((0x$size)) >bytes.a
		tail -c +$((0x$off + 1)) "$2" | head -c $((0x$size)) >bytes.b
		if ! cmp bytes.a bytes.b; then
			echo "section $name differs" >&2
			return 1
		fi
	done <secs.a
}

test_expect_success ROOT 'setup: a program with debuginfo and its cached spec' '
	chmod 755 "$TEST_TMP" &&
	build_workload handle-int "$TEST_TMP/app" -O1 -g &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	mkdir -m 755 "$TEST_TMP/d"
'

test_expect_success ROOT,SETPRIV 'the attacker'"'"'s own setuid copy is refused, and stays theirs and as it was' '
	chmod 1777 "$TEST_TMP/d" &&
	as_nobody sh -c "cp \"$TEST_TMP/app\" \"$TEST_TMP/d/theirs\" && chmod 4755 \"$TEST_TMP/d/theirs\"" &&
	chmod 755 "$TEST_TMP/d" && state "$TEST_TMP/d/theirs" >before &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/d/theirs" &&
	grep -q "refusing $TEST_TMP/d/theirs: owned by uid 65534" err &&
	state "$TEST_TMP/d/theirs" >after && test_cmp_file before after &&
	grep -q "^65534 4755 regular file" after &&
	! ls "$TEST_TMP"/d/*.tmp.* 2>/dev/null
'

test_expect_success ROOT,SETPRIV 'a file in the attacker'"'"'s directory is refused, though root owns it' '
	mkdir -m 755 "$TEST_TMP/evil" && chown 65534:65534 "$TEST_TMP/evil" &&
	cp "$TEST_TMP/app" "$TEST_TMP/evil/app" && state "$TEST_TMP/evil/app" >before &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/evil/app" &&
	grep -q "refusing $TEST_TMP/evil: owned by uid 65534" err &&
	state "$TEST_TMP/evil/app" >after && test_cmp_file before after
'

test_expect_success ROOT 'a file in a directory others can write (sticky or not) is refused' '
	mkdir -m 1777 "$TEST_TMP/open" && cp "$TEST_TMP/app" "$TEST_TMP/open/app" &&
	state "$TEST_TMP/open/app" >before &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/open/app" &&
	grep -q "refusing $TEST_TMP/open: writable by others" err &&
	chmod 775 "$TEST_TMP/open" &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/open/app" &&
	grep -q "refusing $TEST_TMP/open: writable by its group" err &&
	state "$TEST_TMP/open/app" >after && test_cmp_file before after
'

test_expect_success ROOT,SETPRIV 'a link as FILE, or another user'"'"'s link on the way to it, is not written through' '
	cp "$TEST_TMP/app" "$TEST_TMP/d/mine" && state "$TEST_TMP/d/mine" >before &&
	chmod 1777 "$TEST_TMP/d" && as_nobody ln -s mine "$TEST_TMP/d/link" && chmod 755 "$TEST_TMP/d" &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/d/link" &&
	grep -q "not embedding into $TEST_TMP/d/link: a symbolic link, not a regular file" err &&
	test -L "$TEST_TMP/d/link" &&
	as_nobody ln -s "$TEST_TMP/d" "$TEST_TMP/evil/up" &&
	test_refuses "$PERF" probe --cache --embed "$TEST_TMP/evil/up/mine" &&
	grep -q "refusing $TEST_TMP/evil/up: owned by uid 65534" err &&
	state "$TEST_TMP/d/mine" >after && test_cmp_file before after
'

test_expect_success ROOT,SETPRIV 'a FIFO or a device as FILE is refused at once, never opened' '
	chmod 1777 "$TEST_TMP/d" && as_nobody mkfifo "$TEST_TMP/d/fifo" && chmod 755 "$TEST_TMP/d" &&
	refused_at_once "$TEST_TMP/d/fifo" && grep -q "a FIFO, not a regular file" err &&
	test -p "$TEST_TMP/d/fifo" &&
	rm "$TEST_TMP/d/fifo" && mkfifo "$TEST_TMP/d/fifo" &&
	refused_at_once "$TEST_TMP/d/fifo" && grep -q "a FIFO, not a regular file" err &&
	mknod "$TEST_TMP/d/dev" c 1 3 &&
	refused_at_once "$TEST_TMP/d/dev" && grep -q "a device or socket, not a regular file" err &&
	test -c "$TEST_TMP/d/dev"
'

test_expect_success ROOT 'root'"'"'s own setuid and setgid file is embedded without those bits, all else kept' '
	for m in 4755 2755 6750; do
		cp "$TEST_TMP/app" "$TEST_TMP/d/suid" && chmod $m "$TEST_TMP/d/suid" &&
		chgrp 65534 "$TEST_TMP/d/suid" && rm -f orig && cp -p "$TEST_TMP/d/suid" orig &&
		"$PERF" probe --cache -q --embed "$TEST_TMP/d/suid" &&
		readelf -SW "$TEST_TMP/d/suid" | grep -q " \.perf\.probes *PROGBITS" &&
		stat -c "%u %g %a" "$TEST_TMP/d/suid" >mode &&
		echo "0 65534 $(printf %o $((0$m & 0777)))" >want && test_cmp_file want mode &&
		same_sections orig "$TEST_TMP/d/suid" || exit 1
	done &&
	! ls "$TEST_TMP"/d/*.tmp.* 2>/dev/null
'

test_expect_success ROOT 'your own file in your own directory: embedded, other sections byte for byte, runs the same' '
	cp "$TEST_TMP/app" "$TEST_TMP/d/plain" && rm -f orig && cp "$TEST_TMP/app" orig &&
	"$PERF" probe --cache --embed "$TEST_TMP/d/plain" 2>err &&
	grep -q "^Embedded 1 cached probe entries of build-id $(build_id_of "$TEST_TMP/app") into $TEST_TMP/d/plain$" err &&
	same_sections orig "$TEST_TMP/d/plain" &&
	test "$(stat -c %a "$TEST_TMP/d/plain")" = "$(stat -c %a orig)" &&
	"$TEST_TMP/app" 2 >expect && "$TEST_TMP/d/plain" 2 >actual && test_cmp_file expect actual
'

test_expect_success ROOT 'a relative FILE in the current directory is embedded' '
	mkdir -m 755 rel && cp "$TEST_TMP/app" rel/app && cd rel &&
	"$PERF" probe --cache -q --embed app &&
	readelf -SW app | grep -q " \.perf\.probes *PROGBITS"
'

test_done
