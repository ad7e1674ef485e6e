#!/bin/sh
test_description='perf probe places SDT markers: sdt_PROVIDER:NAME and %sdt_..., semaphores raised'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

# To check these tests themselves against another perf (the system perf
# passes all but two: it fails on several markers of one name, "File
# exists", and its error for a missing marker does not name it):
#	SDT_TEST_PERF=/usr/bin/perf T=t0520 sh tools/perf/tests/run.sh
PERF=${SDT_TEST_PERF:-$PERF}


PYTHON=/usr/bin/python3.11
G=$SDT_GROUP
# A tracefs instance of our own: its buffer holds only what we enable in
# it, whatever other tests trace at the same time.
INST=$TRACEFS/instances/perftest_sdt_$$
test_probe_group $G
test_probe_group ${G}_sys
test_cleanup "echo 0 >$INST/events/enable; rmdir $INST"
# Uprobes that raise a semaphore (ref_ctr_offset).
test_lazy_prereq REF_CTR 'grep -q "place (uprobe):.*(ref_ctr_offset)" "$TRACEFS/README"'

# trace_run EVENTDIR CMD...: run CMD with the event enabled in our instance;
# the events it fired are left in ./trace.
trace_run() {
	ev=$1
	shift
	echo >"$INST/trace" &&
	echo 1 >"$INST/events/$ev/enable" &&
	"$@" >run.out
	rc=$?
	echo 0 >"$INST/events/$ev/enable"
	grep -v "^#" "$INST/trace" >trace
	return "$rc"
}

test_expect_success SDT 'setup: the dtrace program' '
	build_sdt_prog "$TEST_TMP/sdtprog"
'

test_expect_success ROOT,TRACEFS 'setup: a tracefs instance' '
	mkdir "$INST"
'
PROG=$(realpath "$TEST_TMP/sdtprog" 2>/dev/null)

test_expect_success SDT 'sdt_PROVIDER:NAME from the binary: the line perf caches' '
	"$PERF" probe -x sdtprog -D $G:foo__bar >out &&
	test_line_count = 1 out &&
	grep -q "^p:$G/foo__bar $PROG:0x[0-9a-f]*(0x[0-9a-f]*) arg1=%[a-z0-9]*:s32 arg2=%[a-z0-9]*:s64 arg3=%[a-z0-9]*:u64$" out &&
	mkdir -p h && HOME=$TEST_TMP/h "$PERF" buildid-cache -a sdtprog &&
	grep "^p:$G/foo__bar " "$(probes_file --home "$TEST_TMP/h" sdtprog)" >expect &&
	test_cmp_file expect out
'

test_expect_success SDT '%sdt_PROVIDER:NAME gives the same line' '
	"$PERF" probe -x sdtprog -D "%$G:foo__bar" >out &&
	grep "^p:$G/foo__bar " "$(probes_file --home "$TEST_TMP/h" sdtprog)" >expect &&
	test_cmp_file expect out
'

# The cached line is checked against the notes: an edited one is refused.
test_expect_success SDT 'after buildid-cache --add the marker comes from the cache' '
	"$PERF" buildid-cache -a sdtprog &&
	test_when_finished "\"\$PERF\" buildid-cache -r sdtprog" &&
	P=$(probes_file sdtprog) &&
	sed -i "s|^\(p:$G/foo__bar [^ ]*\) .*|\1 arg1=%di:u32|" $P &&
	test_refuses "$PERF" probe -x sdtprog -D "%$G:foo__bar" &&
	grep -q "^perf: refusing cached probe $P:[0-9]*: the note of " err
'

test_expect_success SYSTEM_PERF_PROBE,SDT 'the system perf resolves the marker to the same line' '
	test_same_as_system_perf probe -x sdtprog -D "%$G:foo__bar"
'

test_expect_success ROOT,TRACEFS,SDT 'a missing marker is refused and tracefs is unchanged' '
	test_refuses --tracefs "$PERF" probe -x sdtprog -a $G:no_such_marker &&
	grep -q "no_such_marker" err
'

test_expect_success ROOT,TRACEFS,SDT 'several markers of one name become numbered events' '
	"$PERF" probe -x sdtprog -a $G:twice 2>err &&
	grep "^p:$G/twice " "$TRACEFS/uprobe_events" >one &&
	grep "^p:$G/twice_1 " "$TRACEFS/uprobe_events" >two &&
	test_line_count = 1 one && test_line_count = 1 two &&
	test "$(cut -d" " -f2 one)" != "$(cut -d" " -f2 two)" &&
	"$PERF" probe -d "$G:twice*" 2>/dev/null &&
	! grep -q "^p:$G/twice" "$TRACEFS/uprobe_events"
'

test_expect_success ROOT,TRACEFS,SDT 'the marker is added with its semaphore and announced as perf does' '
	"$PERF" probe -x sdtprog -a "%$G:foo__bar" 2>err &&
	grep -q "^Added new event:" err &&
	grep -q "^  $G:foo__bar (on %foo__bar in $PROG)" err &&
	grep -q "^p:$G/foo__bar $PROG:0x[0-9a-f]*(0x[0-9a-f]*) arg1=" "$TRACEFS/uprobe_events"
'

test_expect_success ROOT,TRACEFS,SDT,SYSTEM_PERF 'its uprobe_events line is the one the system perf writes' '
	grep "^p:$G/foo__bar " "$TRACEFS/uprobe_events" >ours &&
	"$PERF" probe -d "$G:foo__bar" 2>/dev/null &&
	"$SYSTEM_PERF" probe -x sdtprog -a "%$G:foo__bar" >/dev/null 2>&1 &&
	grep "^p:$G/foo__bar " "$TRACEFS/uprobe_events" >theirs &&
	"$SYSTEM_PERF" probe -d "$G:foo__bar" >/dev/null 2>&1 &&
	"$PERF" probe -x sdtprog -a "%$G:foo__bar" 2>/dev/null &&
	test_cmp_file theirs ours
'

test_expect_success ROOT,TRACEFS,SDT,REF_CTR 'while the event is enabled, the program sees its semaphore raised' '
	trace_run $G/foo__bar "$TEST_TMP/sdtprog" 5 &&
	grep -q "^foo__bar enabled: 1$" run.out
'

test_expect_success ROOT,TRACEFS,SDT,REF_CTR 'the guarded marker fires once per call with the right values' '
	test "$(grep -c " foo__bar: (" trace)" -eq 5 &&
	grep -q " foo__bar: (.* arg1=100 arg2=0 arg3=" trace &&
	grep -q " foo__bar: (.* arg1=104 arg2=-4000 arg3=" trace
'

test_expect_success ROOT,TRACEFS,SDT,REF_CTR 'with the event disabled, the semaphore is down again' '
	"$TEST_TMP/sdtprog" 1 >run.out &&
	grep -q "^foo__bar enabled: 0$" run.out
'

test_expect_success ROOT,TRACEFS,SDT,REF_CTR 'python3.11 function__entry fires once per Python call' '
	test -x $PYTHON || exit 0
	grep -q "^p:sdt_python/" "$TRACEFS/uprobe_events" && exit 0 # in use by someone else
	test_when_finished "remove_probe_group sdt_python"
	"$PERF" probe -x $PYTHON -a sdt_python:function__entry 2>/dev/null &&
	# CPython 3.11 fires its function markers only while a trace
	# function is set (it checks them on its tracing path).
	trace_run sdt_python/function__entry $PYTHON -S -c "import sys
sys.settrace(lambda *a: None)
def f(x): pass
for i in range(37): f(i)" &&
	# arg2 is the function name: f shows up 37 times.
	grep " function__entry: (" trace | grep -o "arg2=[0-9]*" | sort | uniq -c >counts &&
	grep -q "^ *37 arg2=" counts &&
	"$PERF" probe -d "sdt_python:function__entry" 2>/dev/null
'

test_expect_success ROOT,TRACEFS 'every event of the group is deleted' '
	"$PERF" probe -d "$G:*" 2>/dev/null
	! grep -q "^p:$G/" "$TRACEFS/uprobe_events"
'

test_done
