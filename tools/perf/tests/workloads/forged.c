#include <stdio.h>
#include <stdlib.h>
/* First in .text, so that builds with other flags start it at the same address. */
__attribute__((noinline)) int handle(int len, int seq)
{
	int sum = len + seq;
	return sum * 2;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
	for (int i = 0; i < n; i++)
		s += handle(40 + i, i);
	printf("s=%d\n", s);
	return 0;
}
