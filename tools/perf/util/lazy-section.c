// SPDX-License-Identifier: GPL-2.0
/* Sections read one page at a time, on first touch (see lazy-section.h). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <isa-l/igzip_lib.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* a stream in a workspace of ours: no malloc in the handler */
#include <zstd.h>

#include "util/elf-util.h"
#include "util/lazy-section.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2 /* the gABI's; glibc 2.36's elf.h lacks it */
#endif
#ifndef ISAL_SONAME
#define ISAL_SONAME "libisal.so.2"
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

/* The pages a fill copies at once through userfaultfd. */
#define LAZY_BOUNCE_PAGES 16

struct lazy_region {
	char *base;	 /* the mapping: page-aligned, at file offset file_off */
	size_t map_size; /* lead + size, rounded up to pages */
	size_t lead;	 /* base + lead: the first byte of the region */
	off_t file_off;	 /* the offset of base in the file: page-aligned */
	size_t in_file;	 /* the pages with bytes of the file; the others read zeros */
	off_t file_size;
	int fd;
	int uffd; /* userfaultfd mode: a missing page raises SIGBUS; -1: PROT_NONE pages */
	/* uffd mode: what UFFDIO_COPY copies from, LAZY_BOUNCE_PAGES; the handler
	 * and a prefetch never use it at once (a prefetch reads no region). */
	char *bounce;
	size_t filled;		 /* pages filled so far */
	size_t faults;		 /* of them, on a fault (not prefetched) */
	unsigned char *done;	 /* a bit per page: filled (a fault there is not ours) */
	struct lazy_inflate *zs; /* the bytes are a zlib stream's, inflated: not the file's */
	int used;		 /* read by the handler: set last, cleared first */
};

/*
 * An SHF_COMPRESSED section read as the bytes it inflates to, a page at a
 * time, with restart points as zlib's zran example keeps them: every
 * LAZY_SPAN bytes of output at a deflate block's end, the input's bit
 * position and the 32 KiB of output before it, so a page is at most
 * LAZY_SPAN bytes of inflation away from one.  The points are kept as
 * they are first passed; a page ahead of the stream within LAZY_SPAN goes
 * on from where it is.  The handler inflates: zlib's state and window
 * come from the arena (no malloc in a signal handler), the points from a
 * mapping of the most there can be (its untouched pages cost nothing).
 * An error of the stream (corrupt, truncated, shorter than it claims)
 * reads zeros from there and marks the region corrupt, which the reader
 * asks after (lazy_region__corrupt()).
 */
#define LAZY_SPAN (1UL << 20)
#define LAZY_WINDOW 32768U
#define LAZY_ARENA (64U << 10)

struct lazy_point {
	size_t out, in; /* output and input offsets */
	int bits;	/* bits of in[-1] still to be read */
	unsigned char window[LAZY_WINDOW];
};

/*
 * ISA-L (libisal, loaded on first use) inflates twice as fast as zlib,
 * which was three quarters of a spec on libjvm.  Its state holds all it
 * needs to go on, the history of its output included (no pointer into
 * it but the caller's in and out): a restart point is a copy of it, up to
 * the history it holds, at any place of the stream.
 */
struct lazy_isal_point {
	size_t out; /* the output offset of the state's next byte */
	struct inflate_state st;
};

#define ISAL_STATE_USED(st) \
	(offsetof(struct inflate_state, tmp_out_buffer) + (size_t)(st)->tmp_out_valid)

static struct {
	void *handle;
	void (*init)(struct inflate_state *);
	int (*inflate)(struct inflate_state *);
} lazy_isal;

struct lazy_inflate {
	const unsigned char *in; /* the stream, its zlib header first */
	size_t in_len, size;	 /* its bytes, and those it inflates to */
	z_stream z;
	size_t pos; /* the output offset of z's next byte; SIZE_MAX: no stream */
	bool corrupt, ended;
	struct lazy_point *pts;
	size_t npts, maxpts;
	size_t inflated, restarts; /* bytes inflated in all, restarts made */
	bool drop;		   /* in is a file's mapping: what was read can be let go */
	size_t dropped;		   /* in[0, dropped) let go (MADV_DONTNEED) */
	/* ISA-L instead of z (isal): its state and the points (isal_pts) */
	bool isal;
	struct inflate_state *is;
	struct lazy_isal_point *isal_pts;
	/* zstd: one frame, read from its start only; every page passed is kept */
	ZSTD_DStream *zd;
	void *zd_work;
	size_t zd_work_size, zd_in;
	unsigned char win[LAZY_WINDOW]; /* the last output, at pos % LAZY_WINDOW (ISA-L: scratch) */
	size_t arena_used;
	unsigned char arena[LAZY_ARENA] __attribute__((aligned(16)));
};

/*
 * The one place this tool keeps file-level state: a signal handler gets
 * no userdata, so the regions it serves, the handlers it replaced and
 * the page size live here.  Small and fixed (no allocation in the handler);
 * a debuginfo opens one region.
 */
#define LAZY_REGIONS_MAX 16
static struct lazy_region lazy_regions[LAZY_REGIONS_MAX];
static int lazy_regions_used;
static struct sigaction lazy_prev_segv, lazy_prev_bus;
static size_t lazy_page_size;

static bool page_done(const struct lazy_region *r, size_t k)
{
	return r->done[k / 8] & (1u << (k % 8));
}

/* Mark pages [@k, @end) of @r filled. */
static void mark_filled(struct lazy_region *r, size_t k, size_t end)
{
	for (; k < end; k++) {
		r->done[k / 8] |= 1u << (k % 8);
		r->filled++;
	}
}

static voidpf arena_alloc(voidpf opaque, uInt items, uInt size)
{
	struct lazy_inflate *zs = opaque;
	size_t n = ((size_t)items * size + 15) & ~(size_t)15;

	if (n > LAZY_ARENA - zs->arena_used)
		return Z_NULL;
	zs->arena_used += n;
	return zs->arena + zs->arena_used - n;
}

static void arena_free(voidpf opaque, voidpf p)
{
	/* The state and the window live as long as the region. */
}

static void inflate_free(struct lazy_inflate *zs)
{
	if (!zs)
		return;
	if (zs->pts)
		munmap(zs->pts, zs->maxpts * sizeof(*zs->pts));
	if (zs->isal_pts)
		munmap(zs->isal_pts, zs->maxpts * sizeof(*zs->isal_pts));
	if (zs->is)
		munmap(zs->is, sizeof(*zs->is));
	if (zs->zd_work)
		munmap(zs->zd_work, zs->zd_work_size);
	free(zs); /* z's state is in the arena */
}

/* Back to the start of the stream (@p NULL) or to point @p. */
static int inflate_restart(struct lazy_inflate *zs, const struct lazy_point *p)
{
	size_t have;

	if (inflateReset2(&zs->z, p ? -15 : 15) != Z_OK)
		return -1;
	zs->ended = false;
	if (!p) {
		zs->z.next_in = (Bytef *)zs->in;
		zs->z.avail_in = zs->in_len > UINT_MAX ? UINT_MAX : (uInt)zs->in_len;
		zs->pos = 0;
		return 0;
	}
	zs->z.next_in = (Bytef *)zs->in + p->in;
	zs->z.avail_in = zs->in_len - p->in > UINT_MAX ? UINT_MAX : (uInt)(zs->in_len - p->in);
	if (p->bits && inflatePrime(&zs->z, p->bits, zs->in[p->in - 1] >> (8 - p->bits)) != Z_OK)
		return -1;
	have = p->out < LAZY_WINDOW ? p->out : LAZY_WINDOW;
	if (inflateSetDictionary(&zs->z, p->window + LAZY_WINDOW - have, (uInt)have) != Z_OK)
		return -1;
	/* The window as it was, at its place in win for the points after this one. */
	for (size_t i = 0; i < have; i++)
		zs->win[(p->out - have + i) % LAZY_WINDOW] = p->window[LAZY_WINDOW - have + i];
	zs->pos = p->out;
	return 0;
}

/* A restart point at zs->pos, the last LAZY_WINDOW bytes out before it. */
static void inflate_mark(struct lazy_inflate *zs)
{
	struct lazy_point *p = &zs->pts[zs->npts];
	size_t have = zs->pos < LAZY_WINDOW ? zs->pos : LAZY_WINDOW;

	p->out = zs->pos;
	p->in = (size_t)(zs->z.next_in - zs->in);
	p->bits = zs->z.data_type & 7;
	for (size_t i = 0; i < have; i++)
		p->window[LAZY_WINDOW - have + i] = zs->win[(zs->pos - have + i) % LAZY_WINDOW];
	zs->npts++;
}

/*
 * The input read so far, 4 MiB at a time, given back (it reads again from
 * the page cache when a restart needs it): the pages of a file's mapping
 * read once would otherwise stay resident, as much as the section.
 */
static void inflate_let_go(struct lazy_inflate *zs)
{
	uintptr_t page = lazy_page_size - 1;
	uintptr_t lo = ((uintptr_t)zs->in + zs->dropped + page) & ~page;
	uintptr_t hi = (uintptr_t)(zs->isal ? zs->is->next_in : zs->z.next_in) & ~page;

	if (!zs->drop || hi < lo + (4U << 20))
		return;
	/* Only while the region reads (no restart keeps a point before it). */
	if (!madvise((void *)lo, hi - lo, MADV_DONTNEED))
		zs->dropped = hi - (uintptr_t)zs->in;
}

/*
 * Is [@p, +@len) in one mapping of a file (/proc/self/maps)?  libelf
 * maps the file it reads (libdwfl: private, writable, and the bytes of a
 * compressed section are never written); where it read the file into
 * its own memory, letting that go would lose it.
 */
static bool in_file_mapping(const void *p, size_t len)
{
	char line[512];
	bool ok = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off, ino;
		char perms[8]; /* read past */
		unsigned maj, min;

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &lo, &hi, perms, &off, &maj, &min,
			   &ino) == 7 &&
		    (uintptr_t)p >= lo && (uintptr_t)p + len <= hi)
			ok = ino != 0; /* libdwfl's: rw-p, of which no one writes these bytes */
	}
	fclose(f);
	return ok;
}

/* The output offset of restart point @i of @zs, of either inflater. */
static size_t point_out(const struct lazy_inflate *zs, size_t i)
{
	return zs->isal ? zs->isal_pts[i].out : zs->pts[i].out;
}

/*
 * The last restart point of @zs at or before @from (-1: none), and
 * whether to restart, in *@back: the stream is past @from, or the point
 * is ahead of it by more than a span (else it goes on from where it is).
 */
static ssize_t point_before(const struct lazy_inflate *zs, size_t from, bool *back)
{
	ssize_t best = -1;

	for (size_t i = zs->npts; i-- > 0;)
		if (point_out(zs, i) <= from) {
			best = (ssize_t)i;
			break;
		}
	*back = zs->pos == SIZE_MAX || zs->pos > from ||
		(best >= 0 && point_out(zs, best) > zs->pos && from - zs->pos > LAZY_SPAN);
	return best;
}

/*
 * The inflated bytes [@from, @from + @len) into @dst: zeros where the
 * stream ends or fails (then corrupt).  Async-signal-safe: zlib only.
 */
static void zlib_range(struct lazy_region *r, size_t from, size_t len, unsigned char *dst)
{
	struct lazy_inflate *zs = r->zs;
	size_t end = from + len;
	ssize_t best;
	bool back;

	memset(dst, 0, len);
	if (zs->corrupt)
		return;
	best = point_before(zs, from, &back);
	if (back) {
		zs->restarts++;
		if (inflate_restart(zs, best < 0 ? NULL : &zs->pts[best])) {
			zs->corrupt = true;
			return;
		}
	}
	while (zs->pos < end) {
		size_t at = zs->pos % LAZY_WINDOW, n;
		int ret;

		if (zs->ended) {
			zs->corrupt = true; /* shorter than it claims */
			return;
		}
		zs->z.next_out = zs->win + at;
		/* Up to @end, not past: the next page read is most often the next one. */
		zs->z.avail_out = end - zs->pos < LAZY_WINDOW - at ? (uInt)(end - zs->pos)
								   : LAZY_WINDOW - (uInt)at;
		n = zs->z.avail_out;
		ret = inflate(&zs->z, Z_BLOCK);
		n -= zs->z.avail_out;
		if (ret != Z_OK && ret != Z_STREAM_END) {
			zs->corrupt = true;
			zs->pos = SIZE_MAX;
			return;
		}
		if (ret == Z_STREAM_END)
			zs->ended = true;
		if (n == 0 && ret == Z_OK && !zs->z.avail_in) {
			zs->corrupt = true; /* truncated */
			zs->pos = SIZE_MAX;
			return;
		}
		/* What of it falls in [from, end). */
		if (zs->pos + n > from && zs->pos < end) {
			size_t lo = zs->pos > from ? zs->pos : from;
			size_t hi = zs->pos + n < end ? zs->pos + n : end;

			memcpy(dst + (lo - from), zs->win + at + (lo - zs->pos), hi - lo);
		}
		zs->pos += n;
		zs->inflated += n;
		inflate_let_go(zs);
		if ((zs->z.data_type & 128) && !(zs->z.data_type & 64) && zs->npts < zs->maxpts &&
		    zs->pos >= (zs->npts ? zs->pts[zs->npts - 1].out : 0) + LAZY_SPAN)
			inflate_mark(zs);
	}
}

/* Is @in (@len bytes) a zlib header deflate may follow, with no preset dictionary? */
static bool zlib_header_ok(const unsigned char *in, size_t len)
{
	return len >= 2 && (in[0] & 0x0f) == Z_DEFLATED && (in[0] >> 4) <= 7 &&
	       ((in[0] << 8) | in[1]) % 31 == 0 && !(in[1] & 0x20);
}

/* Back to the start of the stream (@p NULL: past its zlib header) or to point @p. */
static int isal_restart(struct lazy_inflate *zs, const struct lazy_isal_point *p)
{
	if (p) {
		memcpy(zs->is, &p->st, ISAL_STATE_USED(&p->st));
		zs->pos = p->out;
		return 0;
	}
	if (!zlib_header_ok(zs->in, zs->in_len))
		return -1;
	lazy_isal.init(zs->is);
	zs->is->crc_flag = ISAL_DEFLATE; /* the adler-32 is checked apart (lazy_region__verify) */
	zs->is->next_in = (uint8_t *)zs->in + 2;
	zs->is->avail_in = 0;
	zs->pos = 0;
	return 0;
}

/* The input left to ISA-L: its avail_in is 32 bits, refilled as it goes. */
static void isal_feed(struct lazy_inflate *zs)
{
	size_t left = zs->in_len - (size_t)(zs->is->next_in - zs->in);

	if (!zs->is->avail_in)
		zs->is->avail_in = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
}

/* zlib_range() through ISA-L, with restart points of its state. */
static void isal_range(struct lazy_region *r, size_t from, size_t len, unsigned char *dst)
{
	struct lazy_inflate *zs = r->zs;
	struct inflate_state *is = zs->is;
	size_t end = from + len;
	ssize_t best;
	bool back;

	memset(dst, 0, len);
	if (zs->corrupt)
		return;
	best = point_before(zs, from, &back);
	if (back) {
		zs->restarts++;
		if (isal_restart(zs, best < 0 ? NULL : &zs->isal_pts[best])) {
			zs->corrupt = true;
			return;
		}
	}
	while (zs->pos < end) {
		size_t next = (zs->npts ? zs->isal_pts[zs->npts - 1].out : 0) + LAZY_SPAN;
		size_t want = zs->pos < from ? from - zs->pos : end - zs->pos, n;
		const uint8_t *was_in = is->next_in;
		int ret;

		if (zs->pos >= next && zs->npts < zs->maxpts) {
			struct lazy_isal_point *p = &zs->isal_pts[zs->npts++];

			p->out = zs->pos;
			memcpy(&p->st, is, ISAL_STATE_USED(is));
			next = zs->pos + LAZY_SPAN;
		}
		/* Up to the next point, and what comes before @from into win. */
		if (next > zs->pos && want > next - zs->pos)
			want = next - zs->pos;
		if (zs->pos < from && want > LAZY_WINDOW)
			want = LAZY_WINDOW;
		is->next_out = zs->pos < from ? zs->win : dst + (zs->pos - from);
		is->avail_out = (uint32_t)want;
		isal_feed(zs);
		ret = lazy_isal.inflate(is);
		n = want - is->avail_out;
		zs->pos += n;
		zs->inflated += n;
		/*
		 * An error, or no progress: the stream ended short of the size
		 * claimed, or its input did.
		 */
		if (ret < 0 || (!n && is->next_in == was_in)) {
			zs->corrupt = true;
			zs->pos = SIZE_MAX;
			return;
		}
		inflate_let_go(zs);
	}
}

static void inflate_range(struct lazy_region *r, size_t from, size_t len, unsigned char *dst)
{
	if (r->zs->isal)
		isal_range(r, from, len, dst);
	else
		zlib_range(r, from, len, dst);
}

/*
 * ISA-L, loaded once (not in a handler); PERF_LAZY_INFLATE=zlib (the
 * tests) or a machine without it keeps zlib.
 */
static bool isal_load(void)
{
	const char *engine = getenv("PERF_LAZY_INFLATE");
	void *h;

	if (engine && !strcmp(engine, "zlib"))
		return false;
	if (lazy_isal.handle)
		return true;
	h = dlopen(ISAL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return false;
	*(void **)&lazy_isal.init = dlsym(h, "isal_inflate_init");
	*(void **)&lazy_isal.inflate = dlsym(h, "isal_inflate");
	if (!lazy_isal.init || !lazy_isal.inflate) {
		dlclose(h);
		memset(&lazy_isal, 0, sizeof(lazy_isal));
		return false;
	}
	lazy_isal.handle = h;
	return true;
}

/*
 * userfaultfd mode: pages [@k, @end) copied in from the file (pread into
 * the bounce buffer, UFFDIO_COPY), zeros past its end and where it can not
 * be read.  No mapping changes: a few microseconds a page.
 */
static int uffd_fill(struct lazy_region *r, size_t k, size_t end)
{
	while (k < end) {
		size_t n = end - k < LAZY_BOUNCE_PAGES ? end - k : LAZY_BOUNCE_PAGES;
		size_t len = n * lazy_page_size, got = 0, want = 0;
		off_t from = r->file_off + (off_t)(k * lazy_page_size);
		struct uffdio_copy copy = { .dst = (unsigned long)(r->base + k * lazy_page_size),
					    .src = (unsigned long)r->bounce,
					    .len = len };

		if (r->zs) {
			size_t at = k * lazy_page_size, m = len;

			if (at > r->zs->size)
				m = 0;
			else if (r->zs->size - at < len)
				m = r->zs->size - at;
			memset(r->bounce + m, 0, len - m);
			if (m)
				inflate_range(r, at, m, (unsigned char *)r->bounce);
		} else if (from < r->file_size) {
			want = (size_t)(r->file_size - from) < len ? (size_t)(r->file_size - from)
								   : len;
		}
		got = r->zs ? len : 0;
		while (got < want) {
			ssize_t m = pread(r->fd, r->bounce + got, want - got, from + (off_t)got);

			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				break;
			got += (size_t)m;
		}
		memset(r->bounce + got, 0, len - got);
		if (ioctl(r->uffd, UFFDIO_COPY, &copy)) {
			if (errno != EEXIST)
				return -1;
			/* A page of the run is there already (it stops the copy): one by one. */
			for (size_t i = k; n > 1 && i < k + n; i++)
				if (uffd_fill(r, i, i + 1))
					return -1;
			if (n > 1) {
				k += n;
				continue;
			}
		}
		mark_filled(r, k, k + n);
		k += n;
	}
	return 0;
}

/*
 * PROT_NONE mode: a page of the file is mapped from it (MAP_FIXED over
 * the PROT_NONE page; a mapping of one page maps no neighbour however
 * large the page cache's folio, and MAP_POPULATE spares a second fault);
 * a page past the end of the file is made readable as it is, zeros.
 */
static int prot_fill(struct lazy_region *r, size_t k, size_t end)
{
	char *page = r->base + k * lazy_page_size;
	size_t file_end = end < r->in_file ? end : r->in_file;

	if (r->zs) {
		size_t at = k * lazy_page_size, len = (end - k) * lazy_page_size;

		if (mprotect(page, len, PROT_READ | PROT_WRITE))
			return -1;
		memset(page, 0, len);
		if (at < r->zs->size)
			inflate_range(r, at, r->zs->size - at < len ? r->zs->size - at : len,
				      (unsigned char *)page);
		if (mprotect(page, len, PROT_READ))
			return -1;
		mark_filled(r, k, end);
		return 0;
	}

	if (k < file_end && mmap(page, (file_end - k) * lazy_page_size, PROT_READ,
				 MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, r->fd,
				 r->file_off + (off_t)(k * lazy_page_size)) == MAP_FAILED)
		return -1;
	if (file_end < k)
		file_end = k;
	if (file_end < end && mprotect(r->base + file_end * lazy_page_size,
				       (end - file_end) * lazy_page_size, PROT_READ))
		return -1;
	mark_filled(r, k, end);
	return 0;
}

/*
 * Fill pages [@k, @end) of @r, none of them filled yet: 0, or -1 when
 * they can not be made readable.  Async-signal-safe: pread, ioctl, mmap,
 * mprotect and memset only.
 */
/* Page @k of @r from @bytes, in either mode; -1 when it can not be made readable. */
static int put_page(struct lazy_region *r, size_t k, const void *bytes)
{
	char *page = r->base + k * lazy_page_size;

	if (r->uffd >= 0) {
		struct uffdio_copy copy = { .dst = (unsigned long)page,
					    .src = (unsigned long)bytes,
					    .len = lazy_page_size };

		if (ioctl(r->uffd, UFFDIO_COPY, &copy) && errno != EEXIST)
			return -1;
	} else {
		if (mprotect(page, lazy_page_size, PROT_READ | PROT_WRITE))
			return -1;
		memcpy(page, bytes, lazy_page_size);
		if (mprotect(page, lazy_page_size, PROT_READ))
			return -1;
	}
	mark_filled(r, k, k + 1);
	return 0;
}

/*
 * A zstd region: a frame is read from its start only, so every page up
 * to @end is filled as the stream passes it (a page before the stream
 * is filled already); zeros past an error, then corrupt.
 */
static int zstd_fill(struct lazy_region *r, size_t k, size_t end)
{
	struct lazy_inflate *zs = r->zs;
	unsigned char *page = (unsigned char *)r->bounce;

	if (!page)
		return -1;
	for (size_t pg = zs->pos / lazy_page_size; pg < end; pg++) {
		ZSTD_outBuffer ob = { page, lazy_page_size, 0 };
		size_t want = pg * lazy_page_size < zs->size ? zs->size - pg * lazy_page_size : 0;

		if (want > lazy_page_size)
			want = lazy_page_size;
		ob.size = want;
		while (!zs->corrupt && ob.pos < want) {
			ZSTD_inBuffer ib = { zs->in, zs->in_len, zs->zd_in };
			size_t was = ob.pos, ret = ZSTD_decompressStream(zs->zd, &ob, &ib);

			/* An error, the frame's end, or no progress before the page is full. */
			if (ZSTD_isError(ret) || (ob.pos < want && ret == 0) ||
			    (ob.pos == was && ib.pos == zs->zd_in))
				zs->corrupt = true;
			zs->zd_in = ib.pos;
		}
		memset(page + ob.pos, 0, lazy_page_size - ob.pos);
		zs->pos = (pg + 1) * lazy_page_size;
		zs->inflated += ob.pos;
		if (!page_done(r, pg) && put_page(r, pg, page))
			return -1;
	}
	return k < end && page_done(r, k) ? 0 : -1;
}

static int lazy_fill(struct lazy_region *r, size_t k, size_t end)
{
	if (r->zs && r->zs->zd)
		return zstd_fill(r, k, end);
	return r->uffd >= 0 ? uffd_fill(r, k, end) : prot_fill(r, k, end);
}

static struct lazy_region *region_of(const char *addr)
{
	for (int i = 0; i < LAZY_REGIONS_MAX; i++) {
		struct lazy_region *r = &lazy_regions[i];

		if (__atomic_load_n(&r->used, __ATOMIC_ACQUIRE) && addr >= r->base &&
		    addr < r->base + r->map_size)
			return r;
	}
	return NULL;
}

static void lazy_fault(int sig, siginfo_t *si, void *uc);

/* Our handler of @sig, the one it replaced in *@prev: 0 or -errno. */
static int lazy_catch(int sig, struct sigaction *prev)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lazy_fault;
	/* SA_ONSTACK: a stack overflow still reaches a sanitizer's alternate stack. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, prev) ? -errno : 0;
}

/* Put back the handler of @sig that @prev holds, unless it is back already. */
static void lazy_release(int sig, const struct sigaction *prev)
{
	struct sigaction now;

	if (!sigaction(sig, NULL, &now) && (now.sa_flags & SA_SIGINFO) &&
	    now.sa_sigaction == lazy_fault)
		sigaction(sig, prev, NULL);
}

/*
 * SIGBUS (a missing page of a userfaultfd region) or SIGSEGV (a PROT_NONE
 * page of the other mode): a first touch of a region is served; any
 * other fault puts the previous handler back and returns, so the faulting
 * instruction runs again and faults into it (SIG_DFL: a crash with a
 * core).  Async-signal-safe calls only.
 */
static void lazy_fault(int sig, siginfo_t *si, void *uc)
{
	struct lazy_region *r = region_of(si->si_addr);
	int saved = errno;

	if (r && (r->uffd >= 0 ? sig == SIGBUS && si->si_code == BUS_ADRERR
			       : sig == SIGSEGV && si->si_code == SEGV_ACCERR)) {
		size_t k = (size_t)((char *)si->si_addr - r->base) / lazy_page_size;

		/* A filled page faults again on a write: not ours. */
		if (!page_done(r, k) && !lazy_fill(r, k, k + 1)) {
			r->faults++;
			errno = saved;
			return;
		}
	}
	sigaction(sig, sig == SIGBUS ? &lazy_prev_bus : &lazy_prev_segv, NULL);
	errno = saved;
}

/*
 * Make [@base, +@size) a userfaultfd region whose missing pages raise
 * SIGBUS (UFFD_USER_MODE_ONLY: allowed without privileges): its
 * descriptor, or -1 where the kernel or a seccomp filter refuses.
 * PERF_LAZY_SECTION=mprotect asks for the other mode (the tests).
 */
static int uffd_open(char *base, size_t size)
{
	const char *mode = getenv("PERF_LAZY_SECTION");
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_SIGBUS };
	struct uffdio_register reg = { .range = { (unsigned long)base, size },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	int uffd;

	if (mode && !strcmp(mode, "mprotect"))
		return -1;
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (uffd < 0)
		return -1;
	if (ioctl(uffd, UFFDIO_API, &api) || !(api.features & UFFD_FEATURE_SIGBUS) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		close(uffd);
		return -1;
	}
	return uffd;
}

/* A region of @fd's bytes (@zs NULL: @fd taken) or of @zs's (taken; @fd -1). */
static int region_new(int fd, off_t offset, size_t size, struct lazy_inflate *zs,
		      struct lazy_region **out, void **addr)
{
	struct lazy_region *r = NULL;
	struct stat st = { 0 };
	void *base;
	int err;

	for (int i = 0; i < LAZY_REGIONS_MAX && !r; i++)
		if (!lazy_regions[i].used)
			r = &lazy_regions[i];
	if (!r || !size || offset < 0) {
		if (fd >= 0)
			close(fd);
		inflate_free(zs);
		return r ? -EINVAL : -ENOSPC;
	}
	if (!zs && fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!lazy_page_size)
		lazy_page_size = (size_t)sysconf(_SC_PAGESIZE);
	r->lead = (size_t)offset & (lazy_page_size - 1);
	r->file_off = offset - (off_t)r->lead;
	r->map_size = (r->lead + size + lazy_page_size - 1) & ~(lazy_page_size - 1);
	r->in_file =
		st.st_size > r->file_off
			? ((size_t)(st.st_size - r->file_off) + lazy_page_size - 1) / lazy_page_size
			: 0;
	r->file_size = st.st_size;
	r->uffd = -1;
	r->bounce = NULL;
	r->zs = NULL;
	r->done = calloc(r->map_size / lazy_page_size / 8 + 1, 1);
	if (!r->done) {
		if (fd >= 0)
			close(fd);
		inflate_free(zs);
		return -ENOMEM;
	}
	/* Readable and missing (userfaultfd), else PROT_NONE. */
	base = mmap(NULL, r->map_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		    0);
	if (base == MAP_FAILED) {
		err = -errno;
		goto fail;
	}
	/* No huge page: it would be a fault of 2 MB. */
	madvise(base, r->map_size, MADV_NOHUGEPAGE);
	r->bounce = mmap(NULL, LAZY_BOUNCE_PAGES * lazy_page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->bounce == MAP_FAILED)
		r->bounce = NULL;
	else
		r->uffd = uffd_open(base, r->map_size);
	if (r->uffd < 0 && mprotect(base, r->map_size, PROT_NONE)) {
		err = -errno;
		goto fail_unmap;
	}
	if (!lazy_regions_used) {
		err = lazy_catch(SIGSEGV, &lazy_prev_segv);
		if (!err && (err = lazy_catch(SIGBUS, &lazy_prev_bus)))
			sigaction(SIGSEGV, &lazy_prev_segv, NULL);
		if (err)
			goto fail_unmap;
	}
	lazy_regions_used++;
	r->base = base;
	r->fd = fd;
	r->zs = zs;
	r->filled = 0;
	r->faults = 0;
	__atomic_store_n(&r->used, 1, __ATOMIC_RELEASE);
	*out = r;
	*addr = r->base + r->lead;
	return 0;
fail_unmap:
	if (r->uffd >= 0)
		close(r->uffd);
	munmap(base, r->map_size);
fail:
	if (r->bounce)
		munmap(r->bounce, LAZY_BOUNCE_PAGES * lazy_page_size);
	r->bounce = NULL;
	free(r->done);
	r->done = NULL;
	if (fd >= 0)
		close(fd);
	inflate_free(zs);
	return err;
}

int lazy_region__new(int fd, off_t offset, size_t size, struct lazy_region **out, void **addr)
{
	return region_new(fd, offset, size, NULL, out, addr);
}

int lazy_region__new_unzstd(const void *in, size_t in_len, size_t size, struct lazy_region **out,
			    void **addr)
{
	struct lazy_inflate *zs;
	unsigned long long content = ZSTD_getFrameContentSize(in, in_len);

	/*
	 * A frame that says its size says the section's; one that does not
	 * (zstd -c of a pipe) is bounded as zstd bounds it: a block of 128
	 * KiB from no less than 4 bytes.
	 */
	if (content == ZSTD_CONTENTSIZE_ERROR ||
	    (content != ZSTD_CONTENTSIZE_UNKNOWN ? content != size : size / 32768 > in_len))
		return -EBADMSG;
	zs = calloc(1, sizeof(*zs));
	if (!zs)
		return -ENOMEM;
	zs->in = in;
	zs->in_len = in_len;
	zs->size = size;
	zs->zd_work_size = ZSTD_estimateDStreamSize_fromFrame(in, in_len);
	if (ZSTD_isError(zs->zd_work_size)) {
		free(zs);
		return -EBADMSG;
	}
	zs->zd_work = mmap(NULL, zs->zd_work_size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zs->zd_work == MAP_FAILED) {
		free(zs);
		return -ENOMEM;
	}
	zs->zd = ZSTD_initStaticDStream(zs->zd_work, zs->zd_work_size);
	if (!zs->zd) {
		inflate_free(zs);
		return -EINVAL;
	}
	return region_new(-1, 0, size, zs, out, addr);
}

int lazy_region__new_inflate(const void *in, size_t in_len, size_t size, struct lazy_region **out,
			     void **addr)
{
	struct lazy_inflate *zs = calloc(1, sizeof(*zs));
	if (!zs)
		return -ENOMEM;
	zs->in = in;
	zs->in_len = in_len;
	zs->size = size;
	zs->pos = SIZE_MAX;
	zs->z.zalloc = arena_alloc;
	zs->z.zfree = arena_free;
	zs->z.opaque = zs;
	zs->maxpts = size / LAZY_SPAN + 1;
	if (!lazy_page_size)
		lazy_page_size = (size_t)sysconf(_SC_PAGESIZE);
	zs->drop = in_file_mapping(in, in_len);
	zs->isal = isal_load();
	if (zs->isal) {
		zs->is = mmap(NULL, sizeof(*zs->is), PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		zs->isal_pts =
			mmap(NULL, zs->maxpts * sizeof(*zs->isal_pts), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (zs->is == MAP_FAILED || zs->isal_pts == MAP_FAILED) {
			if (zs->is == MAP_FAILED)
				zs->is = NULL;
			if (zs->isal_pts == MAP_FAILED)
				zs->isal_pts = NULL;
			inflate_free(zs);
			return -ENOMEM;
		}
		return region_new(-1, 0, size, zs, out, addr);
	}
	zs->pts = mmap(NULL, zs->maxpts * sizeof(*zs->pts), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zs->pts == MAP_FAILED) {
		zs->pts = NULL;
		inflate_free(zs);
		return -ENOMEM;
	}
	if (inflateInit2(&zs->z, 15) != Z_OK) {
		inflate_free(zs);
		return -EINVAL;
	}
	return region_new(-1, 0, size, zs, out, addr);
}

size_t lazy_region__inflated(const struct lazy_region *r, size_t *restarts)
{
	*restarts = r && r->zs ? r->zs->restarts : 0;
	return r && r->zs ? r->zs->inflated : 0;
}

const char *lazy_region__inflater(const struct lazy_region *r)
{
	if (!r || !r->zs)
		return NULL;
	return r->zs->zd ? "zstd" : r->zs->isal ? "ISA-L" : "zlib";
}

bool lazy_region__corrupt(const struct lazy_region *r)
{
	return r && r->zs && r->zs->corrupt;
}

/* The whole stream of @zs read once from its start, its check included: does it hold? */
static bool stream_holds(const struct lazy_inflate *zs)
{
	static unsigned char out[1 << 16];
	size_t total = 0;
	bool end = false;

	if (zs->zd) {
		ZSTD_DCtx *dc = ZSTD_createDCtx();
		ZSTD_inBuffer ib = { zs->in, zs->in_len, 0 };

		while (dc && !end) {
			ZSTD_outBuffer ob = { out, sizeof(out), 0 };
			size_t ret = ZSTD_decompressStream(dc, &ob, &ib);

			total += ob.pos;
			if (ZSTD_isError(ret) || (!ob.pos && ib.pos == ib.size && ret))
				break;
			end = ret == 0;
		}
		ZSTD_freeDCtx(dc);
	} else {
		z_stream z = { 0 };
		int ret = Z_OK;

		if (inflateInit2(&z, 15) != Z_OK)
			return false;
		z.next_in = (Bytef *)zs->in;
		z.avail_in = zs->in_len > UINT_MAX ? UINT_MAX : (uInt)zs->in_len;
		while (ret == Z_OK) {
			z.next_out = out;
			z.avail_out = sizeof(out);
			ret = inflate(&z, Z_NO_FLUSH); /* the adler-32 at the end is checked */
			total += sizeof(out) - z.avail_out;
		}
		end = ret == Z_STREAM_END;
		inflateEnd(&z);
	}
	return end && total == zs->size;
}

bool lazy_region__verify(struct lazy_region *r)
{
	if (!r || !r->zs)
		return true;
	if (!r->zs->corrupt && !stream_holds(r->zs))
		r->zs->corrupt = true;
	return !r->zs->corrupt;
}

void lazy_region__delete(struct lazy_region *r)
{
	if (!r || !r->used)
		return;
	__atomic_store_n(&r->used, 0, __ATOMIC_RELEASE);
	munmap(r->base, r->map_size);
	if (r->uffd >= 0)
		close(r->uffd);
	if (r->bounce)
		munmap(r->bounce, LAZY_BOUNCE_PAGES * lazy_page_size);
	if (r->fd >= 0)
		close(r->fd);
	inflate_free(r->zs);
	r->zs = NULL;
	free(r->done);
	r->done = NULL;
	r->bounce = NULL;
	r->base = NULL;
	if (--lazy_regions_used)
		return;
	/* The last one: the previous handlers back, unless a fault already put them back. */
	lazy_release(SIGSEGV, &lazy_prev_segv);
	lazy_release(SIGBUS, &lazy_prev_bus);
}

void lazy_region__prefetch(const void *addr, size_t len)
{
	struct lazy_region *r = len ? region_of(addr) : NULL;
	size_t k, end;

	if (!r)
		return;
	k = (size_t)((const char *)addr - r->base) / lazy_page_size;
	end = ((size_t)((const char *)addr - r->base) + len + lazy_page_size - 1) / lazy_page_size;
	if (end > r->map_size / lazy_page_size)
		end = r->map_size / lazy_page_size;
	while (k < end) {
		size_t run = k;

		if (page_done(r, k)) {
			k++;
			continue;
		}
		while (run < end && !page_done(r, run))
			run++;
		if (lazy_fill(r, k, run))
			return; /* the faults will tell */
		k = run;
	}
}

size_t lazy_region__filled(const struct lazy_region *r)
{
	return r ? r->filled : 0;
}

size_t lazy_region__faults(const struct lazy_region *r)
{
	return r ? r->faults : 0;
}

bool lazy_region__uffd(const struct lazy_region *r)
{
	return r && r->uffd >= 0;
}

size_t lazy_region__pages(const struct lazy_region *r)
{
	return r ? r->map_size / lazy_page_size : 0;
}

int lazy_section__attach(Elf *elf, const char *name, int fd, size_t min_size,
			 struct lazy_region **out)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	void *addr;
	int err;

	*out = NULL;
	if (fd < 0)
		return 0;
	if (!gelf_getehdr(elf, &ehdr) || (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN))
		goto keep;
	scn = elf_find_section(elf, SHT_NULL, name, &shdr);
	if (!scn || shdr.sh_type == SHT_NOBITS || (shdr.sh_flags & SHF_COMPRESSED) ||
	    shdr.sh_size < min_size || !shdr.sh_size)
		goto keep;
	/* One untranslated piece of the file's bytes, as libelf gives a mapped file's. */
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf || data->d_type != ELF_T_BYTE || data->d_size != shdr.sh_size ||
	    elf_getdata(scn, data))
		goto keep;
	err = lazy_region__new(fd, (off_t)shdr.sh_offset, shdr.sh_size, out, &addr);
	if (err)
		return err;
	data->d_buf = addr;
	return 0;
keep:
	close(fd);
	return 0;
}

/* What lazy_section__inflate_begin() set, for the wrapper libdw calls. */
static struct {
	bool on;
	size_t min_size;
	int nr, refused;
	struct lazy_region *regions[LAZY_REGIONS_MAX];
} lazy_inflating;

int lazy_section__inflate(Elf_Scn *scn, size_t min_size, struct lazy_region **out)
{
	GElf_Shdr shdr;
	GElf_Chdr ch;
	Elf_Data *raw, *data;
	size_t hdr;
	uint32_t second;
	void *addr;

	*out = NULL;
	if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_COMPRESSED) ||
	    shdr.sh_type == SHT_NOBITS || !gelf_getchdr(scn, &ch) ||
	    (ch.ch_type != ELFCOMPRESS_ZLIB && ch.ch_type != ELFCOMPRESS_ZSTD) ||
	    (ch.ch_type == ELFCOMPRESS_ZLIB && ch.ch_size < min_size) || !ch.ch_size)
		return 0;
	raw = elf_rawdata(scn, NULL);
	if (!raw || !raw->d_buf || raw->d_size <= sizeof(Elf64_Chdr))
		return -EBADMSG;
	/* The header's second word: ch_reserved (0) of ELFCLASS64, ch_size of ELFCLASS32. */
	memcpy(&second, (const char *)raw->d_buf + 4, sizeof(second));
	hdr = second ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
	/* Deflate makes at most 1032 bytes of one: a claim past that is a lie. */
	if (ch.ch_type == ELFCOMPRESS_ZLIB && ch.ch_size / 1032 > raw->d_size)
		return -EBADMSG;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	if (ch.ch_type == ELFCOMPRESS_ZSTD) {
		/* libelf 0.188 reads no zstd: ours or nothing, at any size. */
		int err = lazy_region__new_unzstd((const char *)raw->d_buf + hdr, raw->d_size - hdr,
						  ch.ch_size, out, &addr);

		if (err)
			return err == -EBADMSG ? err : 0;
	} else if (lazy_region__new_inflate((const char *)raw->d_buf + hdr, raw->d_size - hdr,
					    ch.ch_size, out, &addr)) {
		return 0; /* libelf inflates it, as without us */
	}
	shdr.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	shdr.sh_size = ch.ch_size;
	shdr.sh_addralign = ch.ch_addralign;
	if (!gelf_update_shdr(scn, &shdr)) {
		lazy_region__delete(*out);
		*out = NULL;
		return 0;
	}
	data->d_buf = addr;
	data->d_size = ch.ch_size;
	data->d_type = ELF_T_BYTE;
	data->d_align = ch.ch_addralign;
	return 1;
}

void lazy_section__inflate_begin(size_t min_size)
{
	lazy_inflating.on = true;
	lazy_inflating.min_size = min_size;
	lazy_inflating.nr = 0;
	lazy_inflating.refused = 0;
}

int lazy_section__inflate_end(struct lazy_region **regions, int max, int *refused)
{
	int n = lazy_inflating.nr < max ? lazy_inflating.nr : max;

	for (int i = 0; i < lazy_inflating.nr; i++) {
		if (i < n)
			regions[i] = lazy_inflating.regions[i];
		else
			lazy_region__delete(lazy_inflating.regions[i]);
	}
	*refused = lazy_inflating.refused;
	lazy_inflating.on = false;
	lazy_inflating.nr = 0;
	return n;
}

/*
 * libdw asks libelf to inflate each SHF_COMPRESSED .debug_* section as it
 * opens a file's DWARF (elf_compress(scn, 0, 0)); the perf binary is
 * linked with --wrap=elf_compress, so that call comes here: between
 * begin and end a large zlib section becomes a lazy region instead.
 * Without the wrap (shared libdw) nothing calls this and __real_ is not
 * needed: libelf inflates as it always did.
 */
int __real_elf_compress(Elf_Scn *scn, int type, unsigned int flags) __attribute__((weak));
int __wrap_elf_compress(Elf_Scn *scn, int type, unsigned int flags);

int __wrap_elf_compress(Elf_Scn *scn, int type, unsigned int flags)
{
	struct lazy_region *r;
	int ret;

	if (lazy_inflating.on && type == 0 && lazy_inflating.nr < LAZY_REGIONS_MAX) {
		ret = lazy_section__inflate(scn, lazy_inflating.min_size, &r);
		if (ret == 1) {
			lazy_inflating.regions[lazy_inflating.nr++] = r;
			return 1;
		}
		if (ret < 0) {
			lazy_inflating.refused++;
			return -1;
		}
	}
	return __real_elf_compress(scn, type, flags);
}
