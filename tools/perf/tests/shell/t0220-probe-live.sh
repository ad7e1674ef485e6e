#!/bin/sh
test_description='perf probe places, lists and deletes real uprobes'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root and a writable tracefs'

G=perftest_live
test_probe_group $G
test_probe_group ${G}_sys

test_expect_success 'setup: a stripped test program' '
	build_workload live-prog "$TEST_TMP/prog" -O1 && strip -g "$TEST_TMP/prog"
'

test_expect_success 'entry and return probes are added and announced as perf does' '
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:in=work %di:s32" -a "$G:out=work%return \$retval:s32" 2>err &&
	grep -q "^Added new events:" err &&
	grep -q "^  $G:in  *(on work in $TEST_TMP/prog with %di:s32)" err &&
	grep -q "^  $G:out__return (on work%return in $TEST_TMP/prog with \$retval:s32)" err &&
	grep -q "perf record -e $G:" err &&
	grep -q "^p:$G/in $TEST_TMP/prog:0x" "$TRACEFS/uprobe_events" &&
	grep -q "^r:$G/out__return $TEST_TMP/prog:0x" "$TRACEFS/uprobe_events"
'

test_expect_success 'the probes fire once per call with the right values' '
	echo >"$TRACEFS/trace" &&
	echo 1 >"$TRACEFS/events/$G/enable" &&
	"$TEST_TMP/prog" 7 ; echo 0 >"$TRACEFS/events/$G/enable" &&
	test "$(grep -c " in: (" "$TRACEFS/trace")" -eq 7 &&
	test "$(grep -c " out__return: (" "$TRACEFS/trace")" -eq 7 &&
	grep " in: (" "$TRACEFS/trace" | grep -q "arg1=6$" &&
	grep " out__return: (" "$TRACEFS/trace" | grep -q "arg1=18$"
'

test_expect_success '-l lists them as perf does' '
	"$PERF" probe -l "$G:*" >ours &&
	grep -q "^  $G:in  *(on work in $TEST_TMP/prog with arg1)" ours &&
	grep -q "^  $G:out__return (on work%return in $TEST_TMP/prog with arg1)" ours &&
	if test_have_prereq SYSTEM_PERF; then
		test_same_as_system_perf probe -l "$G:*"
	fi
'

test_expect_success 'a duplicate event name is refused without -f and tracefs is unchanged' '
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "$G:in=work" &&
	grep -q "already exists" err
'

test_expect_success '-f adds the duplicate under a numbered name' '
	"$PERF" probe -f -x "$TEST_TMP/prog" -a "$G:in=work" 2>err &&
	grep -q "^p:$G/in_1 " "$TRACEFS/uprobe_events"
'

test_expect_success 'a command adding several probes adds none when one fails' '
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "$G:ok1=work" -a "$G:bad=no_such_function"
'

test_expect_success '-d with a glob removes exactly the matching events' '
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:keep=main" 2>/dev/null &&
	"$PERF" probe -d "$G:in*" 2>err &&
	grep -q "^Removed event: $G:in$" err &&
	grep -q "^Removed event: $G:in_1$" err &&
	! grep -q "^p:$G/in" "$TRACEFS/uprobe_events" &&
	grep -q "^r:$G/out__return " "$TRACEFS/uprobe_events" &&
	grep -q "^p:$G/keep " "$TRACEFS/uprobe_events"
'

test_expect_success 'deleting a name that matches nothing fails with one line' '
	test_refuses --tracefs "$PERF" probe -d "$G:nothing_here"
'

test_expect_success SYSTEM_PERF 'the system perf and ours agree on the uprobe_events line' '
	"$PERF" probe -d "$G:*" 2>/dev/null
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:a=work+4 %di" 2>/dev/null &&
	"$SYSTEM_PERF" probe -x "$TEST_TMP/prog" -a "${G}_sys:b=work+4 %di" 2>/dev/null &&
	grep "^p:$G/a " "$TRACEFS/uprobe_events" | sed "s|^p:$G/a |p:G/E |" >ours &&
	grep "^p:${G}_sys/b " "$TRACEFS/uprobe_events" | sed "s|^p:${G}_sys/b |p:G/E |" >theirs &&
	diff -u theirs ours
'

test_expect_success '-l names events of a -g build by source place, as perf does' '
	"$PERF" probe -d "$G:*" 2>/dev/null
	build_workload live-prog "$TEST_TMP/prog.g" -g -O0 &&
	"$PERF" probe -q -x "$TEST_TMP/prog.g" -a "$G:g1=work" -a "$G:g2=work%return" -a "$G:g3=main" &&
	"$PERF" probe -l "$G:*" >ours &&
	grep -q "^  $G:g1  *(on work@.*prog.c in $TEST_TMP/prog.g)" ours &&
	grep -q "(on work%return@.*prog.c in " ours &&
	if test_have_prereq SYSTEM_PERF; then
		test_same_as_system_perf probe -l "$G:*"
	fi
'

test_expect_success 'no event of the group is left after -d' '
	"$PERF" probe -d "$G:*" 2>/dev/null
	"$PERF" probe -d "${G}_sys:*" 2>/dev/null
	! grep -q ":$G/" "$TRACEFS/uprobe_events"
'

test_done
