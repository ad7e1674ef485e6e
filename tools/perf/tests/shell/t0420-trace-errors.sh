#!/bin/sh
test_description='perf trace -e refuses bad input with one line and leaves nothing behind'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root for tracefs and perf_event_open'

G=perftest_tr_err
test_probe_group $G

test_expect_success 'setup: a probed program' '
	build_workload work-times-three "$TEST_TMP/prog" -O1 &&
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:ev=work %di:s32" 2>/dev/null
'

test_expect_success 'an unknown event' '
	test_refuses --tracefs "$PERF" trace -e "$G:nosuch" -- "$TEST_TMP/prog" &&
	grep -q "event .$G:nosuch.: unknown tracepoint" err
'

test_expect_success 'a glob matching nothing' '
	test_refuses --tracefs "$PERF" trace -e "${G}_none:*" -- "$TEST_TMP/prog" &&
	grep -q "unknown tracepoint" err
'

test_expect_success 'a malformed glob' '
	test_refuses --tracefs "$PERF" trace -e "$G:ev[" -- "$TEST_TMP/prog" &&
	grep -q "malformed: unclosed .\[. in the event name" err &&
	test_refuses --tracefs "$PERF" trace -e "$G" -- "$TEST_TMP/prog" &&
	grep -q "malformed: not GROUP:EVENT" err &&
	test_refuses --tracefs "$PERF" trace -e "$G:" -- "$TEST_TMP/prog" &&
	grep -q "malformed: empty event name" err &&
	test_refuses --tracefs "$PERF" trace -e "$G:e/v" -- "$TEST_TMP/prog" &&
	grep -q "malformed: invalid character" err
'

test_expect_success 'a bad event among good ones runs nothing' '
	test_refuses --tracefs "$PERF" trace -e "$G:ev,$G:nosuch" -- touch ran &&
	grep -q "unknown tracepoint" err &&
	! test -e ran
'

test_expect_success 'a command that does not exist: 127' '
	test_refuses --tracefs "$PERF" trace \
		-e "$G:ev" -- no-such-command &&
	grep -q "cannot run .no-such-command.: No such file or directory" err &&
	"$PERF" trace -e "$G:ev" -- no-such-command 2>/dev/null; test $? = 127
'

test_expect_success 'a command that cannot be executed: 126' '
	echo "not a program" >noexec &&
	test_refuses --tracefs "$PERF" trace -e "$G:ev" -- "$TEST_TMP/noexec" &&
	grep -q "cannot run .*noexec.: Permission denied" err &&
	"$PERF" trace -e "$G:ev" -- "$TEST_TMP/noexec" 2>/dev/null; test $? = 126
'

test_expect_success 'no process with that pid' '
	test_refuses --tracefs "$PERF" trace -e "$G:ev" -p 999999999 &&
	grep -q "no process with id 999999999" err &&
	test_refuses --tracefs "$PERF" trace -e "$G:ev" -p abc &&
	grep -q "not a process id" err
'

test_expect_success 'no -e, bad -m, bad --duration, two targets' '
	test_refuses --tracefs "$PERF" trace -- "$TEST_TMP/prog" &&
	grep -q "no event given" err &&
	test_refuses --tracefs "$PERF" trace -m 3 -e "$G:ev" -- "$TEST_TMP/prog" &&
	grep -q "power of two" err &&
	test_refuses --tracefs "$PERF" trace --duration x -e "$G:ev" -- "$TEST_TMP/prog" &&
	grep -q "duration wants a number" err &&
	test_refuses --tracefs "$PERF" trace -p 1 -e "$G:ev" -- "$TEST_TMP/prog" &&
	grep -q "exclude one another" err
'

test_expect_success 'an output file that cannot be written' '
	test_refuses --tracefs "$PERF" trace -o /nonexistent/out -e "$G:ev" -- "$TEST_TMP/prog" &&
	grep -q "cannot open /nonexistent/out" err
'

test_expect_success SETPRIV 'without root: one line, nothing run' '
	chmod 755 "$TEST_TMP" &&
	test_refuses --tracefs setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERF" trace -e "$G:ev" -- touch "$TEST_TMP/ran" &&
	! test -e ran
'

test_expect_success 'no event is left in use: the probe can be deleted' '
	"$PERF" probe -d "$G:ev" 2>err &&
	grep -q "Removed event: $G:ev" err
'

test_done
