#!/bin/sh
# Run every unit test binary and every shell test, count their TAP lines and
# end with one line: "N passed, N failed, N skipped".
# O: the build directory holding tests/ (default build).  T: a pattern to
# run only the shell tests whose file name matches (e.g. T=buildid).
# SANITIZE=1: the binaries are built with ASan+LSan+UBSan; their reports are
# written to files, and a suite that leaves one fails even when its own
# checks passed (a test_must_fail case would hide a sanitizer's exit status).
# PERF_SANITIZER_LOGS: that directory, for the net's own test (t0901).
cd "$(dirname "$0")/../../.." || exit 1
O=${O:-build}
T=${T:-}
passed=0 failed=0 skipped=0
failed_names=""

count() {
	# $1: suite name; stdin: TAP output
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case "$line" in
		"not ok "*"# TODO"*) ;;
		"not ok "*)
			failed=$((failed + 1))
			failed_names="$failed_names
  $1: ${line#not ok }" ;;
		"ok "*"# skip"* | "ok "*"# SKIP"*) skipped=$((skipped + 1)) ;;
		"ok "*) passed=$((passed + 1)) ;;
		esac
	done
	echo "$passed $failed $skipped" >"$tmp/counts"
	printf '%s' "$failed_names" >"$tmp/names"
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The test programs (tools/perf/tests/workloads) are built once per source
# and flags for all the shell tests, under the build directory.
mkdir -p "$O/tests/workloads" &&
	PERF_TEST_WORKLOADS=$(cd "$O/tests/workloads" && pwd) || exit 1
export PERF_TEST_WORKLOADS

if [ "${SANITIZE:-}" = 1 ]; then
	mkdir "$tmp/san" || exit 1
	# Only binaries built with the sanitizers read these; the system perf
	# and the test programs the scripts compile ignore them.
	export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$tmp/san/asan"
	# UBSan beside ASan (GCC) writes to stderr whatever log_path says;
	# tests/sanitizer-report.c, linked into those binaries, writes the
	# report's gist to the file, and abort_on_error makes a report a
	# SIGABRT, which test_must_fail and test_refuses refuse.
	export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$tmp/san/ubsan"
	# A leak of glibc's own stdio is suppressed (tests/lsan.supp says why).
	LSAN_OPTIONS="report_objects=1:print_suppressions=0:suppressions=$PWD/tools/perf/tests/lsan.supp"
	export LSAN_OPTIONS
	export PERF_SANITIZER_LOGS="$tmp/san"
fi

# A suite that left sanitizer reports fails, with the reports shown.
check_sanitizer_reports() {
	[ -d "$tmp/san" ] || return 0
	for f in "$tmp/san"/*; do
		[ -e "$f" ] || return 0
		sed 's/^/# /' "$f"
	done
	failed=$((failed + 1))
	failed_names="$failed_names
  $1: sanitizer report"
	echo "not ok - $1 sanitizer report"
	rm -f "$tmp/san"/*
}

run_suite() {
	name=$1
	shift
	echo "# $name"
	"$@" >"$tmp/out" 2>&1
	rc=$?
	count "$name" <"$tmp/out"
	read -r passed failed skipped <"$tmp/counts"
	failed_names=$(cat "$tmp/names")
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$tmp/out"; then
		failed=$((failed + 1))
		failed_names="$failed_names
  $name: exited with status $rc"
		echo "not ok - $name exited with status $rc"
	fi
	check_sanitizer_reports "$name"
}

if [ -z "$T" ]; then
	for t in "$O"/tests/test-*; do
		[ -x "$t" ] || continue
		run_suite "$(basename "$t")" "$t"
	done
fi
for t in tools/perf/tests/shell/t[0-9]*.sh; do
	[ -e "$t" ] || continue
	case "$(basename "$t")" in *"$T"*) ;; *) continue ;; esac
	run_suite "$(basename "$t" .sh)" sh "$t"
done

if [ -n "$failed_names" ]; then
	echo "# failed:$failed_names"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
