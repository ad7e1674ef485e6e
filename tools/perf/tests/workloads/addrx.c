#include <stdio.h>
struct cfg { int level; const char *name; };
struct cfg setting = { 3, "setting-name" };
long hits = 40;
static int bumped = 2;
__attribute__((noinline)) int tick(int n)
{
	static int calls = 100;
	calls += n;
	hits += n + bumped;
	return calls + setting.level;
}
int main(void)
{
	int r = tick(5);
	printf("hits=%ld calls=%d level=%d name=%s r=%d\n", hits, r - setting.level, setting.level, setting.name, r);
	return 0;
}
