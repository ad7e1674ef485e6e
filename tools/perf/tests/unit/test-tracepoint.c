// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint: "GROUP:EVENT" specs and globs resolved against a plain
 * directory standing in for tracefs ($PERF_TRACEFS_DIR).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit-test.h"
#include "util/strbuf.h"
#include "util/tracepoint.h"
#include "util/util.h"

static char base[] = "/tmp/perf-test-tracepoint.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *path = path_join(base, rel), *slash = strrchr(path, '/');

	*slash = '\0';
	mkdir_p(path, 0755);
	*slash = '/';
	write_file_atomic(path, text, strlen(text), 0644);
	free(path);
}

static void event(const char *group, const char *name, int id)
{
	struct strbuf rel = STRBUF_INIT, text = STRBUF_INIT;

	strbuf_addf(&rel, "events/%s/%s/id", group, name);
	strbuf_addf(&text, "%d\n", id);
	put(rel.buf, text.buf);
	strbuf_reset(&rel);
	strbuf_reset(&text);
	strbuf_addf(&rel, "events/%s/%s/format", group, name);
	strbuf_addf(&text, "name: %s\nID: %d\nformat:\n", name, id);
	put(rel.buf, text.buf);
	strbuf_release(&rel);
	strbuf_release(&text);
}

static void test_well_formed_specs_pass(void)
{
	static const char *const good[] = { "grp:ev",  "probe_app:*", "g*:e?",	"sdt_libc:setjmp",
					    "a.b:c-d", "x:[abc]*",    "x:[!a]", "x:[]a]" };

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		CHECK_INT(tracepoint__check_spec(good[i], NULL), ==, 0);
}

static void test_malformed_specs_say_why(void)
{
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "grp", "malformed: not GROUP:EVENT" },
		{ ":ev", "malformed: empty group name" },
		{ "grp:", "malformed: empty event name" },
		{ "a:b:c", "malformed: more than one ':'" },
		{ "grp:ev[", "malformed: unclosed '[' in the event name" },
		{ "g[x:ev", "malformed: unclosed '[' in the group name" },
		{ "grp:e]v", "malformed: ']' without '[' in the event name" },
		{ "grp:e v", "malformed: invalid character ' ' in the event name" },
		{ "a/b:c", "malformed: invalid character '/' in the group name" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct strbuf why = STRBUF_INIT;

		CHECK_INT(tracepoint__check_spec(bad[i].spec, &why), ==, -EINVAL);
		CHECK_STR(why.buf, bad[i].why);
		strbuf_release(&why);
	}
}

static void test_a_glob_adds_its_events_in_name_order(void)
{
	struct tracepoint_list list = { 0 };

	CHECK_INT(tracepoint_list__add(&list, "grp:*", NULL), ==, 2);
	CHECK_INT(list.nr, ==, 2);
	if (list.nr == 2) {
		CHECK_STR(list.tps[0].group, "grp");
		CHECK_STR(list.tps[0].name, "a_ev");
		CHECK_INT(list.tps[0].id, ==, 1201);
		CHECK_STR(list.tps[1].name, "b_ev");
		CHECK_INT(list.tps[1].id, ==, 1200);
		CHECK(strstr(list.tps[1].format, "name: b_ev\nID: 1200\n") == list.tps[1].format);
		CHECK_INT(list.tps[1].format_len, ==, strlen(list.tps[1].format));
	}
	tracepoint_list__clear(&list);
	CHECK_INT(list.nr, ==, 0);
}

static void test_an_event_named_twice_is_listed_once(void)
{
	struct tracepoint_list list = { 0 };

	CHECK_INT(tracepoint_list__add(&list, "grp:b_ev", NULL), ==, 1);
	CHECK_INT(tracepoint_list__add(&list, "gr?:*", NULL), ==, 2);
	CHECK_INT(tracepoint_list__add(&list, "*:b_ev", NULL), ==, 1);
	CHECK_INT(list.nr, ==, 2);
	if (list.nr == 2) {
		CHECK_STR(list.tps[0].name, "b_ev");
		CHECK_STR(list.tps[1].name, "a_ev");
	}
	tracepoint_list__clear(&list);
}

static void test_groups_match_by_glob_too(void)
{
	struct tracepoint_list list = { 0 };

	CHECK_INT(tracepoint_list__add(&list, "*:x*", NULL), ==, 2);
	if (list.nr == 2) {
		CHECK_STR(list.tps[0].group, "grp2");
		CHECK_STR(list.tps[1].group, "other");
	}
	tracepoint_list__clear(&list);
}

static void test_nothing_matching_is_enoent(void)
{
	struct tracepoint_list list = { 0 };
	struct strbuf why = STRBUF_INIT;

	CHECK_INT(tracepoint_list__add(&list, "grp:nosuch", &why), ==, -ENOENT);
	CHECK(strstr(why.buf, "unknown tracepoint") == why.buf);
	/* A directory without an id file, and a file, are no events. */
	CHECK_INT(tracepoint_list__add(&list, "grp:noid", NULL), ==, -ENOENT);
	CHECK_INT(tracepoint_list__add(&list, "grp:enable", NULL), ==, -ENOENT);
	CHECK_INT(tracepoint_list__add(&list, "nogroup:*", NULL), ==, -ENOENT);
	CHECK_INT(list.nr, ==, 0);
	strbuf_release(&why);
}

static void test_a_malformed_spec_reads_nothing(void)
{
	struct tracepoint_list list = { 0 };

	CHECK_INT(tracepoint_list__add(&list, "grp:[", NULL), ==, -EINVAL);
	CHECK_INT(list.nr, ==, 0);
}

static void test_cleanup(void)
{
	CHECK_INT(rm_rf(base), ==, 0);
}

static void __attribute__((constructor)) setup(void)
{
	if (!mkdtemp(base))
		abort();
	setenv("PERF_TRACEFS_DIR", base, 1);
	event("grp", "b_ev", 1200);
	event("grp", "a_ev", 1201);
	event("grp2", "x1", 1300);
	event("other", "x2", 1400);
	put("events/grp/enable", "0\n");
	put("events/grp/noid/format", "name: noid\n");
	put("events/header_page", "");
}

TESTS(TEST(test_well_formed_specs_pass), TEST(test_malformed_specs_say_why),
      TEST(test_a_glob_adds_its_events_in_name_order),
      TEST(test_an_event_named_twice_is_listed_once), TEST(test_groups_match_by_glob_too),
      TEST(test_nothing_matching_is_enoent), TEST(test_a_malformed_spec_reads_nothing),
      TEST(test_cleanup));
