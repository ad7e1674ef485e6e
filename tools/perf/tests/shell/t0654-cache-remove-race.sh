#!/bin/sh
test_description='writers and removers of one entry at once: nothing acknowledged is lost, nothing removed comes back'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=fs_race
test_probe_group $G

test_expect_success 'setup: a program' '
	build_workload handle-int "$TEST_TMP/app" -O1
'

# add SPEC [STRACE-ARGS]: cache SPEC; on success it is acknowledged.
add() {
	_spec=$1
	shift
	if [ $# -gt 0 ]; then
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -qq -f -o /dev/null "$@" \
			"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$_spec" 2>/dev/null
	else
		"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$_spec" 2>/dev/null
	fi && echo "$_spec" >>"$TEST_TMP/acked.$_spec"
}

# A writer holds the lock with the old content read and is slowed at its
# first directory listing (the cleanup of junk before it writes); a
# remover and a writer that adds the entry again come meanwhile.
# The slow writer's old content must not land in the new entry, and the
# spec the last writer reported cached must be there.
test_expect_success STRACE_INJECT 'a slow writer, a remove, a new add: the order holds' '
	for i in 1 2 3; do
		"$PERF" buildid-cache -r "$TEST_TMP/app" 2>/dev/null
		add "$G:old$i=handle" || exit 1
		add "$G:slow$i=handle" -e trace=getdents64 \
			-e inject=getdents64:delay_enter=1000000:when=1 &
		pid=$! &&
		sleep 0.4 &&
		"$PERF" buildid-cache -r "$TEST_TMP/app" &&
		add "$G:new$i=handle" &&
		{ wait $pid; true; } &&	# it may lose to the remove: then it says so
		"$PERF" probe --cache --list >out &&
		! grep -qxF "$G:old$i=handle" out &&
		grep -qxF "$G:new$i=handle" out ||
			{ echo "round $i:" >&2; cat out >&2; exit 1; }
	done
'

# Many writers and removers in a loop: each writer that succeeds after the
# last remove ended must find its spec; no spec of before that remove stays.
test_expect_success 'writers and removers in a loop: the cache is one of the orders' '
	"$PERF" buildid-cache -r "$TEST_TMP/app" 2>/dev/null
	add "$G:seed=handle" &&
	for r in 1 2 3 4; do
		for w in 1 2 3; do add "$G:w${r}_$w=handle" & done
		"$PERF" buildid-cache -r "$TEST_TMP/app" 2>/dev/null &
		wait
	done &&
	"$PERF" buildid-cache -r "$TEST_TMP/app" 2>/dev/null
	for w in 1 2 3; do add "$G:last$w=handle" & done
	wait &&
	"$PERF" probe --cache --list >out &&
	for w in 1 2 3; do grep -qxF "$G:last$w=handle" out || exit 1; done &&
	! grep -q "seed\|w[0-9]_" out
'

test_done
