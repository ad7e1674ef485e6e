#!/bin/sh
test_description='a probe cache writer killed at each of its system calls leaves a whole file'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# t0600 kills writers at random instants; here strace stops one exactly on
# entering its Nth flock/write/fsync/rename (SIGKILL), before or after the
# rename that publishes the new file.
test_have_prereq STRACE_INJECT || test_skip_all 'no strace, or this strace cannot inject faults'

# killed_at SYSCALL WHEN PERF-ARGS...: run perf killed on entering its
# WHEN-th SYSCALL (if it makes that many).  Status 137 when killed.
killed_at() {
	sc=$1 when=$2
	shift 2
	# LeakSanitizer cannot work under ptrace (SANITIZE=1); the same
	# commands run untraced, with it, in this test and the others.
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -qq -f -o /dev/null -e trace="$sc" -e inject="$sc":signal=KILL:when="$when" \
		"$PERF" "$@" >/dev/null 2>&1
}

# The cache is whole: it lists, holds every entry it held before (specs in
# $TEST_TMP/keep), and the entry being written ($1) whole or not at all.
cache_is_whole() {
	"$PERF" probe --cache --list >list &&
	while read -r spec; do
		grep -qxF "$spec" list || { echo "lost: $spec" >&2; return 1; }
	done <"$TEST_TMP/keep" &&
	f=$(probes_file "$TEST_TMP/app") &&
	if grep -qxF "#probe_app:$1=handle" "$f"; then
		grep -q "^p:probe_app/$1 " "$f"
	else
		! grep -q "probe_app/$1 " "$f"
	fi
}

test_expect_success 'setup: a program and a cache of 3 entries' '
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	for e in e0 e1 e2; do
		"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$e=handle" || exit 1
	done &&
	printf "probe_app:%s=handle\n" e0 e1 e2 >"$TEST_TMP/keep"
'

test_expect_success 'an add killed at any flock, write, fsync or rename' '
	killed=0 &&
	for sc in flock write fsync renameat; do
		for when in 1 2 3; do
			ev=k_${sc}_$when
			killed_at $sc $when probe --cache -n -q -x "$TEST_TMP/app" -a "$ev=handle"
			[ $? -eq 137 ] && killed=$((killed + 1))
			cache_is_whole $ev || { echo "after a kill at $sc #$when" >&2; exit 1; }
			grep -qxF "probe_app:$ev=handle" list && echo "probe_app:$ev=handle" >>"$TEST_TMP/keep"
		done
	done &&
	echo "$killed writers killed" &&
	test $killed -ge 4
'

test_expect_success 'a --del killed at any fsync or rename' '
	grep -vxF "probe_app:e0=handle" "$TEST_TMP/keep" >k && mv k "$TEST_TMP/keep" &&
	for sc in fsync renameat; do
		for when in 1 2; do
			killed_at $sc $when probe --cache --del "probe_app:e0"
			cache_is_whole e0 || { echo "after a kill at $sc #$when" >&2; exit 1; }
			grep -qxF "probe_app:e0=handle" list ||
				"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "e0=handle" || exit 1
		done
	done
'

test_expect_success 'the next writer removes what the killed ones left' '
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "last=handle" &&
	! ls "$(dirname "$(probes_file "$TEST_TMP/app")")" | grep -q "probes.tmp"
'
test_done
