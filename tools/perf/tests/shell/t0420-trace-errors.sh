#!/bin/sh
test_description='perf trace -e refuses bad input with one line and leaves nothing behind'
. "$(dirname "$0")/lib.sh"

have_root || test_skip_all 'needs root for tracefs and perf_event_open'
setup_tracefs || test_skip_all 'tracefs uprobe_events is not writable'

G=perftest_tr_err
test_cleanup "remove_probe_group $G"
remove_probe_group $G 2>/dev/null

cat >prog.c <<'SRC'
__attribute__((noinline)) int work(int n) { return n * 3; }
volatile int sink;
int main(void) { sink += work(1); return 0; }
SRC

test_expect_success 'setup: a probed program' '
	build_prog "$TEST_TMP/prog" prog.c -O1 &&
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:ev=work %di:s32" 2>/dev/null
'

# fails_with_one_line PATTERN ARGS...: perf trace ARGS fails, one line on stderr matching PATTERN.
fails_with_one_line() {
	pattern=$1
	shift
	test_must_fail "$PERF" trace "$@" >out 2>err &&
	cat err &&
	test_one_line err &&
	grep -q "$pattern" err &&
	! test -s out
}

test_expect_success 'an unknown event' '
	fails_with_one_line "event .$G:nosuch.: unknown tracepoint" -e "$G:nosuch" -- "$TEST_TMP/prog"
'

test_expect_success 'a glob matching nothing' '
	fails_with_one_line "unknown tracepoint" -e "${G}_none:*" -- "$TEST_TMP/prog"
'

test_expect_success 'a malformed glob' '
	fails_with_one_line "malformed: unclosed .\[. in the event name" -e "$G:ev[" -- "$TEST_TMP/prog" &&
	fails_with_one_line "malformed: not GROUP:EVENT" -e "$G" -- "$TEST_TMP/prog" &&
	fails_with_one_line "malformed: empty event name" -e "$G:" -- "$TEST_TMP/prog" &&
	fails_with_one_line "malformed: invalid character" -e "$G:e/v" -- "$TEST_TMP/prog"
'

test_expect_success 'a bad event among good ones runs nothing' '
	fails_with_one_line "unknown tracepoint" -e "$G:ev,$G:nosuch" -- touch ran &&
	! test -e ran
'

test_expect_success 'a command that does not exist: 127' '
	fails_with_one_line "cannot run .no-such-command.: No such file or directory" \
		-e "$G:ev" -- no-such-command &&
	"$PERF" trace -e "$G:ev" -- no-such-command 2>/dev/null; test $? = 127
'

test_expect_success 'a command that cannot be executed: 126' '
	echo "not a program" >noexec &&
	fails_with_one_line "cannot run .*noexec.: Permission denied" -e "$G:ev" -- "$TEST_TMP/noexec" &&
	"$PERF" trace -e "$G:ev" -- "$TEST_TMP/noexec" 2>/dev/null; test $? = 126
'

test_expect_success 'no process with that pid' '
	fails_with_one_line "no process with id 999999999" -e "$G:ev" -p 999999999 &&
	fails_with_one_line "not a process id" -e "$G:ev" -p abc
'

test_expect_success 'no -e, bad -m, bad --duration, two targets' '
	fails_with_one_line "no event given" -- "$TEST_TMP/prog" &&
	fails_with_one_line "power of two" -m 3 -e "$G:ev" -- "$TEST_TMP/prog" &&
	fails_with_one_line "duration wants a number" --duration x -e "$G:ev" -- "$TEST_TMP/prog" &&
	fails_with_one_line "exclude one another" -p 1 -e "$G:ev" -- "$TEST_TMP/prog"
'

test_expect_success 'an output file that cannot be written' '
	fails_with_one_line "cannot open /nonexistent/out" -o /nonexistent/out -e "$G:ev" -- "$TEST_TMP/prog"
'

test_expect_success 'without root: one line, nothing run' '
	command -v setpriv >/dev/null || exit 0
	chmod 755 "$TEST_TMP" &&
	test_must_fail setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERF" trace -e "$G:ev" -- touch "$TEST_TMP/ran" 2>err &&
	cat err && test_one_line err &&
	! test -e ran
'

test_expect_success 'no event is left in use: the probe can be deleted' '
	"$PERF" probe -d "$G:ev" 2>err &&
	grep -q "Removed event: $G:ev" err
'

test_done
