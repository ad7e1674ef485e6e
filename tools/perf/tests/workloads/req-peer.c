#include <stdio.h>
struct req { int len; const char *peer; };
__attribute__((noinline)) int handle(struct req *r, int seq) { return r->len + seq; }
int main(void) { struct req r = { 41, "peer-one" }; int s = 0;
	for (int i = 0; i < 3; i++) s += handle(&r, i);
	printf("%d\n", s); return 0; }
