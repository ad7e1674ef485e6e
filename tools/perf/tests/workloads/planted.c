#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* In .data (not .bss): a semaphore a planted line could aim at. */
short is_admin __attribute__((section(".data"))) = 0;
__attribute__((noinline)) int check_password(const char *pw)
{
	return pw && strcmp(pw, "secret") == 0;
}
__attribute__((noinline)) int handle(int len, int seq)
{
	return len + seq;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
	for (int i = 0; i < n; i++)
		s += handle(40 + i, i) + check_password(argv[0]);
	printf("is_admin=%d s=%d\n", is_admin, s);
	return is_admin != 0;
}
