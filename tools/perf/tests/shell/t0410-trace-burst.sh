#!/bin/sh
test_description='perf trace -e through a burst of a million probe hits'
. "$(dirname "$0")/lib.sh"

have_root || test_skip_all 'needs root for tracefs and perf_event_open'
setup_tracefs || test_skip_all 'tracefs uprobe_events is not writable'

G=perftest_tr_burst
N=1000000
test_cleanup "remove_probe_group $G"
remove_probe_group $G 2>/dev/null

# On x86-64 work() starts with a 5-byte nop: kernels that optimise
# uprobes there take a few microseconds a hit instead of tens.
cat >burst.c <<'SRC'
#include <stdlib.h>
__attribute__((noinline)) int work(int n, const char *s)
{
#ifdef __x86_64__
	asm volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00");
#endif
	return n * 3 + s[0];
}
volatile int sink;
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);

	for (int i = 0; i < n; i++)
		sink += work(i, "burst");
	return 0;
}
SRC

# The losses the kernel counts include the task's own records lost with
# them (its exit, its name at exec): a few more than the events.
accounted() {
	test "$1" -ge "$2" && test "$1" -le $(($2 + 3))
}

# events FILE: the number of event lines; lost FILE: the sum of its LOST lines.
events() {
	grep -c "^ *[0-9.]* burst/[0-9]* $G:ev(" "$1"
}
lost_inline() {
	sed -n "s/^LOST \([0-9]*\) events!\$/\1/p" "$1" | awk "{ s += \$1 } END { print s + 0 }"
}
lost_total() {
	sed -n "s/^perf trace: LOST \([0-9]*\) events in total!.*/\1/p" "$1"
}

test_expect_success 'setup: a probed function called in a loop' '
	build_prog "$TEST_TMP/burst" burst.c -O1 &&
	"$PERF" probe -x "$TEST_TMP/burst" -a "$G:ev=work %di:s32 +0(%si):string" 2>/dev/null
'

test_expect_success "$N events: exit 0, every event printed or counted as lost, memory bounded" '
	start=$(date +%s)
	"$PERF" trace -v -e "$G:ev" -o out -- "$TEST_TMP/burst" $N 2>err; rc=$?
	end=$(date +%s)
	cat err
	echo "$((end - start)) s"
	test $rc = 0 &&
	seen=$(events out) &&
	lost=$(lost_total err) &&
	echo "seen $seen lost ${lost:-0}" &&
	accounted $((seen + ${lost:-0})) $N &&
	test $(lost_inline out) -le ${lost:-0} &&
	rss=$(sed -n "s/.* max RSS \([0-9]*\) kB$/\1/p" err) &&
	test "$rss" -lt 65536 &&
	tail -n 1 out | grep -q "arg1: 999999, arg2: \"burst\")$"
'

test_expect_success 'a reader that falls behind loses events and says how many' '
	"$PERF" trace -m 1 -e "$G:ev" -o /dev/stdout -- "$TEST_TMP/burst" 200000 2>err |
		{ sleep 2; cat >out; }
	cat err
	lost=$(lost_total err) &&
	test -n "$lost" && test "$lost" -gt 0 &&
	test $(lost_inline out) -le $lost &&
	accounted $(($(events out) + lost)) 200000
'

test_done
