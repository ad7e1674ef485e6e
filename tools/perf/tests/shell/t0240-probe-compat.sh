#!/bin/sh
test_description='perf 6.1 compatibility: one event at several places, data symbols, versions and IFUNCs, modules, --max-probes'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_sym14
# The default group of the program "compat14" (a glob adds there).
D=probe_compat14
LIBC=/lib/x86_64-linux-gnu/libc.so.6
test_probe_group $G
test_probe_group ${G}_sys
test_probe_group $D

test_lazy_prereq LIBC '[ -r "$LIBC" ] && readelf -Ws "$LIBC" | grep -q " IFUNC .* memcpy@@"'

# workloads/probe-compat.c at -O2: bump() is inlined twice into step();
# at -O0 the loop line main:3 has several rows.
test_expect_success 'setup: the program at -O2 and -O0, and stripped' '
	build_workload probe-compat compat14 -g -O2 &&
	build_workload probe-compat compat0 -g -O0 &&
	cp compat14 stripped && strip -g stripped
'

# The trace of our own tracefs instance (other runs use the global buffer).
I=
test_expect_success ROOT,TRACEFS 'setup: a tracefs instance of our own' '
	mkdir -p "$TRACEFS/instances/$G"
'
test_have_prereq ROOT,TRACEFS && I=$TRACEFS/instances/$G
test_cleanup 'test -z "$I" || rmdir "$I" 2>/dev/null'

# hits_of EVENT PROG ARGS...: run PROG with GROUP:EVENT enabled in our
# instance; the trace lines of EVENT are left in ./hits.
hits_of() {
	_ev=$1
	shift
	echo 0 >"$I/tracing_on" && echo >"$I/trace" &&
	echo 1 >"$I/events/$G/$_ev/enable" && echo 1 >"$I/tracing_on" &&
	"$@"
	echo 0 >"$I/tracing_on"
	echo 0 >"$I/events/$G/$_ev/enable"
	grep " $_ev: (" "$I/trace" >hits
	return 0
}

# 1. One spec, several places: one event, as perf 6.1 makes it.

test_expect_success SYSTEM_PERF_PROBE '-D of an inlined function: one line per copy, as perf' '
	test_same_as_system_perf probe -x "$TEST_TMP/compat14" -D bump &&
	test_line_count = 2 ours
'

test_expect_success SYSTEM_PERF_PROBE '-D of a line in a loop: one line per row, as perf' '
	test_same_as_system_perf probe -x "$TEST_TMP/compat0" -D "main:3" &&
	test "$(wc -l <ours)" -gt 1
'

test_expect_success ROOT,TRACEFS 'the copies of an inlined function are one event' '
	"$PERF" probe -x "$TEST_TMP/compat14" -a "$G:bump=bump" 2>err &&
	test "$(grep -c "^p:$G/bump $TEST_TMP/compat14:0x" "$TRACEFS/uprobe_events")" -eq 2 &&
	! grep -q "^p:$G/bump_" "$TRACEFS/uprobe_events" &&
	test "$(grep -c "^  $G:bump  *(on bump in $TEST_TMP/compat14)" err)" -eq 2 &&
	grep -q "perf record -e $G:bump -aR" err
'

test_expect_success ROOT,TRACEFS 'the one event fires at every copy: two calls per step' '
	hits_of bump "$TEST_TMP/compat14" 5 &&
	test_line_count = 10 hits &&
	test "$(sed "s/.*bump: (\(0x[0-9a-f]*\)).*/\1/" hits | sort -u | wc -l)" -eq 2
'

test_expect_success ROOT,TRACEFS '-f adds the copies again under one numbered name' '
	"$PERF" probe -f -x "$TEST_TMP/compat14" -a "$G:bump=bump" 2>err &&
	test "$(grep -c "^p:$G/bump_1 " "$TRACEFS/uprobe_events")" -eq 2 &&
	! grep -q "^p:$G/bump_2 " "$TRACEFS/uprobe_events"
'

test_expect_success ROOT,TRACEFS 'without -f the name is taken, and nothing is added' '
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/compat14" -a "$G:bump=bump" &&
	grep -q "already exists" err
'

test_expect_success ROOT,TRACEFS '-d removes every place of the events, once each' '
	"$PERF" probe -d "$G:bump*" 2>err &&
	test "$(grep -c "^Removed event: $G:bump$" err)" -eq 1 &&
	test "$(grep -c "^Removed event: $G:bump_1$" err)" -eq 1 &&
	test_line_count = 2 err &&
	! grep -q "^p:$G/" "$TRACEFS/uprobe_events"
'

test_expect_success SYSTEM_PERF_PROBE 'a line in a loop writes the lines the system perf writes' '
	"$SYSTEM_PERF" probe -x "$TEST_TMP/compat0" -a "${G}_sys:loop=main:3" 2>err.sys &&
	grep "^p:${G}_sys/" "$TRACEFS/uprobe_events" | sed "s/^p:${G}_sys/p:$G/" >theirs &&
	"$SYSTEM_PERF" probe -d "${G}_sys:loop" 2>err.sys &&
	"$PERF" probe -x "$TEST_TMP/compat0" -a "$G:loop=main:3" 2>err &&
	grep "^p:$G/" "$TRACEFS/uprobe_events" >ours &&
	test_cmp_file theirs ours &&
	test "$(wc -l <ours)" -gt 1 &&
	! grep -q "^p:$G/loop_" ours &&
	"$PERF" probe -d "$G:loop" 2>err &&
	! grep -q "^p:${G}" "$TRACEFS/uprobe_events"
'

# 2. Data symbols never run.

test_expect_success 'a data symbol is refused, with DWARF or without' '
	test_refuses "$PERF" probe -x "$TEST_TMP/compat14" -D hits &&
	grep -q "^Error: Probe point .hits. not found: it is a data symbol" err &&
	test_refuses "$PERF" probe -x "$TEST_TMP/stripped" -D hits &&
	grep -q "data symbol" err
'

test_expect_success ROOT,TRACEFS 'adding a data symbol writes nothing' '
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/stripped" -a "$G:h=hits"
'

test_expect_success SYSTEM_PERF 'the system perf refuses it too' '
	! "$SYSTEM_PERF" probe -x "$TEST_TMP/stripped" -D hits >out 2>/dev/null &&
	! test -s out
'

# 3. A versioned name is its default version; IFUNCs are warned about.

test_expect_success LIBC,SYSTEM_PERF 'memcpy is memcpy@@GLIBC_2.14, with perf'"'"'s IFUNC warning' '
	test_same_as_system_perf --stderr probe -x "$LIBC" -D memcpy &&
	grep -q "^Warning: The probe function (memcpy) is a GNU indirect function.$" ours.err
'

test_expect_success LIBC,SYSTEM_PERF 'strlen: the same warning, as perf' '
	test_same_as_system_perf --stderr probe -x "$LIBC" -D strlen &&
	grep -q "GNU indirect function" ours.err
'

test_expect_success LIBC 'memcpy%return returns from the default version too, warned' '
	"$PERF" probe -x "$LIBC" -D memcpy >entry 2>/dev/null &&
	"$PERF" probe -x "$LIBC" -D "memcpy%return" >ret 2>err &&
	test "$(sed "s/.* //" entry)" = "$(sed "s/.* //" ret)" &&
	grep -q "GNU indirect function" err
'

test_expect_success LIBC '-q silences the warning' '
	"$PERF" probe -q -x "$LIBC" -D memcpy >out 2>err &&
	test_line_count = 1 out && ! test -s err
'

# 4. An unknown module.

test_expect_success 'an unknown module is refused with perf'"'"'s words' '
	test_refuses "$PERF" probe -m nosuchmod -D vfs_read &&
	grep -q "^Error: Failed to find module nosuchmod.$" err
'

test_expect_success SYSTEM_PERF 'the system perf fails on it too (exit 234)' '
	! "$SYSTEM_PERF" probe -m nosuchmod -D vfs_read 2>err &&
	grep -q "Failed to add events" err
'

# 5. --max-probes: a glob over the limit adds nothing.

test_expect_success SYSTEM_PERF 'under the limit a glob is placed as perf places it' '
	test_same_as_system_perf probe -x "$TEST_TMP/compat14" --max-probes 2 -D "[bs]*"
'

test_expect_success 'over the limit a glob fails with one line' '
	test_refuses "$PERF" probe -x "$TEST_TMP/compat14" --max-probes 1 -D "[bs]*" &&
	grep -q "Too many functions matched in $TEST_TMP/compat14" err
'

test_expect_success ROOT,TRACEFS 'over the limit a glob adds nothing' '
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/compat14" --max-probes 1 -a "[bs]*"
'

test_expect_success SYSTEM_PERF 'the system perf fails too' '
	! "$SYSTEM_PERF" probe -x "$TEST_TMP/compat14" --max-probes 1 -D "[bs]*" 2>err &&
	grep -q "Too many functions matched" err
'

test_done
