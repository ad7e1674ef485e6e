#!/bin/sh
# Run every unit test binary and every shell test, count their TAP lines and
# end with one line: "N passed, N failed, N skipped".
# O: the build directory holding tests/ (default build).  T: a pattern to
# run only the shell tests whose file name matches (e.g. T=buildid).
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
