#!/bin/sh
# The kernel cases of t0231, run inside the guest (guest.sh) as root on
# Debian's kernel, with kprobes.  What the host resolved from the vmlinux
# is in GUEST_IN (the run directory): ours/.debug, the probe cache of the
# specs made by ours, and env (the specs, the expected build-id and
# offsets).  Each probe is
# checked against what dd makes known: three reads of 4096 bytes of kdata.
test_description='kernel probes placed, fired and checked in the guest'
# shellcheck source=../shell/lib.sh
. "$(dirname "$0")/../shell/lib.sh"
# shellcheck disable=SC1091 # written by t0231
. "${GUEST_IN:?}/env"

test_probe_group t0231
test_lazy_prereq THEIRS_CACHE '[ -f "$TEST_TMP/theirs.home/.debug/[kernel.kallsyms]/$GUEST_BID/probes" ]'
test_trace_instance t0231

# As on a production server, no vmlinux, no kernel debuginfo and no BTF:
# /usr/lib/debug and /sys/kernel/btf emptied (the guest is ours alone).
hide() {
	mountpoint -q "$1" || mount -t tmpfs none "$1"
}

unhide() {
	! mountpoint -q "$1" || umount "$1"
}

# fire: the events of t0231 enabled in its instance while dd reads kdata;
# the trace in ./trace, dd's lines of it in ./dd.trace.
fire() {
	echo >"$TI/trace" &&
	echo 1 >"$TI/events/t0231/enable" &&
	dd if="$TEST_TMP/kdata" of=/dev/null bs=4096 count=3 2>/dev/null &&
	echo 0 >"$TI/events/t0231/enable" &&
	cat "$TI/trace" >trace &&
	grep "^ *dd-[0-9]" trace >dd.trace
}

# t0231 events in kprobe_events (the kernel's spelling: r10:, arg1=).
events() {
	grep "^[pr][0-9]*:t0231/" "$TRACEFS/kprobe_events" | sort
}

removed() {
	"$PERF" probe -q -d "t0231:*" 2>/dev/null
	! grep -q "^[pr][0-9]*:t0231/" "$TRACEFS/kprobe_events"
}

test_expect_success 'setup: 12 KiB to read, the caches made on the host' '
	head -c 12288 /dev/zero >"$TEST_TMP/kdata" &&
	mkdir -p ours.home &&
	cp -a "$GUEST_IN/ours/.debug" "$HOME/.debug" &&
	cp -a "$GUEST_IN/ours/.debug" ours.home/.debug
'

test_expect_success 'the guest runs the kernel of the vmlinux the host resolved from' '
	"$PERF" buildid-list -k >bid &&
	echo "$GUEST_BID" >expect &&
	test_cmp_file expect bid
'

# perf 6.1 makes a kernel cache only from the running kernel's vmlinux
# ("Mismatching build id" on the host): here, where it finds it by itself.
test_expect_success SYSTEM_PERF 'setup: the system perf caches the specs from the vmlinux' '
	mkdir theirs.home &&
	HOME=$TEST_TMP/theirs.home "$SYSTEM_PERF" probe --cache -n -q \
		-a "$S_ARGS" -a "$S_RET" -a "$S_LINE" &&
	grep -v "^#" "theirs.home/.debug/[kernel.kallsyms]/$GUEST_BID/probes" >lines &&
	test_line_count = 3 lines
'

test_expect_success 'setup: no vmlinux, no debuginfo, no BTF from here on' '
	hide /usr/lib/debug && hide /sys/kernel/btf &&
	test_must_fail ls /usr/lib/debug/boot/vmlinux-* && test ! -e /sys/kernel/btf/vmlinux
'

test_expect_success 'the cached probes place by the running kernel build-id' '
	"$PERF" probe -a "$S_ARGS" -a "$S_RET" -a "$S_LINE" 2>err &&
	cat err &&
	events >placed &&
	cat placed &&
	test_line_count = 3 placed &&
	grep -q "^p:t0231/rd vfs_read name=+0(+[0-9]*(+[0-9]*(%di))):string count=%dx:x64$" placed &&
	grep -q "^r[0-9]*:t0231/rd_ret__return vfs_read arg1=\$retval$" placed &&
	grep -q "^p:t0231/rd_line vfs_read+[0-9]* ret=%[a-z0-9]*:s64$" placed &&
	cp placed "$TEST_TMP/placed.ours"
'

# values: dd's three reads of 4096 bytes of kdata in dd.trace, for the
# events rd, rd_ret__return and rd_line (their $retval as printed: $1).
values() {
	grep -c "rd: .* name=\"kdata\" count=0x1000$" dd.trace >n && test "$(cat n)" -eq 3 &&
	grep -c "rd_ret__return: .* arg1=$1$" dd.trace >n && test "$(cat n)" -ge 3 &&
	grep -c "rd_line: .* ret=4096$" dd.trace >n && test "$(cat n)" -ge 3
}

test_expect_success 'they fire with the values of the reads: file name, count, $retval, a line local' '
	fire && values 0x1000
'

test_expect_success '-l lists the kernel events as the system perf does' '
	test_same_as_system_perf probe -l "t0231:*" &&
	cat ours &&
	grep -q "^  t0231:rd_line  *(on vfs_read+[0-9]* with ret)$" ours
'

test_expect_success '-d removes the kernel events, as it says' '
	"$PERF" probe -d "t0231:*" 2>err &&
	grep -qx "Removed event: t0231:rd" err &&
	grep -qx "Removed event: t0231:rd_ret__return" err &&
	grep -qx "Removed event: t0231:rd_line" err &&
	! events | grep -q .
'

test_expect_success THEIRS_CACHE 'a cache made by the system perf is placed by ours and fires right' '
	test_when_finished removed &&
	HOME=$TEST_TMP/theirs.home "$PERF" probe -q -a "$S_ARGS" -a "$S_RET" -a "$S_LINE" &&
	events >placed &&
	cat placed &&
	grep -q "^r[0-9]*:t0231/rd_ret__return _text+$VFS_READ_OFF arg1=\$retval$" placed &&
	fire && values 0x1000
'

test_expect_success SYSTEM_PERF 'our cache is placed by the system perf, the same lines' '
	test_when_finished removed &&
	HOME=$TEST_TMP/ours.home "$SYSTEM_PERF" probe -q -a "$S_ARGS" -a "$S_LINE" &&
	events >placed &&
	grep -v rd_ret "$TEST_TMP/placed.ours" >expect &&
	test_cmp_file expect placed
'

# perf 6.1 writes a cached $retval back as "$retval=$retval", which the
# kernel refuses, from its own cache as from ours; we place both (above).
test_expect_success THEIRS_CACHE 'the system perf fails on a cached $retval, its own as ours' '
	test_when_finished removed &&
	echo >"$TRACEFS/error_log" &&
	test_must_fail env HOME=$TEST_TMP/theirs.home "$SYSTEM_PERF" probe -q -a "$S_RET" &&
	test_must_fail env HOME=$TEST_TMP/ours.home "$SYSTEM_PERF" probe -q -a "$S_RET" &&
	grep -q "Argument name must follow" "$TRACEFS/error_log" &&
	! events | grep -q .
'

test_expect_success 'perf trace -e prints a kprobe of the command with its values' '
	test_when_finished removed &&
	"$PERF" probe -q -a "$S_ARGS" &&
	"$PERF" trace -e t0231:rd -o out -- dd if="$TEST_TMP/kdata" of=/dev/null bs=4096 count=3 &&
	cat out &&
	grep -c "t0231:rd(.*name: \"kdata\", count: 4096)" out >n && test "$(cat n)" -eq 3
'

test_expect_success 'from BTF alone, no cache: placed _text-relative and fired right' '
	test_when_finished removed &&
	unhide /sys/kernel/btf &&
	mkdir btfhome &&
	HOME=$TEST_TMP/btfhome "$PERF" probe -q -a "$S_ARGS" -a "$S_RET" &&
	events >placed &&
	cat placed &&
	grep -q "^p:t0231/rd _text+$VFS_READ_OFF name=+0(+[0-9]*(+[0-9]*(%di))):string count=%dx:x64$" placed &&
	grep -q "^r[0-9]*:t0231/rd_ret__return _text+$VFS_READ_OFF arg1=\$retval:s64$" placed &&
	test_same_as_system_perf probe -l "t0231:*" &&
	cat ours &&
	fire &&
	grep -c "rd: .* name=\"kdata\" count=0x1000$" dd.trace >n && test "$(cat n)" -eq 3 &&
	grep -c "rd_ret__return: .* arg1=4096$" dd.trace >n && test "$(cat n)" -ge 3
'

# The README of this kernel takes a kretprobe at an offset; a copy
# without that line stands for a kernel that does not.
test_expect_success SYSTEM_PERF '-D spells a symbol and its return as the system perf, by the README' '
	test_same_as_system_perf probe -D vfs_read -D "vfs_read%return" &&
	cat >expect <<-EOF &&
	p:probe/vfs_read _text+$VFS_READ_OFF
	r:probe/vfs_read__return _text+$VFS_READ_OFF
	EOF
	test_cmp_file expect ours &&
	grep -v "place (kretprobe)" "$TRACEFS/README" >README.old &&
	mount --bind README.old "$TRACEFS/README" &&
	test_when_finished "umount \"$TRACEFS/README\"" &&
	test_same_as_system_perf probe -D vfs_read%return &&
	echo "r:probe/vfs_read__return vfs_read+0" >expect &&
	test_cmp_file expect ours
'

test_expect_success 'a blacklisted kernel function is refused, nothing written' '
	f=$(awk "{ print \$2 }" /sys/kernel/debug/kprobes/blacklist | while read -r f; do
		grep -q " [tT] $f\$" /proc/kallsyms && echo "$f" && break; done) &&
	test -n "$f" &&
	test_refuses --tracefs "$PERF" probe -a "t0231:bl=$f" &&
	grep -q "blacklisted" err
'

# (v9fs_file_read_iter is also inlined, where perf 6.1 fetches garbage.)
test_expect_success SYSTEM_PERF '-m: a module function from its debuginfo, as the system perf, and fired' '
	test_when_finished removed &&
	unhide /usr/lib/debug &&
	set -- "t0231:lk=v9fs_vfs_lookup name=dentry->d_name.name:string" \
		"t0231:lk_ret=v9fs_vfs_lookup%return \$retval" &&
	test_same_as_system_perf probe -m "$GUEST_MODULE" -D "$1" -D "$2" &&
	cat ours &&
	grep -q "^p:t0231/lk 9p:v9fs_vfs_lookup+0 name=+0(+[0-9]*(%si)):string$" ours &&
	"$PERF" probe -q -m "$GUEST_MODULE" -a "$1" -a "$2" &&
	echo 1 >"$TI/events/t0231/enable" &&
	test_must_fail stat "$GUEST_IN/no-such.t0231" &&
	echo 0 >"$TI/events/t0231/enable" &&
	grep "lk: .* name=\"no-such.t0231\"$" "$TI/trace" &&
	grep "lk_ret__return: .* arg1=" "$TI/trace"
'

test_done
