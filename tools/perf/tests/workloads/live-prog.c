#include <stdlib.h>
__attribute__((noinline)) int work(int a) { return a * 3; }
int main(int argc, char **argv) { int n = atoi(argv[1]), s = 0; for (int i = 0; i < n; i++) s += work(i); return s == -1; }
