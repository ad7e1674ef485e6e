#include <stdlib.h>
__attribute__((noinline)) int work(int n, const char *s)
{
#ifdef __x86_64__
	asm volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00");
#endif
	return n * 3 + s[0];
}
volatile int sink;
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);

	for (int i = 0; i < n; i++)
		sink += work(i, "burst");
	return 0;
}
