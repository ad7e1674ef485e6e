#!/bin/sh
test_description='perf trace -o on a full disk: the write error said, the events not written counted, exit non-zero'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root for tracefs, perf_event_open and a tmpfs'

G=perftest_tr_full
N=100000
test_probe_group $G
test_cleanup 'umount "$TEST_TMP/small" 2>/dev/null'

events() {
	grep -c "^ *[0-9.]* burst/[0-9]* $G:ev(" "$1"
}

test_expect_success 'setup: a probed function called in a loop, a 64 KiB tmpfs' '
	build_workload burst "$TEST_TMP/burst" -O1 &&
	"$PERF" probe -x "$TEST_TMP/burst" -a "$G:ev=work %di:s32" 2>/dev/null &&
	mkdir small && mount -t tmpfs -o size=64k nodev small
'

test_expect_success "$N events into 64 KiB: one error line, the unwritten counted, exit 1" '
	"$PERF" trace -v -e "$G:ev" -o small/out -- "$TEST_TMP/burst" $N 2>err; rc=$?
	cat err
	test $rc = 1 &&
	test "$(grep -c "^perf trace: cannot write small/out: No space left on device$" err)" = 1 &&
	written=$(events small/out) &&
	unwritten=$(sed -n "s/^perf trace: \([0-9]*\) of \([0-9]*\) events not written to small\/out$/\1/p" err) &&
	total=$(sed -n "s/^perf trace: \([0-9]*\) of \([0-9]*\) events not written to small\/out$/\2/p" err) &&
	lost=$(sed -n "s/^perf trace: LOST \([0-9]*\) events in total!.*/\1/p" err) &&
	echo "written $written unwritten $unwritten total $total lost ${lost:-0}" &&
	test "$written" -gt 0 && test "$unwritten" -gt 0 &&
	test $((written + unwritten)) = "$total" &&
	grep -q "^perf trace: $written events printed, $unwritten not written, ${lost:-0} lost" err &&
	# Every line in the file is whole: nothing is cut in two.
	test "$(tail -c 1 small/out | od -An -c | tr -d " ")" = "\\n"
'

test_expect_success 'with room, the same trace writes everything and exits 0' '
	"$PERF" trace -v -e "$G:ev" -o out -- "$TEST_TMP/burst" 1000 2>err &&
	test "$(events out)" = 1000 &&
	grep -q "^perf trace: 1000 events printed, 0 not written, 0 lost" err &&
	! grep -q "not written to" err
'

test_done
