// SPDX-License-Identifier: GPL-2.0
/*
 * probe-cache: the one wording of a failed cache, the walk over every
 * probe cache of a build-id cache ($PERF_BUILDID_DIR, a temporary
 * directory), and the SDT names perf list shows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/build-id.h"
#include "util/probe-cache.h"
#include "util/strbuf.h"
#include "util/util.h"

static char root[] = "/tmp/perf-test-probe-cache.XXXXXX";

static void msg_is(enum probe_cache_doing doing, int err, const char *detail, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	probe_cache__strerror(doing, err, "/c/probes", detail, &sb);
	CHECK_STR(sb.buf, want);
	strbuf_release(&sb);
}

static void test_one_wording_names_what_failed(void)
{
	const char *bad = "/c/probes:3: a line is too long";

	msg_is(PROBE_CACHE_USE, -EBADMSG, bad,
	       "not using the corrupt probe cache /c/probes:3: a line is too long");
	msg_is(PROBE_CACHE_UPDATE, -EBADMSG, bad,
	       "corrupt probe cache /c/probes:3: a line is too long (left as it is)");
	msg_is(PROBE_CACHE_LIST, -EBADMSG, bad,
	       "corrupt probe cache /c/probes:3: a line is too long");
	msg_is(PROBE_CACHE_EXPORT, -EBADMSG, bad,
	       "corrupt probe cache /c/probes:3: a line is too long; nothing exported");
	msg_is(PROBE_CACHE_IMPORT, -EBADMSG, "",
	       "corrupt probe cache /c/probes; nothing was imported");
	msg_is(PROBE_CACHE_UPDATE, -EACCES, NULL,
	       "Failed to open the probe cache /c/probes: Permission denied (left as it is)");
	msg_is(PROBE_CACHE_WRITE, -ENOSPC, NULL,
	       "Failed to write the probe cache /c/probes: No space left on device");
	msg_is(PROBE_CACHE_LIST, -EACCES, NULL,
	       "Failed to read the probe cache /c/probes: Permission denied");
}

/* An entry NAME/BID of the build-id cache, with @probes as its probes file (NULL: none). */
static void add_entry(const char *name, const char *hex, const char *probes)
{
	struct build_id bid;
	char *dir, *path;

	CHECK_INT(build_id__from_hex(&bid, hex), ==, 0);
	CHECK_INT(build_id_cache__add(name, NULL, &bid, false), ==, 0);
	dir = build_id_cache__dirname(name, &bid);
	path = path_join(dir, "probes");
	if (probes)
		CHECK_INT(write_file_atomic(path, probes, strlen(probes), 0644), ==, 0);
	else
		unlink(path);
	free(path);
	free(dir);
}

struct seen {
	struct strbuf names;
};

static int note_entry(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct seen *s = ctx;
	char sbid[SBUILD_ID_SIZE];

	build_id__sprintf(&ent->bid, sbid);
	strbuf_addf(&s->names, "%s@%.4s;", ent->name, sbid);
	CHECK(strstr(dir, sbid) != NULL);
	return 0;
}

static int stop_at_first(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	(*(int *)ctx)++;
	return -EINTR;
}

static void test_the_walk_visits_every_cache_with_a_probes_file_in_order(void)
{
	struct seen s = { STRBUF_INIT };
	int calls = 0;

	add_entry("/usr/bin/b", "bbbb0000", "%sdt_b:start=start\np:sdt_b/start /usr/bin/b:0x10\n");
	add_entry("/usr/bin/a", "aaaa0000", "#f\np:probe_a/f /usr/bin/a:0x20\n");
	add_entry("/usr/bin/a", "aaaa1111", "%sdt_b:start=start\np:sdt_b/start /usr/bin/a:0x30\n");
	add_entry("/usr/bin/c", "cccc0000", NULL);
	CHECK_INT(probe_caches__for_each(note_entry, &s), ==, 0);
	CHECK_STR(s.names.buf, "/usr/bin/a@aaaa;/usr/bin/a@aaaa;/usr/bin/b@bbbb;");
	CHECK_INT(probe_caches__for_each(stop_at_first, &calls), ==, -EINTR);
	CHECK_INT(calls, ==, 1);
	strbuf_release(&s.names);
}

static void test_sdt_names_are_filtered_and_told_apart(void)
{
	char **names;
	int nr = probe_cache__sdt_event_names(NULL, &names);

	/* Cached for two files: each is named with its file and build-id. */
	CHECK_INT(nr, ==, 2);
	if (nr == 2) {
		CHECK_STR(names[0], "sdt_b:start@/usr/bin/a(aaaa1111)");
		CHECK_STR(names[1], "sdt_b:start@/usr/bin/b(bbbb0000)");
	}
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	CHECK_INT(probe_cache__sdt_event_names("sdt_x:*", &names), ==, 0);
	free(names);
	nr = probe_cache__sdt_event_names("st*", &names);
	CHECK_INT(nr, ==, 2);
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

static void test_cleanup(void)
{
	CHECK_INT(rm_rf(root), ==, 0);
}

static void __attribute__((constructor)) setup(void)
{
	if (!mkdtemp(root))
		abort();
	setenv("PERF_BUILDID_DIR", root, 1);
}

TESTS(TEST(test_one_wording_names_what_failed),
      TEST(test_the_walk_visits_every_cache_with_a_probes_file_in_order),
      TEST(test_sdt_names_are_filtered_and_told_apart), TEST(test_cleanup));
