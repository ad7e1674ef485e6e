/* Built for riscv64 freestanding (clang, lld): DWARF and SDT markers (t0840). */
#define STAP_SDT_ARG_CONSTRAINT r
#include <sys/sdt.h>
struct req { int len; long id; };
long total;
__attribute__((noinline)) int handle(struct req *r, int seq)
{
	int sum = r->len + seq;
	DTRACE_PROBE2(rv, handled, r->len, seq);
	total += sum;
	return sum;
}
void _start(void)
{
	struct req r = { 3, 7 };
	handle(&r, 1);
	for (;;)
		;
}
