#!/bin/sh
test_description='perf probe refuses bad input with one clear line and leaves tracefs as it was'
. "$(dirname "$0")/lib.sh"

cat >prog.c <<'SRC'
int work(int a) { return a + 1; }
int main(void) { return work(0); }
SRC
build_prog "$TEST_TMP/prog" prog.c -O1 || exit 1
setup_tracefs 2>/dev/null
long=$(printf "%05000d" 0 | tr 0 a)

# Only the events on our own files: other test runs on the machine may add
# and remove theirs meanwhile.
snapshot() {
	cat "$TRACEFS/uprobe_events" "$TRACEFS/kprobe_events" 2>/dev/null | grep -F "$TEST_TMP"
	return 0
}

# refuses NAME ARGS...: one line on stderr, exit non-zero (not a signal),
# tracefs unchanged.
refuses() {
	snapshot >before
	test_must_fail "$PERF" probe "$@" 2>err &&
	test_one_line err &&
	snapshot >after &&
	cmp -s before after
}

test_expect_success 'an empty spec' 'refuses -x "$TEST_TMP/prog" -a ""'
test_expect_success 'an empty event name: =x' 'refuses -x "$TEST_TMP/prog" -a "=work"'
test_expect_success 'an argument with two names: a b=c=d' 'refuses -x "$TEST_TMP/prog" -a "work b=c=d"'
test_expect_success 'a misspelt %return' 'refuses -x "$TEST_TMP/prog" -a "work%retur"'
test_expect_success 'an empty source file: f@' 'refuses -x "$TEST_TMP/prog" -a "work@"'
test_expect_success 'an offset without digits: +0x' 'refuses -x "$TEST_TMP/prog" -a "work+0x"'
test_expect_success 'an unknown register %zz' 'refuses -x "$TEST_TMP/prog" -a "work %zz"'
test_expect_success 'a 5000-character spec' 'refuses -x "$TEST_TMP/prog" -a "$long"'
test_expect_success 'a function that does not exist' 'refuses -x "$TEST_TMP/prog" -a no_such_function'
test_expect_success 'an executable that does not exist' 'refuses -x "$TEST_TMP/nope" -a work'
test_expect_success 'a directory as -x' 'refuses -x "$TEST_TMP" -a work'
test_expect_success 'a text file as -x' 'echo hi >text && refuses -x "$TEST_TMP/text" -a work'
test_expect_success 'the offending part is named in the message' '
	test_must_fail "$PERF" probe -x "$TEST_TMP/prog" -a "work%retur" 2>err &&
	grep -q "%retur" err
'
test_done
