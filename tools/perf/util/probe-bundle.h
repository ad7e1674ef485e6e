/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_BUNDLE_H
#define PERF_UTIL_PROBE_BUNDLE_H

/*
 * Probe-cache bundles: the probe caches of several binaries in one
 * compressed file, to ship pre-analysed probes to hosts without debuginfo.
 *
 * Layout (all integers little-endian):
 *
 *	0   8  magic "PRBCACHE"
 *	8   4  version (PROBE_BUNDLE_VERSION)
 *	12  4  number of entries
 *	16  8  size of the payload, uncompressed
 *	24  8  size of the payload, compressed
 *	32  4  CRC-32 of the uncompressed payload
 *	36  4  CRC-32 of bytes 0..35
 *	40  -  the payload, one zlib stream
 *
 * The payload is, for each entry, a line "<build-id hex> <name length>
 * <probes length>\n" followed by the name (the cached path, or
 * "[kernel.kallsyms]") and the text of its probes file.  Nothing may
 * follow the zlib stream.  Several entries may name the same binary and
 * build-id: import merges them in their order.
 *
 * Owns: the bundle file format (encode, decode, verify).  Reading and
 * merging probe caches is probe-cache-cmd's business.
 * May call: probe-cache (to check a probes text parses), build-id (the
 * build-id type), zlib, util, strbuf.
 */

#include <stddef.h>
#include <stdint.h>

#include "util/build-id.h"
#include "util/strbuf.h"

#define PROBE_BUNDLE_MAGIC "PRBCACHE"
#define PROBE_BUNDLE_VERSION 1
#define PROBE_BUNDLE_HEADER_SIZE 40
#define PROBE_BUNDLE_MAX_SIZE (256u << 20) /* uncompressed, and compressed */

struct probe_bundle_entry {
	struct build_id bid;
	char *name;
	char *probes; /* the probes file's text */
	size_t probes_len;
};

struct probe_bundle {
	struct probe_bundle_entry *entries;
	int nr, alloc;
};

/* Append an entry (copies). */
void probe_bundle__add(struct probe_bundle *b, const char *name, const struct build_id *bid,
		       const char *probes, size_t len);
/* Free the entries and zero @b. */
void probe_bundle__clear(struct probe_bundle *b);

/* The bundle as file content, into @out.  0 or -errno. */
int probe_bundle__encode(const struct probe_bundle *b, struct strbuf *out);

/*
 * Decode and verify file content: magic, version, sizes, both checksums,
 * nothing after the zlib stream, the payload's shape, each entry's
 * build-id, name (an absolute path without empty, "." or ".." components
 * and not under a dot-directory of the cache root, or "[name]"), and probes
 * text (as
 * probe_cache__parse() takes it).  Returns 0 with the entries in @b, or
 * -EBADMSG / -EPROTO (another version) / -ENODATA (no entries) with one
 * reason in @why.  Nothing is kept on error.
 */
int probe_bundle__decode(const void *data, size_t len, struct probe_bundle *b, struct strbuf *why);

#endif
