#!/bin/sh
test_description='kernel probes offline: -k vmlinux, a stand-in tracefs, the blacklist and the kernel cache entry'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# A small "vmlinux" (workloads/fake-vmlinux.c): an ELF with _text,
# kernel-looking functions and a build-id.
test_expect_success 'setup: a fake vmlinux and a directory standing in for tracefs' '
	build_workload fake-vmlinux vmlinux -O0 -nostdlib -static -Wl,--build-id &&
	mkdir -p fs/tracing fs/kprobes &&
	: >fs/tracing/kprobe_events && : >fs/tracing/uprobe_events &&
	addr=$(nm vmlinux | awk "\$3 == \"blocked_func\" { print \$1 }") &&
	end=$(printf "0x%x" $((0x$addr + 8))) &&
	printf "0x%s-%s\tblocked_func\n" "$addr" "$end" >fs/kprobes/blacklist
'

export PERF_TRACEFS_DIR="$TEST_TMP/fs/tracing"

compare() {
	if test_have_prereq SYSTEM_PERF_PROBE; then
		test_same_as_system_perf probe -k "$TEST_TMP/vmlinux" -D "$@"
	else
		"$PERF" probe -k "$TEST_TMP/vmlinux" -D "$@" >ours
	fi
}

test_expect_success 'a kernel function is _text-relative, as perf writes it' 'compare vfs_read'
test_expect_success 'an offset into a kernel function' 'compare "do_sys_open+4 %di"'
test_expect_success 'a kernel return probe is SYMBOL+0' 'compare "vfs_read%return \$retval"'

# A kernel with kprobes says in its README whether a kretprobe takes an
# offset ("place (kretprobe): ..."): perf then writes it _text-relative
# too (the host's kernel has none, the guest's of t0231 has it).
test_expect_success 'a return probe is _text-relative where the README takes a kretprobe at an offset' '
	printf "place (kretprobe): [<module>:]<symbol>[+<offset>]%%return|<memaddr>\n" \
		>fs/tracing/README &&
	test_when_finished "rm -f fs/tracing/README" &&
	"$PERF" probe -k "$TEST_TMP/vmlinux" -D vfs_read -D "vfs_read%return \$retval" >out &&
	off=$(sed -n "s/^p:probe\/vfs_read _text+\([0-9]*\)$/\1/p" out) &&
	test -n "$off" &&
	grep -qx "r:probe/vfs_read__return _text+$off \$retval" out
'

test_expect_success 'a cached _text-relative return probe is checked and placed as it is' '
	printf "place (kretprobe): [<module>:]<symbol>[+<offset>]%%return|<memaddr>\n" \
		>fs/tracing/README &&
	test_when_finished "rm -f fs/tracing/README" &&
	HOME=$TEST_TMP/kret "$PERF" probe --cache -n -q -k "$TEST_TMP/vmlinux" \
		-a "vfs_read%return \$retval" &&
	rm fs/tracing/README &&
	HOME=$TEST_TMP/kret "$PERF" probe -k "$TEST_TMP/vmlinux" -D "vfs_read%return \$retval" >out &&
	grep -q "^r:probe/vfs_read__return _text+[0-9]* \$retval$" out
'

test_expect_success 'adding writes kprobe_events of the stand-in tracefs' '
	"$PERF" probe -k "$TEST_TMP/vmlinux" -a "vfs_read count=%si:s32" 2>err &&
	grep -q "^p:probe/vfs_read _text+[0-9]* count=%si:s32$" fs/tracing/kprobe_events &&
	grep -q "(on vfs_read with count=%si:s32)" err &&
	"$PERF" probe -k "$TEST_TMP/vmlinux" -l >list &&
	grep -q "^  probe:vfs_read .*(on vfs_read" list
'

test_expect_success 'a blacklisted function is refused and nothing is written' '
	test_refuses --tracefs "$PERF" probe -k "$TEST_TMP/vmlinux" -a blocked_func &&
	grep -q blacklist err
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
