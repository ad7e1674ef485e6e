// SPDX-License-Identifier: GPL-2.0
/* perf trace -e: watch probe events as they fire. */
#include "builtin.h"
#include "util/debug.h"

int cmd_trace(int argc, const char **argv)
{
	pr_err("perf trace: not built yet in this version\n");
	return 1;
}
