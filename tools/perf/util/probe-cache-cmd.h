/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_CACHE_CMD_H
#define PERF_UTIL_PROBE_CACHE_CMD_H

/*
 * perf probe --cache --list, --del, --export and --import: commands over
 * the probe caches (probe-cache.h) of the build-id cache (build-id.h).
 * Each returns 0 or -errno after one message on stderr.
 */

#include "util/probe-spec.h"

/*
 * --cache --list: "PATH (BID):" then the spec of each entry matching the
 * glob @filter (NULL: all), for the cache of @target's target (-x/-m), or
 * without one for every cache perf lists (probe_caches__for_each_listed():
 * by build-id, current binaries only).  Empty caches are not listed.
 */
int show_probe_cache(const struct perf_probe_event *target, const char *filter);

/*
 * --cache --del: remove the cache entries whose spec matches the glob
 * @filter, from the cache of @target's target (-x/-m) or, without one,
 * from every cache.
 */
int del_probe_cache(const struct perf_probe_event *target, const char *filter);

/*
 * --cache --export FILE: the probe caches of @targets (paths; none: every
 * cached binary) in one bundle (probe-bundle.h), written whole.
 */
int export_probe_cache(const char *file, const char *const *targets, int ntargets);

/*
 * --cache --import FILE: verify the whole bundle and every local cache it
 * merges into, then merge each entry under its build-id (new specs added,
 * changed ones replaced, equal ones kept) and say what was added.
 */
int import_probe_cache(const char *file);

#endif
