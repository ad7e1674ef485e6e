#!/bin/sh
test_description='make test SANITIZE=1 fails on a sanitizer report, even under test_must_fail'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The net is that of tests/run.sh with SANITIZE=1 (ASAN_OPTIONS,
# UBSAN_OPTIONS, the report directory PERF_SANITIZER_LOGS) and of the
# Makefile (the flags, tests/sanitizer-report.c).  A program built as
# build-san's binaries are, with undefined behaviour or a heap overflow
# behind an environment variable, shows that a report is fatal and lands
# in the directory run.sh checks; the cases then remove what it wrote.
if [ "${SANITIZE:-}" != 1 ] || [ ! -d "${PERF_SANITIZER_LOGS:-}" ]; then
	test_skip_all 'not a make test SANITIZE=1 run'
fi

SAN_FLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all'

test_expect_success GCC 'setup: a program with a shift by 64 and a heap overflow on request' '
	cat >bad.c <<-\EOT &&
	#include <stdlib.h>
	#include <stdio.h>
	int main(void)
	{
		const char *s = getenv("SHIFT"), *h = getenv("OVERFLOW");
		unsigned long one = 1;

		if (h) {
			char *p = malloc(4);

			p[atoi(h)] = 1;
			free(p);
		}
		/* A shift by 64 is undefined; exit 1 the way perf refuses input. */
		printf("%lu\n", one << (s ? atoi(s) : 1));
		return 1;
	}
	EOT
	# shellcheck disable=SC2086
	gcc -g $SAN_FLAGS -o bad bad.c "$TEST_ROOT/tools/perf/tests/sanitizer-report.c"
'

# reports KIND: are there KIND reports (ubsan, asan) in the run's
# directory?  Removed then: run.sh checks it after each script, so any
# report there is this script's.
reports() {
	ls "$PERF_SANITIZER_LOGS/$1".* >found 2>/dev/null || return 1
	xargs rm -f <found
}

test_expect_success GCC 'a program exiting 1 without undefined behaviour passes test_must_fail' '
	SHIFT=1 test_must_fail ./bad >out 2>err &&
	! reports ubsan && ! reports asan
'

test_expect_success GCC 'undefined behaviour under test_must_fail fails the case (SIGABRT)' '
	test_when_finished "reports ubsan" &&
	! SHIFT=64 test_must_fail ./bad >out 2>err &&
	grep -q "shift exponent 64" err
'

test_expect_success GCC 'undefined behaviour leaves a report where run.sh looks, stderr or not' '
	SHIFT=64 ./bad >out 2>/dev/null
	test $? -eq 134 &&
	grep -il "shift exponent 64" "$PERF_SANITIZER_LOGS"/ubsan.* >found &&
	grep -iq "bad\.c:.*runtime error: shift exponent 64" "$(head -n1 found)" &&
	grep -q "^  in: \./bad$" "$(head -n1 found)" &&
	reports ubsan
'

test_expect_success GCC 'a heap overflow under test_must_fail fails the case and leaves a report' '
	test_when_finished "reports asan" &&
	! OVERFLOW=8 test_must_fail ./bad >out 2>err &&
	grep -q "heap-buffer-overflow" "$PERF_SANITIZER_LOGS"/asan.*
'

test_done
