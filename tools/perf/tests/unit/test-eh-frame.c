// SPDX-License-Identifier: GPL-2.0
/*
 * eh-frame: the frame description holding an address, on this very
 * program (gcc writes one per function) and on copies of it in memory
 * without .eh_frame_hdr (the walk) or with records broken.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/eh-frame.h"
#include "util/elf-util.h"
#include "util/symbol-elf.h"

/* A C function of known extent: its symbol's, which gcc's FDE covers. */
__attribute__((noinline, used)) int eh_frame_fixture(int x)
{
	return x > 3 ? x * 7 + 1 : x - 2;
}

#if defined(__x86_64__)
/* Code without call frame information (no .cfi_startproc). */
__asm__(".text\n"
	".globl eh_frame_bare\n"
	".type eh_frame_bare, @function\n"
	"eh_frame_bare:\n"
	"	ret\n"
	".size eh_frame_bare, . - eh_frame_bare\n");
#endif

static char exe[PATH_MAX];
static uint64_t fix_addr, fix_size, bare_addr;

static int setup(void)
{
	const struct elf_symbol **syms = NULL;
	struct symbol_elf *se;
	int ok;

	if (!realpath("/proc/self/exe", exe) || symbol_elf__load(exe, &se))
		return 0;
	ok = symbol_elf__find_name(se, "eh_frame_fixture", &syms) == 1;
	if (ok)
		fix_addr = syms[0]->addr, fix_size = syms[0]->size;
	free(syms);
	if (symbol_elf__find_name(se, "eh_frame_bare", &syms) == 1)
		bare_addr = syms[0]->addr;
	free(syms);
	symbol_elf__delete(se);
	return ok && fix_size;
}

/* This program's bytes, to break copies of. */
static char *image_of(size_t *size)
{
	struct stat st;
	char *buf;
	int fd = open(exe, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

/* The file offset, size and name offset of section @name of @image. */
static int section_of(char *image, size_t size, const char *name, GElf_Shdr *out, size_t *name_at)
{
	Elf *elf = elf_memory(image, size);
	GElf_Shdr shstr;
	size_t shstrndx;
	Elf_Scn *scn;
	int ok = 0;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0)
		goto out;
	scn = elf_find_section(elf, SHT_NULL, name, out);
	if (scn && gelf_getshdr(elf_getscn(elf, shstrndx), &shstr)) {
		*name_at = shstr.sh_offset + out->sh_name;
		ok = 1;
	}
out:
	elf_end(elf);
	return ok;
}

static int range_in(char *image, size_t size, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	Elf *elf = elf_memory(image, size);
	int ret = elf ? eh_frame__range_elf(elf, vaddr, start, end) : -ENOEXEC;

	elf_end(elf);
	return ret;
}

static void test_a_function_is_its_frame_description(void)
{
	uint64_t start = 0, end = 0;

	elf_version(EV_CURRENT);
	CHECK_INT(setup(), ==, 1);
	for (uint64_t at = fix_addr; at < fix_addr + fix_size; at++) {
		CHECK_INT(eh_frame__range(exe, at, &start, &end), ==, 0);
		CHECK_INT(start, ==, fix_addr);
		CHECK_INT(end, ==, fix_addr + fix_size);
	}
	CHECK_INT(eh_frame__range("/nonexistent/file", fix_addr, &start, &end), ==, -ENOENT);
	CHECK_INT(eh_frame__range("/proc/self/cmdline", fix_addr, &start, &end), ==, -ENOEXEC);
	CHECK_INT(eh_frame__range(exe, 0, &start, &end), ==, -ENOENT);
#if defined(__x86_64__)
	CHECK(bare_addr != 0);
	CHECK_INT(eh_frame__range(exe, bare_addr, &start, &end), ==, -ENOENT);
#endif
}

static void test_the_walk_answers_as_the_table(void)
{
	uint64_t start = 0, end = 0;
	size_t size, name_at;
	GElf_Shdr sh;
	char *image;

	CHECK_INT(setup(), ==, 1);
	image = image_of(&size);
	CHECK(image != NULL);
	if (!image)
		return;
	CHECK_INT(range_in(image, size, fix_addr + 1, &start, &end), ==, 0);
	CHECK_INT(start, ==, fix_addr);
	/* No .eh_frame_hdr (renamed): every record is walked. */
	CHECK_INT(section_of(image, size, ".eh_frame_hdr", &sh, &name_at), ==, 1);
	image[name_at + strlen(".eh_frame_h")] = 'X';
	start = end = 0;
	CHECK_INT(range_in(image, size, fix_addr + 1, &start, &end), ==, 0);
	CHECK_INT(start, ==, fix_addr);
	CHECK_INT(end, ==, fix_addr + fix_size);
	CHECK_INT(range_in(image, size, 0, &start, &end), ==, -ENOENT);
	free(image);
}

static void test_broken_records_are_refused(void)
{
	uint64_t start, end;
	size_t size, name_at;
	GElf_Shdr sh;
	char *image;

	CHECK_INT(setup(), ==, 1);
	image = image_of(&size);
	if (!image)
		return;
	/* The table's FDE pointers aimed past .eh_frame (its addresses kept). */
	CHECK_INT(section_of(image, size, ".eh_frame_hdr", &sh, &name_at), ==, 1);
	for (size_t at = 12 + 4; at + 4 <= sh.sh_size; at += 8)
		memset(image + sh.sh_offset + at, 0x7f, 4);
	CHECK_INT(range_in(image, size, fix_addr, &start, &end), ==, -EBADMSG);
	free(image);
	/* The first record's length past the section, then walked. */
	image = image_of(&size);
	if (!image)
		return;
	CHECK_INT(section_of(image, size, ".eh_frame_hdr", &sh, &name_at), ==, 1);
	image[name_at + strlen(".eh_frame_h")] = 'X';
	CHECK_INT(section_of(image, size, ".eh_frame", &sh, &name_at), ==, 1);
	memset(image + sh.sh_offset, 0x7f, 4);
	CHECK_INT(range_in(image, size, fix_addr, &start, &end), ==, -EBADMSG);
	/* A 64-bit length (0xffffffff) cut short. */
	memset(image + sh.sh_offset, 0xff, 12);
	CHECK_INT(range_in(image, size, fix_addr, &start, &end), ==, -EBADMSG);
	free(image);
}

/*
 * A frame description whose length runs past the end of the address
 * space (the fuzzer's): refused, not a range that holds nothing or
 * everything.
 */
#define WRAPPING "tools/perf/tests/fuzz/corpus/elf/regress-wrapping-frame-range"

static void test_a_range_past_the_address_space_is_refused(void)
{
	uint64_t start, end;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, n = 0;

	elf_version(EV_CURRENT);
	CHECK_INT(elf_util__open(WRAPPING, &fd, &elf, NULL), ==, 0);
	if (!gelf_getehdr(elf, &eh)) {
		CHECK(0);
		elf_util__close(fd, elf);
		return;
	}
	for (int i = 0; i < 8; i++) {
		uint64_t at = eh.e_entry + (uint64_t)i * 7;
		GElf_Shdr sh;
		int ret;

		if (i == 7 && elf_find_section(elf, SHT_NULL, ".text", &sh))
			at = sh.sh_addr + sh.sh_size / 2;
		ret = eh_frame__range_elf(elf, at, &start, &end);
		if (!ret)
			CHECK(at >= start && at < end);
		n += ret == -EBADMSG;
	}
	CHECK(n > 0);
	elf_util__close(fd, elf);
}

TESTS(TEST(test_a_function_is_its_frame_description), TEST(test_the_walk_answers_as_the_table),
      TEST(test_broken_records_are_refused), TEST(test_a_range_past_the_address_space_is_refused));
