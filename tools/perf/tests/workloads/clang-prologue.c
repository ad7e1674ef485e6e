#include <stdio.h>
#include <stdlib.h>
long seen;
__attribute__((noinline)) long mix(long x, long k)
{
	seen += x * k;
	x = seen >> 2;
	return x + k;
}
int main(int argc, char **argv)
{
	long x = argc > 1 ? atol(argv[1]) : 11, k = argc > 2 ? atol(argv[2]) : 5;
	printf("mix(%ld, %ld) = %ld\n", x, k, mix(x, k));
	return 0;
}
