// A varargs function ($vars leaves its va_list out), a void * and a
// const char[N] (-V types), a line with no code (-D FILE:LINE).
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int sum_all(int count, ...)
{
	va_list ap;
	int total = 0;

	va_start(ap, count);
	for (int i = 0; i < count; i++)
		total += va_arg(ap, int);
	va_end(ap);
	return total;
}

__attribute__((noinline)) size_t show(void *cookie, int n)
{
	const char tag[] = "tag-seven";
	void *where = cookie;

	printf("%s %p %d\n", tag, where, n);
	return strlen(tag) + n;
}

int main(int argc, char **argv)
{
	int s = sum_all(3, 1, 2, argc);

	return (int)show(argv, s) == -1;
}
