#include <stdlib.h>
#include <unistd.h>
__attribute__((noinline)) int work(int n, const char *s) { return n * 3 + s[0]; }
volatile int sink;
int main(int argc, char **argv)
{
	int n = atoi(argv[1]), us = argc > 3 ? atoi(argv[3]) : 0;

	for (int i = 0; i < n; i++) {
		sink += work(i - 1, argv[2]);
		if (us)
			usleep(us);
	}
	return argc > 4 ? atoi(argv[4]) : 0;
}
