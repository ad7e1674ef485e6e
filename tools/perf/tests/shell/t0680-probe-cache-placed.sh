#!/bin/sh
test_description='an honest cached entry still places and fires, and its description is what was placed'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root and a writable tracefs'

G=perftest_placed
test_probe_group $G
test_trace_instance $G

test_expect_success 'setup: entries cached on a -g build, a stripped copy elsewhere' '
	build_workload planted "$TEST_TMP/app.g" -g -O0 &&
	strip -g -o "$TEST_TMP/app" "$TEST_TMP/app.g" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:d=handle len seq" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:gl=hand*" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:off=handle+4 x=%di:s32" &&
	grep -q "^#$G:d=handle len seq$" "$(probes_file "$TEST_TMP/app.g")"
'

test_expect_success 'the cached DWARF entry places on the stripped copy, described as perf does' '
	test_when_finished "remove_probe_group $G" &&
	if test_have_prereq SYSTEM_PERF; then
		# the system perf resolves it on the -g build through DWARF
		"$SYSTEM_PERF" probe -n -x "$TEST_TMP/app.g" -a "$G:d=handle len seq" 2>theirs.err &&
		grep "(on " theirs.err | sed "s|/app.g |/app |" >theirs
	fi &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:d=handle len seq" 2>err &&
	grep -q "^  $G:d  *(on handle in $TEST_TMP/app with len seq)$" err &&
	if test_have_prereq SYSTEM_PERF; then
		grep "(on " err >ours &&
		test_cmp_file theirs ours
	fi
'

test_expect_success 'and it fires with the values the program computes' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -q -x "$TEST_TMP/app" -a "$G:d=handle len seq" &&
	echo >"$TI/trace" && echo 1 >"$TI/events/$G/d/enable" &&
	"$TEST_TMP/app" 3 >printed &&
	echo 0 >"$TI/events/$G/d/enable" &&
	grep -q "^is_admin=0 s=126$" printed &&
	grep -o "len=[0-9]* seq=[0-9]*" "$TI/trace" >traced &&
	printf "%s\n" "len=40 seq=0" "len=41 seq=1" "len=42 seq=2" >expect &&
	test_cmp_file expect traced
'

test_expect_success 'a cached glob is described by the function it placed, not the glob' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:gl=hand*" 2>err &&
	grep -q "^  $G:gl  *(on handle in $TEST_TMP/app)$" err
'

test_expect_success 'a cached +OFF is described with the offset placed' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:off=handle+4 x=%di:s32" 2>err &&
	grep -q "^  $G:off  *(on handle+4 in $TEST_TMP/app with x=%di:s32)$" err
'

test_expect_success 'no probe of the test is left' '
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
'

test_done
