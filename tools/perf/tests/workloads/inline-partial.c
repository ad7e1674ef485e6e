#include <stdio.h>
#include <stdlib.h>
static long total;
__attribute__((noinline)) long ext(void) { return random() & 0xff; }
static inline __attribute__((always_inline)) void tally(long v, long scale)
{
	if (scale)
		total += v * scale;
	else
		total++;
}
__attribute__((noinline)) void a(long *p) { tally(*p * 3 + ext(), 0); }
__attribute__((noinline)) void b(long v, long s) { tally(v, s); }
int main(int argc, char **argv)
{
	long x = argc + 4;
	a(&x);
	b(argc, atol(argc > 1 ? argv[1] : "7"));
	printf("total=%ld\n", total);
	return 0;
}
