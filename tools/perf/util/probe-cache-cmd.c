// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe --cache --list, --del, --export and --import (see
 * probe-cache-cmd.h): commands over the probe caches of the build-id cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/probe-bundle.h"
#include "util/probe-cache-batch.h"
#include "util/probe-cache-cmd.h"
#include "util/probe-cache.h"
#include "util/probe-listing.h"
#include "util/probe-target.h"
#include "util/probe-verify.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
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

/*
 * Does the entry of @spec pass @sf (NULL: all)?  As in perf, the filter
 * (globs, '|', '&', '!') is matched against the entry's event name: the
 * "[GROUP:]EVENT" before '=' of a named spec, else its probe point.
 */
static bool cached_spec_passes(const struct strfilter *sf, const char *spec)
{
	size_t head = strcspn(spec, " \t");
	const char *eq = memchr(spec, '=', head);
	char *name;
	bool ok;

	if (!sf)
		return true;
	name = xstrndup(spec, eq ? (size_t)(eq - spec) : head);
	ok = strfilter__compare(sf, name);
	free(name);
	return ok;
}

/* --cache --list: one cache; a failure is reported, remembered, and the walk goes on. */
struct show_ctx {
	const struct strfilter *filter;
	int ret;
	bool one; /* the cache of -x: a refusal is an error, not skipped */
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
	} else if (r == -CACHE_FS_REFUSED && !show->one) {
		pr_warning("Warning: %s (skipped)\n", err.buf);
	} else if (r) {
		cache_error(PROBE_CACHE_LIST, r, dir, &err);
		show->ret = r;
	} else if (pc->nr) { /* an empty cache is not listed, as perf */
		printf("%s (%s):\n", ent->name, sbid);
		for (int j = 0; j < pc->nr; j++)
			if (cached_spec_passes(show->filter, pc->entries[j].spec))
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

	/* stdio's puts, not printf(): a listing of 10,000 caches prints 30,000 lines */
	fputs(name, stdout);
	fputs(" (", stdout);
	fputs(sbid, stdout);
	fputs("):\n", stdout);
	for (int j = 0; j < nr; j++)
		if (cached_spec_passes(show->filter, specs[j]))
			puts(specs[j]);
}

static void show_error(int err, const char *dir, const struct strbuf *detail, void *ctx)
{
	struct show_ctx *show = ctx;

	/* An entry nobody vouches for is skipped, as by show_one_cache(). */
	if (err == -CACHE_FS_REFUSED && detail && detail->len) {
		pr_warning("Warning: %s (skipped)\n", detail->buf);
		return;
	}
	cache_error(PROBE_CACHE_LIST, err, dir, detail);
	show->ret = err;
}

int show_probe_cache(const struct perf_probe_event *target, const char *filter)
{
	struct strfilter *sf = filter ? strfilter__new(filter, NULL) : NULL;
	struct show_ctx show = { sf, 0, target->target != NULL };

	if (filter && !sf)
		return -EINVAL;

	if (target->target) {
		struct build_id_cache_entry ent;
		struct probe_target t;
		char *dir;
		int ret = probe_target__init(&t, target);

		if (ret) {
			strfilter__delete(sf);
			return ret;
		}
		dir = probe_target__cache_entry(&t, "probes");
		if (dir && !probe_target__cache_id(&t, &ent.name, &ent.bid)) {
			show_one_cache(&ent, dir, &show);
			free(ent.name);
		}
		free(dir);
		probe_target__clear(&t);
	} else {
		probe_caches__listing(show_listed, show_error, &show);
	}
	strfilter__delete(sf);
	return show.ret;
}

/*
 * Remove the entries of the cache in @dir whose spec matches @filter.  In
 * a @walk over every cache, one nobody vouches for is skipped with a warning.
 */
static int del_cache_entries(const char *dir, const struct strfilter *filter, int *removed,
			     bool walk)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	char **removed_specs = NULL;
	int n = 0, alloc = 0, ret = probe_cache__open(dir, true, &pc, &err);

	if (ret == -CACHE_FS_REFUSED && walk) {
		pr_warning("Warning: %s (skipped)\n", err.buf);
		strbuf_release(&err);
		return 0;
	}
	if (ret) {
		cache_error(PROBE_CACHE_UPDATE, ret, dir, &err);
		strbuf_release(&err);
		return ret;
	}
	for (int i = 0; i < pc->nr;) {
		if (!cached_spec_passes(filter, pc->entries[i].spec)) {
			i++;
			continue;
		}
		ALLOC_GROW(removed_specs, n + 1, alloc);
		removed_specs[n++] = xstrdup(pc->entries[i].spec);
		probe_cache__remove_entry(pc, i);
	}
	if (n)
		ret = probe_cache__commit(pc);
	if (ret)
		cache_error(PROBE_CACHE_WRITE, ret, pc->path, NULL);
	/* Said only once they are gone: a failed write removed nothing. */
	for (int i = 0; i < n; i++) {
		if (!ret)
			pr_info("Removed cached event: %s\n", removed_specs[i]);
		free(removed_specs[i]);
	}
	free(removed_specs);
	if (ret)
		n = 0;
	probe_cache__close(pc);
	*removed += n;
	return ret;
}

struct del_ctx {
	const struct strfilter *filter;
	int removed;
};

static int del_one_cache(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct del_ctx *d = ctx;

	(void)ent;
	return del_cache_entries(dir, d->filter, &d->removed, true);
}

int del_probe_cache(const struct perf_probe_event *target, const char *filter)
{
	struct strfilter *sf = strfilter__new(filter, NULL);
	int ret = 0, removed = 0;

	if (!sf)
		return -EINVAL;
	if (target->target) {
		struct probe_target t;
		char *dir;

		ret = probe_target__init(&t, target);
		if (!ret) {
			dir = probe_target__cache_entry(&t, "probes");
			if (dir)
				ret = del_cache_entries(dir, sf, &removed, false);
			free(dir);
			probe_target__clear(&t);
		}
	} else {
		struct del_ctx d = { sf, 0 };

		ret = probe_caches__for_each(del_one_cache, &d);
		removed = d.removed;
	}
	if (!ret && !removed) {
		pr_err("Error: \"%s\" does not hit any cached event.\n", filter);
		ret = -ENOENT;
	}
	strfilter__delete(sf);
	return ret;
}

/* Bundles: --cache --export FILE [-x BIN...] and --cache --import FILE. */

/* Add to @b the cache of @name/@bid; 0, 1 when it is empty, or -errno. */
static int bundle_add_cache(struct probe_bundle *b, const char *name, const struct build_id *bid,
			    bool walk)
{
	char *dir = build_id_cache__dirname(name, bid);
	char *path = path_join(dir, "probes");
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct probe_cache *pc;
	int ret = probe_cache__open(dir, false, &pc, &err);

	if (ret == -ENOENT) {
		ret = 1;
	} else if (ret == -CACHE_FS_REFUSED && walk) { /* every cache: skipped */
		pr_warning("Warning: %s (skipped)\n", err.buf);
		ret = 1;
	} else if (ret) {
		cache_error(PROBE_CACHE_EXPORT, ret, path, &err);
	}
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
	ret = bundle_add_cache(ctx, ent->name, &ent->bid, true);
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
				ret = bundle_add_cache(&b, name, &bid, false);
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

/*
 * Import merges many entries into one cache in one pass: the cache's
 * entries are found by a hash of (kind, spec), not by probe_cache__find()'s
 * scan, so a bundle of N specs costs O(N), not O(N^2).
 */
struct spec_index {
	int *slot; /* entry index + 1, 0: empty */
	size_t mask;
	int nr;
};

static size_t spec_hash(bool sdt, const char *spec)
{
	size_t h = sdt ? 0x9e3779b97f4a7c15ull : 14695981039346656037ull;

	for (; *spec; spec++)
		h = (h ^ (unsigned char)*spec) * 1099511628211ull;
	return h;
}

static int *spec_index__slot(struct spec_index *idx, const struct probe_cache *pc, bool sdt,
			     const char *spec)
{
	size_t i = spec_hash(sdt, spec) & idx->mask;

	for (;; i = (i + 1) & idx->mask) {
		const struct probe_cache_entry *e;

		if (!idx->slot[i])
			return &idx->slot[i];
		e = &pc->entries[idx->slot[i] - 1];
		if (e->sdt == sdt && !strcmp(e->spec, spec))
			return &idx->slot[i];
	}
}

static void spec_index__add(struct spec_index *idx, const struct probe_cache *pc, int entry)
{
	const struct probe_cache_entry *e = &pc->entries[entry];

	if ((size_t)(idx->nr + 1) * 2 > idx->mask + 1) { /* keep it half empty */
		size_t size = (idx->mask + 1) * 2;

		free(idx->slot);
		idx->slot = xzalloc(sizeof(*idx->slot) * size);
		idx->mask = size - 1;
		idx->nr = 0;
		for (int i = 0; i < entry; i++) {
			*spec_index__slot(idx, pc, pc->entries[i].sdt, pc->entries[i].spec) = i + 1;
			idx->nr++;
		}
	}
	*spec_index__slot(idx, pc, e->sdt, e->spec) = entry + 1;
	idx->nr++;
}

static void spec_index__init(struct spec_index *idx, const struct probe_cache *pc)
{
	idx->mask = 15;
	idx->slot = xzalloc(sizeof(*idx->slot) * (idx->mask + 1));
	idx->nr = 0;
	for (int i = 0; i < pc->nr; i++)
		spec_index__add(idx, pc, i);
}

struct merge_counts {
	int added, updated, kept;
};

/*
 * Move @src's entries into @dst (a new spec is appended, a changed one
 * replaces the old in place, as probe_cache__add_entry() does); @src is
 * left without them.
 */
static void merge_cache(struct probe_cache *dst, struct spec_index *idx, struct probe_cache *src,
			struct merge_counts *n)
{
	for (int i = 0; i < src->nr; i++) {
		struct probe_cache_entry *e = &src->entries[i];
		int *slot = spec_index__slot(idx, dst, e->sdt, e->spec);
		struct probe_cache_entry *old = *slot ? &dst->entries[*slot - 1] : NULL;
		bool same = old && old->nr_lines == e->nr_lines;

		for (int j = 0; same && j < e->nr_lines; j++)
			same = !strcmp(old->lines[j], e->lines[j]);
		if (same) {
			n->kept++;
			continue;
		}
		if (old) {
			n->updated++;
			free(old->spec);
			for (int j = 0; j < old->nr_lines; j++)
				free(old->lines[j]);
			free(old->lines);
			free(old->line_nos);
			*old = *e;
		} else {
			n->added++;
			ALLOC_GROW(dst->entries, dst->nr + 1, dst->alloc);
			dst->entries[dst->nr++] = *e;
			spec_index__add(idx, dst, dst->nr - 1);
		}
		memset(e, 0, sizeof(*e));
	}
}

/* Order of the import: by cache entry (name, build-id), then bundle order. */
static int cmp_bundle_entry(const void *a, const void *b, void *arg)
{
	const struct probe_bundle_entry *entries = arg;
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(entries[i].name, entries[j].name);

	if (!c)
		c = (entries[i].bid.size > entries[j].bid.size) -
		    (entries[i].bid.size < entries[j].bid.size);
	if (!c)
		c = memcmp(entries[i].bid.data, entries[j].bid.data, entries[i].bid.size);
	if (!c)
		c = (i > j) - (i < j);
	return c;
}

static bool same_cache_entry(const struct probe_bundle_entry *a, const struct probe_bundle_entry *b)
{
	return !strcmp(a->name, b->name) && build_id__equal(&a->bid, &b->bid);
}

/* The caches an import writes: each a run of @order (one binary and build). */
struct import_ctx {
	const struct probe_bundle *b;
	const int *order;
	int *start; /* of each cache's run in @order; start[nr] = b->nr */
	struct merge_counts *n;
};

/* Merge the bundle entries of cache @i, in their order, into @pc (counted afresh). */
static bool import_merge(struct probe_cache *pc, int i, void *ctx)
{
	struct import_ctx *im = ctx;
	struct spec_index idx = { 0 };

	memset(&im->n[i], 0, sizeof(im->n[i]));
	spec_index__init(&idx, pc);
	for (int k = im->start[i]; k < im->start[i + 1]; k++) {
		const struct probe_bundle_entry *e = &im->b->entries[im->order[k]];
		struct probe_cache *src = probe_cache__new();
		const char *reason;
		int bad_line;

		/* probe_bundle__decode() parsed it already: it parses. */
		probe_cache__parse(src, e->probes, e->probes_len, &bad_line, &reason);
		merge_cache(pc, &idx, src, &im->n[i]);
		probe_cache__close(src);
	}
	free(idx.slot);
	return im->n[i].added || im->n[i].updated;
}

/*
 * Write every cache the bundle merges into as one batch
 * (probe-cache-batch.h): each probes file replaced by a rename of a
 * synced temporary, so an interrupted import leaves each cache old or
 * new, never half; a refusal or a full disk before the renames leaves
 * them all as they were.
 */
static int import_caches(const struct probe_bundle *b, const int *order)
{
	struct import_ctx im = { b, order, NULL, NULL };
	struct probe_cache_batch_item *items = NULL;
	struct strbuf why = STRBUF_INIT;
	int nr = 0, alloc = 0, failed = 0, ret;

	im.start = xmalloc(sizeof(*im.start) * (b->nr + 1));
	for (int i = 0; i < b->nr; i++) {
		const struct probe_bundle_entry *e = &b->entries[order[i]];

		if (i && same_cache_entry(e, &b->entries[order[i - 1]]))
			continue;
		ALLOC_GROW(items, nr + 1, alloc);
		memset(&items[nr], 0, sizeof(items[nr]));
		items[nr].name = e->name;
		items[nr].bid = &e->bid;
		im.start[nr++] = i;
	}
	im.start[nr] = b->nr;
	im.n = xzalloc(sizeof(*im.n) * (nr + 1));
	ret = probe_cache_batch__write(items, nr, import_merge, &im, &failed, &why);
	for (int i = 0; i < nr; i++) {
		char sbid[SBUILD_ID_SIZE];

		build_id__sprintf(items[i].bid, sbid);
		if (items[i].done)
			pr_info("Imported %s (%s): %d new, %d updated, %d already cached\n",
				items[i].name, sbid, im.n[i].added, im.n[i].updated, im.n[i].kept);
		else if (ret && i == failed)
			pr_err("Error: Failed to import the probes of %s (%s): %s\n", items[i].name,
			       sbid,
			       (ret == -CACHE_FS_REFUSED || ret == -EBADMSG) && why.len
				       ? why.buf
				       : strerror(-ret));
	}
	probe_cache_batch__clear(items, nr);
	free(items);
	free(im.start);
	free(im.n);
	strbuf_release(&why);
	return ret;
}

int import_probe_cache(const char *file)
{
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT;
	struct probe_bundle b;
	int *order = NULL;
	int ret;

	ret = strbuf_read_regular(&data, AT_FDCWD, file, PROBE_BUNDLE_MAX_SIZE);
	if (ret) {
		pr_err("Error: %s: %s\n", file,
		       ret == -EFBIG ? "too large for a probe-cache bundle"
				     : strbuf_read_strerror(ret));
		goto out;
	}
	ret = probe_bundle__decode(data.buf, data.len, &b, &why);
	if (ret) {
		pr_err("Error: %s is refused: %s; nothing was imported\n", file, why.buf);
		goto out;
	}
	/* Every line must be what its entry gives on the file here (probe-verify.h). */
	for (int i = 0; i < b.nr && !ret; i++) {
		const struct probe_bundle_entry *e = &b.entries[i];
		char sbid[SBUILD_ID_SIZE];

		strbuf_reset(&why);
		ret = probe_verify__probes_text(e->name, &e->bid, e->probes, e->probes_len, &why);
		build_id__sprintf(&e->bid, sbid);
		if (ret)
			pr_err("perf: refusing %s: the probes of %s (%s), %s; nothing was imported\n",
			       file, e->name, sbid, why.buf);
	}
	order = xmalloc(sizeof(*order) * b.nr);
	for (int i = 0; i < b.nr; i++)
		order[i] = i;
	qsort_r(order, b.nr, sizeof(*order), cmp_bundle_entry, b.entries);
	/* Every local cache the bundle merges into must be sound before any is written. */
	for (int i = 0; i < b.nr && !ret; i++) {
		const struct probe_bundle_entry *e = &b.entries[order[i]];
		char *dir;
		struct probe_cache *pc;
		struct strbuf err = STRBUF_INIT;

		if (i && same_cache_entry(e, &b.entries[order[i - 1]]))
			continue;
		dir = build_id_cache__dirname(e->name, &e->bid);
		/* Its probes file and the temporary beside it must have a path. */
		if (strlen(dir) + sizeof("/probes.tmp.XXXXXXXX") > PATH_MAX) {
			pr_err("Error: %s is refused: the probe cache of %.64s... would be at a path of %zu bytes, longer than PATH_MAX; nothing was imported\n",
			       file, e->name, strlen(dir) + sizeof("/probes") - 1);
			ret = -ENAMETOOLONG;
			free(dir);
			break;
		}
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
	if (!ret)
		ret = import_caches(&b, order);
	free(order);
	probe_bundle__clear(&b);
out:
	strbuf_release(&data);
	strbuf_release(&why);
	return ret;
}
