#include <stdio.h>
#include "req.h"

int counter = 3;
static long total;

static inline int square(int v) { return v * v; }

int handle(struct req *req, int n)
{
	int i, s = 0;
	for (i = 0; i < n; i++) {
		s += square(i);
		total += req->len;
	}
	counter++;
	if (req->u.i)
		s++;
	return s + req->id;
}

int main(int argc, char **argv)
{
	struct req r = { .id = 7, .len = 42, .name = "abc", .peer = "peer1" };
	r.arr[2] = 9;
	int x = handle(&r, argc + 2);
	x += consume(r.name, 5, 'c');
	printf("%d %s %ld\n", x, r.name, total);
	return 0;
}
