#include <string.h>
#include "req.h"

typedef const char *cstr;
volatile int calls;

int consume(cstr s, unsigned long ul, char c)
{
	int local = (int)strlen(s) + (int)ul;
	{
		int inner = local * 2;
		calls += inner;
	}
	if (c == 'c')
		local++;
	return local;
}
