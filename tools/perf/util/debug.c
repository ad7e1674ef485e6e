// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "util/debug.h"

int verbose;
int quiet;

int eprintf(int level, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (level > verbose || (level == 0 && quiet) || (level < 0 && quiet > 1))
		return 0;
	va_start(ap, fmt);
	ret = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return ret;
}
