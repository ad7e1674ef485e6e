// SPDX-License-Identifier: GPL-2.0
/* A MiniDebugInfo's xz stream decompressed within limits (see minidebuginfo.h). */
#include <errno.h>
#include <lzma.h>
#include <stdlib.h>

#include "util/alloc.h"
#include "util/minidebuginfo.h"

/*
 * MiniDebugInfo (.gnu_debugdata, what Fedora and RHEL ship in every
 * stripped binary): an xz-compressed ELF file whose .symtab holds the
 * functions .dynsym lacks.  Decompressed within limits a corrupt or
 * hostile section can not get past: the decoder's memory, and an output
 * of at most MDI_RATIO times the section plus MDI_FLOOR, MDI_MAX in all
 * (real ones grow 3 to 6 times), allocated as it comes, never by a size
 * the data claims.
 */
#define MDI_MAX (256u << 20)
#define MDI_FLOOR (1u << 20)
#define MDI_RATIO 64
#define MDI_MEMLIMIT (96u << 20)

int minidebuginfo__decompress(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
	size_t limit =
		len < (MDI_MAX - MDI_FLOOR) / MDI_RATIO ? len * MDI_RATIO + MDI_FLOOR : MDI_MAX;
	size_t alloc = 0, cap = limit + 1; /* a byte more than the limit: over it */
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	lzma_ret r;
	int ret;

	if (lzma_stream_decoder(&s, MDI_MEMLIMIT, 0) != LZMA_OK)
		return -EILSEQ;
	s.next_in = in;
	s.avail_in = len;
	do {
		if (!s.avail_out) {
			if (alloc == cap)
				break;
			alloc = alloc ? (alloc > cap / 2 ? cap : alloc * 2)
				      : (cap < 65536 ? cap : 65536);
			buf = xrealloc(buf, alloc);
			s.next_out = buf + s.total_out;
			s.avail_out = alloc - s.total_out;
		}
		r = lzma_code(&s, LZMA_FINISH);
	} while (r == LZMA_OK);
	if (s.total_out > limit)
		ret = -EFBIG;
	else
		ret = r == LZMA_STREAM_END ? 0 : -EILSEQ;
	*out_len = s.total_out;
	lzma_end(&s);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}
