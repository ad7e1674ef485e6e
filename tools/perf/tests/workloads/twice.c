#include <stdio.h>
int scale_it(int v, int k)
{
int r = v * k;
if (r > 100)
r -= 7;
return r;
}
static inline int twice(int v) { return v > 3 ? v * 2 : v + 1; }
int main(int argc, char **argv)
{
int a = scale_it(argc, 50);
int b = scale_it(argc + 1, 3);
printf("%d %d %d\n", a, b, twice(argc));
return 0;
}
