// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-cache: add files to the build-id cache, remove or purge them,
 * and list what it holds.  The layout is util/build-id.h's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/probe-cache.h"
#include "util/system-perf.h"
#include "util/target-ns.h"
#include "util/util.h"

static const char *const buildid_cache_usage[] = {
	"perf buildid-cache [<options>]",
	NULL,
};

/* A file named on the command line, its absolute name and its build-id. */
struct cache_file {
	const char *arg;
	char *name; /* with --target-ns, the container's path */
	char *file; /* where it is read: name, or /proc/PID/root/name */
	struct build_id bid;
};

/* The absolute name a file is cached under: its real path, or for a file
 * that is gone (purge), the path made absolute. */
static char *cache_name(const char *arg)
{
	char buf[PATH_MAX];
	char *real = target_ns__realpath(arg);

	if (target_ns__active())
		return real ? real : xstrdup(arg);

	if (real || arg[0] == '/')
		return real ? real : xstrdup(arg);
	if (!getcwd(buf, sizeof(buf)))
		return xstrdup(arg);
	return path_join(buf, arg);
}

/* Read every file's build-id before touching the cache: all or nothing. */
static int read_files(struct str_list *list, struct cache_file *files, const char *verb)
{
	int ret = 0;

	for (int i = 0; i < list->nr; i++) {
		int err;

		files[i].arg = list->items[i];
		files[i].file = cache_name(list->items[i]);
		files[i].name = xstrdup(target_ns__inside(files[i].file));
		err = filename__read_build_id(files[i].file, &files[i].bid);
		if (err) {
			pr_err("Couldn't %s %s: %s\n", verb, files[i].arg, build_id__strerror(err));
			ret = -1;
		}
	}
	return ret;
}

static void free_files(struct cache_file *files, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(files[i].name);
		free(files[i].file);
	}
	free(files);
}

/*
 * Write the SDT markers of a cached file into its entry's probe cache, as
 * perf does.  @update (--update): the markers replace the old ones.  A
 * failure here leaves the probes file as it was and does not fail the add:
 * the file is in the cache either way.
 */
static void add_sdt_markers(const struct cache_file *file, bool update)
{
	struct strbuf err = STRBUF_INIT;
	int ret = probe_cache__update_sdt(file->name, &file->bid, file->file, update, &err);

	if (ret == -EEXIST)
		pr_debug("%s\n", err.buf); /* up to date, as when added before */
	else if (ret < 0)
		pr_warning("Warning: %s\n", err.buf);
	strbuf_release(&err);
}

static const char *ok_or_fail(int err)
{
	return err ? "FAIL" : "Ok";
}

/* Add the files; @force or @update replace a cached elf.  -v names which, as perf. */
static int add_files(struct str_list *list, bool force, bool update)
{
	struct cache_file *files = xzalloc(list->nr * sizeof(*files));
	const char *verb = update ? "update" : "add";
	int ret = read_files(list, files, verb);

	for (int i = 0; !ret && i < list->nr; i++) {
		char sbid[SBUILD_ID_SIZE];
		int err = build_id_cache__add(files[i].name, files[i].file, &files[i].bid,
					      force || update);

		build_id__sprintf(&files[i].bid, sbid);
		pr_debug("%s %s %s: %s\n", update ? "Updating" : "Adding", sbid, files[i].arg,
			 ok_or_fail(err));
		if (err) {
			pr_err("Couldn't %s %s: %s\n", verb, files[i].arg,
			       build_id_cache__strerror(err));
			ret = -1;
		} else {
			add_sdt_markers(&files[i], update);
		}
	}
	free_files(files, list->nr);
	return ret;
}

/*
 * --debuginfod: fetch the debuginfo of each added file by build-id and
 * keep it in the file's entry as `debug`, for perf probe to use offline.
 */
static int fetch_debuginfo(struct str_list *list, const char *urls)
{
	struct cache_file *files = xzalloc(list->nr * sizeof(*files));
	int ret = read_files(list, files, "fetch debuginfo for");

	for (int i = 0; !ret && i < list->nr; i++) {
		char sbid[SBUILD_ID_SIZE], *path = NULL;
		int err = debuginfod__find_debuginfo(&files[i].bid, *urls ? urls : NULL, &path);

		if (!err)
			err = build_id_cache__add_debug(files[i].name, &files[i].bid, path);
		build_id__sprintf(&files[i].bid, sbid);
		pr_debug("Fetching debuginfo of %s %s: %s\n", sbid, files[i].arg, ok_or_fail(err));
		if (err == -ESTALE) {
			struct strbuf why = STRBUF_INIT;

			build_id__check_file(path, &files[i].bid, &why);
			pr_err("Couldn't fetch debuginfo for %s from %s: %s\n", files[i].arg,
			       debuginfod__last_url(), why.buf);
			strbuf_release(&why);
			ret = -1;
		} else if (err == -ENOSYS) {
			pr_err("Couldn't fetch debuginfo for %s: no debuginfod server (set DEBUGINFOD_URLS or give --debuginfod=URLS)\n",
			       files[i].arg);
			ret = -1;
		} else if (err) {
			pr_err("Couldn't fetch debuginfo for %s from %s: %s\n", files[i].arg,
			       debuginfod__last_url(), build_id_cache__strerror(err));
			ret = -1;
		}
		free(path);
	}
	free_files(files, list->nr);
	return ret;
}

static int remove_files(struct str_list *list, bool force)
{
	struct cache_file *files = xzalloc(list->nr * sizeof(*files));
	int ret = read_files(list, files, "remove");

	for (int i = 0; !ret && i < list->nr; i++) {
		char sbid[SBUILD_ID_SIZE];
		int err = build_id_cache__remove(files[i].name, &files[i].bid);

		build_id__sprintf(&files[i].bid, sbid);
		pr_debug("Removing %s %s: %s\n", sbid, files[i].arg, ok_or_fail(err));
		if (err == -ENOENT) {
			if (!force) {
				pr_err("%s wasn't in the cache\n", files[i].arg);
				ret = -1;
			}
		} else if (err) {
			pr_err("Couldn't remove %s: %s\n", files[i].arg,
			       build_id_cache__strerror(err));
			ret = -1;
		}
	}
	free_files(files, list->nr);
	return ret;
}

/* Remove every build-id cached under a name, for files rebuilt many times. */
static int purge_files(struct str_list *list, bool force)
{
	int ret = 0;

	for (int i = 0; i < list->nr; i++) {
		char *file = cache_name(list->items[i]);
		char *name = xstrdup(target_ns__inside(file));
		struct build_id_cache_entry *entries;
		int err = 0, nr = build_id_cache__list_name(name, &entries);

		if (nr == 0 && !force) {
			pr_err("%s wasn't in the cache\n", list->items[i]);
			ret = -1;
		}
		for (int j = 0; j < nr; j++) {
			char sbid[SBUILD_ID_SIZE];
			int e = build_id_cache__remove(name, &entries[j].bid);

			build_id__sprintf(&entries[j].bid, sbid);
			pr_debug("Removing %s %s: %s\n", sbid, list->items[i], ok_or_fail(e));
			if (e && !err)
				err = e;
		}
		if (nr < 0)
			err = nr;
		if (nr)
			pr_debug("Purging %s: %s\n", list->items[i], ok_or_fail(err));
		if (err) {
			pr_err("Couldn't purge %s: %s\n", list->items[i],
			       build_id_cache__strerror(err));
			ret = -1;
		}
		build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
		free(name);
		free(file);
	}
	return ret;
}

static int purge_all(void)
{
	struct build_id_cache_entry *entries;
	int err = 0, nr = build_id_cache__list_all(&entries);

	for (int i = 0; i < nr; i++) {
		char sbid[SBUILD_ID_SIZE];
		int e = build_id_cache__remove(entries[i].name, &entries[i].bid);

		build_id__sprintf(&entries[i].bid, sbid);
		pr_debug("Removing %s (%s): %s\n", entries[i].name, sbid, ok_or_fail(e));
		/* A walk over every entry skips one nobody vouches for. */
		if (e == -CACHE_FS_REFUSED) {
			pr_warning("Warning: %s (skipped)\n", build_id_cache__strerror(e));
			e = 0;
		}
		if (e && !err)
			err = e;
	}
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	if (nr < 0)
		err = nr;
	pr_debug("Purged all: %s\n", ok_or_fail(err));
	if (err) {
		pr_err("Couldn't purge the cache %s: %s\n", buildid_dir(), strerror(-err));
		return -1;
	}
	return 0;
}

static int list_cache(void)
{
	struct build_id_cache_entry *entries;
	int nr = build_id_cache__list(&entries);

	for (int i = 0; i < nr; i++) {
		char sbid[SBUILD_ID_SIZE];

		if (!build_id_cache__entry_current(&entries[i]))
			continue;
		build_id__sprintf(&entries[i].bid, sbid);
		printf("%s %s\n", sbid, entries[i].name);
	}
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	return 0;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct str_list add = { 0 }, remove = { 0 }, purge = { 0 }, update = { 0 };
	int force = 0, list = 0, all = 0, ret = 0;
	const char *debuginfod = NULL, *target_ns = NULL, *kcore = NULL, *missing = NULL;
	/* "perf buildid-cache ARGS" as given, for the system perf */
	const char **given = xzalloc((argc + 2) * sizeof(*given));
	const struct option options[] = {
		OPT_STRING_LIST('a', "add", &add, "file list", "file(s) to add",
				PARSE_OPT_SPLIT_COMMA),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_STRING('k', "kcore", &kcore, "file", "kcore file to add"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_STRING('M', "missing", &missing, "file",
			   "to find missing build ids in the cache"),
		OPT_STRING_LIST('p', "purge", &purge, "file list",
				"file(s) to remove (remove old caches too)", PARSE_OPT_SPLIT_COMMA),
		OPT_BOOLEAN('P', "purge-all", &all, "purge all cached files"),
		OPT_STRING_LIST('r', "remove", &remove, "file list", "file(s) to remove",
				PARSE_OPT_SPLIT_COMMA),
		OPT_STRING_LIST('u', "update", &update, "file list", "file(s) to update",
				PARSE_OPT_SPLIT_COMMA),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_OPTARG(
			0, "debuginfod", &debuginfod, "debuginfod urls",
			"Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
			""),
		OPT_STRING(0, "target-ns", &target_ns, "n", "target pid for namespace context"),
		OPT_END(),
	};

	memcpy(given + 1, argv, argc * sizeof(*given));
	argc = parse_options(argc, argv, options, buildid_cache_usage, PARSE_OPT_NO_ARGS);
	if (argc < 0) {
		ret = argc == -2 ? 0 : 129;
		goto out;
	}
	if (kcore || missing) {
		/* a kcore copy and a perf.data's build-ids are the system perf's */
		char *path = system_perf__find();

		if (!path) {
			pr_err("Error: -k and -M are the system perf's, and there is none\n");
			ret = 1;
			goto out;
		}
		ret = system_perf__exec(path, given);
		free(path);
		ret = ret ? 1 : 0;
		goto out;
	}
	if (target_ns__set(target_ns)) {
		ret = 1;
		goto out;
	}
	if (add.nr && add_files(&add, force, false))
		ret = 1;
	if (!ret && update.nr && add_files(&update, true, true))
		ret = 1;
	if (!ret && debuginfod && add.nr && fetch_debuginfo(&add, debuginfod))
		ret = 1;
	if (!ret && remove.nr && remove_files(&remove, force))
		ret = 1;
	if (!ret && purge.nr && purge_files(&purge, force))
		ret = 1;
	if (!ret && all && purge_all())
		ret = 1;
	if (!ret && list)
		list_cache();
out:
	free(given);
	str_list_clear(&add);
	str_list_clear(&remove);
	str_list_clear(&purge);
	str_list_clear(&update);
	return ret;
}
