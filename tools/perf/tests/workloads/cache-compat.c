#include <stdio.h>
#include <stdlib.h>
struct c14_req { int len; struct c14_req *next; };
__attribute__((noinline)) int c14_handle(struct c14_req *r, int seq)
{
	int v = r->len + seq;
	return v * 2;
}
__attribute__((noinline)) int c14_loop(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		struct c14_req r = { 41 + i, NULL };
		s += c14_handle(&r, i);
	}
	return s;
}
int main(int argc, char **argv)
{
	printf("%d\n", c14_loop(argc > 1 ? atoi(argv[1]) : 3));
	return 0;
}
