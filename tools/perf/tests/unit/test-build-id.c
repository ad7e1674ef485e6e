// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util/build-id.c: the ELF note parser on hand-made buffers,
 * the hex form of a build-id, and the names of the cache layout.
 */
#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/build-id.h"
#include "util/util.h"

#define NT_GNU_PROPERTY_TYPE_0 5
#define NT_GNU_BUILD_ID_TYPE 3
#define NT_STAPSDT_TYPE 3

static const unsigned char bid20[20] = {
	0x75, 0x5b, 0x19, 0x02, 0xfb, 0xb7, 0x60, 0xd0, 0x63, 0x8b,
	0x41, 0xef, 0xc5, 0xc1, 0x95, 0xcb, 0x7c, 0xc3, 0xc6, 0xe4,
};
static const char bid20_hex[] = "755b1902fbb760d0638b41efc5c195cb7cc3c6e4";

/* A buffer of notes being built, in either byte order. */
struct notes {
	unsigned char buf[512];
	size_t len;
	size_t align;
	bool swap;
};

static size_t align_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

static void put_word(struct notes *n, size_t off, uint32_t v)
{
	if (n->swap)
		v = bswap_32(v);
	memcpy(n->buf + off, &v, sizeof(v));
}

/*
 * Append one note; name and descriptor are padded to the buffer's alignment,
 * counted from the start of the note.  @namesz/@descsz are what the header
 * claims, @desc_len what is really copied (they differ for lying headers).
 */
static void add_note_raw(struct notes *n, uint32_t namesz, uint32_t descsz, uint32_t type,
			 const char *name, const void *desc, size_t desc_len, bool pad_last)
{
	size_t start = n->len, name_len = name ? strlen(name) + 1 : 0;
	size_t desc_off = start + align_up(12 + name_len, n->align);

	put_word(n, start, namesz);
	put_word(n, start + 4, descsz);
	put_word(n, start + 8, type);
	memset(n->buf + start + 12, 0, desc_off - start - 12);
	if (name)
		memcpy(n->buf + start + 12, name, name_len);
	if (desc_len)
		memcpy(n->buf + desc_off, desc, desc_len);
	n->len = desc_off + desc_len;
	if (pad_last) {
		size_t end = start + align_up(n->len - start, n->align);

		memset(n->buf + n->len, 0, end - n->len);
		n->len = end;
	}
}

static void add_note(struct notes *n, uint32_t type, const char *name, const void *desc,
		     size_t desc_len)
{
	add_note_raw(n, name ? strlen(name) + 1 : 0, desc_len, type, name, desc, desc_len, true);
}

static void notes_init(struct notes *n, size_t align, bool swap)
{
	memset(n, 0, sizeof(*n));
	n->align = align;
	n->swap = swap;
}

static int find(const struct notes *n, struct build_id *bid)
{
	memset(bid, 0xaa, sizeof(*bid));
	return elf_notes__find_build_id(n->buf, n->len, n->swap, n->align, bid);
}

static bool is_bid20(const struct build_id *bid)
{
	return bid->size == 20 && !memcmp(bid->data, bid20, 20);
}

static void test_finds_a_lone_build_id_note_with_4_byte_alignment(void)
{
	struct notes n;
	struct build_id bid;

	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(n.len, ==, 36);
	CHECK_INT(find(&n, &bid), ==, 0);
	CHECK(is_bid20(&bid));
}

static void test_finds_a_lone_build_id_note_with_8_byte_alignment(void)
{
	struct notes n;
	struct build_id bid;

	notes_init(&n, 8, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(n.len, ==, 40);
	CHECK_INT(find(&n, &bid), ==, 0);
	CHECK(is_bid20(&bid));
}

static void test_accepts_a_last_note_without_its_trailing_padding(void)
{
	struct notes n;
	struct build_id bid;

	notes_init(&n, 8, false);
	add_note_raw(&n, 4, 20, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20, false);
	CHECK_INT(n.len, ==, 36);
	CHECK_INT(find(&n, &bid), ==, 0);
	CHECK(is_bid20(&bid));
}

/*
 * x86-64 executables start their notes with .note.gnu.property, 8-aligned.
 * Its 12-byte descriptor is padded to 16: read with 4-byte steps the
 * build-id would be looked for 4 bytes too early.
 */
static void test_skips_a_gnu_property_note_padded_to_8_bytes(void)
{
	static const unsigned char prop[12] = { 0x02, 0x00, 0x00, 0xc0, 0x04, 0, 0, 0, 0x03 };
	struct notes n;
	struct build_id bid;

	notes_init(&n, 8, false);
	add_note(&n, NT_GNU_PROPERTY_TYPE_0, "GNU", prop, sizeof(prop));
	CHECK_INT(n.len, ==, 32);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(find(&n, &bid), ==, 0);
	CHECK(is_bid20(&bid));
}

/* A longer name moves the descriptor differently with 4 and 8 alignment. */
static void test_skips_a_note_of_type_3_that_is_not_gnu(void)
{
	static const unsigned char sdt[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	struct build_id bid;
	struct notes n;

	for (size_t align = 4; align <= 8; align += 4) {
		notes_init(&n, align, false);
		add_note(&n, NT_STAPSDT_TYPE, "stapsdt", sdt, sizeof(sdt));
		add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
		CHECK_INT(find(&n, &bid), ==, 0);
		CHECK(is_bid20(&bid));
	}
}

static void test_reads_notes_of_the_other_byte_order_when_told_to_swap(void)
{
	static const unsigned char prop[16] = { 0xc0, 0x00, 0x00, 0x02, 0, 0, 0, 4, 0, 0, 0, 3 };
	struct notes n;
	struct build_id bid;

	for (size_t align = 4; align <= 8; align += 4) {
		notes_init(&n, align, true);
		add_note(&n, NT_GNU_PROPERTY_TYPE_0, "GNU", prop, sizeof(prop));
		add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
		CHECK_INT(find(&n, &bid), ==, 0);
		CHECK(is_bid20(&bid));
		/* Read in the wrong order, the sizes are huge: not a build-id. */
		CHECK_INT(elf_notes__find_build_id(n.buf, n.len, false, align, &bid), ==, -EBADMSG);
	}
}

static void test_takes_a_build_id_shorter_than_20_bytes(void)
{
	struct notes n;
	struct build_id bid;

	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 16);
	CHECK_INT(find(&n, &bid), ==, 0);
	CHECK_INT(bid.size, ==, 16);
	CHECK(!memcmp(bid.data, bid20, 16));
}

static void test_returns_enodata_without_a_build_id_note(void)
{
	static const unsigned char prop[16] = { 0x02, 0x00, 0x00, 0xc0, 4, 0, 0, 0, 3 };
	struct notes n;
	struct build_id bid;

	notes_init(&n, 8, false);
	CHECK_INT(find(&n, &bid), ==, -ENODATA);
	add_note(&n, NT_GNU_PROPERTY_TYPE_0, "GNU", prop, sizeof(prop));
	add_note(&n, NT_STAPSDT_TYPE, "stapsdt", bid20, 20);
	/* The name "GNU" without its NUL is another name. */
	add_note_raw(&n, 3, 20, NT_GNU_BUILD_ID_TYPE, "GN", bid20, 20, true);
	CHECK_INT(find(&n, &bid), ==, -ENODATA);
}

static void test_rejects_a_truncated_note_header(void)
{
	struct notes n;
	struct build_id bid;

	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	for (size_t len = 1; len < 12; len++)
		CHECK_INT(elf_notes__find_build_id(n.buf, len, false, 4, &bid), ==, -EBADMSG);
	/* A whole first note and 8 bytes of the second one's header. */
	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_PROPERTY_TYPE_0, "GNU", bid20, 4);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(elf_notes__find_build_id(n.buf, 20 + 8, false, 4, &bid), ==, -EBADMSG);
}

static void test_rejects_a_header_whose_sizes_lie_past_the_buffer(void)
{
	struct notes n;
	struct build_id bid;

	/* The descriptor claims 0xffff bytes. */
	notes_init(&n, 4, false);
	add_note_raw(&n, 4, 0xffff, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20, true);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
	/* So does a note before it, of another type. */
	notes_init(&n, 4, false);
	add_note_raw(&n, 4, 0xffff, NT_GNU_PROPERTY_TYPE_0, "GNU", bid20, 8, true);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
	/* The name claims more than there is, up to the largest 32-bit size. */
	notes_init(&n, 8, false);
	add_note_raw(&n, 0x40, 20, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20, true);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
	notes_init(&n, 8, false);
	add_note_raw(&n, 0xffffffff, 0xffffffff, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20, true);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
	/* One byte short of the descriptor. */
	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", bid20, 20);
	CHECK_INT(elf_notes__find_build_id(n.buf, n.len - 1, false, 4, &bid), ==, -EBADMSG);
}

static void test_rejects_an_empty_or_oversized_build_id(void)
{
	unsigned char big[24];
	struct notes n;
	struct build_id bid;

	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", NULL, 0);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);

	memset(big, 0x5a, sizeof(big));
	notes_init(&n, 4, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", big, 21);
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
	notes_init(&n, 8, false);
	add_note(&n, NT_GNU_BUILD_ID_TYPE, "GNU", big, sizeof(big));
	CHECK_INT(find(&n, &bid), ==, -EBADMSG);
}

static void test_prints_and_parses_hex_both_ways(void)
{
	char buf[SBUILD_ID_SIZE];
	struct build_id bid, again;

	memcpy(bid.data, bid20, 20);
	bid.size = 20;
	CHECK_INT(build_id__sprintf(&bid, buf), ==, 40);
	CHECK_STR(buf, bid20_hex);
	CHECK_INT(build_id__from_hex(&again, buf), ==, 0);
	CHECK(build_id__equal(&bid, &again));

	CHECK_INT(build_id__from_hex(&again, "755B1902FBB760D0638B41EFC5C195CB7CC3C6E4"), ==, 0);
	CHECK(build_id__equal(&bid, &again));
	CHECK_INT(build_id__sprintf(&again, buf), ==, 40);
	CHECK_STR(buf, bid20_hex);

	CHECK_INT(build_id__from_hex(&again, "00ff"), ==, 0);
	CHECK_INT(again.size, ==, 2);
	CHECK_INT(build_id__sprintf(&again, buf), ==, 4);
	CHECK_STR(buf, "00ff");
	CHECK(!build_id__equal(&bid, &again));
}

static void test_rejects_hex_that_is_not_a_build_id(void)
{
	struct build_id bid;

	CHECK_INT(build_id__from_hex(&bid, ""), ==, -EINVAL);
	CHECK_INT(build_id__from_hex(&bid, "a"), ==, -EINVAL);
	CHECK_INT(build_id__from_hex(&bid, "abc"), ==, -EINVAL);
	CHECK_INT(build_id__from_hex(&bid, "zz"), ==, -EINVAL);
	CHECK_INT(build_id__from_hex(&bid, "0x12"), ==, -EINVAL);
	CHECK_INT(build_id__from_hex(&bid, "755b1902fbb760d0638b41efc5c195cb7cc3c6e4aa"), ==,
		  -EINVAL);
}

/*
 * buildid_dir() reads PERF_BUILDID_DIR once, at its first use: every test
 * of the cache sets it through here before anything else asks.
 */
static const char *cache_root(void)
{
	static char root[] = "/tmp/perf-unit-build-id.XXXXXX";
	static bool made;

	if (!made) {
		if (!mkdtemp(root))
			abort();
		setenv("PERF_BUILDID_DIR", root, 1);
		made = true;
	}
	return root;
}

static char *root_path(const char *rest)
{
	return path_join(cache_root(), rest);
}

static void test_names_the_cache_entry_and_its_link(void)
{
	struct build_id bid = { .size = 20 };
	char *dir, *link, *want;

	memcpy(bid.data, bid20, 20);
	cache_root();
	CHECK_STR(buildid_dir(), cache_root());

	dir = build_id_cache__dirname("/usr/bin/prog", &bid);
	want = root_path("usr/bin/prog/755b1902fbb760d0638b41efc5c195cb7cc3c6e4");
	CHECK_STR(dir, want);
	free(dir);
	free(want);

	dir = build_id_cache__dirname(KERNEL_CACHE_NAME, &bid);
	want = root_path("[kernel.kallsyms]/755b1902fbb760d0638b41efc5c195cb7cc3c6e4");
	CHECK_STR(dir, want);
	free(dir);
	free(want);

	link = build_id_cache__linkname(&bid);
	want = root_path(".build-id/75/5b1902fbb760d0638b41efc5c195cb7cc3c6e4");
	CHECK_STR(link, want);
	free(link);
	free(want);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

static void test_adds_lists_and_removes_an_entry_leaving_no_trace(void)
{
	struct build_id bid = { .size = 20 };
	struct build_id_cache_entry *entries;
	char file[] = "/tmp/perf-unit-file.XXXXXX", target[PATH_MAX];
	char *link, *dir, *elf, *probes, **names;
	struct stat st;
	ssize_t n;
	int fd, nr;

	memcpy(bid.data, bid20, 20);
	cache_root();
	fd = mkstemp(file);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	write_file(file, "not really an ELF file\n");

	CHECK(!build_id_cache__cached(file, &bid));
	CHECK_INT(build_id_cache__add(file, file, &bid, false), ==, 0);
	CHECK(build_id_cache__cached(file, &bid));
	/* Twice is the same as once. */
	CHECK_INT(build_id_cache__add(file, file, &bid, false), ==, 0);

	dir = build_id_cache__dirname(file, &bid);
	elf = path_join(dir, "elf");
	probes = path_join(dir, "probes");
	CHECK(stat(elf, &st) == 0 && st.st_size == 23);
	CHECK(stat(probes, &st) == 0 && st.st_size == 0);
	link = build_id_cache__linkname(&bid);
	n = readlink(link, target, sizeof(target) - 1);
	CHECK(n > 0);
	target[n > 0 ? n : 0] = '\0';
	CHECK(!strncmp(target, "../../tmp/perf-unit-file.", 25));
	CHECK(!strcmp(target + n - 41, "/755b1902fbb760d0638b41efc5c195cb7cc3c6e4"));

	nr = build_id_cache__list(&entries);
	CHECK_INT(nr, ==, 1);
	if (nr == 1) {
		CHECK_STR(entries[0].name, file);
		CHECK(build_id__equal(&entries[0].bid, &bid));
	}
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	nr = build_id_cache__list_name(file, &entries);
	CHECK_INT(nr, ==, 1);
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);

	CHECK_INT(build_id_cache__remove(file, &bid), ==, 0);
	CHECK_INT(build_id_cache__remove(file, &bid), ==, -ENOENT);
	CHECK(!build_id_cache__cached(file, &bid));
	CHECK(lstat(link, &st) < 0);
	CHECK_INT(build_id_cache__list(&entries), ==, 0);
	/* Nothing but empty-free roots: .build-id and tmp are gone too. */
	nr = lsdir(cache_root(), NULL, &names);
	CHECK_INT(nr, ==, 0);
	if (nr > 0)
		lsdir_free(names, nr);

	free(link);
	free(probes);
	free(elf);
	free(dir);
	unlink(file);
	rm_rf(cache_root());
}

/* Two names, one build-id: one link, to the last added, but two entries. */
static void test_lists_every_entry_even_without_a_link(void)
{
	struct build_id bid = { .size = 20 };
	struct build_id_cache_entry *entries;
	char file[] = "/tmp/perf-unit-file.XXXXXX";
	int fd, nr;

	memcpy(bid.data, bid20, 20);
	cache_root();
	fd = mkstemp(file);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK_INT(build_id_cache__add("/a/one", file, &bid, false), ==, 0);
	CHECK_INT(build_id_cache__add("/b/two", file, &bid, false), ==, 0);
	CHECK_INT(build_id_cache__add(KERNEL_CACHE_NAME, NULL, &bid, false), ==, 0);

	nr = build_id_cache__list(&entries);
	CHECK_INT(nr, ==, 1);
	if (nr == 1) /* the link stays with the first name, as perf keeps it */
		CHECK_STR(entries[0].name, "/a/one");
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);

	nr = build_id_cache__list_all(&entries);
	CHECK_INT(nr, ==, 3);
	if (nr == 3) {
		CHECK_STR(entries[0].name, "/a/one");
		CHECK_STR(entries[1].name, "/b/two");
		CHECK_STR(entries[2].name, KERNEL_CACHE_NAME);
		CHECK(build_id__equal(&entries[1].bid, &bid));
	}
	for (int i = 0; i < nr; i++)
		CHECK_INT(build_id_cache__remove(entries[i].name, &entries[i].bid), ==, 0);
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	CHECK_INT(build_id_cache__list_all(&entries), ==, 0);
	unlink(file);
	rm_rf(cache_root());
}

TESTS(TEST(test_finds_a_lone_build_id_note_with_4_byte_alignment),
      TEST(test_finds_a_lone_build_id_note_with_8_byte_alignment),
      TEST(test_accepts_a_last_note_without_its_trailing_padding),
      TEST(test_skips_a_gnu_property_note_padded_to_8_bytes),
      TEST(test_skips_a_note_of_type_3_that_is_not_gnu),
      TEST(test_reads_notes_of_the_other_byte_order_when_told_to_swap),
      TEST(test_takes_a_build_id_shorter_than_20_bytes),
      TEST(test_returns_enodata_without_a_build_id_note),
      TEST(test_rejects_a_truncated_note_header),
      TEST(test_rejects_a_header_whose_sizes_lie_past_the_buffer),
      TEST(test_rejects_an_empty_or_oversized_build_id), TEST(test_prints_and_parses_hex_both_ways),
      TEST(test_rejects_hex_that_is_not_a_build_id), TEST(test_names_the_cache_entry_and_its_link),
      TEST(test_adds_lists_and_removes_an_entry_leaving_no_trace),
      TEST(test_lists_every_entry_even_without_a_link));
