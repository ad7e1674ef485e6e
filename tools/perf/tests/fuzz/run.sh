#!/bin/sh
# Run each libFuzzer target for a while on its seed corpus and say how many
# inputs it ran.  Usage: run.sh BUILD_DIR SECONDS TARGET...
# BUILD_DIR/fuzz-TARGET is the binary; tools/perf/tests/fuzz/corpus/TARGET
# the checked-in seeds (read only); new inputs go to BUILD_DIR/corpus/TARGET
# and crashes to BUILD_DIR/crashes/TARGET-*.  Fails when any target crashed.
cd "$(dirname "$0")/../../../.." || exit 1
o=$1 seconds=$2
shift 2
failed=""
mkdir -p "$o/crashes" || exit 1
for t in "$@"; do
	seeds=tools/perf/tests/fuzz/corpus/$t
	work=$o/corpus/$t
	log=$o/fuzz-$t.log
	mkdir -p "$work"
	[ -d "$seeds" ] || seeds=
	# -close_fd_mask=2: the parsers' error messages would drown the fuzzer;
	# its own output and the sanitizers' reports still get through.
	"$o/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -close_fd_mask=2 \
		-artifact_prefix="$o/crashes/$t-" "$work" ${seeds:+"$seeds"} >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ $rc -eq 0 ]; then
		echo "fuzz-$t: ${execs:-?} executions in ${seconds}s, no crash"
	else
		echo "fuzz-$t: CRASHED after ${execs:-?} executions (status $rc); log $log:"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)|: runtime error:' \
			"$log" | sed 's/^/  /'
		failed="$failed $t"
	fi
done
if [ -n "$failed" ]; then
	echo "crashed:$failed (reproduce: BUILD_DIR/fuzz-TARGET CRASH_FILE)"
	exit 1
fi
