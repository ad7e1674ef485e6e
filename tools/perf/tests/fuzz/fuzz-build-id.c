// SPDX-License-Identifier: GPL-2.0
/*
 * The build-id readers: the input as a buffer of ELF notes (either byte
 * order, either padding), and the input as an ELF file.
 */
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "util/build-id.h"

/* In memory when there is /dev/shm: the file is rewritten for every input. */
static char path[64];
static int fd = -1;

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct build_id bid;

	for (int swap = 0; swap < 2; swap++) {
		for (size_t align = 4; align <= 8; align += 4) {
			memset(&bid, 0, sizeof(bid));
			if (!elf_notes__find_build_id(data, size, swap, align, &bid) &&
			    (bid.size == 0 || bid.size > BUILD_ID_SIZE))
				abort();
		}
	}

	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/perf-fuzz-build-id.XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		atexit(remove_file);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	memset(&bid, 0, sizeof(bid));
	if (!filename__read_build_id(path, &bid) && (bid.size == 0 || bid.size > BUILD_ID_SIZE))
		abort();
	return 0;
}
