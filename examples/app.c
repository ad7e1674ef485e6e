/*
 * The bundled example for `make demo`: a tiny request handler whose
 * functions and arguments are worth probing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct conn {
	int fd;
	const char *peer;
};

struct request {
	int len;
	unsigned int flags;
	struct conn *conn;
};

__attribute__((noinline)) int handle_request(struct request *req, int seq)
{
	int cost = req->len * 2 + seq + (int)strlen(req->conn->peer);

	if (req->flags & 1)
		cost += 100;
	return cost;
}

int main(int argc, char **argv)
{
	static const char *peers[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3" };
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long total = 0;

	for (int i = 0; i < n; i++) {
		struct conn c = { .fd = 3 + i, .peer = peers[i % 3] };
		struct request req = { .len = 10 * (i + 1), .flags = i, .conn = &c };

		total += handle_request(&req, i);
	}
	printf("handled %d requests, total cost %ld\n", n, total);
	return 0;
}
