/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_INDEX_H
#define PERF_UTIL_PROBE_INDEX_H

#include "util/build-id.h"

/*
 * The builds whose probe caches define an event matching [@group:]@event
 * (globs, as probe_event_match(); @group NULL: any), found without opening
 * every probes file: through the index ROOT/.probe-index of the GROUP:EVENT
 * of every line of every probe cache (this perf's only; the system perf
 * ignores the file).  The index is brought up to date when a build was
 * added or removed since (the .build-id bucket directories that changed,
 * found with a bounded number of stats, are listed again) and when this
 * perf wrote a probes file (its writer notes the entry in
 * ROOT/.probe-index.dirty before the write, probe_caches__note_written();
 * the list is kept while a writer holds its lock); it is rebuilt with
 * probe_caches__for_each()
 * when it finds nothing (a probes file edited in place by the system
 * perf).  @fn gets each candidate, in the order of
 * probe_caches__for_each(), and returns how many events it took from it
 * (0: none after all), or -errno to stop.  Returns the sum, or that
 * -errno.
 */
typedef int (*probe_caches_index_fn)(const struct build_id_cache_entry *ent, const char *dir,
				     void *ctx);
int probe_caches__for_each_defining(const char *group, const char *event, probe_caches_index_fn fn,
				    void *ctx);

/*
 * A hash of the .build-id directory and of each of its buckets (inode and
 * mtime): it changes whenever a build is added to or removed from the
 * build-id cache, by this perf or the system's.  At most 257 stats.
 */
uint64_t probe_index__links_stamp(void);

#endif
