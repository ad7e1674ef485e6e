#include <stdio.h>
#include <stdlib.h>
__attribute__((cold, noinline)) void report(int v) { fprintf(stderr, "bad %d\n", v); }
__attribute__((noinline)) int check(int v)
{
	int r = v * 3;
	if (__builtin_expect(v < 0, 0)) {
		report(v);
		fprintf(stderr, "bad value %d %d\n", v, r);
		r = -1;
	}
	return r;
}
int main(int argc, char **argv) { return check(argc) == 3 ? 0 : 1; }
