// SPDX-License-Identifier: GPL-2.0
/* perf probe: define dynamic trace events.  Grows with util/probe-event.c. */
#include "builtin.h"
#include "util/debug.h"

int cmd_probe(int argc, const char **argv)
{
	pr_err("perf probe: not built yet in this version\n");
	return 1;
}
