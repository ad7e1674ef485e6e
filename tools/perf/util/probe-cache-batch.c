// SPDX-License-Identifier: GPL-2.0
/*
 * Many probe caches written with one walk and a constant number of syncs
 * (see probe-cache-batch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/probe-cache-batch.h"
#include "util/probe-cache.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Is the probes file @now still the one read as @then (st_ino 0: none)? */
static bool same_file(const struct stat *then, const struct stat *now)
{
	if (!then->st_ino || !now->st_ino)
		return then->st_ino == now->st_ino;
	return then->st_dev == now->st_dev && then->st_ino == now->st_ino &&
	       then->st_size == now->st_size && then->st_mtim.tv_sec == now->st_mtim.tv_sec &&
	       then->st_mtim.tv_nsec == now->st_mtim.tv_nsec &&
	       then->st_ctim.tv_sec == now->st_ctim.tv_sec &&
	       then->st_ctim.tv_nsec == now->st_ctim.tv_nsec;
}

struct batch {
	struct build_id_cache_batch b;
	struct probe_cache_batch_item *items;
	int nr;
	probe_cache_batch_merge_fn merge;
	void *ctx;
};

/* Lock item @i's entry again (nothing made); its fd or -errno. */
static int reopen(struct batch *bt, int i, struct strbuf *err)
{
	bool made;

	return build_id_cache__batch_entry(&bt->b, bt->items[i].name, bt->items[i].bid, false,
					   &made, err);
}

/* Remove the temporaries of items @from.. (a batch that failed). */
static void remove_tmps(struct batch *bt, int from)
{
	struct strbuf err = STRBUF_INIT;

	for (int i = from; i < bt->nr; i++) {
		struct probe_cache_batch_item *it = &bt->items[i];
		int fd;

		if (!it->tmp)
			continue;
		fd = reopen(bt, i, &err);
		if (fd >= 0) {
			unlinkat(fd, it->tmp, 0);
			close(fd);
		}
		strbuf_reset(&err);
		free(it->tmp);
		it->tmp = NULL;
	}
	strbuf_release(&err);
}

/* Write @text as a new temporary beside the probes file of @fd: its name, or NULL. */
static int write_tmp(int fd, const struct strbuf *text, char **name)
{
	struct strbuf tmp = STRBUF_INIT;
	int tfd = cache_fs__open_tmp(fd, "probes", 0644, &tmp), ret;

	if (tfd < 0) {
		strbuf_release(&tmp);
		return tfd;
	}
	ret = write_all(tfd, text->buf, text->len);
	if (close(tfd) < 0 && !ret)
		ret = -errno;
	if (ret) {
		unlinkat(fd, tmp.buf, 0);
		strbuf_release(&tmp);
		return ret;
	}
	*name = strbuf_detach(&tmp, NULL);
	return 0;
}

/* 1: item @i's entry made, locked, read, merged, and its temporary written. */
static int prepare(struct batch *bt, int i, struct strbuf *err)
{
	struct probe_cache_batch_item *it = &bt->items[i];
	char *dir = build_id_cache__dirname(it->name, it->bid);
	struct strbuf text = STRBUF_INIT;
	struct probe_cache *pc = NULL;
	bool made;
	int fd = build_id_cache__batch_entry(&bt->b, it->name, it->bid, true, &made, err), ret;

	if (fd < 0) {
		free(dir);
		return fd;
	}
	/* Under its lock: what a dead writer left.  A directory made now has none. */
	if (!made)
		cache_fs__remove_junk(fd, NULL, false);
	ret = probe_cache__read_at(fd, dir, &pc, &it->old, err);
	if (!ret && bt->merge(pc, i, bt->ctx)) {
		probe_cache__format(pc, &text);
		ret = write_tmp(fd, &text, &it->tmp);
	}
	probe_cache__close(pc);
	strbuf_release(&text);
	close(fd); /* unlocked until 3 */
	free(dir);
	return ret;
}

/* 2: every temporary on disk; syncfs(), else an fsync of each. */
static int sync_tmps(struct batch *bt, int *failed, struct strbuf *err)
{
	bool any = false;

	for (int i = 0; i < bt->nr && !any; i++)
		any = bt->items[i].tmp != NULL;
	if (!any || syncfs(bt->b.rootfd) == 0)
		return 0;
	pr_debug("syncfs of %s: %s; an fsync of each file instead\n", buildid_dir(),
		 strerror(errno));
	for (int i = 0; i < bt->nr; i++) {
		struct probe_cache_batch_item *it = &bt->items[i];
		int fd, tfd, ret = 0;

		if (!it->tmp)
			continue;
		fd = reopen(bt, i, err);
		if (fd < 0) {
			*failed = i;
			return fd;
		}
		tfd = openat(fd, it->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (tfd < 0 || fsync(tfd) < 0)
			ret = -errno;
		if (tfd >= 0)
			close(tfd);
		close(fd);
		if (ret) {
			*failed = i;
			return ret;
		}
	}
	return 0;
}

/*
 * 3: item @i's temporary renamed over its probes file, under its lock,
 * when that file is still the one read in 1; else the entry is read,
 * merged and written again now (a writer committed in between).
 */
static int commit(struct batch *bt, int i, struct strbuf *err)
{
	struct probe_cache_batch_item *it = &bt->items[i];
	struct strbuf text = STRBUF_INIT;
	struct probe_cache *pc = NULL;
	struct stat now;
	char *dir;
	int fd = reopen(bt, i, err), ret = 0;

	if (fd < 0)
		return fd;
	if (fstatat(fd, "probes", &now, AT_SYMLINK_NOFOLLOW) < 0)
		memset(&now, 0, sizeof(now));
	/* A temporary gone (a writer's junk removal took it): written again below. */
	if (same_file(&it->old, &now)) {
		ret = renameat(fd, it->tmp, fd, "probes") < 0 ? -errno : 0;
		if (ret != -ENOENT) {
			close(fd);
			return ret;
		}
		ret = 0;
	}
	pr_debug("%s/%s changed during the import: merged again\n", it->name, "probes");
	unlinkat(fd, it->tmp, 0);
	dir = build_id_cache__dirname(it->name, it->bid);
	ret = probe_cache__read_at(fd, dir, &pc, &it->old, err);
	if (!ret && bt->merge(pc, i, bt->ctx)) {
		probe_cache__format(pc, &text);
		ret = cache_fs__write_atomic(fd, "probes", text.buf, text.len, 0644, true);
	}
	probe_cache__close(pc);
	strbuf_release(&text);
	free(dir);
	close(fd);
	return ret;
}

/* 4: the renames on disk; syncfs(), else an fsync of each entry's directory. */
static void sync_renames(struct batch *bt)
{
	struct strbuf err = STRBUF_INIT;

	if (syncfs(bt->b.rootfd) == 0)
		return;
	for (int i = 0; i < bt->nr; i++) {
		int fd = bt->items[i].tmp ? reopen(bt, i, &err) : -1;

		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
		strbuf_reset(&err);
	}
	strbuf_release(&err);
}

int probe_cache_batch__write(struct probe_cache_batch_item *items, int nr,
			     probe_cache_batch_merge_fn merge, void *ctx, int *failed,
			     struct strbuf *err)
{
	struct batch bt = { .items = items, .nr = nr, .merge = merge, .ctx = ctx };
	const char **written;
	struct probe_caches_note note;
	int ret, n = 0, renamed = 0;

	*failed = 0;
	ret = build_id_cache__batch_init(&bt.b, err);
	if (ret)
		return ret;
	for (int i = 0; i < nr && !ret; i++) {
		ret = prepare(&bt, i, err);
		if (ret)
			*failed = i;
	}
	if (!ret)
		ret = sync_tmps(&bt, failed, err);
	if (ret) {
		/* Nothing renamed yet: the cache is left as it was. */
		remove_tmps(&bt, 0);
		build_id_cache__batch_undo(&bt.b);
		return ret;
	}
	/*
	 * For the index of every cache (probe-index.c): one note for all,
	 * before the first rename, held until the last.
	 */
	written = xmalloc(sizeof(*written) * (nr + 1));
	for (int i = 0; i < nr; i++)
		if (items[i].tmp)
			written[n++] = build_id_cache__dirname(items[i].name, items[i].bid);
	probe_caches__note_written(written, n, false, &note);
	for (int i = 0; i < nr && !ret; i++) {
		if (items[i].tmp) {
			ret = commit(&bt, i, err);
			if (ret) {
				*failed = i;
				break;
			}
			renamed++;
		}
		items[i].done = true;
	}
	if (ret)
		remove_tmps(&bt, *failed);
	if (n)
		sync_renames(&bt);
	probe_caches__note_done(&note, renamed > 0);
	for (int i = 0; i < n; i++)
		free((char *)written[i]);
	free(written);
	build_id_cache__batch_release(&bt.b);
	return ret;
}

void probe_cache_batch__clear(struct probe_cache_batch_item *items, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(items[i].tmp);
		items[i].tmp = NULL;
	}
}
