#include <stdio.h>
struct cfg { int level; const char *name; };
extern struct cfg conf;
extern long counter;
__attribute__((noinline)) int use(int n)
{
	counter += n;
	return conf.level + n;
}
int main(void)
{
	int r = use(4);
	printf("counter=%ld level=%d name=%s r=%d\n", counter, conf.level, conf.name, r);
	return 0;
}
