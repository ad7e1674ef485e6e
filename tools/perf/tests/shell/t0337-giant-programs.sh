#!/bin/sh
test_description='giant C++ programs as Debian ships them (libjvm.so, ceph-osd, their -dbg debug files): the places and names perf 6.1 gives'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The programs of make bench (scripts/install-deps.sh --bench), where this
# machine has them: their DWARF is compressed (zlib, read through ISA-L a
# page at a time), hundreds of MB inflated.  Each case is skipped without
# the program and its debug file; perf 6.1 takes 5-8 s on each spec here.
# Under make test SANITIZE=1 only libjvm's: ceph-osd's added a minute and
# a half to it, on the same code paths.

# has_debug_file BIN: its -dbg package's debug file is installed.
has_debug_file() {
	[ -f "$1" ] || return 1
	_bid=$(readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: //p')
	[ -n "$_bid" ] && [ -f "/usr/lib/debug/.build-id/$(echo "$_bid" | cut -c1-2)/$(echo "$_bid" | cut -c3-).debug" ]
}

JVM=$(find /usr/lib/jvm -path '*17*/server/libjvm.so' 2>/dev/null | head -n 1)
CEPH=/usr/bin/ceph-osd
test_lazy_prereq LIBJVM 'has_debug_file "$JVM"'
test_lazy_prereq CEPH_OSD 'has_debug_file "$CEPH"'

test_expect_success LIBJVM,SYSTEM_PERF_PROBE 'libjvm: a method and a line of it, as perf 6.1 places them' '
	test_same_as_system_perf probe -x "$JVM" -D "jni_FindClass name" &&
	test_same_as_system_perf probe -x "$JVM" -D "jni_FindClass:1 name"
'

test_expect_success LIBJVM,SYSTEM_PERF_PROBE 'libjvm: -F lists the names perf 6.1 lists' '
	test_same_as_system_perf probe -x "$JVM" -F &&
	test "$(wc -l <ours)" -gt 50000
'

test_expect_success CEPH_OSD,SYSTEM_PERF_PROBE,NOT_SANITIZE 'ceph-osd: a method and a line of main, as perf 6.1 places them' '
	test_same_as_system_perf probe -x "$CEPH" -D "_ZN3OSD4tickEv this" &&
	test_same_as_system_perf probe -x "$CEPH" -D "main:3 argc"
'

# OSD::tick's "dout(10) << ..." (OSD.cc:6028): its code starts in an
# inlined SubsystemMap::should_gather whose first row is no statement row;
# perf 6.1 places the line there too, and at a second copy of an inlined
# destructor's code, besides the line's own statement rows.
test_expect_success CEPH_OSD,SYSTEM_PERF_PROBE,NOT_SANITIZE 'ceph-osd: a line whose code starts in an inlined call, as perf 6.1 places it' '
	test_same_as_system_perf probe -x "$CEPH" -D "OSD.cc:6028" &&
	test "$(wc -l <ours)" = 9 &&
	test_same_as_system_perf probe -x "$CEPH" -D "_ZN3OSD4tickEv:3 this"
'

test_expect_success CEPH_OSD,SYSTEM_PERF_PROBE,NOT_SANITIZE 'ceph-osd: -F lists the names perf 6.1 lists (labels of .data too)' '
	test_same_as_system_perf probe -x "$CEPH" -F &&
	grep -qx mul_table_72 ours
'

test_done
