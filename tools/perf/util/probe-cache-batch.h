/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_CACHE_BATCH_H
#define PERF_UTIL_PROBE_CACHE_BATCH_H

/*
 * Many probe caches written at once (perf probe --cache --import of a
 * bundle of many binaries), in time linear in their number and with a
 * constant number of syncs:
 *
 *   1. each entry, in order, through one walk shared by all of them
 *      (build_id_cache_batch: a directory is opened and checked once while
 *      the entries stay below it): made when missing with its .build-id
 *      link, locked, cleaned of junk, its probes file read and merged, the
 *      new text written as a temporary beside it (no fsync), unlocked;
 *   2. one syncfs() of the cache's file system (or, when it fails, an
 *      fsync of each temporary): every temporary is durable;
 *   3. each entry locked again, its temporary renamed over its probes
 *      file, unlocked;
 *   4. one syncfs() again: the renames are durable.
 *
 * A crash at any moment leaves each probes file as it was or as imported
 * (a rename is atomic, and what it renames is on disk before it), and at
 * most temporaries that the next writer removes as junk.  A failure in 1
 * or 2 (a refused directory, a full disk) removes every temporary written
 * and what the batch made, and no probes file was touched.
 *
 * The locks.  Holding every entry's lock from 1 to 3 would hold as many
 * descriptors as entries (10,000 and more: past RLIMIT_NOFILE), so each
 * entry is locked in 1 and again in 3, and 3 renames only when the probes
 * file is still the one 1 read (device, inode, size, mtime, ctime) and
 * the temporary is still there.  Otherwise a writer (perf probe --cache
 * --add) committed in between (its commit also removed the temporary as
 * junk): the entry is read, merged and written again at once, under the
 * lock, with its own fsync, so what that writer acknowledged is kept.
 *
 * Owns: that order of writes and its locks.
 * May call: probe-cache (read, format, the index noting), build-id (the
 * batch of entries), cache-fs (temporaries, junk), util, strbuf, debug.
 */

#include <stdbool.h>
#include <sys/stat.h>

#include "util/build-id.h"

struct probe_cache;
struct strbuf;

/* One probe cache of the batch. */
struct probe_cache_batch_item {
	const char *name;	    /* the entry's binary (or [kernel.kallsyms]) */
	const struct build_id *bid; /* and build-id */
	/* Set by the batch: */
	char *tmp;	 /* the temporary written in 1, NULL: nothing to write */
	struct stat old; /* the probes file read in 1 (st_ino 0: none) */
	bool done;	 /* its probes file is as imported (or was already) */
};

/*
 * Merge item @i's new probes into @pc (the entry's cache as read): true
 * when that changed it.  Called again for an entry read again in 3, so
 * it counts afresh.
 */
typedef bool (*probe_cache_batch_merge_fn)(struct probe_cache *pc, int i, void *ctx);

/*
 * Write the @nr items (sorted by name, each entry once) as above.  0, or
 * -errno with the failing item's index in *@failed and, for a refused
 * path or a corrupt probes file, the line saying so in @err; then the
 * items imported are those marked `done` (none when the failure came
 * before step 3).
 */
int probe_cache_batch__write(struct probe_cache_batch_item *items, int nr,
			     probe_cache_batch_merge_fn merge, void *ctx, int *failed,
			     struct strbuf *err);

/* Free what the batch set in @items. */
void probe_cache_batch__clear(struct probe_cache_batch_item *items, int nr);

#endif
