// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/mounts as tracefs__mountpoint() reads it (tracefs.c): the tracefs
 * mount, else debugfs's tracing/.  What it finds is a path the text holds.
 */
#include "tests/fuzz/fuzz.h"
#include "util/tracefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	char *dir;

	if (!size || size > 65536)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	dir = tracefs__parse_mounts(f);
	if (dir && !*dir)
		abort();
	free(dir);
	fclose(f);
	return 0;
}
