/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_LIMITS_H
#define PERF_UTIL_PROBE_LIMITS_H

/*
 * The kernel's limits on probe event names, shared by every layer that
 * checks or makes names (probe-spec's grammars, probe-file's unique
 * names), and the bounds on the cache files perf reads.  Constants only: it includes nothing and anyone may include it.
 */

/* The longest GROUP or EVENT name the kernel takes, in bytes. */
#define MAX_EVENT_NAME_LEN 64

/*
 * The most of a cache file read into memory (strbuf_read_regular()): a
 * probes file, the list of changed entries of the index, a link target.
 */
#define PROBE_CACHE_MAX_FILE (64 << 20)
#define PROBE_INDEX_MAX_DIRTY (16 << 20)

#endif
