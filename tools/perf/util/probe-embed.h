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
 * the servers for that section only (debuginfod_find_section()); a section
 * that parses and names the same build-id becomes the local probe cache of
 * that build, so the full debuginfo is fetched only when it has no answer.
 *
 * Owns: the section's format, writing it into a file (libelf, a copy
 * renamed over the file), fetching and checking it.
 * May call: probe-cache, debuginfod, build-id, util, strbuf, debug.
 */

#include "util/build-id.h"

#define PROBE_EMBED_SECTION ".perf.probes"

/*
 * --cache --embed FILE: 0, or -errno after one line on stderr (FILE is
 * then unchanged).
 */
int probe_embed__write(const char *file);

/*
 * No local probe cache for @bid: fetch the section from the debuginfod
 * servers and keep it as the probe cache of the build-id cache entry
 * @name/@bid (@file: the target's file, NULL for the kernel).  0 when it
 * was kept; 1 when there is no server, no section, or it was refused (a
 * bad one is named in one warning line): the caller goes on as without.
 */
int probe_embed__fetch(const char *name, const char *file, const struct build_id *bid);

#endif
