// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/probe-bundle.h"
#include "util/probe-cache.h"
#include "util/util.h"

void probe_bundle__add(struct probe_bundle *b, const char *name, const struct build_id *bid,
		       const char *probes, size_t len)
{
	struct probe_bundle_entry *e;

	ALLOC_GROW(b->entries, b->nr + 1, b->alloc);
	e = &b->entries[b->nr++];
	e->bid = *bid;
	e->name = xstrdup(name);
	e->probes = xmalloc(len + 1);
	memcpy(e->probes, probes, len);
	e->probes[len] = '\0';
	e->probes_len = len;
}

void probe_bundle__clear(struct probe_bundle *b)
{
	for (int i = 0; i < b->nr; i++) {
		free(b->entries[i].name);
		free(b->entries[i].probes);
	}
	free(b->entries);
	b->entries = NULL;
	b->nr = 0;
	b->alloc = 0;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int probe_bundle__encode(const struct probe_bundle *b, struct strbuf *out)
{
	struct strbuf payload = STRBUF_INIT;
	unsigned char hdr[PROBE_BUNDLE_HEADER_SIZE];
	uLongf zlen;
	size_t start;
	int ret = 0;

	for (int i = 0; i < b->nr; i++) {
		const struct probe_bundle_entry *e = &b->entries[i];
		char sbid[SBUILD_ID_SIZE];

		build_id__sprintf(&e->bid, sbid);
		strbuf_addf(&payload, "%s %zu %zu\n", sbid, strlen(e->name), e->probes_len);
		strbuf_addstr(&payload, e->name);
		strbuf_add(&payload, e->probes, e->probes_len);
	}
	if (payload.len > PROBE_BUNDLE_MAX_SIZE) {
		strbuf_release(&payload);
		return -EFBIG;
	}
	zlen = compressBound(payload.len);
	start = out->len;
	strbuf_grow(out, PROBE_BUNDLE_HEADER_SIZE + zlen);
	if (compress2((Bytef *)out->buf + start + PROBE_BUNDLE_HEADER_SIZE, &zlen,
		      (const Bytef *)payload.buf, payload.len, Z_BEST_COMPRESSION) != Z_OK) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(hdr, PROBE_BUNDLE_MAGIC, 8);
	put_le(hdr + 8, PROBE_BUNDLE_VERSION, 4);
	put_le(hdr + 12, b->nr, 4);
	put_le(hdr + 16, payload.len, 8);
	put_le(hdr + 24, zlen, 8);
	put_le(hdr + 32, crc32(0, (const Bytef *)payload.buf, payload.len), 4);
	put_le(hdr + 36, crc32(0, hdr, 36), 4);
	memcpy(out->buf + start, hdr, sizeof(hdr));
	strbuf_setlen(out, start + PROBE_BUNDLE_HEADER_SIZE + zlen);
out:
	strbuf_release(&payload);
	return ret;
}

/* Parse "<hex> <n> <m>\n" at @p; the length of that line, or 0. */
static size_t parse_entry_head(const char *p, size_t avail, char *sbid, size_t *name_len,
			       size_t *probes_len)
{
	const char *nl = memchr(p, '\n', avail < 128 ? avail : 128);
	char line[128], *end;
	unsigned long long a, b;
	char *sp;

	if (!nl)
		return 0;
	memcpy(line, p, nl - p);
	line[nl - p] = '\0';
	sp = strchr(line, ' ');
	if (!sp || sp - line >= SBUILD_ID_SIZE)
		return 0;
	memcpy(sbid, line, sp - line);
	sbid[sp - line] = '\0';
	if (sp[1] < '0' || sp[1] > '9')
		return 0;
	a = strtoull(sp + 1, &end, 10);
	if (*end != ' ' || end[1] < '0' || end[1] > '9')
		return 0;
	b = strtoull(end + 1, &end, 10);
	if (*end)
		return 0;
	*name_len = a;
	*probes_len = b;
	return nl - p + 1;
}

/*
 * What an entry's name may be: an absolute path of non-empty components,
 * none "." or "..", whose first does not start with '.' (the cache root's
 * own .build-id, .probe-index ...), each at most NAME_MAX bytes; or
 * "[name]" without '/' and not "[.]" or "[..]".  NUL-terminated, @len
 * bytes.  Anything else would re-point the link or directory of another
 * entry, or could never be written.  NULL, or what is wrong with it.
 */
static const char *bad_name(const char *name, size_t len)
{
	if (len == 0 || strlen(name) != len || strchr(name, '\n'))
		return "not a cached file name";
	if (len > PATH_MAX - 64)
		return "a name too long for the build-id cache";
	if (name[0] == '[')
		return len > 2 && name[len - 1] == ']' && !strchr(name, '/') &&
				       strcmp(name, "[.]") && strcmp(name, "[..]")
			       ? NULL
			       : "not a cached file name";
	if (name[0] != '/' || len == 1 || name[1] == '.')
		return "not a cached file name";
	for (const char *p = name; *p;) {
		size_t n;

		p++; /* the '/' */
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return "not a cached file name";
		if (n > NAME_MAX)
			return "a path component longer than NAME_MAX (255 bytes)";
		p += n;
	}
	return NULL;
}

static int decode_payload(const char *p, size_t len, uint32_t nr, struct probe_bundle *b,
			  struct strbuf *why)
{
	size_t pos = 0;

	for (uint32_t i = 0; i < nr; i++) {
		char sbid[SBUILD_ID_SIZE], *name;
		size_t name_len, probes_len, head;
		struct probe_cache *pc;
		struct build_id bid;
		const char *reason;
		int bad_line;

		head = parse_entry_head(p + pos, len - pos, sbid, &name_len, &probes_len);
		if (!head || build_id__from_hex(&bid, sbid)) {
			strbuf_addf(why, "entry %u: a malformed entry header", i + 1);
			return -EBADMSG;
		}
		pos += head;
		if (name_len > len - pos || probes_len > len - pos - name_len) {
			strbuf_addf(why, "entry %u: its sizes run past the payload", i + 1);
			return -EBADMSG;
		}
		name = xmalloc(name_len + 1);
		memcpy(name, p + pos, name_len);
		name[name_len] = '\0';
		reason = bad_name(name, name_len);
		if (reason) {
			strbuf_addf(why, "entry %u: %s: '%.*s%s'", i + 1, reason,
				    (int)(name_len > 200 ? 200 : name_len), p + pos,
				    name_len > 200 ? "..." : "");
			free(name);
			return -EBADMSG;
		}
		pos += name_len;
		pc = probe_cache__new();
		if (probe_cache__parse(pc, p + pos, probes_len, &bad_line, &reason)) {
			strbuf_addf(why, "entry %u (%s): line %d of its probes: %s", i + 1, name,
				    bad_line, reason);
			probe_cache__close(pc);
			free(name);
			return -EBADMSG;
		}
		probe_cache__close(pc);
		probe_bundle__add(b, name, &bid, p + pos, probes_len);
		free(name);
		pos += probes_len;
	}
	if (pos != len) {
		strbuf_addf(why, "%zu bytes after the last entry", len - pos);
		return -EBADMSG;
	}
	return 0;
}

int probe_bundle__decode(const void *data, size_t len, struct probe_bundle *b, struct strbuf *why)
{
	const unsigned char *hdr = data;
	uint64_t plen, zlen;
	uint32_t version, nr;
	uLongf out_len;
	uLong in_len;
	char *payload;
	int ret;

	memset(b, 0, sizeof(*b));
	if (len < PROBE_BUNDLE_HEADER_SIZE || memcmp(hdr, PROBE_BUNDLE_MAGIC, 8)) {
		strbuf_addstr(why,
			      len < PROBE_BUNDLE_HEADER_SIZE &&
					      !memcmp(hdr, PROBE_BUNDLE_MAGIC, len < 8 ? len : 8)
				      ? "truncated: shorter than its header"
				      : "not a probe-cache bundle (bad magic)");
		return -EBADMSG;
	}
	if (get_le(hdr + 36, 4) != crc32(0, hdr, 36)) {
		strbuf_addstr(why, "corrupted: the header checksum does not match");
		return -EBADMSG;
	}
	version = get_le(hdr + 8, 4);
	if (version != PROBE_BUNDLE_VERSION) {
		strbuf_addf(why, "version %u, this perf reads version %d", version,
			    PROBE_BUNDLE_VERSION);
		return -EPROTO;
	}
	nr = get_le(hdr + 12, 4);
	plen = get_le(hdr + 16, 8);
	zlen = get_le(hdr + 24, 8);
	if (nr == 0) {
		strbuf_addstr(why, "empty: it holds no entry");
		return -ENODATA;
	}
	if (zlen != len - PROBE_BUNDLE_HEADER_SIZE) {
		strbuf_addf(why, "truncated: %zu bytes of payload where the header says %" PRIu64,
			    len - PROBE_BUNDLE_HEADER_SIZE, zlen);
		return -EBADMSG;
	}
	if (plen > PROBE_BUNDLE_MAX_SIZE) {
		strbuf_addstr(why, "corrupted: the payload would be too large");
		return -EBADMSG;
	}
	payload = xmalloc(plen ? plen : 1);
	out_len = plen;
	in_len = zlen;
	if (uncompress2((Bytef *)payload, &out_len, hdr + PROBE_BUNDLE_HEADER_SIZE, &in_len) !=
		    Z_OK ||
	    out_len != plen) {
		strbuf_addstr(why, "corrupted: the payload does not decompress");
		ret = -EBADMSG;
	} else if (in_len != zlen) {
		/* Bytes nobody checked would ride along with a valid stream. */
		strbuf_addf(why, "corrupted: %" PRIu64 " bytes after the compressed payload",
			    zlen - in_len);
		ret = -EBADMSG;
	} else if (crc32(0, (const Bytef *)payload, plen) != get_le(hdr + 32, 4)) {
		strbuf_addstr(why, "corrupted: the payload checksum does not match");
		ret = -EBADMSG;
	} else {
		ret = decode_payload(payload, plen, nr, b, why);
	}
	free(payload);
	if (ret)
		probe_bundle__clear(b);
	return ret;
}
