#!/bin/sh
test_description='perf trace -e shows the probe events of its command, as the system perf does'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root for tracefs and perf_event_open'

G=perftest_tr
test_probe_group $G

# workloads/trace-work.c: work(i - 1, label) for i < N: arg1 is -1, 0, 1,
# ...; the exit code is argv[4].
# Timestamps and pids differ from run to run: keep the rest.
normalise() {
	sed -E 's/^ *[0-9]+\.[0-9]{3} /T /; s|^T ([^ ]*)/[0-9]+ |T \1/PID |' "$1"
}

# Run a perf without address randomisation, so __probe_ip is the same each time.
norand() {
	setarch "$(uname -m)" -R "$@"
}

test_expect_success 'setup: a program with entry and return probes' '
	build_workload trace-work "$TEST_TMP/prog" -O1 &&
	"$PERF" probe -x "$TEST_TMP/prog" -a "$G:ev=work %di:s32 +0(%si):string" \
		-a "$G:ret=work%return \$retval:s32" 2>/dev/null &&
	test -d "$TRACEFS/events/$G/ev" && test -d "$TRACEFS/events/$G/ret__return"
'

test_expect_success 'only the events of the command, with the values it used' '
	"$TEST_TMP/prog" 100 other 20000 & other=$!
	sleep 0.1
	"$PERF" trace -e "$G:ev" -o out -- "$TEST_TMP/prog" 3 mine; rc=$?
	kill $other; wait $other
	test $rc = 0 &&
	cat out &&
	test $(wc -l <out) = 3 &&
	! grep -q other out &&
	normalise out | sed -E "s/__probe_ip: [0-9]+/__probe_ip: IP/" >got &&
	cat >expect <<-OUT &&
	T prog/PID $G:ev(__probe_ip: IP, arg1: 4294967295, arg2: "mine")
	T prog/PID $G:ev(__probe_ip: IP, arg2: "mine")
	T prog/PID $G:ev(__probe_ip: IP, arg1: 1, arg2: "mine")
	OUT
	test_cmp_file expect got
'

test_expect_success 'the first timestamp is 0.000 and they grow' '
	head -n 1 out | grep -q "^     0\.000 prog/[0-9]* " &&
	awk "{ if (\$1 < last) exit 1; last = \$1 }" out
'

test_expect_success SYSTEM_PERF 'the same text as the system perf trace, return probes too' '
	norand "$PERF" trace -e "$G:*" -o ours -- "$TEST_TMP/prog" 4 "a b" &&
	norand "$SYSTEM_PERF" trace -e "$G:*" -o theirs -- "$TEST_TMP/prog" 4 "a b" 2>/dev/null &&
	normalise ours >ours.n && normalise theirs >theirs.n &&
	cat ours.n &&
	test $(wc -l <ours.n) = 8 &&
	grep -q "$G:ret__return(__probe_func: [0-9]*, __probe_ret_ip: [0-9]*, arg1: 97)" ours.n &&
	test_cmp_file theirs.n ours.n
'

test_expect_success SYSTEM_PERF 'the same text as the system perf trace with --no-comm' '
	norand "$PERF" trace --no-comm -e "$G:ev" -o ours -- "$TEST_TMP/prog" 2 x &&
	norand "$SYSTEM_PERF" trace --no-comm -e "$G:ev" -o theirs -- "$TEST_TMP/prog" 2 x 2>/dev/null &&
	sed -E "s/^ *[0-9.]+ [0-9]+ //" ours >ours.n &&
	sed -E "s/^ *[0-9.]+ [0-9]+ //" theirs >theirs.n &&
	test_cmp_file theirs.n ours.n
'

test_expect_success '-p follows a running process and ends with it, without thread names' '
	"$TEST_TMP/prog" 6 bg 100000 & pid=$!
	sleep 0.15
	"$PERF" trace -e "$G:ev" -p $pid -o out; rc=$?
	wait $pid
	test $rc = 0 &&
	cat out &&
	test $(wc -l <out) -ge 3 &&
	grep -q "^ *[0-9.]* $G:ev(__probe_ip: [0-9]*, arg1: 4, arg2: \"bg\")$" out
'

test_expect_success 'the exit status of the command is perf trace'"'"'s' '
	"$PERF" trace -e "$G:ev" -o out -- "$TEST_TMP/prog" 1 x 0 7; rc=$?
	test $rc = 7 &&
	"$PERF" trace -e "$G:ev" -o out -- sh -c "kill -TERM \$\$"; rc=$?
	test $rc = 143
'

test_expect_success 'globs and lists name the events once each' '
	"$PERF" trace -e "$G:e*,$G:ret*" -e "$G:ev" -o out -- "$TEST_TMP/prog" 2 x &&
	test $(grep -c "$G:ev(" out) = 2 &&
	test $(grep -c "$G:ret__return(" out) = 2
'

test_expect_success 'an ordinary tracepoint prints its fields, pids with their names' '
	"$PERF" trace -e sched:sched_process_exec -o out -- "$TEST_TMP/prog" 1 x &&
	grep -q "sched:sched_process_exec(filename: \"$TEST_TMP/prog\", pid: [0-9]* (prog), old_pid: [0-9]* (prog))" out
'

test_expect_success SYSTEM_PERF 'and the same text as the system perf for a tree of processes' '
	events=sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit &&
	"$PERF" trace -e $events -o ours -- sh -c "/bin/true; exit 0" &&
	"$SYSTEM_PERF" trace -e $events -o theirs -- sh -c "/bin/true; exit 0" 2>/dev/null &&
	# The system perf does not sort across CPUs: compare the lines, not their order.
	sed -E "s/^ *[0-9.]+ //; s/[0-9]+/N/g" ours | sort >ours.n &&
	sed -E "s/^ *[0-9.]+ //; s/[0-9]+/N/g" theirs | sort >theirs.n &&
	cat ours.n &&
	test_cmp_file theirs.n ours.n
'

test_expect_success 'threads and children of the command are traced under their own names' '
	build_workload trace-tree "$TEST_TMP/tree" -O1 -pthread &&
	"$PERF" probe -x "$TEST_TMP/tree" -a "$G:tree=work %di:s32 +0(%si):string" 2>/dev/null &&
	"$PERF" trace -e "$G:tree" -o out -- "$TEST_TMP/tree" &&
	cat out &&
	normalise out | sed -E "s/__probe_ip: [0-9]+/__probe_ip: IP/" >got &&
	cat >expect <<-OUT &&
	T worker/PID $G:tree(__probe_ip: IP, arg1: 1, arg2: "worker")
	T tree/PID $G:tree(__probe_ip: IP, arg1: 2, arg2: "kid")
	T tree/PID $G:tree(__probe_ip: IP, arg1: 3, arg2: "main")
	OUT
	test_cmp_file expect got &&
	test $(awk "{ print \$2 }" out | sort -u | wc -l) = 3
'

test_expect_success '--no-inherit traces the command alone' '
	"$PERF" trace --no-inherit -e "$G:tree" -o out -- "$TEST_TMP/tree" &&
	cat out &&
	test $(wc -l <out) = 1 &&
	grep -q "^ *[0-9.]* $G:tree(__probe_ip: [0-9]*, arg1: 3, arg2: \"main\")$" out
'

test_expect_success '-a sees every process until Ctrl-C, which ends it with 0' '
	"$PERF" trace -a -e "$G:ev" -o out & tpid=$!
	sleep 0.5
	"$TEST_TMP/prog" 1 first && "$TEST_TMP/prog" 1 second
	sleep 0.3
	kill -INT $tpid; wait $tpid; rc=$?
	cat out &&
	test $rc = 0 &&
	grep -q "prog/[0-9]* $G:ev(.*\"first\")" out &&
	grep -q "prog/[0-9]* $G:ev(.*\"second\")" out
'

test_expect_success 'Ctrl-C stops it at once, ends the command and leaves no event in use' '
	"$PERF" trace -e "$G:ev" -o out -- "$TEST_TMP/prog" 1000 long 10000 & tpid=$!
	sleep 0.5
	kill -INT $tpid; wait $tpid; rc=$?
	test $rc = 130 &&
	test $(wc -l <out) -ge 2 &&
	! pgrep -f "prog 1000 long" &&
	"$PERF" probe -d "$G:ev" 2>err &&
	grep -q "Removed event: $G:ev" err
'

test_done
