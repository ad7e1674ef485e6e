#include <stdlib.h>
int hits = 1;
static inline int bump(int v) { hits += v; return hits; }
__attribute__((noinline)) int step(int i) { return bump(i) + bump(i * 2); }
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
	for (int i = 0; i < n; i++) s += step(i);
	return s == -1;
}
