#!/bin/sh
test_description='kernel probes live: resolved on the host from the vmlinux, placed, fired and checked in a guest booting the same kernel'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The host's kernel has no kprobes: Debian's 6.1 kernel boots in qemu
# (tools/perf/tests/guest/) and runs guest/kernel-cases.sh, whose cases
# are reported here after the boot.  One boot for them all.
if ! test_have_prereq NOT_SANITIZE; then
	test_skip_all "the guest runs once, in make test: under SANITIZE=1 its minutes of emulation would run again"
fi
why=$(guest_why_not) || test_skip_all "$why"

RUN=$TEST_TMP/run
S_ARGS='t0231:rd=vfs_read name=file->f_path.dentry->d_name.name:string count'
S_RET='t0231:rd_ret=vfs_read%return $retval'
S_LINE='t0231:rd_line=vfs_read:24 ret'

test_expect_success 'setup: the guest kernel fetched, of the build-id of the vmlinux' '
	sh "$GUEST_SH" prepare >cache &&
	mkdir -p "$RUN/ours" &&
	head -c 100 /dev/zero >"$RUN/mdata"
'

test_expect_success 'ours resolves the specs from the vmlinux into the probe cache' '
	HOME=$RUN/ours "$PERF" probe --cache -n -q -k "$GUEST_VMLINUX" \
		-a "$S_ARGS" -a "$S_RET" -a "$S_LINE" &&
	bid=$(build_id_of "$GUEST_VMLINUX") &&
	f="$RUN/ours/.debug/[kernel.kallsyms]/$bid/probes" &&
	grep -v "^#" "$f" >lines &&
	cat lines &&
	test_line_count = 3 lines
'

test_expect_success SYSTEM_PERF_PROBE '-L shows vfs_read from the source of that version, as the system perf' '
	src=$(sh "$GUEST_SH" source fs/read_write.c) &&
	test_same_as_system_perf probe -k "$GUEST_VMLINUX" -s "$src" -L vfs_read &&
	grep -q "^ *24 .*fsnotify_access(file);$" ours
'

GUEST_MODULE=/usr/lib/debug/lib/modules/$GUEST_KVER/kernel/fs/9p/9p.ko

# A .ko is relocatable: its symbols are offsets into its sections.
test_expect_success SYSTEM_PERF_PROBE '-m a real module with its DWARF, as the system perf' '
	test_same_as_system_perf probe -m "$GUEST_MODULE" \
		-D "v9fs_vfs_lookup dentry->d_name.name:string" -D "v9fs_vfs_lookup%return \$retval" &&
	grep -q "^p:probe/v9fs_vfs_lookup 9p:v9fs_vfs_lookup+0 name=+0(+40(%si)):string$" ours
'

test_expect_success 'the guest boots and runs the kernel cases' '
	text=$(nm "$GUEST_VMLINUX" | awk "\$3 == \"_text\" { print \$1 }") &&
	func=$(nm "$GUEST_VMLINUX" | awk "\$3 == \"vfs_read\" { print \$1 }") &&
	{
		echo "S_ARGS='\''$S_ARGS'\''"
		echo "S_RET='\''$S_RET'\''"
		echo "S_LINE='\''$S_LINE'\''"
		echo "GUEST_BID=$(build_id_of "$GUEST_VMLINUX")"
		# (the low 32 bits: sh arithmetic is signed)
		echo "VFS_READ_OFF=$((0x${func#ffffffff} - 0x${text#ffffffff}))"
		echo "GUEST_MODULE=$GUEST_MODULE"
	} >"$RUN/env" &&
	cat >"$RUN/script" <<-EOF &&
	export GUEST_IN="$RUN" PERF_BIN="$PERF" SYSTEM_PERF="$SYSTEM_PERF"
	exec sh "$TEST_ROOT/tools/perf/tests/guest/kernel-cases.sh"
	EOF
	t0=$(date +%s) &&
	{ sh "$GUEST_SH" run "$RUN" >"$TEST_TMP/guest.tap"; rc=$?; } &&
	echo "the guest: $(($(date +%s) - t0)) s, its script exited with $rc" >"$TEST_TMP/guest.time" &&
	test "$rc" -ne 125 && grep -q "^1\.\.[0-9]" "$TEST_TMP/guest.tap"
'
[ -f "$TEST_TMP/guest.time" ] && say "$(cat "$TEST_TMP/guest.time")"
[ -f "$TEST_TMP/guest.tap" ] && guest_replay "$TEST_TMP/guest.tap"

test_done
