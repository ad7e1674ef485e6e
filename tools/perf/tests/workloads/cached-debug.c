#include <stdio.h>
struct conn { int fd; const char *peer; };
struct req { int len; struct conn *conn; };
int served;
__attribute__((noinline)) int handle(struct req *r, int seq)
{
	int total = r->len + seq;

	served++;
	return total;
}
int main(void) { struct conn c = { 3, "peer" }; struct req r = { 41, &c };
	printf("%d\n", handle(&r, 1)); return 0; }
