#!/bin/sh
test_description='a writer that fails on a full disk removes only what it made'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The cache on a tmpfs of 200k that holds one copy of a 120k program: a
# second copy runs out of space.
G=fs_full
test_probe_group $G
M=$TEST_TMP/small

test_expect_success ROOT 'setup: a 200k tmpfs and a program half its size' '
	mkdir "$M" && mount -t tmpfs -o size=200k nodev "$M" &&
	cat >big.c <<-\EOF &&
	const char pad[120000] = { 1 };
	int handle(int x) { return x + pad[x & 1]; }
	int main(int argc, char **argv) { (void)argv; return handle(argc); }
	EOF
	build_prog "$TEST_TMP/big" big.c -g -O1 &&
	build_prog "$TEST_TMP/huge" big.c -g -O1 -DX -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 &&
	cat "$TEST_TMP/big" "$TEST_TMP/big" >>"$TEST_TMP/huge" &&
	mkdir "$M/.debug"
'
test_cleanup 'umount "$M" 2>/dev/null'

test_expect_success ROOT 'a first add that runs out of space leaves no directory, no temporary file' '
	PERF_BUILDID_DIR=$M/.debug test_refuses --cache "$M/.debug" \
		"$PERF" buildid-cache -a "$TEST_TMP/huge" &&
	grep -q "No space left on device" err &&
	test -z "$(ls -A "$M/.debug")"
'

test_expect_success ROOT 'a cached spec survives a failing update of its entry' '
	PERF_BUILDID_DIR=$M/.debug "$PERF" probe --cache -n -q -x "$TEST_TMP/big" -a "$G:e1=handle" &&
	PERF_BUILDID_DIR=$M/.debug test_must_fail "$PERF" buildid-cache -u "$TEST_TMP/big" 2>err &&
	grep -q "No space left on device" err &&
	PERF_BUILDID_DIR=$M/.debug "$PERF" probe --cache --list >out &&
	grep -qx "$G:e1=handle" out &&
	! find "$M/.debug" -name "*.tmp.*" | grep -q .
'

# The writer that fails saw no entry when it began: it made the
# directories; another then filled them and reported its spec cached.
# The first must not remove that entry when its own copy fails.
test_expect_success ROOT,STRACE_INJECT 'a failing first add does not remove the entry another writer committed' '
	for i in 1 2 3; do
		rm -rf "${M:?}/.debug" && mkdir "$M/.debug" &&
		# the failing one: held 1 s at its first mkdir, then copies
		PERF_BUILDID_DIR=$M/.debug ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
			strace -qq -f -o /dev/null -e trace=mkdir,mkdirat \
			-e inject=mkdir,mkdirat:delay_enter=1000000:when=1 \
			"$PERF" buildid-cache -u "$TEST_TMP/big" 2>/dev/null &
		pid=$! &&
		sleep 0.3 &&
		PERF_BUILDID_DIR=$M/.debug "$PERF" probe --cache -n -q -x "$TEST_TMP/big" -a "$G:r$i=handle" &&
		echo "$G:r$i=handle" >acked &&
		{ ! wait $pid || { echo "the update did not fail" >&2; exit 1; }; } &&
		PERF_BUILDID_DIR=$M/.debug "$PERF" probe --cache --list >out &&
		grep -qxF "$(cat acked)" out || { echo "lost $(cat acked) in round $i" >&2; exit 1; }
	done
'

test_done
