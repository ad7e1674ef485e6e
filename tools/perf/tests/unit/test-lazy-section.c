// SPDX-License-Identifier: GPL-2.0
/* lazy-section: regions filled from their file on first touch, sections made lazy. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

#include "tests/unit/unit-test.h"
#include "util/lazy-section.h"

#define PAGE 4096

/* A temporary file of @len bytes, byte i being (i * 7 + i / 251) & 0xff: its fd. */
static int patterned_file(char *path, size_t len)
{
	unsigned char *buf = malloc(len);
	int fd = mkstemp(path);

	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
	if (fd >= 0 && write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		fd = -1;
	}
	free(buf);
	return fd;
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + i / 251);
}

static void test_a_region_reads_as_its_file_page_by_page(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	size_t len = 5 * PAGE + 123, offset = 1000, at[] = { 0, 1, PAGE - 1, PAGE, 3 * PAGE + 17 };
	struct lazy_region *r = NULL;
	unsigned char *base = NULL;
	int fd = patterned_file(path, len);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	/* Two pages more than the file holds from @offset. */
	CHECK_INT(lazy_region__new(fd, offset, len - offset + 2 * PAGE, &r, (void **)&base), ==, 0);
	if (!r)
		return;
	/* The pages from the one @offset is in. */
	CHECK_INT(lazy_region__pages(r), ==,
		  (offset % PAGE + len - offset + 2 * PAGE + PAGE - 1) / PAGE);
	CHECK_INT(lazy_region__filled(r), ==, 0);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		CHECK_INT(base[at[i]], ==, pattern(offset + at[i]));
	/* Pages 0, 1 and 3 were touched, each read once. */
	CHECK_INT(lazy_region__filled(r), ==, 3);
	for (size_t i = 0; i < len - offset; i++)
		if (base[i] != pattern(offset + i)) {
			CHECK_INT(base[i], ==, pattern(offset + i));
			break;
		}
	/* Past the end of the file: zeros, in the page it ends in and after. */
	CHECK_INT(base[len - offset], ==, 0);
	CHECK_INT(base[len - offset + PAGE + 5], ==, 0);
	CHECK_INT(base[len - offset + 2 * PAGE - 1], ==, 0);
	CHECK_INT(lazy_region__filled(r), ==, lazy_region__pages(r));
	lazy_region__delete(r);
}

static void test_regions_are_unregistered_and_the_handler_put_back(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	struct lazy_region *r[2] = { NULL, NULL };
	unsigned char *a = NULL, *b = NULL;
	struct sigaction before, now, bus_before, bus_now;
	int fd = patterned_file(path, 3 * PAGE);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	sigaction(SIGSEGV, NULL, &before);
	sigaction(SIGBUS, NULL, &bus_before);
	CHECK_INT(lazy_region__new(dup(fd), 0, 3 * PAGE, &r[0], (void **)&a), ==, 0);
	CHECK_INT(lazy_region__new(fd, PAGE, 2 * PAGE, &r[1], (void **)&b), ==, 0);
	if (!r[0] || !r[1])
		return;
	CHECK_INT(a[PAGE + 2], ==, b[2]);
	CHECK_INT(b[PAGE + 9], ==, pattern(2 * PAGE + 9));
	lazy_region__delete(r[0]);
	/* The other still served. */
	CHECK_INT(b[7], ==, pattern(PAGE + 7));
	lazy_region__delete(r[1]);
	lazy_region__delete(NULL);
	sigaction(SIGSEGV, NULL, &now);
	CHECK(now.sa_handler == before.sa_handler);
	CHECK_INT(now.sa_flags & SA_SIGINFO, ==, before.sa_flags & SA_SIGINFO);
	sigaction(SIGBUS, NULL, &bus_now);
	CHECK(bus_now.sa_handler == bus_before.sa_handler);
}

static void test_a_prefetch_fills_a_range_without_faults(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	struct lazy_region *r = NULL;
	unsigned char *base = NULL;
	int fd = patterned_file(path, 8 * PAGE), local = 0;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK_INT(lazy_region__new(fd, 2 * PAGE, 6 * PAGE, &r, (void **)&base), ==, 0);
	if (!r)
		return;
	CHECK_INT(base[2 * PAGE], ==, pattern(4 * PAGE));
	CHECK_INT(lazy_region__filled(r), ==, 1);
	/* Pages 1 to 3: 2 was filled already. */
	lazy_region__prefetch(base + PAGE + 5, 2 * PAGE);
	CHECK_INT(lazy_region__filled(r), ==, 3);
	for (size_t i = PAGE; i < 4 * PAGE; i++)
		if (base[i] != pattern(2 * PAGE + i)) {
			CHECK_INT(base[i], ==, pattern(2 * PAGE + i));
			break;
		}
	CHECK_INT(lazy_region__filled(r), ==, 3);
	/* Up to the end and past it, and outside every region: nothing more. */
	lazy_region__prefetch(base + 5 * PAGE, 100 * PAGE);
	CHECK_INT(lazy_region__filled(r), ==, 4);
	lazy_region__prefetch(&local, sizeof(local));
	lazy_region__prefetch(base, 0);
	CHECK_INT(lazy_region__filled(r), ==, 4);
	CHECK_INT(base[6 * PAGE - 1], ==, pattern(8 * PAGE - 1));
	lazy_region__delete(r);
}

/*
 * In a child: a fault the regions do not explain (@how 0: a PROT_NONE
 * page of no region, 1: a write into a region) kills it as it would
 * without them: SIGSEGV, or under ASan its report (to @report, not the
 * suite's directory) and an abnormal exit.
 */
static void check_stray_fault_crashes(int how, const char *report)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	int fd = patterned_file(path, 2 * PAGE), status = 0;
	pid_t pid;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct lazy_region *r;
		unsigned char *base;
		volatile unsigned char *p;

		int null = open("/dev/null", O_WRONLY);

		/* ASan's "DEADLYSIGNAL" line goes to stderr whatever its path. */
		if (null >= 0)
			dup2(null, 2);
#ifdef __SANITIZE_ADDRESS__
		__sanitizer_set_report_path(report);
#endif
		if (lazy_region__new(fd, 0, 2 * PAGE, &r, (void **)&base))
			_exit(3);
		if (base[1] != pattern(1))
			_exit(4);
		if (how == 0) {
			p = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(5);
			(void)p[0];
		} else if (how == 2) {
			/* A mapping of a file past its end: SIGBUS. */
			p = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
			if (p == MAP_FAILED)
				_exit(5);
			(void)p[3 * PAGE];
		} else {
			p = base;
			p[1] = 0;
		}
		_exit(0);
	}
	close(fd);
	CHECK(pid > 0);
	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return;
#ifdef __SANITIZE_ADDRESS__
	{
		char name[256], buf[4096] = "";
		int rfd;

		snprintf(name, sizeof(name), "%s.%d", report, (int)pid);
		rfd = open(name, O_RDONLY);
		CHECK(rfd >= 0);
		if (rfd >= 0) {
			CHECK(read(rfd, buf, sizeof(buf) - 1) > 0);
			close(rfd);
		}
		unlink(name);
		CHECK(strstr(buf, how == 2 ? "BUS" : "SEGV") != NULL);
		CHECK(!WIFEXITED(status) || WEXITSTATUS(status) != 0);
	}
#else
	(void)report;
	CHECK(WIFSIGNALED(status));
	CHECK_INT(WIFSIGNALED(status) ? WTERMSIG(status) : -1, ==, how == 2 ? SIGBUS : SIGSEGV);
#endif
}

static void test_a_fault_outside_every_region_still_crashes(void)
{
	char report[64];

	snprintf(report, sizeof(report), "/tmp/perf-unit-lazy-asan-%d", (int)getpid());
	check_stray_fault_crashes(0, report);
}

static void test_a_bus_error_outside_every_region_still_crashes(void)
{
	char report[64];

	snprintf(report, sizeof(report), "/tmp/perf-unit-lazy-asan-%d", (int)getpid());
	check_stray_fault_crashes(2, report);
}

static void test_a_write_into_a_region_crashes(void)
{
	char report[64];

	snprintf(report, sizeof(report), "/tmp/perf-unit-lazy-asan-%d", (int)getpid());
	check_stray_fault_crashes(1, report);
}

/* An ELF file of @type with a .debug_info of @size patterned bytes (@flags): its fd. */
static int elf_file(char *path, int type, size_t size, uint64_t flags)
{
	static char shstr[] = "\0.debug_info\0.shstrtab";
	unsigned char *bytes = malloc(size);
	int fd = mkstemp(path);
	Elf *elf;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	for (size_t i = 0; i < size; i++)
		bytes[i] = pattern(i);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	gelf_newehdr(elf, ELFCLASS64);
	gelf_getehdr(elf, &eh);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = type;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = 2;
	gelf_update_ehdr(elf, &eh);
	scn = elf_newscn(elf);
	d = elf_newdata(scn);
	d->d_buf = bytes;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	gelf_getshdr(scn, &sh);
	sh.sh_name = 1;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = flags;
	gelf_update_shdr(scn, &sh);
	scn = elf_newscn(elf);
	d = elf_newdata(scn);
	d->d_buf = shstr;
	d->d_size = sizeof(shstr);
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	gelf_getshdr(scn, &sh);
	sh.sh_name = 12;
	sh.sh_type = SHT_STRTAB;
	gelf_update_shdr(scn, &sh);
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		close(fd);
		fd = -1;
	}
	elf_end(elf);
	free(bytes);
	return fd;
}

/* Attach to @path's .debug_info with @min; is its data the region afterwards? */
static bool attached(const char *path, size_t min, size_t size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	struct lazy_region *r = NULL;
	Elf_Scn *scn;
	Elf_Data *d;
	bool lazy = false;

	if (!elf)
		return false;
	CHECK_INT(lazy_section__attach(elf, ".debug_info", dup(fd), min, &r), ==, 0);
	scn = elf_getscn(elf, 1);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	CHECK(d && d->d_size == size);
	if (d && r) {
		/* Asked again, libelf gives the same Elf_Data: the region's bytes. */
		lazy = lazy_region__filled(r) == 0;
		for (size_t i = 0; i < size; i++)
			if (((unsigned char *)d->d_buf)[i] != pattern(i))
				lazy = false;
		lazy = lazy && lazy_region__filled(r) == lazy_region__pages(r);
	}
	elf_end(elf);
	lazy_region__delete(r);
	close(fd);
	return lazy;
}

static void test_a_large_section_of_an_executable_is_made_lazy(void)
{
	char exec[] = "/tmp/perf-unit-lazy.XXXXXX", rel[] = "/tmp/perf-unit-lazy.XXXXXX";
	char comp[] = "/tmp/perf-unit-lazy.XXXXXX";
	size_t size = 3 * PAGE + 11;
	int fd;

	fd = elf_file(exec, ET_EXEC, size, 0);
	CHECK(fd >= 0);
	close(fd);
	CHECK(attached(exec, size, size));
	/* Under the threshold, an ET_REL or a compressed section: left as it was. */
	CHECK(!attached(exec, size + 1, size));
	fd = elf_file(rel, ET_REL, size, 0);
	close(fd);
	CHECK(!attached(rel, 1, size));
	fd = elf_file(comp, ET_DYN, size, SHF_COMPRESSED);
	close(fd);
	CHECK(!attached(comp, 1, size));
	unlink(exec);
	unlink(rel);
	unlink(comp);
}

/*
 * Inflated regions.  Their bytes: four bits of a hash of the offset (in
 * pairs), with the offset's pattern at the start of every 4 KiB: deflate
 * makes some 60% of them, in blocks of about 100 KiB of output (restart
 * points are at the end of a block).
 */
static unsigned char zbyte(size_t i)
{
	uint64_t h = (uint64_t)(i / 2) * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	if (i % PAGE < 64)
		return pattern(i);
	return (unsigned char)(0x40 | (h >> 60));
}

/* @len bytes of zbyte() and their zlib stream (compress2, level 6). */
static unsigned char *zbytes(size_t len, unsigned char **z, size_t *zlen)
{
	unsigned char *buf = malloc(len);
	uLongf n = compressBound(len);

	*z = malloc(n);
	for (size_t i = 0; i < len; i++)
		buf[i] = zbyte(i);
	CHECK_INT(compress2(*z, &n, buf, len, 6), ==, Z_OK);
	*zlen = n;
	return buf;
}

/* Is page @k of @base what @want has there (@want NULL: zeros)? */
static bool page_is(const unsigned char *base, const unsigned char *want, size_t k)
{
	static const unsigned char zeros[PAGE];

	return !memcmp(base + k * PAGE, want ? want + k * PAGE : zeros, PAGE);
}

#define ZSIZE (8UL << 20)
#define ZSPAN (1UL << 20)

static void test_an_inflated_region_reads_in_any_order(void)
{
	unsigned char *z, *want = NULL, *base = NULL;
	size_t zlen, restarts, before, pages = ZSIZE / PAGE;
	/* Forward and backward, near and more than 1 MiB apart, the ends (of 2048). */
	static const size_t order[] = { 5,    6,    300,  299,	1500, 40,  2047,
					0,    1024, 1023, 1025, 1800, 700, 1111,
					2046, 257,  256,  1300, 1299, 2,   1750 };
	struct lazy_region *r = NULL;

	want = zbytes(ZSIZE, &z, &zlen);
	CHECK_INT(zlen, <, ZSIZE * 3 / 4);
	CHECK_INT(lazy_region__new_inflate(z, zlen, ZSIZE, &r, (void **)&base), ==, 0);
	if (!r)
		goto out;
	CHECK_INT(lazy_region__pages(r), ==, pages);
	CHECK_INT(lazy_region__filled(r), ==, 0);
	CHECK_INT(lazy_region__inflated(r, &restarts), ==, 0);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		before = lazy_region__inflated(r, &restarts);
		if (!page_is(base, want, order[i])) {
			printf("#   page %zu (read %zu-th) differs\n", order[i], i);
			CHECK(false);
		}
		/*
		 * Once the stream has been inflated to its end (page
		 * pages - 1), a restart point is no more than 1 MiB and a
		 * deflate block before any page.
		 */
		if (i > 6)
			CHECK_INT(lazy_region__inflated(r, &restarts) - before, <=,
				  ZSPAN + (256 << 10));
	}
	CHECK_INT(lazy_region__filled(r), ==, sizeof(order) / sizeof(order[0]));
	lazy_region__inflated(r, &restarts);
	CHECK_INT(restarts, >, 5);
	/* Then all of it, forward, from the last page read. */
	for (size_t k = 0; k < pages; k++)
		if (!page_is(base, want, k)) {
			printf("#   page %zu differs\n", k);
			CHECK(false);
			break;
		}
	CHECK_INT(lazy_region__filled(r), ==, pages);
	CHECK(!lazy_region__corrupt(r));
	CHECK(!memcmp(base, want, ZSIZE));
	lazy_region__delete(r);
out:
	free(want);
	free(z);
}

/*
 * A read forward, a page at a time (libdw walking the units), goes on
 * from where the stream is: each byte inflated about once, without a
 * restart for each page (the pages ahead of one already inflated are in
 * the window).
 */
static void test_a_forward_read_inflates_each_byte_about_once(void)
{
	unsigned char *z, *want, *base = NULL;
	size_t zlen, restarts, pages = ZSIZE / PAGE;
	struct lazy_region *r = NULL;

	want = zbytes(ZSIZE, &z, &zlen);
	CHECK_INT(lazy_region__new_inflate(z, zlen, ZSIZE, &r, (void **)&base), ==, 0);
	if (!r)
		goto out;
	for (size_t k = 0; k < pages; k++)
		(void)*(volatile unsigned char *)(base + k * PAGE);
	CHECK_INT(lazy_region__inflated(r, &restarts), <=, ZSIZE + ZSPAN);
	CHECK_INT(restarts, <=, 2);
	CHECK(!memcmp(base, want, ZSIZE));
	lazy_region__delete(r);
out:
	free(want);
	free(z);
}

static void test_a_damaged_stream_reads_zeros_from_the_damage(void)
{
	unsigned char *z, *want, *base = NULL;
	size_t zlen, pages = ZSIZE / PAGE, k;
	struct lazy_region *r = NULL;

	want = zbytes(ZSIZE, &z, &zlen);
	for (size_t i = zlen / 2; i < zlen / 2 + 64; i++)
		z[i] ^= 0x5a;
	CHECK_INT(lazy_region__new_inflate(z, zlen, ZSIZE, &r, (void **)&base), ==, 0);
	if (!r)
		goto out;
	/* Up to a quarter in, well before the damage: right, and not corrupt. */
	for (k = 0; k < pages / 4; k++)
		if (!page_is(base, want, k)) {
			printf("#   page %zu differs\n", k);
			CHECK(false);
			break;
		}
	CHECK(!lazy_region__corrupt(r));
	/* Reading on, the damage is found; the pages after it are zeros. */
	for (; k < pages && !lazy_region__corrupt(r); k++)
		(void)*(volatile unsigned char *)(base + k * PAGE);
	CHECK(lazy_region__corrupt(r));
	CHECK_INT(k, >=, pages / 4);
	for (; k < pages; k++)
		if (!page_is(base, NULL, k)) {
			printf("#   page %zu is not zeros\n", k);
			CHECK(false);
			break;
		}
	/* And back before the damage: still zeros from now on, no crash. */
	CHECK(lazy_region__corrupt(r));
	CHECK(page_is(base, want, 0));
	lazy_region__delete(r);
out:
	free(want);
	free(z);
}

static void test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail(void)
{
	unsigned char *z, *want, *base = NULL;
	size_t zlen, len = 3 * PAGE / 2 + ZSPAN, pages = 2 * len / PAGE;
	struct lazy_region *r = NULL;

	/* It claims twice what it inflates to. */
	want = zbytes(len, &z, &zlen);
	CHECK_INT(lazy_region__new_inflate(z, zlen, 2 * len, &r, (void **)&base), ==, 0);
	if (!r)
		goto out;
	CHECK(page_is(base, want, 3));
	CHECK(!lazy_region__corrupt(r));
	CHECK(page_is(base, NULL, pages - 1));
	CHECK(lazy_region__corrupt(r));
	/* Its last real bytes, and the zeros after them in their page. */
	CHECK_INT(base[len - 1], ==, 0);
	CHECK_INT(base[len + 1], ==, 0);
	lazy_region__delete(r);
out:
	free(want);
	free(z);
}

/*
 * An ELF file whose .debug_info is @ch_size's SHF_COMPRESSED header
 * and the zlib stream of @len bytes of zbyte() (@want: them): its fd.
 */
static int compressed_elf_file(char *path, size_t len, uint64_t ch_size, unsigned char **want)
{
	static char shstr[] = "\0.debug_info\0.shstrtab";
	unsigned char *z, *bytes;
	size_t zlen;
	int fd = mkstemp(path);
	Elf64_Chdr ch = { .ch_type = ELFCOMPRESS_ZLIB, .ch_size = ch_size, .ch_addralign = 1 };
	Elf *elf;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	*want = zbytes(len, &z, &zlen);
	bytes = malloc(sizeof(ch) + zlen);
	memcpy(bytes, &ch, sizeof(ch));
	memcpy(bytes + sizeof(ch), z, zlen);
	free(z);
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) {
		free(bytes);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	gelf_newehdr(elf, ELFCLASS64);
	gelf_getehdr(elf, &eh);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = 2;
	gelf_update_ehdr(elf, &eh);
	scn = elf_newscn(elf);
	d = elf_newdata(scn);
	d->d_buf = bytes;
	d->d_size = sizeof(ch) + zlen;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	gelf_getshdr(scn, &sh);
	sh.sh_name = 1;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_COMPRESSED;
	sh.sh_addralign = 8;
	gelf_update_shdr(scn, &sh);
	scn = elf_newscn(elf);
	d = elf_newdata(scn);
	d->d_buf = shstr;
	d->d_size = sizeof(shstr);
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	gelf_getshdr(scn, &sh);
	sh.sh_name = 12;
	sh.sh_type = SHT_STRTAB;
	gelf_update_shdr(scn, &sh);
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		close(fd);
		fd = -1;
	}
	elf_end(elf);
	free(bytes);
	return fd;
}

/* 12 MiB: more than 4 MiB of input, which a region gives back as it reads. */
#define ELF_ZSIZE (12UL << 20)

static void test_a_compressed_section_is_inflated_lazily(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	unsigned char *want = NULL, *buf;
	struct lazy_region *r = NULL;
	size_t restarts, pages = ELF_ZSIZE / PAGE;
	int fd = compressed_elf_file(path, ELF_ZSIZE, ELF_ZSIZE, &want);
	Elf *elf;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;

	CHECK(fd >= 0);
	close(fd);
	fd = open(path, O_RDONLY);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	scn = elf ? elf_getscn(elf, 1) : NULL;
	CHECK(scn != NULL);
	if (!scn)
		goto out;
	/* Under the threshold: left for libelf, still compressed. */
	CHECK_INT(lazy_section__inflate(scn, ELF_ZSIZE + 1, &r), ==, 0);
	CHECK(r == NULL);
	CHECK(gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED));
	CHECK_INT(lazy_section__inflate(scn, ELF_ZSIZE, &r), ==, 1);
	if (!r)
		goto out;
	/* As after elf_compress(scn, 0, 0): plain, of the inflated size. */
	CHECK(gelf_getshdr(scn, &sh) && !(sh.sh_flags & SHF_COMPRESSED));
	CHECK_INT(sh.sh_size, ==, ELF_ZSIZE);
	d = elf_getdata(scn, NULL);
	CHECK(d && d->d_size == ELF_ZSIZE);
	if (!d)
		goto out;
	buf = d->d_buf;
	CHECK_INT(lazy_region__filled(r), ==, 0);
	/* The end (all the input read, most of it given back), then the start again. */
	CHECK(page_is(buf, want, pages - 1));
	CHECK(page_is(buf, want, 0));
	CHECK(page_is(buf, want, pages / 2));
	CHECK(page_is(buf, want, pages / 3));
	CHECK_INT(lazy_region__filled(r), ==, 4);
	lazy_region__inflated(r, &restarts);
	CHECK_INT(restarts, >=, 2);
	CHECK(!memcmp(buf, want, ELF_ZSIZE));
	CHECK(!lazy_region__corrupt(r));
out:
	if (elf)
		elf_end(elf);
	lazy_region__delete(r);
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(want);
}

static void test_a_compressed_section_that_lies_is_refused(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	unsigned char *want = NULL;
	struct lazy_region *r = NULL;
	/* More than 1032 bytes out of each byte in: deflate can not. */
	int fd = compressed_elf_file(path, 2 * ZSPAN, 1ULL << 40, &want);
	Elf *elf;
	Elf_Scn *scn;

	CHECK(fd >= 0);
	close(fd);
	fd = open(path, O_RDONLY);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	scn = elf ? elf_getscn(elf, 1) : NULL;
	CHECK(scn != NULL);
	if (scn) {
		CHECK_INT(lazy_section__inflate(scn, 1, &r), ==, -EBADMSG);
		CHECK(r == NULL);
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(want);
}

/*
 * Each test in both modes: userfaultfd (when this kernel allows it) and
 * PROT_NONE pages (PERF_LAZY_SECTION=mprotect, where it does not).
 */
static void in_mode(const char *mode, void (*fn)(void))
{
	if (mode)
		setenv("PERF_LAZY_SECTION", mode, 1);
	else
		unsetenv("PERF_LAZY_SECTION");
	fn();
	unsetenv("PERF_LAZY_SECTION");
}

#define BOTH_MODES(fn)                   \
	static void fn##_mprotect(void)  \
	{                                \
		in_mode("mprotect", fn); \
	}                                \
	static void fn##_default(void)   \
	{                                \
		in_mode(NULL, fn);       \
	}

/*
 * The inflating tests also through zlib (PERF_LAZY_INFLATE=zlib), the
 * inflater of a machine without ISA-L, the default.
 */
#define ZLIB_TOO(fn)                                    \
	static void fn##_zlib(void)                     \
	{                                               \
		setenv("PERF_LAZY_INFLATE", "zlib", 1); \
		fn();                                   \
		unsetenv("PERF_LAZY_INFLATE");          \
	}

BOTH_MODES(test_a_region_reads_as_its_file_page_by_page)
BOTH_MODES(test_regions_are_unregistered_and_the_handler_put_back)
BOTH_MODES(test_a_prefetch_fills_a_range_without_faults)
BOTH_MODES(test_a_fault_outside_every_region_still_crashes)
BOTH_MODES(test_a_bus_error_outside_every_region_still_crashes)
BOTH_MODES(test_a_write_into_a_region_crashes)
BOTH_MODES(test_an_inflated_region_reads_in_any_order)
BOTH_MODES(test_a_forward_read_inflates_each_byte_about_once)
BOTH_MODES(test_a_damaged_stream_reads_zeros_from_the_damage)
BOTH_MODES(test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail)
BOTH_MODES(test_a_compressed_section_is_inflated_lazily)
ZLIB_TOO(test_an_inflated_region_reads_in_any_order)
ZLIB_TOO(test_a_forward_read_inflates_each_byte_about_once)
ZLIB_TOO(test_a_damaged_stream_reads_zeros_from_the_damage)
ZLIB_TOO(test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail)
ZLIB_TOO(test_a_compressed_section_is_inflated_lazily)

/* ISA-L inflates by default; zlib when asked (and where libisal is not). */
static void test_the_inflater_is_told(void)
{
	unsigned char *z, *want, *base = NULL;
	size_t zlen;
	struct lazy_region *r = NULL;

	want = zbytes(2 * PAGE, &z, &zlen);
	CHECK_INT(lazy_region__new_inflate(z, zlen, 2 * PAGE, &r, (void **)&base), ==, 0);
	CHECK_STR(lazy_region__inflater(r), "ISA-L");
	CHECK(r && page_is(base, want, 1));
	lazy_region__delete(r);
	setenv("PERF_LAZY_INFLATE", "zlib", 1);
	CHECK_INT(lazy_region__new_inflate(z, zlen, 2 * PAGE, &r, (void **)&base), ==, 0);
	CHECK_STR(lazy_region__inflater(r), "zlib");
	CHECK(r && page_is(base, want, 1));
	lazy_region__delete(r);
	unsetenv("PERF_LAZY_INFLATE");
	free(want);
	free(z);
}

/* A stream without a zlib header (or one asking for a dictionary) reads as corrupt. */
static void test_a_stream_without_its_zlib_header_is_corrupt(void)
{
	unsigned char *z, *want, *base = NULL;
	size_t zlen;
	struct lazy_region *r = NULL;
	static const char *const inflaters[] = { NULL, "zlib" };

	want = zbytes(2 * PAGE, &z, &zlen);
	for (size_t e = 0; e < 2; e++) {
		for (int how = 0; how < 2; how++) {
			unsigned char save = z[how];

			if (inflaters[e])
				setenv("PERF_LAZY_INFLATE", inflaters[e], 1);
			z[how] = how ? z[1] | 0x20 : 0x78 ^ 0x0f; /* FDICT; not deflate */
			CHECK_INT(lazy_region__new_inflate(z, zlen, 2 * PAGE, &r, (void **)&base),
				  ==, 0);
			CHECK(r && page_is(base, NULL, 0) && lazy_region__corrupt(r));
			lazy_region__delete(r);
			z[how] = save;
			unsetenv("PERF_LAZY_INFLATE");
		}
	}
	free(want);
	free(z);
}

/* Which mode the default is here; PERF_LAZY_SECTION=mprotect is that one. */
static void test_the_mode_is_told(void)
{
	char path[] = "/tmp/perf-unit-lazy.XXXXXX";
	struct lazy_region *r = NULL;
	void *base;
	int fd = patterned_file(path, PAGE);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK_INT(lazy_region__new(dup(fd), 0, PAGE, &r, &base), ==, 0);
	printf("# the default mode here: %s\n", lazy_region__uffd(r) ? "userfaultfd" : "mprotect");
	lazy_region__delete(r);
	setenv("PERF_LAZY_SECTION", "mprotect", 1);
	CHECK_INT(lazy_region__new(fd, 0, PAGE, &r, &base), ==, 0);
	CHECK(!lazy_region__uffd(r));
	CHECK_INT(((unsigned char *)base)[9], ==, pattern(9));
	lazy_region__delete(r);
	unsetenv("PERF_LAZY_SECTION");
}

TESTS(TEST(test_a_region_reads_as_its_file_page_by_page_default),
      TEST(test_a_region_reads_as_its_file_page_by_page_mprotect),
      TEST(test_regions_are_unregistered_and_the_handler_put_back_default),
      TEST(test_regions_are_unregistered_and_the_handler_put_back_mprotect),
      TEST(test_a_prefetch_fills_a_range_without_faults_default),
      TEST(test_a_prefetch_fills_a_range_without_faults_mprotect),
      TEST(test_a_fault_outside_every_region_still_crashes_default),
      TEST(test_a_fault_outside_every_region_still_crashes_mprotect),
      TEST(test_a_bus_error_outside_every_region_still_crashes_default),
      TEST(test_a_bus_error_outside_every_region_still_crashes_mprotect),
      TEST(test_a_write_into_a_region_crashes_default),
      TEST(test_a_write_into_a_region_crashes_mprotect), TEST(test_the_mode_is_told),
      TEST(test_a_large_section_of_an_executable_is_made_lazy),
      TEST(test_an_inflated_region_reads_in_any_order_default),
      TEST(test_an_inflated_region_reads_in_any_order_mprotect),
      TEST(test_a_forward_read_inflates_each_byte_about_once_default),
      TEST(test_a_forward_read_inflates_each_byte_about_once_mprotect),
      TEST(test_a_damaged_stream_reads_zeros_from_the_damage_default),
      TEST(test_a_damaged_stream_reads_zeros_from_the_damage_mprotect),
      TEST(test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail_default),
      TEST(test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail_mprotect),
      TEST(test_a_compressed_section_is_inflated_lazily_default),
      TEST(test_a_compressed_section_is_inflated_lazily_mprotect),
      TEST(test_a_compressed_section_that_lies_is_refused),
      TEST(test_an_inflated_region_reads_in_any_order_zlib),
      TEST(test_a_forward_read_inflates_each_byte_about_once_zlib),
      TEST(test_a_damaged_stream_reads_zeros_from_the_damage_zlib),
      TEST(test_a_stream_shorter_than_its_size_reads_zeros_at_the_tail_zlib),
      TEST(test_a_compressed_section_is_inflated_lazily_zlib), TEST(test_the_inflater_is_told),
      TEST(test_a_stream_without_its_zlib_header_is_corrupt));
