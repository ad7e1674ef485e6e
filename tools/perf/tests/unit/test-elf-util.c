// SPDX-License-Identifier: GPL-2.0
/* elf-util: the note walk, PT_LOAD conversions, opening files, sections by name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/elf-util.h"

/* Append a native-order note with @name and @desc, padded to @align. */
static size_t put_note(unsigned char *buf, size_t pos, size_t align, uint32_t type,
		       const char *name, const void *desc, uint32_t descsz)
{
	uint32_t namesz = strlen(name) + 1, hdr[3] = { namesz, descsz, type };
	size_t desc_off = (12 + namesz + align - 1) / align * align;

	memcpy(buf + pos, hdr, 12);
	memcpy(buf + pos + 12, name, namesz);
	memcpy(buf + pos + desc_off, desc, descsz);
	return pos + (desc_off + descsz + align - 1) / align * align;
}

static void test_notes_are_walked_with_their_padding(void)
{
	for (size_t align = 4; align <= 8; align += 4) {
		unsigned char buf[256] = { 0 };
		struct elf_note_iter it;
		struct elf_note n;
		size_t len = put_note(buf, 0, align, 3, "stapsdt", "abcde", 5);

		len = put_note(buf, len, align, 3, "GNU", "\x01\x02\x03\x04", 4);
		elf_notes__iter_init(&it, buf, len, false, align);
		CHECK_INT(elf_notes__next(&it, &n), ==, 1);
		CHECK(elf_note__is(&n, "stapsdt", 3));
		CHECK(!elf_note__is(&n, "stapsdt", 1));
		CHECK_INT(n.descsz, ==, 5);
		CHECK(!memcmp(n.desc, "abcde", 5));
		CHECK_INT(elf_notes__next(&it, &n), ==, 1);
		CHECK(elf_note__is(&n, "GNU", 3));
		CHECK(!memcmp(n.desc, "\x01\x02\x03\x04", 4));
		CHECK_INT(elf_notes__next(&it, &n), ==, 0);
	}
}

static void test_truncated_notes_are_refused(void)
{
	unsigned char buf[64] = { 0 };
	struct elf_note_iter it;
	struct elf_note n;
	size_t len = put_note(buf, 0, 4, 3, "GNU", "\x01\x02\x03\x04", 4);

	/* The last descriptor's padding may be missing, not its bytes. */
	elf_notes__iter_init(&it, buf, len - 1, false, 4);
	CHECK_INT(elf_notes__next(&it, &n), ==, -EBADMSG);
	CHECK(!it.short_header);
	CHECK_INT(elf_notes__next(&it, &n), ==, 0);
	elf_notes__iter_init(&it, buf, 11, false, 4);
	CHECK_INT(elf_notes__next(&it, &n), ==, -EBADMSG);
	CHECK(it.short_header);
	/* A huge size does not wrap around. */
	memset(buf + 4, 0xff, 4);
	elf_notes__iter_init(&it, buf, len, false, 4);
	CHECK_INT(elf_notes__next(&it, &n), ==, -EBADMSG);
}

/* An empty SHT_NOTE section comes with no buffer (found by fuzz-build-id). */
static void test_an_empty_note_section_has_no_notes(void)
{
	struct elf_note_iter it;
	struct elf_note n;

	elf_notes__iter_init(&it, NULL, 0, false, 4);
	CHECK_INT(elf_notes__next(&it, &n), ==, 0);
	elf_notes__iter_init(&it, NULL, 12, false, 4);
	CHECK_INT(elf_notes__next(&it, &n), ==, 0);
}

static void test_addresses_and_offsets_go_through_pt_load(void)
{
	const struct elf_load_segment loads[] = {
		{ .vaddr = 0x400000, .memsz = 0x2000, .offset = 0, .filesz = 0x1000 },
		{ .vaddr = 0x601000, .memsz = 0x1000, .offset = 0x1000, .filesz = 0x800 },
	};
	uint64_t v;

	CHECK_INT(elf_loads__vaddr_to_offset(loads, 2, 0x400123, &v), ==, 0);
	CHECK_INT(v, ==, 0x123);
	CHECK_INT(elf_loads__vaddr_to_offset(loads, 2, 0x601010, &v), ==, 0);
	CHECK_INT(v, ==, 0x1010);
	/* Past the file part (.bss) is no file offset. */
	CHECK_INT(elf_loads__vaddr_to_offset(loads, 2, 0x401800, &v), ==, -ERANGE);
	CHECK_INT(elf_loads__offset_to_vaddr(loads, 2, 0x1010, &v), ==, 0);
	CHECK_INT(v, ==, 0x601010);
	CHECK_INT(elf_loads__offset_to_vaddr(loads, 2, 0x2000, &v), ==, -ERANGE);
}

static void test_this_program_opens_and_has_its_sections(void)
{
	struct elf_load_segment *loads;
	GElf_Shdr shdr;
	uint64_t size;
	Elf *elf;
	int fd, nr;

	CHECK_INT(elf_util__open("/nonexistent", &fd, &elf, NULL), ==, -ENOENT);
	CHECK_INT(elf_util__open("/tmp", &fd, &elf, NULL), ==, -EISDIR);
	CHECK_INT(elf_util__open("/proc/self/cmdline", &fd, &elf, NULL), ==, -ENOEXEC);
	if (elf_util__open("/proc/self/exe", &fd, &elf, &size)) {
		CHECK(!"/proc/self/exe opens");
		return;
	}
	CHECK(size > 0);
	CHECK(elf_find_section(elf, SHT_NULL, ".text", &shdr) != NULL);
	CHECK_INT(shdr.sh_type, ==, SHT_PROGBITS);
	CHECK(elf_find_section(elf, SHT_NOTE, ".text", &shdr) == NULL);
	CHECK(elf_find_section(elf, SHT_NULL, ".no-such-section", &shdr) == NULL);
	CHECK_INT(elf_loads__read(elf, &loads, &nr), ==, 0);
	CHECK(nr > 0);
	free(loads);
	elf_util__close(fd, elf);
}

/* Write @len bytes of @h to a temporary file; its path in @path. */
static void put_file(char *path, const void *h, size_t len)
{
	int fd;

	strcpy(path, "/tmp/test-elf-util.XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, h, len), ==, (ssize_t)len);
	close(fd);
}

static void test_the_machine_is_read_from_the_header(void)
{
	unsigned char h[20] = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1 };
	char path[64];

	CHECK_INT(elf_util__machine("/proc/self/exe"), ==, EM_X86_64);
	CHECK_INT(elf_util__machine("/nonexistent"), ==, -ENOENT);
	CHECK_INT(elf_util__machine("/tmp"), ==, -EISDIR);
	CHECK_INT(elf_util__machine("/proc/self/cmdline"), ==, -ENOEXEC);
	/* Either byte order, whatever this host's. */
	h[18] = EM_AARCH64;
	put_file(path, h, sizeof(h));
	CHECK_INT(elf_util__machine(path), ==, EM_AARCH64);
	unlink(path);
	h[EI_DATA] = ELFDATA2MSB;
	h[18] = EM_S390 >> 8;
	h[19] = EM_S390 & 0xff;
	put_file(path, h, sizeof(h));
	CHECK_INT(elf_util__machine(path), ==, EM_S390);
	unlink(path);
	/* A bad class, a bad byte order, a header cut short: not ELF. */
	h[EI_CLASS] = 3;
	put_file(path, h, sizeof(h));
	CHECK_INT(elf_util__machine(path), ==, -ENOEXEC);
	unlink(path);
	h[EI_CLASS] = ELFCLASS32;
	h[EI_DATA] = 0;
	put_file(path, h, sizeof(h));
	CHECK_INT(elf_util__machine(path), ==, -ENOEXEC);
	unlink(path);
	h[EI_DATA] = ELFDATA2LSB;
	put_file(path, h, 19);
	CHECK_INT(elf_util__machine(path), ==, -ENOEXEC);
	unlink(path);
}

TESTS(TEST(test_notes_are_walked_with_their_padding), TEST(test_truncated_notes_are_refused),
      TEST(test_an_empty_note_section_has_no_notes),
      TEST(test_addresses_and_offsets_go_through_pt_load),
      TEST(test_this_program_opens_and_has_its_sections),
      TEST(test_the_machine_is_read_from_the_header));
