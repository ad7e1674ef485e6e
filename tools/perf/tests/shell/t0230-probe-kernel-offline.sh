#!/bin/sh
test_description='kernel probes offline: -k vmlinux, a stand-in tracefs, the blacklist and the kernel cache entry'
. "$(dirname "$0")/lib.sh"

# A small "vmlinux": an ELF with _text, kernel-looking functions and a build-id.
cat >fk.c <<'SRC'
void _text(void) {}
int vfs_read(int *file, int count) { return *file + count; }
int do_sys_open(int a) { return a + 1; }
int blocked_func(int a) { return a * 2; }
void _start(void) {}
SRC

test_expect_success 'setup: a fake vmlinux and a directory standing in for tracefs' '
	${CC:-gcc} -O0 -nostdlib -static -Wl,--build-id -o vmlinux fk.c &&
	mkdir -p fs/tracing fs/kprobes &&
	: >fs/tracing/kprobe_events && : >fs/tracing/uprobe_events &&
	addr=$(nm vmlinux | awk "\$3 == \"blocked_func\" { print \$1 }") &&
	end=$(printf "0x%x" $((0x$addr + 8))) &&
	printf "0x%s-%s\tblocked_func\n" "$addr" "$end" >fs/kprobes/blacklist
'

export PERF_TRACEFS_DIR="$TEST_TMP/fs/tracing"

compare() {
	"$PERF" probe -k "$TEST_TMP/vmlinux" -D "$@" >ours || return 1
	if have_system_perf; then
		"$SYSTEM_PERF" probe -k "$TEST_TMP/vmlinux" -D "$@" >theirs 2>/dev/null &&
		test_cmp_file theirs ours
	fi
}

test_expect_success 'a kernel function is _text-relative, as perf writes it' 'compare vfs_read'
test_expect_success 'an offset into a kernel function' 'compare "do_sys_open+4 %di"'
test_expect_success 'a kernel return probe is SYMBOL+0' 'compare "vfs_read%return \$retval"'

test_expect_success 'adding writes kprobe_events of the stand-in tracefs' '
	"$PERF" probe -k "$TEST_TMP/vmlinux" -a "vfs_read count=%si:s32" 2>err &&
	grep -q "^p:probe/vfs_read _text+[0-9]* count=%si:s32$" fs/tracing/kprobe_events &&
	grep -q "(on vfs_read with count=%si:s32)" err &&
	"$PERF" probe -k "$TEST_TMP/vmlinux" -l >list &&
	grep -q "^  probe:vfs_read .*(on vfs_read" list
'

test_expect_success 'a blacklisted function is refused and nothing is written' '
	cp fs/tracing/kprobe_events before &&
	test_must_fail "$PERF" probe -k "$TEST_TMP/vmlinux" -a blocked_func 2>err &&
	test_one_line err && grep -q blacklist err &&
	test_cmp_file before fs/tracing/kprobe_events
'

test_expect_success 'kernel probes are cached under [kernel.kallsyms]/<build-id of the vmlinux>' '
	"$PERF" probe --cache -n -q -k "$TEST_TMP/vmlinux" -a "do_sys_open a=%di:s32" &&
	bid=$("$PERF" buildid-list -i vmlinux) &&
	f="$HOME/.debug/[kernel.kallsyms]/$bid/probes" &&
	grep -q "^#do_sys_open a=%di:s32$" "$f" &&
	grep -q "^p:probe/do_sys_open _text+[0-9]* a=%di:s32$" "$f" &&
	"$PERF" probe --cache --list | grep -q "^\[kernel.kallsyms\] ($bid):$"
'

test_expect_success 'the cached kernel entry is used by name' '
	"$PERF" probe -k "$TEST_TMP/vmlinux" -D "%probe:do_sys_open" >out &&
	grep -q "^p:probe/do_sys_open _text+[0-9]* a=%di:s32$" out
'

test_expect_success '-d removes kernel events from the stand-in tracefs' '
	"$PERF" probe -d "probe:*" 2>err &&
	grep -q "^Removed event: probe:vfs_read$" err &&
	! grep -q . fs/tracing/kprobe_events
'

test_done
