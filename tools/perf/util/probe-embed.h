/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_EMBED_H
#define PERF_UTIL_PROBE_EMBED_H

/*
 * Probe caches carried inside an ELF file, for debuginfod to serve.
 *
 * `perf probe --cache --embed FILE` writes the probes file of FILE's
 * build-id (its entry in the build-id cache) into FILE as the section
 * PROBE_EMBED_SECTION: SHT_PROGBITS, no flags (not loaded), holding
 *
 *	perf-probes 1 BUILDID\n
 *	the probes file, as on disk (probe-cache.h)
 *
 * A host with DEBUGINFOD_URLS and no local probe cache for a build-id asks
 * the servers for that section only (debuginfod_find_section()); the
 * entries of a section that parses and names the same build-id, each
 * checked first as a cached entry is before it is placed (probe-verify.h,
 * through the caller), become the local probe cache of that build, so the
 * full debuginfo is fetched only when it has no answer.
 *
 * Owns: the section's format, writing it into a file (libelf, a copy
 * renamed over the file), fetching and checking it.
 * May call: probe-cache, debuginfod, build-id, cache-fs, util, strbuf, debug.
 */

#include "util/build-id.h"

struct probe_cache;
struct probe_cache_entry;
struct strbuf;

#define PROBE_EMBED_SECTION ".perf.probes"

/*
 * The text @text (@len bytes) of a section, for the build-id @bid: 0 with
 * the probes file's text at *@body and its entries appended to @pc (may
 * be NULL), or -EBADMSG with the reason in @why ("it names the build-id
 * X", "line N: reason", N a line of the section).  The size bound and the
 * check of each entry are probe_embed__fetch()'s.
 */
int probe_embed__parse(const char *text, size_t len, const struct build_id *bid,
		       struct probe_cache *pc, const char **body, char *why, size_t whylen);

/*
 * --cache --embed FILE: 0, or -errno after one line on stderr (FILE is
 * then unchanged).
 */
int probe_embed__write(const char *file);

/*
 * The check of one entry of a fetched section before anything is kept
 * (probe-verify's, lent by the caller): 0, or -EBADMSG with the entry's
 * 1-based line in the probes text in *@line (0: its header) and the
 * reason in @why.
 */
typedef int (*probe_embed_check_fn)(void *ctx, const struct probe_cache_entry *e, int *line,
				    struct strbuf *why);

/*
 * No local probe cache for @bid: fetch the section from the debuginfod
 * servers and keep what checks out as the probe cache of the build-id
 * cache entry @name/@bid (@file: the target's file, NULL for the kernel).
 * The section is at most PROBE_EMBED_MAX_SECTION bytes (a bigger one is
 * not downloaded past that, nor read), must name @bid and parse, and each
 * of its entries must pass @check (NULL: all do); the entries refused are
 * left out, with one warning.  0 when entries were kept; 1 when there is
 * no server, no section, or no entry to keep (a bad section is named in
 * one warning line and nothing is kept): the caller goes on as without.
 */
int probe_embed__fetch(const char *name, const char *file, const struct build_id *bid,
		       probe_embed_check_fn check, void *ctx);

#endif
