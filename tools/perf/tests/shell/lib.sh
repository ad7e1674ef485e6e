# Shared library of the shell tests, in the spirit of git's t/test-lib.sh.
#
#	test_description='what this script checks'
#	. "$(dirname "$0")/lib.sh"
#	test_expect_success 'a sentence naming the behaviour' '
#		"$PERF" buildid-list -i "$TEST_TMP/prog" >out &&
#		grep -q ... out
#	'
#	test_done
#
# Each case runs in a subshell inside $TEST_TMP (a fresh directory per
# script, removed at exit) with HOME=$TEST_TMP/home, so the build-id cache of
# both our perf and the system perf is private to the script.  Output of a
# case is shown only when it fails.  test_skip_all ends the script with a
# reason; test_cleanup registers a command run at exit, pass or fail.

TEST_ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
# PERF_BIN: the perf under test (make test SANITIZE=1 passes build-san/perf).
PERF=${PERF_BIN:-$TEST_ROOT/tools/perf/perf}
SYSTEM_PERF=${SYSTEM_PERF:-/usr/bin/perf}
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptest-$TEST_NAME.XXXXXX") || exit 1
export HOME="$TEST_TMP/home"
unset PERF_BUILDID_DIR PERF_CONFIG
mkdir -p "$HOME"
cd "$TEST_TMP" || exit 1

test_count=0
test_failed=0
_test_cleanups=""

test_cleanup() {
	_test_cleanups="$1
$_test_cleanups"
}

_test_exit() {
	rc=$?
	cd /
	if [ -n "$_test_cleanups" ]; then
		(eval "$_test_cleanups") >/dev/null 2>&1
	fi
	rm -rf "$TEST_TMP"
	exit $rc
}
trap _test_exit EXIT
trap 'exit 130' INT TERM

say() {
	printf '# %s\n' "$*"
}

test_expect_success() {
	test_count=$((test_count + 1))
	(cd "$TEST_TMP" && eval "$2") >"$TEST_TMP/.case.log" 2>&1
	if [ $? -eq 0 ]; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		printf '%s\n' "$2" | sed 's/^/#   | /'
		sed 's/^/#   /' "$TEST_TMP/.case.log" | tail -n 40
	fi
}

# test_skip NAME REASON: report one case as skipped.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # skip $2"
}

# test_skip_all REASON: skip the rest of the script.
test_skip_all() {
	echo "1..0 # skip $1"
	echo "ok $((test_count + 1)) - $TEST_NAME # skip $1"
	exit 0
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
	exit $?
}

# Prerequisites.
have_root() {
	[ "$(id -u)" = 0 ]
}

have_system_perf() {
	[ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" version >/dev/null 2>&1
}

# Build a C program: build_prog OUT SRC [CFLAGS...]
build_prog() {
	out=$1 src=$2
	shift 2
	${CC:-gcc} "$@" -o "$out" "$src"
}

# test_must_fail CMD...: CMD exits non-zero, and not through a signal.
test_must_fail() {
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif [ $rc -gt 128 ] && [ $rc -ne 129 ]; then
		echo "test_must_fail: '$*' died of a signal ($rc)" >&2
		return 1
	fi
	return 0
}

# test_one_line FILE: FILE holds exactly one non-empty line.
test_one_line() {
	n=$(grep -c . "$1")
	if [ "$n" -ne 1 ]; then
		echo "expected one line in $1, got $n:" >&2
		cat "$1" >&2
		return 1
	fi
}

# Snapshot of a directory tree (names, link targets, sizes) for "unchanged" checks.
tree_snapshot() {
	if [ -d "$1" ]; then
		(cd "$1" && find . -printf '%p %l %s\n' | sort)
	fi
}

# tracefs, for the live tests.  setup_tracefs mounts it when root and absent
# and sets TRACEFS; it fails when uprobe_events can't be written.
TRACEFS=/sys/kernel/tracing
setup_tracefs() {
	if [ ! -e "$TRACEFS/uprobe_events" ] && have_root; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	fi
	[ -w "$TRACEFS/uprobe_events" ]
}

# remove_probe_group GROUP: disable and delete every uprobe/kprobe event of
# GROUP straight through tracefs (not through the tool under test).
remove_probe_group() {
	for f in uprobe_events kprobe_events; do
		[ -w "$TRACEFS/$f" ] || continue
		[ -d "$TRACEFS/events/$1" ] && echo 0 >"$TRACEFS/events/$1/enable"
		grep -o "^[pr][0-9]*:$1/[^ ]*" "$TRACEFS/$f" | sed 's/^[pr][0-9]*:/-:/' |
			while read -r line; do echo "$line" >>"$TRACEFS/$f"; done
	done
	return 0
}

# test_cmp_file EXPECTED ACTUAL: the same content, else show the diff.
test_cmp_file() {
	diff -u "$1" "$2"
}
