/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_LAZY_SECTION_H
#define PERF_UTIL_LAZY_SECTION_H

/*
 * Sections read one page at a time, on first touch.
 *
 * libelf maps the whole file of a libdwfl module, and a read fault of a
 * file mapping maps up to 64 KB around it (fault-around, large folios of
 * the page cache), so libdw walking the CU headers of a vmlinux's 164 MB
 * .debug_info makes some 30 MB resident.  A lazy region is an anonymous
 * mapping of a section's size whose 4 KiB pages are filled from the file
 * when first read, so only the pages really read are resident:
 *  - userfaultfd (UFFD_USER_MODE_ONLY, allowed without privileges) with
 *    UFFD_FEATURE_SIGBUS: a missing page raises SIGBUS and the handler
 *    copies it in (pread, UFFDIO_COPY), no change of the mapping;
 *  - where the kernel or a seccomp filter refuses that (or with
 *    PERF_LAZY_SECTION=mprotect), PROT_NONE pages: SIGSEGV, and the page
 *    is mapped from the file (a one-page mapping maps no neighbour).
 * A reader that knows what libdw reads next fills it first
 * (lazy_region__prefetch()), a few microseconds a page without a signal.
 *
 * Rules: a region owns its descriptor and its mapping; the handlers serve
 * faults inside a registered region only, and for any other fault put the
 * previous handler back and return, so the fault happens again and is
 * handled (a crash with a core, a sanitizer's report) as without us.
 * Bytes past the end of the file read as zeros.  A page not read yet is
 * not there for the kernel: a system call handed a pointer into a region
 * may fail with EFAULT (copy first), and a forked child reads zeros there
 * in the userfaultfd mode.  Single-threaded use: regions are made and
 * removed outside any fault.  May call: libelf, elf-util, zlib, zstd,
 * ISA-L (dlopen()ed), POSIX, Linux.
 */

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One region (its mapping, the file it is filled from). */
struct lazy_region;

/*
 * A region of @size bytes whose bytes are those of @fd from @offset,
 * read on first touch: its start in *@addr.  @fd is taken (closed by
 * lazy_region__delete(), or here on failure).  0, -ENOSPC (the table of
 * regions is full) or -errno of mmap/sigaction.
 */
int lazy_region__new(int fd, off_t offset, size_t size, struct lazy_region **out, void **addr);

/* Unregister @r (NULL is fine), unmap it and close its descriptor. */
void lazy_region__delete(struct lazy_region *r);

/*
 * Fill now the pages of [@addr, @addr + @len) not filled yet, when
 * @addr is in a region (else nothing): for a reader that knows where
 * libdw will read next, without a fault for each page.
 */
void lazy_region__prefetch(const void *addr, size_t len);

/* The pages of @r filled so far, those of them filled on a fault, and the pages it has. */
size_t lazy_region__filled(const struct lazy_region *r);
size_t lazy_region__faults(const struct lazy_region *r);
size_t lazy_region__pages(const struct lazy_region *r);

/* Is @r filled through userfaultfd (else: PROT_NONE pages and SIGSEGV)? */
bool lazy_region__uffd(const struct lazy_region *r);

/*
 * Make section @name of @elf (opened from the file @fd is another
 * descriptor of) lazy: when @elf is ET_EXEC or ET_DYN (an ET_REL file's
 * DWARF is relocated in place by libdwfl), the section is not
 * SHF_COMPRESSED or SHT_NOBITS and is at least @min_size bytes, its
 * Elf_Data (elf_getdata) is pointed at a new region; libdw, asking
 * libelf for it later, reads the region.  @fd is always taken.  The
 * region in *@out, NULL when the section was left as it was; 0 or -errno.
 */
int lazy_section__attach(Elf *elf, const char *name, int fd, size_t min_size,
			 struct lazy_region **out);

/*
 * A region of @size bytes that reads as what the zlib stream @in
 * (@in_len bytes, its header first) inflates to, a page at a time, from
 * restart points kept as it goes (no more than 1 MiB of inflation a
 * page); @in must stay mapped as long as the region.  0 or -errno.
 */
int lazy_region__new_inflate(const void *in, size_t in_len, size_t size, struct lazy_region **out,
			     void **addr);

/*
 * The same of a zstd frame (@in: one frame that says its size, @size):
 * read from its start only, so every page up to the one asked for is
 * filled.  0, -EBADMSG (not such a frame) or -errno.
 */
int lazy_region__new_unzstd(const void *in, size_t in_len, size_t size, struct lazy_region **out,
			    void **addr);

/* The bytes @r inflated so far (more than its size after restarts), and its restarts. */
size_t lazy_region__inflated(const struct lazy_region *r, size_t *restarts);

/*
 * What inflates @r: "ISA-L" (libisal, loaded when first needed: twice as
 * fast as zlib), "zlib" (without it, or with PERF_LAZY_INFLATE=zlib),
 * "zstd"; NULL for a region of a file's bytes.
 */
const char *lazy_region__inflater(const struct lazy_region *r);

/*
 * Read the whole stream of @r once more from its start, its own check
 * (zlib's adler-32, the zstd frame's end) included, without filling a
 * page: false (and @r corrupt from then on) when it does not hold, or
 * does not make the size claimed.  Not in a signal handler.
 */
bool lazy_region__verify(struct lazy_region *r);

/* Did the stream of @r fail (corrupt, truncated, shorter than it says)? It read zeros there. */
bool lazy_region__corrupt(const struct lazy_region *r);

/*
 * Make the SHF_COMPRESSED (zlib, or zstd, which libelf 0.188 does not
 * read) section @scn a region of what it inflates to when that is at
 * least @min_size bytes: its header then
 * says so (no SHF_COMPRESSED, the inflated size) and its Elf_Data points
 * at the region, as after elf_compress(@scn, 0, 0).  1 (the region in
 * *@out), 0 (left as it is), -EBADMSG (a header that lies: more than
 * deflate can make of the bytes there).
 */
int lazy_section__inflate(Elf_Scn *scn, size_t min_size, struct lazy_region **out);

/*
 * Between begin and end, libdw's elf_compress(scn, 0, 0) of a section of
 * at least @min_size bytes goes through lazy_section__inflate() (the perf
 * binary wraps elf_compress; elsewhere libelf inflates as always).  End
 * gives the regions made (at most @max; the others deleted) and how many
 * sections were refused, which libdw then lacks.
 */
void lazy_section__inflate_begin(size_t min_size);
int lazy_section__inflate_end(struct lazy_region **regions, int max, int *refused);

#endif
