#include <stdio.h>
int counter;
__attribute__((noinline)) int work(int a, int b) { return a * b + counter++; }
__attribute__((noinline)) int other(int a) { return work(a, a + 1); }
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += other(i); printf("%d\n", s); return 0; }
