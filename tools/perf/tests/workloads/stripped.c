/* Probed on every stripped form of one build (t0681-t0683): keep its lines. */
#include <stdio.h>
#include <stdlib.h>
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#else
#define DTRACE_PROBE2(provider, name, a, b) ((void)(a), (void)(b))
#endif

struct request {
	int len;
	unsigned int flags;
};

__attribute__((noinline)) int handle_request(struct request *req, int seq)
{
	int cost = req->len * 2 + seq;

	if (req->flags & 1)
		cost += 100;
	DTRACE_PROBE2(perftest_strip, handled, seq, cost);
	if (cost > 1000)
		fprintf(stderr, "expensive: %d\n", cost);
	return cost;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long total = 0;

	for (int i = 0; i < n; i++) {
		struct request req = { .len = 10 * (i + 1), .flags = i };
		int cost = handle_request(&req, i);

		total += cost;
		printf("len=%d seq=%d cost=%d total=%ld\n", req.len, i, cost, total);
	}
	printf("handled %d requests\n", n);
	return 0;
}
