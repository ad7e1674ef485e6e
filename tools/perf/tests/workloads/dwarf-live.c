#include <stdio.h>
#include <stdlib.h>
struct flags { unsigned urgent:1; unsigned prio:3; };
struct req { int id; long len; char name[16]; const char *peer; struct flags fl; struct req *next; };
long total = 5;
__attribute__((noinline)) int handle(struct req *req, int n)
{
	total += req->len * n;
	return req->id + n;
}
int main(int argc, char **argv)
{
	struct req other = { .id = 99 };
	struct req r = { .id = atoi(argv[1]), .len = 42, .name = "alpha", .peer = "peer-one",
			 .fl = { 1, 5 }, .next = &other };
	int v = handle(&r, 3);
	printf("id=%d len=%ld name=%s peer=%s prio=%d next=%d ret=%d total=%ld\n", r.id, r.len,
	       r.name, r.peer, r.fl.prio, other.id, v, total);
	return 0;
}
