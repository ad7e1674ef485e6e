#!/bin/sh
test_description='start-up loads only what every command needs: libbpf, capstone and libtraceevent are loaded by the commands that read BTF, decode code or print trace events, when they do'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# libs_of CMD...: the shared objects the dynamic loader looked for while
# running our perf with CMD (LD_DEBUG=libs), one per line.
libs_of() {
	LD_DEBUG=libs "$PERF" "$@" 2>&1 >/dev/null |
		sed -n 's/.*find library=\([^ ;]*\).*/\1/p' | sort -u
}

test_expect_success 'setup: a program with a cached probe' '
	build_workload req-len "$TEST_TMP/app" -g -O0 &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a main
'

test_expect_success 'a cached add loads none of libbpf, capstone, libtraceevent' '
	libs_of probe --cache -n -q -x "$TEST_TMP/app" -a main >libs &&
	grep -q "^libc\." libs &&
	! grep -q "libbpf\|libcapstone\|libtraceevent" libs
'

test_expect_success 'a cached add that changes nothing does not write the probes file again' '
	f=$(probes_file "$TEST_TMP/app") &&
	cp "$f" before &&
	ino=$(stat -c %i "$f") &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a main &&
	test "$(stat -c %i "$f")" = "$ino" &&
	test_cmp_file before "$f" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "main%return" &&
	test "$(stat -c %i "$f")" != "$ino" &&
	grep -q "^#main%return$" "$f"
'

test_expect_success 'buildid-cache --add, buildid-list and --cache --list load none of them' '
	libs_of buildid-cache -a "$TEST_TMP/app" >libs &&
	libs_of buildid-list -i "$TEST_TMP/app" >>libs &&
	libs_of probe --cache --list >>libs &&
	! grep -q "libbpf\|libcapstone\|libtraceevent" libs
'

test_expect_success READELF 'the binary is not linked against them' '
	readelf -d "$PERF" >dyn &&
	grep -q "NEEDED.*libc\." dyn &&
	! grep -q "NEEDED.*\(libbpf\|libcapstone\|libtraceevent\)" dyn
'

test_expect_success 'BTF of the running kernel loads libbpf when it is read' '
	test -r /sys/kernel/btf/vmlinux || { echo "no /sys/kernel/btf/vmlinux: skipped"; exit 0; }
	libs_of probe -D "vfs_read file count" >libs &&
	grep -q "libbpf" libs
'

test_expect_success ROOT,TRACEFS 'perf trace loads libtraceevent when it prints events' '
	libs_of trace -e "sched:sched_process_exec" -- true >libs &&
	grep -q "libtraceevent" libs
'

test_done
