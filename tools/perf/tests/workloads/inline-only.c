#include <stdio.h>
struct item { int weight; const char *label; };
static int sum;
static inline void account(struct item *it, int scale)
{
	if (it->weight > 10)
		sum += it->weight * scale;
	else
		printf("light %s\n", it->label);
}
int main(int argc, char **argv)
{
	struct item a = { argc * 20, "a" }, b = { argc, argv[0] };
	account(&a, 3);
	account(&b, argc);
	printf("%d\n", sum);
	return 0;
}
