#!/bin/sh
test_description='perf probe --cache --list from its kept listing (ROOT/.probe-list): no probes file or binary opened while nothing changed, and the same listing as a full walk after every kind of change'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_lazy_prereq STRACE 'command -v strace'

# list_is_walked: --cache --list prints what a walk of every entry prints
# (the listing is made again with the kept file removed, then restored).
list_is_walked() {
	"$PERF" probe --cache --list >got 2>got.err &&
	mv "$HOME/.debug/.probe-list" kept &&
	"$PERF" probe --cache --list >walked 2>walked.err &&
	test_cmp_file walked got &&
	test_cmp_file walked.err got.err
}

test_expect_success 'setup: three programs with cached probes' '
	for i in 1 2 3; do
		printf "int main(void) { return %d; }\n" $i >p$i.c &&
		build_prog "$TEST_TMP/p$i" p$i.c -g || exit 1
		"$PERF" probe --cache -n -q -x "$TEST_TMP/p$i" -a main || exit 1
	done &&
	"$PERF" probe --cache --list >first &&
	test -f "$HOME/.debug/.probe-list" &&
	grep -c "^main$" first >n &&
	test "$(cat n)" = 3
'

test_expect_success STRACE 'an unchanged cache is listed without opening a probes file or a binary' '
	"$PERF" probe --cache --list >second &&
	test_cmp_file first second &&
	# LeakSanitizer can not run under ptrace (SANITIZE=1)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=open,openat -o trace "$PERF" probe --cache --list >third &&
	test_cmp_file first third &&
	! grep "/probes\"\|/p[123]\"" trace
'

test_expect_success 'a probe added to a cached build shows' '
	"$PERF" probe --cache -n -q -x "$TEST_TMP/p1" -a "main%return" &&
	list_is_walked &&
	grep -q "^main%return$" got
'

test_expect_success SYSTEM_PERF_PROBE 'a probes file written by the system perf shows' '
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/p2" -a "main%return" >/dev/null 2>&1 &&
	"$PERF" probe --cache --list >got &&
	sed -n "/\/p2 /,/^\//p" got | grep -q "^main%return$"
'

test_expect_success 'a binary rebuilt at its path is no longer listed under its old build-id' '
	old=$(build_id_of "$TEST_TMP/p3") &&
	printf "int main(void) { return 33; }\n" >p3.c &&
	build_prog "$TEST_TMP/p3" p3.c -g &&
	list_is_walked &&
	! grep -q "$old" got
'

test_expect_success 'a build removed from the build-id cache is no longer listed' '
	bid=$(build_id_of "$TEST_TMP/p2") &&
	"$PERF" probe --cache --list | grep -q "$bid" &&
	"$PERF" buildid-cache --remove "$TEST_TMP/p2" &&
	list_is_walked &&
	! grep -q "$bid" got
'

test_expect_success 'a kept listing that is broken or of another cache is not used' '
	"$PERF" probe --cache --list >expect &&
	printf "perf-probe-list 1 0\n" >"$HOME/.debug/.probe-list" &&
	"$PERF" probe --cache --list >got &&
	test_cmp_file expect got &&
	head -c 100 "$HOME/.debug/.probe-list" >cut &&
	mv cut "$HOME/.debug/.probe-list" &&
	"$PERF" probe --cache --list >got &&
	test_cmp_file expect got &&
	mkfifo fifo && rm -f "$HOME/.debug/.probe-list" &&
	mv fifo "$HOME/.debug/.probe-list" &&
	"$PERF" probe --cache --list >got &&
	test_cmp_file expect got
'

test_expect_success 'a filter applies to the kept listing' '
	"$PERF" probe --cache --list >/dev/null &&
	"$PERF" probe --cache --list "main%*" >got &&
	! grep -q "^main$" got &&
	grep -q "^main%return$" got
'

test_expect_success 'a corrupt probes file is reported every time, not kept away' '
	bid=$(build_id_of "$TEST_TMP/p1") &&
	f=$(probes_file "$TEST_TMP/p1") &&
	printf "garbage\n" >"$f" &&
	test_must_fail "$PERF" probe --cache --list >out 2>err &&
	grep -q "corrupt probe cache" err &&
	test_must_fail "$PERF" probe --cache --list >out 2>err &&
	grep -q "corrupt probe cache" err
'

test_done
