/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_TESTS_UNIT_TEST_H
#define PERF_TESTS_UNIT_TEST_H

/*
 * A small TAP harness for the C unit tests.  Each test is a function
 * registered in a TESTS() table; checks inside it record failures with the
 * line and go on.  The program prints TAP ("ok N - name") and exits non-zero
 * when any test failed.  tests/run.sh counts the lines.
 *
 *	static void test_parses_entry(void) { CHECK_INT(f(), ==, 0); }
 *	TESTS(TEST(test_parses_entry));
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

static int unit_test_failed_checks;

#define TEST(fn)        \
	{               \
#fn, fn \
	}

#define CHECK(cond)                                                                         \
	do {                                                                                \
		if (!(cond)) {                                                              \
			printf("#   %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			unit_test_failed_checks++;                                          \
		}                                                                           \
	} while (0)

#define CHECK_INT(a, op, b)                                                                    \
	do {                                                                                   \
		long long _a = (long long)(a), _b = (long long)(b);                            \
		if (!(_a op _b)) {                                                             \
			printf("#   %s:%d: check failed: %s %s %s (%lld vs %lld)\n", __FILE__, \
			       __LINE__, #a, #op, #b, _a, _b);                                 \
			unit_test_failed_checks++;                                             \
		}                                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *_a = (a), *_b = (b);                                                   \
		if (!_a || !_b || strcmp(_a, _b)) {                                                \
			printf("#   %s:%d: check failed: %s == %s (\"%s\" vs \"%s\")\n", __FILE__, \
			       __LINE__, #a, #b, _a ? _a : "(null)", _b ? _b : "(null)");          \
			unit_test_failed_checks++;                                                 \
		}                                                                                  \
	} while (0)

#define TESTS(...)                                                                                \
	int main(void)                                                                            \
	{                                                                                         \
		static const struct unit_test tests[] = { __VA_ARGS__ };                          \
		int n = sizeof(tests) / sizeof(tests[0]), failed = 0;                             \
		printf("1..%d\n", n);                                                             \
		for (int i = 0; i < n; i++) {                                                     \
			int before = unit_test_failed_checks;                                     \
			tests[i].fn();                                                            \
			if (unit_test_failed_checks != before)                                    \
				failed++;                                                         \
			printf("%sok %d - %s\n", unit_test_failed_checks != before ? "not " : "", \
			       i + 1, tests[i].name);                                             \
			fflush(stdout);                                                           \
		}                                                                                 \
		return failed ? 1 : 0;                                                            \
	}

#endif
