/* Built for aarch64 (clang --target): DWARF and SDT markers (t0840). */
#include <sys/sdt.h>
struct req { int len; long id; char name[8]; };
long total;
__attribute__((noinline)) int handle(struct req *r, int seq)
{
	int sum = r->len + seq;
	/* clang's "nor" operands: memory, "-4@[x8]" */
	DTRACE_PROBE3(cross, handled, r->len, seq, r->id);
	total += sum;
	return sum;
}
/* Register operands as gcc writes them ("-4@x0"): the constraint is read where a marker is. */
#undef STAP_SDT_ARG_CONSTRAINT
#define STAP_SDT_ARG_CONSTRAINT r
__attribute__((noinline)) void regs(int a, long b, unsigned char c)
{
	DTRACE_PROBE3(cross, regs, a, b, c);
}
int main(int argc, char **argv)
{
	struct req r = { argc, 7, "x" };
	DTRACE_PROBE1(cross, start, argc);
	regs(argc, total, 3);
	return handle(&r, 1) == 0;
}
