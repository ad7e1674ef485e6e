#!/bin/sh
test_description='perf probe refuses bad input with one clear line and leaves tracefs as it was'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# tracefs mounted when root: test_refuses --tracefs watches the events on
# our own files.
test_have_prereq TRACEFS
build_workload work-plus-one "$TEST_TMP/prog" -O1 || exit 1
long=$(printf "%05000d" 0 | tr 0 a)

test_expect_success 'an empty spec' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a ""'
test_expect_success 'an empty event name: =x' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "=work"'
test_expect_success 'an argument with two names: a b=c=d' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "work b=c=d"'
test_expect_success 'a misspelt %return' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "work%retur"'
test_expect_success 'an empty source file: f@' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "work@"'
test_expect_success 'an offset without digits: +0x' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "work+0x"'
test_expect_success 'an unknown register %zz' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "work %zz"'
test_expect_success 'a 5000-character spec' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a "$long"'
test_expect_success 'a function that does not exist' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/prog" -a no_such_function'
test_expect_success 'an executable that does not exist' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/nope" -a work'
test_expect_success 'a directory as -x' 'test_refuses --tracefs "$PERF" probe -x "$TEST_TMP" -a work'
test_expect_success 'a text file as -x' 'echo hi >text && test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/text" -a work'
test_expect_success 'the offending part is named in the message' '
	test_must_fail "$PERF" probe -x "$TEST_TMP/prog" -a "work%retur" 2>err &&
	grep -q "%retur" err
'
test_done
