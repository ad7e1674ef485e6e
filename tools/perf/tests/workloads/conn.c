#include <stdio.h>
#include <stdlib.h>
struct conn { int fd; const char *peer; };
struct req { int len; struct conn *conn; };
__attribute__((noinline)) int handle(struct req *r, int seq)
{
	return r->len + seq;
}
int main(int argc, char **argv)
{
	static const char *peers[] = { "peer-one", "peer-two" };
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
	for (int i = 0; i < n; i++) {
		struct conn c = { 7 + i, peers[i % 2] };
		struct req r = { 41 + i, &c };
		printf("len=%d peer=%s\n", r.len, c.peer);
		s += handle(&r, i);
	}
	return s == -1;
}
