// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe --cache --list, --del, --export and --import (see
 * probe-cache-cmd.h): commands over the probe caches of the build-id cache.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/probe-bundle.h"
#include "util/probe-cache-cmd.h"
#include "util/probe-cache.h"
#include "util/probe-listing.h"
#include "util/probe-target.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Report a probe cache that failed as "Error: ..." (probe_cache__strerror()). */
static void cache_error(enum probe_cache_doing doing, int err, const char *where,
			const struct strbuf *detail)
{
	struct strbuf msg = STRBUF_INIT;

	probe_cache__strerror(doing, err, where, detail ? detail->buf : NULL, &msg);
	pr_err("Error: %s\n", msg.buf);
	strbuf_release(&msg);
}

/* --cache --list: one cache; a failure is reported, remembered, and the walk goes on. */
struct show_ctx {
	const char *filter;
	int ret;
};

static int show_one_cache(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct show_ctx *show = ctx;
	struct strbuf err = STRBUF_INIT;
	char sbid[SBUILD_ID_SIZE];
	struct probe_cache *pc;
	int r = probe_cache__open(dir, false, &pc, &err);

	build_id__sprintf(&ent->bid, sbid);
	if (r == -ENOENT) {
		/* no probes file: nothing cached */
	} else if (r) {
		cache_error(PROBE_CACHE_LIST, r, dir, &err);
		show->ret = r;
	} else if (pc->nr) { /* an empty cache is not listed, as perf */
		printf("%s (%s):\n", ent->name, sbid);
		for (int j = 0; j < pc->nr; j++)
			if (!show->filter || !fnmatch(show->filter, pc->entries[j].spec, 0))
				printf("%s\n", pc->entries[j].spec);
	}
	if (!r)
		probe_cache__close(pc);
	strbuf_release(&err);
	return 0;
}

/* --cache --list of every probe cache, from the kept listing when it holds. */
static void show_listed(const char *name, const char *sbid, char *const *specs, int nr, void *ctx)
{
	struct show_ctx *show = ctx;

	printf("%s (%s):\n", name, sbid);
	for (int j = 0; j < nr; j++)
		if (!show->filter || !fnmatch(show->filter, specs[j], 0))
			printf("%s\n", specs[j]);
}

static void show_error(int err, const char *dir, const struct strbuf *detail, void *ctx)
{
	struct show_ctx *show = ctx;

	cache_error(PROBE_CACHE_LIST, err, dir, detail);
	show->ret = err;
}

int show_probe_cache(const struct perf_probe_event *target, const char *filter)
{
	struct show_ctx show = { filter, 0 };

	if (target->target) {
		struct build_id_cache_entry ent;
		struct probe_target t;
		char *dir;
		int ret = probe_target__init(&t, target);

		if (ret)
			return ret;
		dir = probe_target__cache_entry(&t, "probes");
		if (dir && !probe_target__cache_id(&t, &ent.name, &ent.bid)) {
			show_one_cache(&ent, dir, &show);
			free(ent.name);
		}
		free(dir);
		probe_target__clear(&t);
		return show.ret;
	}
	probe_caches__listing(show_listed, show_error, &show);
	return show.ret;
}

/* Remove the entries of the cache in @dir whose spec matches @filter. */
static int del_cache_entries(const char *dir, const char *filter, int *removed)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	int n = 0, ret = probe_cache__open(dir, true, &pc, &err);

	if (ret) {
		cache_error(PROBE_CACHE_UPDATE, ret, dir, &err);
		strbuf_release(&err);
		return ret;
	}
	for (int i = 0; i < pc->nr;) {
		if (fnmatch(filter, pc->entries[i].spec, 0)) {
			i++;
			continue;
		}
		pr_info("Removed cached event: %s\n", pc->entries[i].spec);
		probe_cache__remove_entry(pc, i);
		n++;
	}
	if (n)
		ret = probe_cache__commit(pc);
	if (ret)
		cache_error(PROBE_CACHE_WRITE, ret, pc->path, NULL);
	probe_cache__close(pc);
	*removed += n;
	return ret;
}

struct del_ctx {
	const char *filter;
	int removed;
};

static int del_one_cache(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct del_ctx *d = ctx;

	(void)ent;
	return del_cache_entries(dir, d->filter, &d->removed);
}

int del_probe_cache(const struct perf_probe_event *target, const char *filter)
{
	int ret = 0, removed = 0;

	if (target->target) {
		struct probe_target t;
		char *dir;

		ret = probe_target__init(&t, target);
		if (ret)
			return ret;
		dir = probe_target__cache_entry(&t, "probes");
		if (dir)
			ret = del_cache_entries(dir, filter, &removed);
		free(dir);
		probe_target__clear(&t);
	} else {
		struct del_ctx d = { filter, 0 };

		ret = probe_caches__for_each(del_one_cache, &d);
		removed = d.removed;
	}
	if (!ret && !removed) {
		pr_err("Error: \"%s\" does not hit any cached event.\n", filter);
		ret = -ENOENT;
	}
	return ret;
}

/* Bundles: --cache --export FILE [-x BIN...] and --cache --import FILE. */

/* Add to @b the cache of @name/@bid; 0, 1 when it is empty, or -errno. */
static int bundle_add_cache(struct probe_bundle *b, const char *name, const struct build_id *bid)
{
	char *dir = build_id_cache__dirname(name, bid);
	char *path = path_join(dir, "probes");
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct probe_cache *pc;
	int ret = probe_cache__open(dir, false, &pc, &err);

	if (ret == -ENOENT)
		ret = 1;
	else if (ret)
		cache_error(PROBE_CACHE_EXPORT, ret, path, &err);
	if (!ret) {
		if (pc->nr) {
			probe_cache__format(pc, &text);
			probe_bundle__add(b, name, bid, text.buf, text.len);
		} else {
			ret = 1;
		}
		probe_cache__close(pc);
	}
	strbuf_release(&text);
	strbuf_release(&err);
	free(path);
	free(dir);
	return ret;
}

/* Export: every cache; stops at the first failure (< 0). */
static int export_one_cache(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	int ret;

	(void)dir;
	ret = bundle_add_cache(ctx, ent->name, &ent->bid);
	return ret < 0 ? ret : 0;
}

int export_probe_cache(const char *file, const char *const *targets, int ntargets)
{
	struct probe_bundle b = { 0 };
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	if (ntargets) {
		for (int i = 0; i < ntargets && ret >= 0; i++) {
			struct perf_probe_event pev = { .uprobes = true,
							.target = (char *)targets[i] };
			struct probe_target t;
			struct build_id bid;
			char *name;

			ret = probe_target__init(&t, &pev);
			if (ret)
				break;
			ret = probe_target__cache_id(&t, &name, &bid);
			if (ret)
				pr_err("Error: Failed to read the build-id of %s: %s\n", t.path,
				       build_id__strerror(ret));
			else
				ret = bundle_add_cache(&b, name, &bid);
			if (ret == 1)
				pr_warning("Warning: %s has no cached probes\n", t.path);
			free(name);
			probe_target__clear(&t);
		}
	} else {
		ret = probe_caches__for_each(export_one_cache, &b);
	}
	if (ret >= 0 && !b.nr) {
		pr_err("Error: no cached probes to export\n");
		ret = -ENODATA;
	}
	if (ret >= 0)
		ret = probe_bundle__encode(&b, &out);
	if (ret >= 0) {
		ret = write_file_atomic(file, out.buf, out.len, 0644);
		if (ret)
			pr_err("Error: Failed to write %s: %s\n", file, strerror(-ret));
	}
	if (!ret) {
		int specs = 0;

		for (int i = 0; i < b.nr; i++)
			for (const char *p = b.entries[i].probes; *p; p = strchr(p, '\n') + 1)
				specs += *p == '#' || *p == '%';
		pr_info("Exported %d cached probe%s of %d binar%s to %s\n", specs,
			specs == 1 ? "" : "s", b.nr, b.nr == 1 ? "y" : "ies", file);
	}
	probe_bundle__clear(&b);
	strbuf_release(&out);
	return ret < 0 ? ret : 0;
}

/* Merge @src's entries into @dst; counts what is new and what replaced. */
static void merge_cache(struct probe_cache *dst, const struct probe_cache *src, int *added,
			int *updated, int *kept)
{
	for (int i = 0; i < src->nr; i++) {
		const struct probe_cache_entry *e = &src->entries[i];
		struct probe_cache_entry *old = probe_cache__find(dst, e->sdt, e->spec);
		bool same = old && old->nr_lines == e->nr_lines;

		for (int j = 0; same && j < e->nr_lines; j++)
			same = !strcmp(old->lines[j], e->lines[j]);
		if (same) {
			(*kept)++;
			continue;
		}
		if (old)
			(*updated)++;
		else
			(*added)++;
		probe_cache__add_entry(dst, e->sdt, e->spec, e->lines, e->nr_lines);
	}
}

int import_probe_cache(const char *file)
{
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT;
	struct probe_bundle b;
	struct stat st;
	int ret;

	if (stat(file, &st) < 0) {
		pr_err("Error: %s: %s\n", file, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)PROBE_BUNDLE_MAX_SIZE) {
		pr_err("Error: %s: %s\n", file,
		       S_ISREG(st.st_mode) ? "too large for a probe-cache bundle" : "not a file");
		return -EINVAL;
	}
	ret = strbuf_read_file(&data, file);
	if (ret) {
		pr_err("Error: %s: %s\n", file, strerror(-ret));
		goto out;
	}
	ret = probe_bundle__decode(data.buf, data.len, &b, &why);
	if (ret) {
		pr_err("Error: %s is refused: %s; nothing was imported\n", file, why.buf);
		goto out;
	}
	/* Every local cache the bundle merges into must be sound before any is written. */
	for (int i = 0; i < b.nr && !ret; i++) {
		char *dir = build_id_cache__dirname(b.entries[i].name, &b.entries[i].bid);
		struct probe_cache *pc;
		struct strbuf err = STRBUF_INIT;

		ret = probe_cache__open(dir, false, &pc, &err);
		if (ret == -ENOENT) {
			ret = 0;
		} else if (ret) {
			cache_error(PROBE_CACHE_IMPORT, ret, dir, &err);
		} else {
			probe_cache__close(pc);
		}
		strbuf_release(&err);
		free(dir);
	}
	for (int i = 0; i < b.nr && !ret; i++) {
		const struct probe_bundle_entry *e = &b.entries[i];
		struct probe_cache *src = probe_cache__new(), *dst = NULL;
		char *dir = build_id_cache__dirname(e->name, &e->bid);
		int added = 0, updated = 0, kept = 0, bad_line;
		char sbid[SBUILD_ID_SIZE];
		const char *reason;

		probe_cache__parse(src, e->probes, e->probes_len, &bad_line, &reason);
		ret = build_id_cache__add(e->name, NULL, &e->bid, false);
		if (!ret)
			ret = probe_cache__open(dir, true, &dst, NULL);
		if (!ret) {
			merge_cache(dst, src, &added, &updated, &kept);
			if (added || updated)
				ret = probe_cache__commit(dst);
		}
		build_id__sprintf(&e->bid, sbid);
		if (ret)
			pr_err("Error: Failed to import the probes of %s (%s): %s\n", e->name, sbid,
			       strerror(-ret));
		else
			pr_info("Imported %s (%s): %d new, %d updated, %d already cached\n",
				e->name, sbid, added, updated, kept);
		probe_cache__close(dst);
		probe_cache__close(src);
		free(dir);
	}
	probe_bundle__clear(&b);
out:
	strbuf_release(&data);
	strbuf_release(&why);
	return ret;
}
