// SPDX-License-Identifier: GPL-2.0
/*
 * The SDT notes of an ELF file (sdt-note.c): the .note.stapsdt section,
 * .stapsdt.base and the PT_LOAD segments of an image, read as a file.
 * Every marker read has its three strings.
 */
#include "tests/fuzz/fuzz.h"
#include "util/sdt-note.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_note *notes = NULL;
	const char *why = NULL;
	char path[32];
	int fd, nr;

	if (size > (1 << 20))
		return 0;
	fd = fuzz_memfd(data, size, path);
	nr = sdt_notes__read(path, &notes, &why);
	for (int i = 0; i < nr; i++)
		if (!notes[i].provider || !notes[i].name || !notes[i].args)
			abort();
	/* 0 markers may come with an array too. */
	if (nr >= 0)
		sdt_notes__free(notes, nr);
	close(fd);
	return 0;
}
