#!/bin/sh
test_description='perf probe --symfs (binaries and debuginfo under a sysroot) and --bootconfig (-D as a boot configuration)'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The sysroots: the program runs at $TEST_TMP/bin/app (stripped, as
# installed on the machine); its symbols or DWARF are in an image of that
# machine's root.  perf 6.1 reads the symbols of -x PATH from SYSROOT/PATH,
# its DWARF from SYSROOT/usr/lib/debug/PATH.debug, .../usr/lib/debug/PATH,
# SYSROOT/DIR/.debug/BASE or SYSROOT/usr/lib/debug/.build-id/xx/yyyy.debug,
# and the probes name PATH.  Build-ids of this script's own, so that no
# debug file another test puts in /usr/lib/debug/.build-id is found.
BID_TAIL=5a5f3f1e0c2b7d9e4a6c8b0d1f2e3a4b5c6d
test_expect_success 'setup: a stripped program and sysroots with its symbols or DWARF' '
	build_workload req-len full -g -O0 -Wl,--build-id=0x0260$BID_TAIL &&
	mkdir -p bin && strip -o bin/app full &&
	app="$TEST_TMP/bin/app" &&
	bid=$("$PERF" buildid-list -i full) &&
	test -n "$bid" &&
	mkdir -p "bid/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)" &&
	cp full "bid/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug" &&
	mkdir -p "dbg/usr/lib/debug$TEST_TMP/bin" && cp full "dbg/usr/lib/debug$app.debug" &&
	mkdir -p "sym$TEST_TMP/bin" && cp full "sym$app" &&
	mkdir -p empty
'

app="$TEST_TMP/bin/app"

test_expect_success 'without --symfs the stripped program has no DWARF' '
	test_must_fail "$PERF" probe -x "$app" -D "handle r->len seq" >out 2>err &&
	test ! -s out
'

test_expect_success 'DWARF from SYSROOT/usr/lib/debug/.build-id: the probe names the path it runs at' '
	"$PERF" probe --symfs "$TEST_TMP/bid" -x "$app" -D "handle r->len seq" >out &&
	grep -q "^p:probe_app/handle $app:0x[0-9a-f]* len=+0(-[0-9]*(%bp)):s32 seq=-[0-9]*(%bp):s32$" out
'

for spec in 'handle r->len seq' main 'handle+4'; do
	test_expect_success SYSTEM_PERF_PROBE "--symfs, a .build-id debug file: -D '$spec' as the system perf" '
		test_same_as_system_perf probe --symfs "$TEST_TMP/bid" -x "$app" -D "$spec"
	'
	test_expect_success SYSTEM_PERF_PROBE "--symfs, SYSROOT/usr/lib/debug/PATH.debug: -D '$spec' as the system perf" '
		test_same_as_system_perf probe --symfs "$TEST_TMP/dbg" -x "$app" -D "$spec"
	'
done

for spec in main 'handle+4' 'handle%return' 0x1134; do
	test_expect_success SYSTEM_PERF_PROBE "--symfs, symbols of SYSROOT/PATH: -D '$spec' as the system perf" '
		test_same_as_system_perf probe --symfs "$TEST_TMP/sym" -x "$app" -D "$spec"
	'
done

test_expect_success 'symbols read under --symfs, the probe on the path it runs at' '
	"$PERF" probe --symfs "$TEST_TMP/sym" -x "$app" -D "handle%return" >out &&
	grep -q "^r:probe_app/handle__return $app:0x[0-9a-f]*$" out
'

test_expect_success SYSTEM_PERF_PROBE '-V under --symfs as the system perf' '
	test_same_as_system_perf probe --symfs "$TEST_TMP/bid" -x "$app" -V handle
'

# In a fresh HOME: the system perf keeps what it found in the build-id cache.
test_expect_success SYSTEM_PERF_PROBE 'an empty sysroot has neither: refused as by the system perf' '
	mkdir -p fresh && (
		HOME=$TEST_TMP/fresh && export HOME &&
		test_same_as_system_perf --status probe --symfs "$TEST_TMP/empty" -x "$app" -D main
	)
'

# Kernel: the -k vmlinux (here with its symbols but no DWARF) is read where
# it is; its DWARF may be in the sysroot.
test_expect_success 'setup: a fake vmlinux without DWARF, its DWARF in a sysroot, a stand-in tracefs' '
	build_workload fake-vmlinux vmlinux.full -g -O0 -nostdlib -static -Wl,--build-id=0x0261$BID_TAIL &&
	strip --strip-debug -o vmlinux vmlinux.full &&
	kbid=$("$PERF" buildid-list -i vmlinux.full) &&
	mkdir -p "kroot/usr/lib/debug/.build-id/$(echo "$kbid" | cut -c1-2)" &&
	cp vmlinux.full "kroot/usr/lib/debug/.build-id/$(echo "$kbid" | cut -c1-2)/$(echo "$kbid" | cut -c3-).debug" &&
	mkdir -p fs/tracing && : >fs/tracing/kprobe_events && : >fs/tracing/uprobe_events
'

export PERF_TRACEFS_DIR="$TEST_TMP/fs/tracing"

test_expect_success '-k: the DWARF of the vmlinux from the sysroot' '
	test_must_fail "$PERF" probe -k "$TEST_TMP/vmlinux" -D "vfs_read count" 2>/dev/null &&
	"$PERF" probe --symfs "$TEST_TMP/kroot" -k "$TEST_TMP/vmlinux" -D "vfs_read count" >out &&
	grep -q "^p:probe/vfs_read vfs_read+[0-9]* count=-[0-9]*(%bp):s32$" out
'

test_expect_success '-k with --symfs finds what the vmlinux with DWARF gives' '
	"$PERF" probe -k "$TEST_TMP/vmlinux.full" -D "vfs_read file count" >exp &&
	"$PERF" probe --symfs "$TEST_TMP/kroot" -k "$TEST_TMP/vmlinux" -D "vfs_read file count" >out &&
	cmp exp out
'

test_expect_success SYSTEM_PERF_PROBE '-k with --symfs as the system perf' '
	test_same_as_system_perf probe --symfs "$TEST_TMP/kroot" -k "$TEST_TMP/vmlinux" -D "do_sys_open%return \$retval"
'

# --bootconfig: "ftrace.event.kprobes.EVENT.probe = 'POINT ARGS'".
test_expect_success '--bootconfig prints kprobes in bootconfig syntax' '
	"$PERF" probe -k "$TEST_TMP/vmlinux.full" --bootconfig -D "vfs_read count" -D "do_sys_open%return" >out &&
	grep -q "^ftrace\.event\.kprobes\.vfs_read\.probe = '\''vfs_read+[0-9]* count=-[0-9]*(%bp):s32'\''$" out &&
	grep -q "^ftrace\.event\.kprobes\.do_sys_open__return\.probe = '\''do_sys_open+0'\''$" out &&
	test_line_count = 2 out
'

test_expect_success '--bootconfig: places of one event on one line, the group ignored' '
	"$PERF" probe -k "$TEST_TMP/vmlinux.full" --bootconfig -D "g:e=vfs_read" -D "e=do_sys_open" >out 2>err &&
	grep -q "^ftrace\.event\.kprobes\.e\.probe = '\''vfs_read+0'\'', '\''do_sys_open+0'\''$" out &&
	test_line_count = 1 out &&
	grep -q "^WARN: Group name g is ignored$" err
'

for specs in '-D vfs_read' '-D do_sys_open+4' "-D vfs_read%return -D do_sys_open" \
	"-D g:e=vfs_read -D e=do_sys_open -D vfs_read"; do
	test_expect_success SYSTEM_PERF_PROBE "--bootconfig $specs (fake vmlinux) as the system perf" '
		# shellcheck disable=SC2086
		test_same_as_system_perf --stderr probe -k "$TEST_TMP/vmlinux.full" --bootconfig $specs
	'
done

for spec in 'vfs_read file count' 'vfs_write%return $retval' 'do_sys_open filename:string'; do
	test_expect_success SYSTEM_PERF_PROBE,VMLINUX_DWARF "--bootconfig -D '$spec' on the vmlinux as the system perf" '
		test_same_as_system_perf probe -k "$VMLINUX" --bootconfig -D "$spec"
	'
done

test_expect_success SYSTEM_PERF_PROBE,VMLINUX_DWARF '--bootconfig with two specs on the vmlinux as the system perf' '
	test_same_as_system_perf probe -k "$VMLINUX" --bootconfig -D "vfs_read file" -D "vfs_write count"
'

test_expect_success '--bootconfig refuses uprobes, exit 234' '
	{
		"$PERF" probe --bootconfig -x "$TEST_TMP/full" -D handle >out 2>err
		test $? -eq 234
	} &&
	test ! -s out &&
	grep -q "^  Error: --bootconfig doesn'\''t support uprobes\.$" err
'

test_expect_success SYSTEM_PERF_PROBE '--bootconfig -x: the same refusal as the system perf' '
	test_same_as_system_perf --stderr --status probe --bootconfig -x "$TEST_TMP/full" -D handle
'

test_done
