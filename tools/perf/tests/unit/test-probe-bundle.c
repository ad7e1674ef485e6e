// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tests/unit/unit-test.h"
#include "util/probe-bundle.h"

static const char probes[] = "#handle x=%di:x64\np:probe_app/handle /srv/app:0x1139 x=%di:x64\n"
			     "%sdt_app:start=start\np:sdt_app/start /srv/app:0x1200(0x4010)\n";

static void make_bundle(struct strbuf *out)
{
	struct probe_bundle b = { 0 };
	struct build_id bid;

	build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
	probe_bundle__add(&b, "/srv/app", &bid, probes, sizeof(probes) - 1);
	build_id__from_hex(&bid, "fedcba9876543210fedcba9876543210fedcba98");
	probe_bundle__add(&b, "[kernel.kallsyms]", &bid, "#vfs_read\np:probe/vfs_read _text+12\n",
			  strlen("#vfs_read\np:probe/vfs_read _text+12\n"));
	CHECK_INT(probe_bundle__encode(&b, out), ==, 0);
	probe_bundle__clear(&b);
}

static void test_a_bundle_decodes_to_what_was_encoded(void)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct probe_bundle b;
	char sbid[SBUILD_ID_SIZE];

	make_bundle(&out);
	CHECK_INT(probe_bundle__decode(out.buf, out.len, &b, &why), ==, 0);
	CHECK_INT(b.nr, ==, 2);
	if (b.nr == 2) {
		CHECK_STR(b.entries[0].name, "/srv/app");
		CHECK_STR(b.entries[0].probes, probes);
		CHECK_STR(b.entries[1].name, "[kernel.kallsyms]");
		build_id__sprintf(&b.entries[1].bid, sbid);
		CHECK_STR(sbid, "fedcba9876543210fedcba9876543210fedcba98");
	}
	probe_bundle__clear(&b);
	strbuf_release(&out);
	strbuf_release(&why);
}

static void test_every_truncation_is_refused(void)
{
	struct strbuf out = STRBUF_INIT;

	make_bundle(&out);
	for (size_t len = 0; len < out.len; len++) {
		struct strbuf why = STRBUF_INIT;
		struct probe_bundle b;
		int ret = probe_bundle__decode(out.buf, len, &b, &why);

		CHECK_INT(ret, <, 0);
		CHECK(why.len > 0);
		CHECK_INT(b.nr, ==, 0);
		strbuf_release(&why);
	}
	strbuf_release(&out);
}

/* A flipped bit is refused, or falls in the padding of the last deflate
 * byte and changes nothing the checksums cover. */
static void test_every_flipped_byte_is_refused_or_harmless(void)
{
	struct strbuf out = STRBUF_INIT;

	make_bundle(&out);
	for (size_t i = 0; i < out.len; i++) {
		struct strbuf why = STRBUF_INIT;
		struct probe_bundle b;

		out.buf[i] ^= 0x40;
		if (probe_bundle__decode(out.buf, out.len, &b, &why) == 0) {
			CHECK_INT(b.nr, ==, 2);
			CHECK_STR(b.entries[0].probes, probes);
			probe_bundle__clear(&b);
		}
		out.buf[i] ^= 0x40;
		strbuf_release(&why);
	}
	strbuf_release(&out);
}

static void test_a_component_longer_than_name_max_is_refused(void)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT, name = STRBUF_INIT;
	struct probe_bundle b = { 0 }, d;
	struct build_id bid;

	strbuf_addstr(&name, "/srv/");
	for (int i = 0; i < 256; i++)
		strbuf_addch(&name, 'a');
	build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
	probe_bundle__add(&b, name.buf, &bid, probes, sizeof(probes) - 1);
	probe_bundle__encode(&b, &out);
	CHECK_INT(probe_bundle__decode(out.buf, out.len, &d, &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "a path component longer than NAME_MAX") != NULL);
	probe_bundle__clear(&b);
	strbuf_release(&out);
	strbuf_release(&why);
	strbuf_release(&name);
}

static void test_unsafe_names_are_refused(void)
{
	static const char *const bad[] = {
		"relative/path", "/a/../etc", "/a/..",	 "[a/b]",   "",	     "/.build-id",
		"/.build-id/12", "/",	      "[..]",	 "[.]",	    "[]",    "/tmp/./x",
		"/tmp/.",	 "/./tmp",    "/tmp//x", "/tmp/x/", "//tmp", "/.probe-index",
		"/..",		 "/tmp/x\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
		struct probe_bundle b = { 0 }, d;
		struct build_id bid;

		build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
		probe_bundle__add(&b, bad[i], &bid, probes, sizeof(probes) - 1);
		probe_bundle__encode(&b, &out);
		CHECK_INT(probe_bundle__decode(out.buf, out.len, &d, &why), ==, -EBADMSG);
		probe_bundle__clear(&b);
		strbuf_release(&out);
		strbuf_release(&why);
	}
}

static void test_safe_names_are_taken(void)
{
	static const char *const good[] = { "/usr/bin/app", "/a",      "/home/u/.local/bin/x",
					    "/tmp/x..y",    "/tmp/.x", "[kernel.kallsyms]",
					    "[vdso]" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
		struct probe_bundle b = { 0 }, d;
		struct build_id bid;

		build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
		probe_bundle__add(&b, good[i], &bid, probes, sizeof(probes) - 1);
		probe_bundle__encode(&b, &out);
		CHECK_INT(probe_bundle__decode(out.buf, out.len, &d, &why), ==, 0);
		if (d.nr == 1)
			CHECK_STR(d.entries[0].name, good[i]);
		probe_bundle__clear(&d);
		probe_bundle__clear(&b);
		strbuf_release(&out);
		strbuf_release(&why);
	}
}

/* Put @n more bytes after the zlib stream, counted in the header's size. */
static void append_after_stream(struct strbuf *out, size_t n)
{
	unsigned char *hdr;
	uint64_t zlen = 0;

	for (size_t i = 0; i < n; i++)
		strbuf_addch(out, 0);
	hdr = (unsigned char *)out->buf;
	for (int i = 7; i >= 0; i--)
		zlen = zlen << 8 | hdr[24 + i];
	zlen += n;
	for (int i = 0; i < 8; i++)
		hdr[24 + i] = zlen >> (8 * i);
	{
		uint32_t crc = crc32(0, hdr, 36);

		for (int i = 0; i < 4; i++)
			hdr[36 + i] = crc >> (8 * i);
	}
}

static void test_bytes_after_the_stream_are_refused(void)
{
	for (size_t n = 1; n <= 64; n *= 4) {
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
		struct probe_bundle b;

		make_bundle(&out);
		append_after_stream(&out, n);
		CHECK_INT(probe_bundle__decode(out.buf, out.len, &b, &why), ==, -EBADMSG);
		CHECK(strstr(why.buf, "bytes after the compressed payload") != NULL);
		CHECK_INT(b.nr, ==, 0);
		strbuf_release(&out);
		strbuf_release(&why);
	}
}

static void test_many_entries_grow_in_linear_time(void)
{
	struct probe_bundle b = { 0 };
	struct build_id bid;

	build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
	for (int i = 0; i < 100000; i++)
		probe_bundle__add(&b, "/srv/app", &bid, probes, sizeof(probes) - 1);
	CHECK_INT(b.nr, ==, 100000);
	CHECK_INT(b.alloc, >=, b.nr);
	probe_bundle__clear(&b);
	CHECK_INT(b.alloc, ==, 0);
}

static void test_a_bad_probes_text_is_refused(void)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct probe_bundle b = { 0 }, d;
	struct build_id bid;

	build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567");
	probe_bundle__add(&b, "/srv/app", &bid, "p:x/y /srv/app:0x1\n", 19);
	probe_bundle__encode(&b, &out);
	CHECK_INT(probe_bundle__decode(out.buf, out.len, &d, &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "line 1") != NULL);
	probe_bundle__clear(&b);
	strbuf_release(&out);
	strbuf_release(&why);
}

TESTS(TEST(test_a_bundle_decodes_to_what_was_encoded), TEST(test_every_truncation_is_refused),
      TEST(test_every_flipped_byte_is_refused_or_harmless), TEST(test_unsafe_names_are_refused),
      TEST(test_a_component_longer_than_name_max_is_refused), TEST(test_safe_names_are_taken),
      TEST(test_bytes_after_the_stream_are_refused), TEST(test_many_entries_grow_in_linear_time),
      TEST(test_a_bad_probes_text_is_refused));
