#include <stdio.h>
#include <stdlib.h>
static long total;
static inline __attribute__((always_inline)) void account(long v, long scale)
{
	total += v * scale;
}
__attribute__((noinline)) void a(long v) { account(v, 3); }
__attribute__((noinline)) void b(long v, long s) { account(v, s); }
int main(int argc, char **argv)
{
	a(argc + 4);
	b(argc, atol(argc > 1 ? argv[1] : "7"));
	printf("total=%ld\n", total);
	return 0;
}
