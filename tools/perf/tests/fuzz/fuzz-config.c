// SPDX-License-Identifier: GPL-2.0
/*
 * The perf config file parser: the input is the file $PERF_CONFIG names,
 * looked up for buildid.dir (what the build-id cache reads) and a key of
 * another section.
 */
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "util/config.h"

/* In memory when there is /dev/shm: the file is rewritten for every input. */
static char path[64];
static int fd = -1;

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "buildid.dir", "probe.max-probes", "a.b.c" };

	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/perf-fuzz-config.XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		fd = mkstemp(path);
		if (fd < 0 || setenv("PERF_CONFIG", path, 1))
			abort();
		atexit(remove_file);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		free(perf_config_get(keys[i]));
	return 0;
}
