#include <stdio.h>
int work(int x) { int s = 0; for (int i = 0; i < x; i++) s += i; return s; }
static int helper(int y) { return y * 2; }
int _hidden(void) { return 1; }
int main(int argc, char **argv) { printf("%d\n", work(argc) + helper(argc) + _hidden()); return 0; }
