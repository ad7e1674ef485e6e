// SPDX-License-Identifier: GPL-2.0
/*
 * A compressed section's zlib stream read page by page through a lazy
 * region (lazy-section.c), by ISA-L and by zlib: the input's first byte is
 * the size the section claims, in pages (at most 64), the rest the stream.
 * Each region is read forward, then backward (restarts); wherever neither
 * inflater found the stream corrupt they read the same bytes, and a page
 * read twice reads the same.
 */
#include "tests/fuzz/fuzz.h"
#include "util/lazy-section.h"

#define PAGE 4096

/* The @pages pages of a region of @in as @inflater reads them (NULL: could not make one). */
static unsigned char *read_region(const char *inflater, const uint8_t *in, size_t len, size_t pages,
				  bool *corrupt)
{
	struct lazy_region *r = NULL;
	unsigned char *base, *out = malloc(pages * PAGE);

	if (!out)
		abort();
	setenv("PERF_LAZY_INFLATE", inflater, 1);
	if (lazy_region__new_inflate(in, len, pages * PAGE, &r, (void **)&base)) {
		free(out);
		return NULL;
	}
	for (size_t k = 0; k < pages; k++)
		memcpy(out + k * PAGE, base + k * PAGE, PAGE);
	for (size_t k = pages; k-- > 0;)
		if (memcmp(out + k * PAGE, base + k * PAGE, PAGE) && !lazy_region__corrupt(r))
			abort(); /* a page filled once reads the same */
	*corrupt = lazy_region__corrupt(r);
	lazy_region__delete(r);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pages;
	unsigned char *a, *b;
	bool ca = false, cb = false;
	uint8_t *in;

	if (size < 3)
		return 0;
	pages = data[0] % 64 + 1;
	/* Its own copy: a region reads the stream as long as it lives. */
	in = malloc(size - 1);
	if (!in)
		abort();
	memcpy(in, data + 1, size - 1);
	a = read_region("isal", in, size - 1, pages, &ca);
	b = read_region("zlib", in, size - 1, pages, &cb);
	if (a && b && !ca && !cb && memcmp(a, b, pages * PAGE))
		abort();
	unsetenv("PERF_LAZY_INFLATE");
	free(a);
	free(b);
	free(in);
	return 0;
}
