// SPDX-License-Identifier: GPL-2.0
/* Sections read one page at a time, on first touch (see lazy-section.h). */
#include <errno.h>
#include <gelf.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/elf-util.h"
#include "util/lazy-section.h"

struct lazy_region {
	char *base;
	size_t size;	 /* the section's bytes */
	size_t map_size; /* size rounded up to pages */
	off_t offset;	 /* where they are in the file */
	int fd;
	size_t filled;	     /* pages filled so far */
	unsigned char *done; /* a bit per page: filled (a fault there is not ours) */
	int used;	     /* read by the handler: set last, cleared first */
};

/*
 * The one place this tool keeps file-level state: a signal handler gets
 * no userdata, so the regions it serves, the handler it replaced and the
 * page size live here.  Small and fixed (no allocation in the handler);
 * a debuginfo opens one region.
 */
#define LAZY_REGIONS_MAX 8
static struct lazy_region lazy_regions[LAZY_REGIONS_MAX];
static int lazy_regions_used;
static struct sigaction lazy_prev_action;
static size_t lazy_page_size;

/* Fill the page of @r holding @addr: 0, or -1 when it can not be made readable. */
static int lazy_fill(struct lazy_region *r, char *addr)
{
	size_t at = (size_t)(addr - r->base) & ~(lazy_page_size - 1);
	char *page = r->base + at;
	size_t want = r->size - at < lazy_page_size ? r->size - at : lazy_page_size;
	size_t got = 0, bit = at / lazy_page_size;

	if (r->done[bit / 8] & (1u << (bit % 8)))
		return -1; /* a write, or a fault the page being readable did not end */
	if (mprotect(page, lazy_page_size, PROT_READ | PROT_WRITE))
		return -1;
	/* A short read (a truncated file) or an error leaves zeros: a new anonymous page. */
	while (got < want) {
		ssize_t n = pread(r->fd, page + got, want - got, r->offset + (off_t)(at + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (mprotect(page, lazy_page_size, PROT_READ))
		return -1;
	r->done[bit / 8] |= 1u << (bit % 8);
	r->filled++;
	return 0;
}

/*
 * SIGSEGV: a first touch of a region is served; any other fault puts the
 * previous handler back and returns, so the faulting instruction runs
 * again and faults into it (SIG_DFL: a crash with a core).
 * Async-signal-safe calls only: mprotect, pread, sigaction.
 */
static void lazy_segv(int sig, siginfo_t *si, void *uc)
{
	char *addr = si->si_addr;
	int saved = errno;

	for (int i = 0; i < LAZY_REGIONS_MAX; i++) {
		struct lazy_region *r = &lazy_regions[i];

		if (!__atomic_load_n(&r->used, __ATOMIC_ACQUIRE) || addr < r->base ||
		    addr >= r->base + r->map_size)
			continue;
		if (si->si_code == SEGV_ACCERR && !lazy_fill(r, addr)) {
			errno = saved;
			return;
		}
		break;
	}
	sigaction(SIGSEGV, &lazy_prev_action, NULL);
	errno = saved;
}

int lazy_region__new(int fd, off_t offset, size_t size, struct lazy_region **out, void **addr)
{
	struct lazy_region *r = NULL;
	void *base;
	int err;

	for (int i = 0; i < LAZY_REGIONS_MAX && !r; i++)
		if (!lazy_regions[i].used)
			r = &lazy_regions[i];
	if (!r || !size) {
		close(fd);
		return r ? -EINVAL : -ENOSPC;
	}
	if (!lazy_page_size)
		lazy_page_size = (size_t)sysconf(_SC_PAGESIZE);
	r->map_size = (size + lazy_page_size - 1) & ~(lazy_page_size - 1);
	r->done = calloc(r->map_size / lazy_page_size / 8 + 1, 1);
	if (!r->done) {
		close(fd);
		return -ENOMEM;
	}
	base = mmap(NULL, r->map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		    0);
	if (base == MAP_FAILED) {
		err = -errno;
		goto fail;
	}
	if (!lazy_regions_used) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = lazy_segv;
		/* SA_ONSTACK: a stack overflow still reaches a sanitizer's alternate stack. */
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGSEGV, &sa, &lazy_prev_action)) {
			err = -errno;
			munmap(base, r->map_size);
			goto fail;
		}
	}
	lazy_regions_used++;
	r->base = base;
	r->size = size;
	r->offset = offset;
	r->fd = fd;
	r->filled = 0;
	__atomic_store_n(&r->used, 1, __ATOMIC_RELEASE);
	*out = r;
	*addr = base;
	return 0;
fail:
	free(r->done);
	r->done = NULL;
	close(fd);
	return err;
}

void lazy_region__delete(struct lazy_region *r)
{
	struct sigaction now;

	if (!r || !r->used)
		return;
	__atomic_store_n(&r->used, 0, __ATOMIC_RELEASE);
	munmap(r->base, r->map_size);
	close(r->fd);
	free(r->done);
	r->done = NULL;
	r->base = NULL;
	if (--lazy_regions_used)
		return;
	/* The last one: the previous handler back, unless a fault already put it back. */
	if (!sigaction(SIGSEGV, NULL, &now) && (now.sa_flags & SA_SIGINFO) &&
	    now.sa_sigaction == lazy_segv)
		sigaction(SIGSEGV, &lazy_prev_action, NULL);
}

size_t lazy_region__filled(const struct lazy_region *r)
{
	return r ? r->filled : 0;
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
