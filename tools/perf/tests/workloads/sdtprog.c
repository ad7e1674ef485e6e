#include <stdio.h>
#include <stdlib.h>
#include "sdtprog-provider.h"

__attribute__((noinline)) static void a(int n, long l, const char *s)
{
	if (PERFTEST_SDT_FOO_BAR_ENABLED())
		PERFTEST_SDT_FOO_BAR(n, l, s);
	PERFTEST_SDT_TWICE(n + 1);
}

__attribute__((noinline)) static void b(char c, short s, unsigned char uc, unsigned short us)
{
	PERFTEST_SDT_SMALL(c, s, uc, us);
	PERFTEST_SDT_TWICE(c);
	PERFTEST_SDT_NOARGS();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	printf("foo__bar enabled: %d\n", PERFTEST_SDT_FOO_BAR_ENABLED() ? 1 : 0);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		a(100 + i, -1000L * i, "hello");
		b((char)-i, (short)(-2 * i), (unsigned char)i, (unsigned short)i);
	}
	return 0;
}
