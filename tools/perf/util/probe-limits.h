/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_LIMITS_H
#define PERF_UTIL_PROBE_LIMITS_H

/*
 * The kernel's limits on probe event names, shared by every layer that
 * checks or makes names (probe-spec's grammars, probe-file's unique
 * names), and perf's bounds on the files it reads (a user's, the cache's).
 * Constants only: it includes nothing and anyone may include it.
 */

/* The longest GROUP or EVENT name the kernel takes, in bytes. */
#define MAX_EVENT_NAME_LEN 64

/*
 * Bounds on reads of files nobody vouches for (strbuf_read_regular()):
 * the perf config, a source file -L shows.
 */
#define PERF_CONFIG_MAX_SIZE (1u << 20)
#define PROBE_SOURCE_MAX_SIZE (64u << 20)

/*
 * The most of a cache file read into memory (strbuf_read_regular()): a
 * probes file, the list of changed entries of the index, a link target.
 */
#define PROBE_CACHE_MAX_FILE (64 << 20)

/*
 * The largest .perf.probes section written by --embed or taken from
 * debuginfod (Documentation/perf-probe.txt): a cached entry is a few
 * hundred bytes, so this holds tens of thousands of them, while a server
 * can not make a host download, keep or parse more.
 */
#define PROBE_EMBED_MAX_SECTION (16u << 20)
#define PROBE_INDEX_MAX_DIRTY (16 << 20)

#endif
