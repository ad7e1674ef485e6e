// SPDX-License-Identifier: GPL-2.0
/* Sections read one page at a time, on first touch (see lazy-section.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/elf-util.h"
#include "util/lazy-section.h"

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
	size_t filled;	     /* pages filled so far */
	size_t faults;	     /* of them, on a fault (not prefetched) */
	unsigned char *done; /* a bit per page: filled (a fault there is not ours) */
	int used;	     /* read by the handler: set last, cleared first */
};

/*
 * The one place this tool keeps file-level state: a signal handler gets
 * no userdata, so the regions it serves, the handlers it replaced and
 * the page size live here.  Small and fixed (no allocation in the handler);
 * a debuginfo opens one region.
 */
#define LAZY_REGIONS_MAX 8
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

		if (from < r->file_size)
			want = (size_t)(r->file_size - from) < len ? (size_t)(r->file_size - from)
								   : len;
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
static int lazy_fill(struct lazy_region *r, size_t k, size_t end)
{
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

int lazy_region__new(int fd, off_t offset, size_t size, struct lazy_region **out, void **addr)
{
	struct lazy_region *r = NULL;
	struct stat st;
	void *base;
	int err;

	for (int i = 0; i < LAZY_REGIONS_MAX && !r; i++)
		if (!lazy_regions[i].used)
			r = &lazy_regions[i];
	if (!r || !size || offset < 0) {
		close(fd);
		return r ? -EINVAL : -ENOSPC;
	}
	if (fstat(fd, &st)) {
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
	r->done = calloc(r->map_size / lazy_page_size / 8 + 1, 1);
	if (!r->done) {
		close(fd);
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
	close(fd);
	return err;
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
	close(r->fd);
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
