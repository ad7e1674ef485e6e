// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe blacklist parser (probe-file.c): "0xSTART-0xEND\tSYMBOL"
 * lines.  Each entry is found again by its symbol, and by its start when
 * its range is not empty.
 */
#include "tests/fuzz/fuzz.h"
#include "util/probe-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kprobe_blacklist bl = { 0 };
	char path[32];
	int fd;

	if (size > 65536)
		return 0;
	fd = fuzz_memfd(data, size, path);
	if (!kprobe_blacklist__load(&bl, path)) {
		for (int i = 0; i < bl.nr; i++) {
			const struct kprobe_blacklist_entry *e = &bl.entries[i];

			if (!e->symbol || !kprobe_blacklist__find_symbol(&bl, e->symbol))
				abort();
			if (e->start < e->end && !kprobe_blacklist__find_addr(&bl, e->start))
				abort();
		}
	}
	kprobe_blacklist__clear(&bl);
	close(fd);
	return 0;
}
