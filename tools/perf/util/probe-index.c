// SPDX-License-Identifier: GPL-2.0
/*
 * The index of the events of every probe cache, ROOT/.probe-index: which
 * cached binaries define a [GROUP:]EVENT, found without opening every
 * probes file (see probe-index.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/probe-cache.h"
#include "util/probe-index.h"
#include "util/probe-limits.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/util.h"

#define PROBE_INDEX_MAGIC "perf-probe-index 3"
#define PROBE_INDEX_BUCKETS 256

/* The index file ROOT/.probe-index, or its list of changed entries. */
static char *probe_index_path(const char *name)
{
	return path_join(buildid_dir(), name);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

static uint64_t stamp_add_dir(uint64_t h, int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, 0) < 0)
		return fnv1a(h, "-", 1);
	h = fnv1a(h, name, strlen(name) + 1);
	h = fnv1a(h, &st.st_ino, sizeof(st.st_ino));
	h = fnv1a(h, &st.st_mtim.tv_sec, sizeof(st.st_mtim.tv_sec));
	return fnv1a(h, &st.st_mtim.tv_nsec, sizeof(st.st_mtim.tv_nsec));
}

static int hex_digit(int c)
{
	unsigned int d = (unsigned int)c - '0', x = (unsigned int)c - 'a';

	return d < 10 ? (int)d : x < 6 ? (int)x + 10 : -1;
}

/* The bucket of a two-hex-digit .build-id directory name, or -1. */
static int bucket_of(const char *name)
{
	int hi = hex_digit(name[0]), lo = hi < 0 ? -1 : hex_digit(name[1]);

	return lo < 0 || name[2] ? -1 : hi << 4 | lo;
}

/*
 * What changes whenever a build is added to or removed from the cache, by
 * this perf or the system's: the .build-id directories (a link made or
 * removed; not the root, where the index itself is written), each of the
 * 256 buckets .build-id/XX on its own, so that an update reads again only
 * the buckets that changed.  A bounded cost: at most 257 stats, whatever
 * the number of binaries.
 */
struct probe_index_stamp {
	uint64_t all;
	uint64_t bucket[PROBE_INDEX_BUCKETS]; /* 0: no such directory */
};

static void probe_index_stamp(struct probe_index_stamp *s)
{
	char *links = path_join(buildid_dir(), ".build-id");
	char **names = NULL;
	int fd, n;

	memset(s, 0, sizeof(*s));
	s->all = stamp_add_dir(FNV_INIT, AT_FDCWD, links);
	fd = open(links, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = fd < 0 ? 0 : lsdir(links, lsdir_no_dot_filter, &names);
	for (int i = 0; i < n; i++) {
		int b = bucket_of(names[i]);
		uint64_t h = stamp_add_dir(FNV_INIT, fd, names[i]);

		if (b >= 0)
			s->bucket[b] = h ? h : 1;
		s->all = fnv1a(s->all, &h, sizeof(h));
	}
	if (n > 0)
		lsdir_free(names, n);
	if (fd >= 0)
		close(fd);
	free(links);
}

uint64_t probe_index__links_stamp(void)
{
	struct probe_index_stamp s;

	probe_index_stamp(&s);
	return s.all;
}

/* GROUP and EVENT of a trace-event line "p:GROUP/EVENT ..." as "GROUP:EVENT". */
static char *line_group_event(const char *line)
{
	const char *colon = strchr(line, ':'), *slash, *end;
	struct strbuf sb = STRBUF_INIT;

	if (!colon || colon - line > 4)
		return NULL;
	slash = strchr(colon + 1, '/');
	end = colon + 1 + strcspn(colon + 1, " ");
	if (!slash || slash > end || slash == colon + 1 || end == slash + 1)
		return NULL;
	strbuf_add(&sb, colon + 1, slash - colon - 1);
	strbuf_addch(&sb, ':');
	strbuf_add(&sb, slash + 1, end - slash - 1);
	return strbuf_detach(&sb, NULL);
}

/*
 * The index, one file of five parts after a header line of fixed length
 *	"perf-probe-index 3 STAMP NKEYS NENTS\n"	(hex: 16, 8, 8 digits)
 * the 256 bucket stamps (16 hex digits each, then "\n"), the offsets of
 * the key lines and of the entry lines (8 hex digits each, from the start
 * of the file), the key lines "GROUP:EVENT\tI,J,...\n" sorted by strcmp (I,
 * J: hex indexes of entries), and the entry lines "NAME\tBUILDID\n" of
 * every entry with a probes file, in the order of probe_caches__for_each().
 * A literal GROUP is found by binary search: a search reads a few pages
 * whatever the number of binaries.
 */
#define PROBE_INDEX_HEAD_LEN (sizeof(PROBE_INDEX_MAGIC " 0123456789abcdef 01234567 01234567\n") - 1)
#define PROBE_INDEX_PARTS (PROBE_INDEX_HEAD_LEN + 16 * PROBE_INDEX_BUCKETS + 1)

struct index_key {
	char *key; /* "GROUP:EVENT" */
	int ent;
};

struct index_build {
	struct index_key *keys;
	int nr_keys, alloc_keys;
	char **ents; /* "NAME\tBUILDID" */
	int nr_ents, alloc_ents;
	bool unusable; /* a name the format can not hold */
};

static int index_collect(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct index_build *ib = ctx;
	struct strbuf sb = STRBUF_INIT;
	struct probe_cache *pc;
	char sbid[SBUILD_ID_SIZE];

	if (strpbrk(ent->name, "\t\n")) {
		ib->unusable = true;
		return 0;
	}
	/* Every entry is listed, so that an update knows what it has seen. */
	build_id__sprintf(&ent->bid, sbid);
	strbuf_addf(&sb, "%s\t%s", ent->name, sbid);
	ALLOC_GROW(ib->ents, ib->nr_ents + 1, ib->alloc_ents);
	ib->ents[ib->nr_ents++] = strbuf_detach(&sb, NULL);
	if (probe_cache__open(dir, false, &pc, NULL))
		return 0; /* none, or corrupt: nothing to find there */
	for (int i = 0; i < pc->nr; i++)
		for (int j = 0; j < pc->entries[i].nr_lines; j++) {
			char *key = line_group_event(pc->entries[i].lines[j]);

			if (!key)
				continue;
			ALLOC_GROW(ib->keys, ib->nr_keys + 1, ib->alloc_keys);
			ib->keys[ib->nr_keys].key = key;
			ib->keys[ib->nr_keys++].ent = ib->nr_ents - 1;
		}
	probe_cache__close(pc);
	return 0;
}

static int cmp_index_key(const void *a, const void *b)
{
	const struct index_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->ent - y->ent;
}

static void index_build__release(struct index_build *ib)
{
	for (int i = 0; i < ib->nr_keys; i++)
		free(ib->keys[i].key);
	for (int i = 0; i < ib->nr_ents; i++)
		free(ib->ents[i]);
	free(ib->keys);
	free(ib->ents);
	memset(ib, 0, sizeof(*ib));
}

/*
 * The entries in the order of probe_caches__for_each() (by name, then
 * build-id: "NAME\tBUILDID" compares so, '\t' being below any character of
 * a name), the keys renumbered after them.
 */
static void index_build__sort_entries(struct index_build *ib)
{
	int *order = xmalloc(sizeof(*order) * (ib->nr_ents + 1));
	int *rank = xmalloc(sizeof(*rank) * (ib->nr_ents + 1));
	char **ents = xmalloc(sizeof(*ents) * (ib->nr_ents + 1));

	for (int i = 0; i < ib->nr_ents; i++)
		order[i] = i;
	for (int i = 1; i < ib->nr_ents; i++) /* mostly in order already */
		for (int j = i; j > 0 && strcmp(ib->ents[order[j - 1]], ib->ents[order[j]]) > 0;
		     j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < ib->nr_ents; i++) {
		rank[order[i]] = i;
		ents[i] = ib->ents[order[i]];
	}
	for (int i = 0; i < ib->nr_keys; i++)
		ib->keys[i].ent = rank[ib->keys[i].ent];
	free(ib->ents);
	ib->ents = ents;
	ib->alloc_ents = ib->nr_ents + 1;
	free(order);
	free(rank);
}

/* @v in lower-case hex, @width digits (0: as few as it takes). */
static void add_hex(struct strbuf *sb, uint64_t v, int width)
{
	char buf[16];
	int n = 0;

	do {
		buf[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while ((v || n < width) && n < 16);
	strbuf_grow(sb, n);
	for (char *out = sb->buf + sb->len; n;)
		*out++ = buf[--n], sb->len++;
	sb->buf[sb->len] = '\0';
}

/* Has @ib the entry "@name\t@sbid" already? */
static bool index_build__has(const struct index_build *ib, const char *name, const char *sbid)
{
	size_t n = strlen(name);

	for (int i = 0; i < ib->nr_ents; i++)
		if (!strncmp(ib->ents[i], name, n) && ib->ents[i][n] == '\t' &&
		    !strcmp(ib->ents[i] + n + 1, sbid))
			return true;
	return false;
}

/* The offsets @off[0..@n) + @base, 8 hex digits each, at the end of @sb. */
static void add_offsets(struct strbuf *sb, const size_t *off, size_t n, size_t base)
{
	char *out;

	strbuf_grow(sb, 8 * n);
	out = sb->buf + sb->len;
	for (size_t i = 0; i < n; i++) {
		size_t v = base + off[i];

		for (int d = 7; d >= 0; d--, v >>= 4)
			out[d] = "0123456789abcdef"[v & 15];
		out += 8;
	}
	sb->len += 8 * n;
	sb->buf[sb->len] = '\0';
}

/* The index text of @ib in @sb; false: it can not be kept. */
static bool index_build__write(struct index_build *ib, const struct probe_index_stamp *stamp,
			       struct strbuf *sb)
{
	struct strbuf lines = STRBUF_INIT;
	size_t *key_off, *ent_off, base;
	int nr = 0;

	index_build__sort_entries(ib);
	if (ib->nr_keys)
		qsort(ib->keys, ib->nr_keys, sizeof(*ib->keys), cmp_index_key);
	key_off = xzalloc(sizeof(*key_off) * (ib->nr_keys + 1));
	ent_off = xzalloc(sizeof(*ent_off) * (ib->nr_ents + 1));
	for (int i = 0; i < ib->nr_keys; i++) {
		if (i && !strcmp(ib->keys[i].key, ib->keys[i - 1].key)) {
			if (ib->keys[i].ent != ib->keys[i - 1].ent) {
				lines.buf[lines.len - 1] = ',';
				add_hex(&lines, ib->keys[i].ent, 0);
				strbuf_addch(&lines, '\n');
			}
			continue;
		}
		key_off[nr++] = lines.len;
		strbuf_addstr(&lines, ib->keys[i].key);
		strbuf_addch(&lines, '\t');
		add_hex(&lines, ib->keys[i].ent, 0);
		strbuf_addch(&lines, '\n');
	}
	for (int i = 0; i < ib->nr_ents; i++) {
		ent_off[i] = lines.len;
		strbuf_addstr(&lines, ib->ents[i]);
		strbuf_addch(&lines, '\n');
	}
	strbuf_release(sb);
	strbuf_addf(sb, "%s %016llx %08x %08x\n", PROBE_INDEX_MAGIC, (unsigned long long)stamp->all,
		    nr, ib->nr_ents);
	for (int i = 0; i < PROBE_INDEX_BUCKETS; i++)
		add_hex(sb, stamp->bucket[i], 16);
	strbuf_addch(sb, '\n');
	base = sb->len + 8 * ((size_t)nr + ib->nr_ents);
	strbuf_grow(sb, 8 * ((size_t)nr + ib->nr_ents) + lines.len);
	add_offsets(sb, key_off, nr, base);
	add_offsets(sb, ent_off, ib->nr_ents, base);
	strbuf_add(sb, lines.buf, lines.len);
	free(key_off);
	free(ent_off);
	strbuf_release(&lines);
	/* Offsets of 8 hex digits: up to 4 GB. */
	return !ib->unusable && sb->len < 0xffffffffUL;
}

/* Walk every probe cache for the index, in @sb; false: it can not be kept. */
static bool probe_index_build(const struct probe_index_stamp *stamp, struct strbuf *sb)
{
	struct index_build ib = { 0 };
	bool ok;

	probe_caches__for_each(index_collect, &ib);
	ok = index_build__write(&ib, stamp, sb);
	index_build__release(&ib);
	return ok;
}

/* An index in memory, its parts checked against its length. */
struct probe_index {
	const char *buf;
	size_t len;
	uint64_t stamp, nr_keys, nr_ents;
};

static bool hex_field(const char *p, int digits, uint64_t *v)
{
	uint64_t x = 0;
	int bad = 0;

	for (int i = 0; i < digits; i++) {
		int d = hex_digit((unsigned char)p[i]);

		bad |= d;
		x = x << 4 | (d & 15);
	}
	*v = x;
	return bad >= 0;
}

/* Is @buf an index (of any stamp)?  Fills @idx. */
static bool probe_index_parse(const char *buf, size_t len, struct probe_index *idx)
{
	const char *h = buf + sizeof(PROBE_INDEX_MAGIC);

	if (len < PROBE_INDEX_PARTS ||
	    memcmp(buf, PROBE_INDEX_MAGIC " ", sizeof(PROBE_INDEX_MAGIC)) ||
	    !hex_field(h, 16, &idx->stamp) || !hex_field(h + 17, 8, &idx->nr_keys) ||
	    !hex_field(h + 26, 8, &idx->nr_ents) || buf[PROBE_INDEX_HEAD_LEN - 1] != '\n' ||
	    buf[PROBE_INDEX_PARTS - 1] != '\n')
		return false;
	idx->buf = buf;
	idx->len = len;
	return PROBE_INDEX_PARTS + 8 * (idx->nr_keys + idx->nr_ents) <= len;
}

/* Line @i of the key (@ents false) or entry offsets: its start and length, or NULL. */
static const char *probe_index_line(const struct probe_index *idx, bool ents, uint64_t i, size_t *n)
{
	uint64_t off;
	const char *nl;

	if (!hex_field(idx->buf + PROBE_INDEX_PARTS + 8 * (ents ? idx->nr_keys + i : i), 8, &off) ||
	    off >= idx->len)
		return NULL;
	nl = memchr(idx->buf + off, '\n', idx->len - off);
	if (!nl)
		return NULL;
	*n = nl - (idx->buf + off);
	return idx->buf + off;
}

/* The links of bucket @b now, sorted; their number (0 when none). */
static int bucket_links(int b, char ***links)
{
	char *dir = path_join(buildid_dir(), ".build-id");
	char name[3];
	char *sub;
	int n;

	snprintf(name, sizeof(name), "%02x", b);
	sub = path_join(dir, name);
	n = lsdir(sub, lsdir_no_dot_filter, links);
	if (n > 0)
		qsort(*links, n, sizeof(**links), strcmp_ptr);
	free(sub);
	free(dir);
	return n < 0 ? 0 : n;
}

static bool in_sorted(char **v, int n, const char *s)
{
	return n > 0 && bsearch(&s, v, n, sizeof(*v), strcmp_ptr) != NULL;
}

/*
 * Open the index file @name of the root for reading: a trusted regular
 * file, else -errno (-CACHE_FS_REFUSED, warned once: it is then rebuilt
 * in memory as if missing).
 */
static int open_index_file(const char *name)
{
	struct strbuf err = STRBUF_INIT;
	int rootfd = build_id_cache__root_fd(false, &err), fd;
	char *path = probe_index_path(name);

	fd = rootfd < 0 ? rootfd : cache_fs__check_file(rootfd, buildid_dir(), name, &err);
	if (!fd) {
		fd = openat(rootfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		fd = fd < 0 ? -errno : fd;
	}
	if (fd == -CACHE_FS_REFUSED)
		pr_warning("Warning: %s (not used)\n", err.buf);
	strbuf_release(&err);
	free(path);
	return fd;
}

/*
 * The entry directories this perf noted probes files of since, sorted,
 * from the list @fd.  *@busy: a writer holds its lock, between its note
 * and the end of its write (probe-cache.c): the list is then kept, as
 * the entry read now may not have what is noted yet.  *@st: the list's
 * stat as read, to remove only that.
 */
static int dirty_dirs(int fd, bool *busy, struct stat *st, char ***dirs)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0, alloc = 0;

	*dirs = NULL;
	*busy = flock(fd, LOCK_EX | LOCK_NB) < 0;
	if (fstat(fd, st) < 0)
		*busy = true;
	if (strbuf_read_fd_bounded(&sb, fd, PROBE_INDEX_MAX_DIRTY) >= 0) {
		for (char *p = sb.buf, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
			ALLOC_GROW(*dirs, n + 1, alloc);
			(*dirs)[n++] = xstrndup(p, nl - p);
		}
	}
	if (!*busy)
		flock(fd, LOCK_UN);
	if (n)
		qsort(*dirs, n, sizeof(**dirs), strcmp_ptr);
	strbuf_release(&sb);
	return n;
}

/*
 * Remove the list @fd (its stat @was) if no writer holds it and nothing
 * was noted since: under its exclusive lock, which a writer takes shared
 * around its note and write.
 */
static void drop_dirty(int rootfd, int fd, const struct stat *was)
{
	struct stat now;

	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return;
	if (fstatat(rootfd, PROBE_INDEX_DIRTY, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_ino == was->st_ino && now.st_dev == was->st_dev && now.st_size == was->st_size)
		unlinkat(rootfd, PROBE_INDEX_DIRTY, 0);
	flock(fd, LOCK_UN);
}

/* An old entry line as it is kept: "NAME\tBUILDID", or the tombstone "-". */
#define TOMBSTONE "-"

struct seen_bid {
	const char *bid; /* in the old index, not NUL-terminated */
	size_t len;
};

static int cmp_seen(const void *a, const void *b)
{
	const struct seen_bid *x = a, *y = b;
	int c = memcmp(x->bid, y->bid, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static bool seen_before(const struct seen_bid *v, int n, const char *bid)
{
	struct seen_bid key = { bid, strlen(bid) };

	return n > 0 && bsearch(&key, v, n, sizeof(*v), cmp_seen) != NULL;
}

/* strcmp() of @key and the @klen bytes of a key line. */
static int cmp_key(const char *key, const char *line, size_t klen)
{
	size_t len = strlen(key);
	int c = memcmp(key, line, len < klen ? len : klen);

	return c ? c : (len > klen) - (len < klen);
}

/* The "GROUP:EVENT" of key line @line (@n bytes): its length, or 0. */
static size_t key_len(const char *line, size_t n)
{
	const char *tab = memchr(line, '\t', n);

	return tab ? (size_t)(tab - line) : 0;
}

/*
 * The index brought up to date from @old without reading it all again: the
 * buckets whose stamp changed are listed again (a link gone: its entry
 * becomes a tombstone; a new link: its probes file read, its entry added
 * at the end), and the entries of @dirty are read again (the old one a
 * tombstone, the new one at the end).  The rest of @old is copied as it
 * is: the entry numbers do not move, and a key line only grows.  The cost
 * is that of what changed and of copying the text, not of reading the
 * probe caches.  false: @old can not be updated, or is half tombstones by
 * now: rebuild it whole.
 */
static bool probe_index_update(const struct probe_index *old, const struct probe_index_stamp *now,
			       char **dirty, int nr_dirty, struct strbuf *sb)
{
	struct index_build ib = { 0 };
	char **links[PROBE_INDEX_BUCKETS] = { NULL };
	int nr_links[PROBE_INDEX_BUCKETS] = { 0 };
	bool changed[PROBE_INDEX_BUCKETS];
	bool *dead = xzalloc(old->nr_ents + 1), *dirty_done = xzalloc(nr_dirty + 1);
	const char **ent_line = xmalloc(sizeof(*ent_line) * (old->nr_ents + 1));
	size_t *ent_len = xmalloc(sizeof(*ent_len) * (old->nr_ents + 1));
	char **hit;
	struct seen_bid *seen = NULL;
	struct strbuf lines = STRBUF_INIT;
	size_t *key_off = NULL, *ent_off = NULL, n, base;
	uint64_t nr_dead = 0, nr_ents;
	int nr_seen = 0, alloc_seen = 0, nr_keys = 0, alloc_off = 0, k;
	bool ok = false;

	for (int b = 0; b < PROBE_INDEX_BUCKETS; b++) {
		uint64_t was;

		if (!hex_field(old->buf + PROBE_INDEX_HEAD_LEN + 16 * b, 16, &was))
			goto out;
		changed[b] = was != now->bucket[b];
		if (changed[b])
			nr_links[b] = bucket_links(b, &links[b]);
	}
	/* Which old entries are gone, or read again. */
	for (uint64_t i = 0; i < old->nr_ents; i++) {
		const char *line = probe_index_line(old, true, i, &n);
		const char *tab, *bid;
		size_t blen;
		char lname[SBUILD_ID_SIZE + 8];
		int b;

		if (!line)
			goto out;
		ent_line[i] = line;
		ent_len[i] = n;
		if (n == 1 && line[0] == TOMBSTONE[0]) {
			dead[i] = true;
			nr_dead++;
			continue;
		}
		tab = memchr(line, '\t', n);
		if (!tab || (blen = n - (tab + 1 - line)) < 3 || blen >= sizeof(lname))
			goto out;
		bid = tab + 1;
		b = bucket_of((char[]){ bid[0], bid[1], 0 });
		if (b < 0)
			goto out;
		if (changed[b]) {
			ALLOC_GROW(seen, nr_seen + 1, alloc_seen);
			seen[nr_seen++] = (struct seen_bid){ bid, blen };
			memcpy(lname, bid + 2, blen - 2);
			lname[blen - 2] = '\0';
			if (!in_sorted(links[b], nr_links[b], lname)) {
				dead[i] = true; /* removed from the cache */
				nr_dead++;
				continue;
			}
		}
		if (nr_dirty) {
			struct build_id_cache_entry ent = { 0 };
			char *dir;

			ent.name = xstrndup(line, tab - line);
			memcpy(lname, bid, blen);
			lname[blen] = '\0';
			if (build_id__from_hex(&ent.bid, lname)) {
				free(ent.name);
				goto out;
			}
			dir = build_id_cache__dirname(ent.name, &ent.bid);
			hit = bsearch(&dir, dirty, nr_dirty, sizeof(*dirty), strcmp_ptr);
			if (hit) {
				dirty_done[hit - dirty] = true;
				dead[i] = true;
				nr_dead++;
				index_collect(&ent, dir, &ib); /* read again, at the end */
			}
			free(dir);
			free(ent.name);
		}
	}
	/* The entries of the new links, at the end. */
	if (nr_seen)
		qsort(seen, nr_seen, sizeof(*seen), cmp_seen);
	for (int b = 0; b < PROBE_INDEX_BUCKETS; b++)
		for (int j = 0; j < nr_links[b]; j++) {
			struct build_id_cache_entry ent = { 0 };
			char bucket[3] = { "0123456789abcdef"[b >> 4], "0123456789abcdef"[b & 15] };
			char sbid[SBUILD_ID_SIZE + 8];
			size_t len = strlen(links[b][j]);
			char *dir, *probes;
			struct stat st;

			if (len + 3 > sizeof(sbid))
				continue;
			memcpy(sbid, bucket, 2);
			memcpy(sbid + 2, links[b][j], len + 1);
			if (seen_before(seen, nr_seen, sbid))
				continue;
			ent.name = build_id_cache__link_entry(bucket, links[b][j], &ent.bid);
			if (!ent.name)
				continue;
			dir = build_id_cache__dirname(ent.name, &ent.bid);
			probes = path_join(dir, "probes");
			if (lstat(probes, &st) == 0 || errno != ENOENT)
				index_collect(&ent, dir, &ib);
			free(probes);
			free(dir);
			free(ent.name);
		}
	/* Written entries the index did not have (a cache made without probes). */
	for (int i = 0; i < nr_dirty; i++) {
		struct build_id_cache_entry ent = { 0 };
		const char *root = buildid_dir(), *rest, *slash;
		size_t rlen = strlen(root);

		if (dirty_done[i] || strncmp(dirty[i], root, rlen) || dirty[i][rlen] != '/')
			continue;
		rest = dirty[i] + rlen;
		slash = strrchr(rest, '/');
		if (slash == rest || build_id__from_hex(&ent.bid, slash + 1) ||
		    seen_before(seen, nr_seen, slash + 1))
			continue;
		/* "/usr/bin/app" keeps its '/'; "[kernel.kallsyms]" has none. */
		if (rest[1] == '[')
			rest++;
		ent.name = xstrndup(rest, slash - rest);
		if (!index_build__has(&ib, ent.name, slash + 1)) /* a new link's */
			index_collect(&ent, dirty[i], &ib);
		free(ent.name);
	}
	nr_ents = old->nr_ents + ib.nr_ents;
	if (ib.unusable || 2 * (nr_dead + ib.nr_ents) > nr_ents + 16)
		goto out; /* cheaper made again whole */
	/* The new keys, numbered after the old entries, sorted. */
	for (int i = 0; i < ib.nr_keys; i++)
		ib.keys[i].ent += old->nr_ents;
	if (ib.nr_keys)
		qsort(ib.keys, ib.nr_keys, sizeof(*ib.keys), cmp_index_key);
	/* The key lines: the old ones, the new keys merged in. */
	k = 0;
	for (uint64_t i = 0; i <= old->nr_keys; i++) {
		const char *line = NULL;
		size_t klen = 0;

		if (i < old->nr_keys) {
			line = probe_index_line(old, false, i, &n);
			klen = line ? key_len(line, n) : 0;
			if (!klen)
				goto out;
		}
		while (k < ib.nr_keys && (!line || cmp_key(ib.keys[k].key, line, klen) < 0)) {
			const char *key = ib.keys[k].key;

			ALLOC_GROW(key_off, nr_keys + 1, alloc_off);
			key_off[nr_keys++] = lines.len;
			strbuf_addstr(&lines, key);
			strbuf_addch(&lines, '\t');
			add_hex(&lines, ib.keys[k++].ent, 0);
			for (; k < ib.nr_keys && !strcmp(ib.keys[k].key, key); k++) {
				strbuf_addch(&lines, ',');
				add_hex(&lines, ib.keys[k].ent, 0);
			}
			strbuf_addch(&lines, '\n');
		}
		if (!line)
			break;
		ALLOC_GROW(key_off, nr_keys + 1, alloc_off);
		key_off[nr_keys++] = lines.len;
		strbuf_add(&lines, line, n);
		/* The new entries of the same key join its line. */
		for (; k < ib.nr_keys && !cmp_key(ib.keys[k].key, line, klen); k++) {
			strbuf_addch(&lines, ',');
			add_hex(&lines, ib.keys[k].ent, 0);
		}
		strbuf_addch(&lines, '\n');
	}
	/* The entry lines: the old ones (or their tombstones), then the new. */
	ent_off = xmalloc(sizeof(*ent_off) * (nr_ents + 1));
	for (uint64_t i = 0; i < old->nr_ents; i++) {
		ent_off[i] = lines.len;
		if (dead[i])
			strbuf_add(&lines, TOMBSTONE "\n", 2);
		else
			strbuf_add(&lines, ent_line[i], ent_len[i] + 1); /* with its '\n' */
	}
	for (int i = 0; i < ib.nr_ents; i++) {
		ent_off[old->nr_ents + i] = lines.len;
		strbuf_addstr(&lines, ib.ents[i]);
		strbuf_addch(&lines, '\n');
	}
	strbuf_release(sb);
	strbuf_addf(sb, "%s %016llx %08x %08x\n", PROBE_INDEX_MAGIC, (unsigned long long)now->all,
		    nr_keys, (unsigned int)nr_ents);
	for (int i = 0; i < PROBE_INDEX_BUCKETS; i++)
		add_hex(sb, now->bucket[i], 16);
	strbuf_addch(sb, '\n');
	base = sb->len + 8 * ((size_t)nr_keys + nr_ents);
	strbuf_grow(sb, 8 * ((size_t)nr_keys + nr_ents) + lines.len);
	add_offsets(sb, key_off, nr_keys, base);
	add_offsets(sb, ent_off, nr_ents, base);
	strbuf_add(sb, lines.buf, lines.len);
	ok = sb->len < 0xffffffffUL;
out:
	for (int b = 0; b < PROBE_INDEX_BUCKETS; b++)
		if (nr_links[b])
			lsdir_free(links[b], nr_links[b]);
	free(seen);
	free(dead);
	free(dirty_done);
	free(ent_line);
	free(ent_len);
	free(key_off);
	free(ent_off);
	strbuf_release(&lines);
	index_build__release(&ib);
	return ok;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Call @fn for each entry of @idx one of whose events matches [@group:]
 * @event, in the order of the entries; the sum of what @fn returned, or its
 * first -errno.  -ESTALE: the index is broken.
 */
static int probe_index_scan(const struct probe_index *idx, const char *group, const char *event,
			    probe_caches_index_fn fn, void *ctx)
{
	bool literal = group && !strpbrk(group, "*?[\\");
	size_t glen = literal ? strlen(group) : 0, n;
	uint64_t lo = 0, hi = idx->nr_keys;
	int *hits = NULL, nr_hits = 0, alloc_hits = 0, found = 0, ret = 0, nr_ents = 0;
	char **ents = NULL;
	const char *line;

	while (literal && lo < hi) { /* the first key not below "GROUP:" */
		uint64_t mid = lo + (hi - lo) / 2;
		int c;

		line = probe_index_line(idx, false, mid, &n);
		if (!line)
			return -ESTALE;
		c = strncmp(line, group, n < glen ? n : glen);
		if (c == 0)
			c = n < glen ? -1 : line[glen] < ':' ? -1 : line[glen] > ':' ? 1 : 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint64_t i = literal ? lo : 0; i < idx->nr_keys; i++) {
		char *key, *colon, *tab;

		line = probe_index_line(idx, false, i, &n);
		if (!line)
			goto bad;
		if (literal && (n <= glen || strncmp(line, group, glen) || line[glen] != ':'))
			break;
		key = xstrndup(line, n);
		colon = strchr(key, ':');
		tab = strchr(key, '\t');
		if (!colon || !tab || tab < colon) {
			free(key);
			goto bad;
		}
		*colon = *tab = '\0';
		if (probe_event_match(group, event, key, colon + 1)) {
			for (char *p = tab + 1; *p;) {
				char *end;
				unsigned long e = strtoul(p, &end, 16);

				if (end == p || e >= idx->nr_ents)
					break;
				ALLOC_GROW(hits, nr_hits + 1, alloc_hits);
				hits[nr_hits++] = (int)e;
				p = *end == ',' ? end + 1 : end;
			}
		}
		free(key);
	}
	if (nr_hits)
		qsort(hits, nr_hits, sizeof(*hits), cmp_int);
	/*
	 * The entries hit, in the order of probe_caches__for_each() (an update
	 * adds entries at the end): "NAME\tBUILDID" sorts so.  Tombstones of
	 * removed entries are left out.
	 */
	ents = xmalloc(sizeof(*ents) * (nr_hits + 1));
	for (int i = 0; i < nr_hits; i++) {
		if (i && hits[i] == hits[i - 1])
			continue;
		line = probe_index_line(idx, true, hits[i], &n);
		if (!line)
			goto bad;
		if (n == 1 && line[0] == TOMBSTONE[0])
			continue;
		ents[nr_ents++] = xstrndup(line, n);
	}
	if (nr_ents)
		qsort(ents, nr_ents, sizeof(*ents), strcmp_ptr);
	for (int i = 0; i < nr_ents && ret >= 0; i++) {
		struct build_id_cache_entry ent = { 0 };
		char *tab = strchr(ents[i], '\t'), *dir;

		if (!tab || build_id__from_hex(&ent.bid, tab + 1))
			goto bad;
		*tab = '\0';
		ent.name = ents[i];
		dir = build_id_cache__dirname(ent.name, &ent.bid);
		ret = fn(&ent, dir, ctx);
		free(dir);
		if (ret > 0)
			found += ret;
	}
	lsdir_free(ents, nr_ents);
	free(hits);
	return ret < 0 ? ret : found;
bad:
	lsdir_free(ents, nr_ents);
	free(hits);
	return -ESTALE;
}

int probe_caches__for_each_defining(const char *group, const char *event, probe_caches_index_fn fn,
				    void *ctx)
{
	char *path = probe_index_path(PROBE_INDEX_NAME);
	struct strbuf text = STRBUF_INIT;
	struct probe_index_stamp stamp;
	struct probe_index idx;
	void *map = MAP_FAILED;
	struct stat st, dst;
	bool keep = false, used = false, had_dirty, busy = false;
	struct strbuf err = STRBUF_INIT;
	char **dirty = NULL;
	int fd, rootfd, ret = 0, nr_dirty = 0, dfd = -1;

	probe_index_stamp(&stamp);
	rootfd = build_id_cache__root_fd(false, &err);
	had_dirty =
		rootfd >= 0 && fstatat(rootfd, PROBE_INDEX_DIRTY, &dst, AT_SYMLINK_NOFOLLOW) == 0;
	if (had_dirty)
		dfd = open_index_file(PROBE_INDEX_DIRTY);
	if (dfd >= 0)
		nr_dirty = dirty_dirs(dfd, &busy, &dst, &dirty);
	else
		busy = true; /* not read: kept */
	fd = open_index_file(PROBE_INDEX_NAME);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (map != MAP_FAILED && probe_index_parse(map, st.st_size, &idx)) {
		if (idx.stamp == stamp.all && !had_dirty) {
			ret = probe_index_scan(&idx, group, event, fn, ctx);
			used = true;
		} else if (probe_index_update(&idx, &stamp, dirty, nr_dirty, &text) &&
			   probe_index_parse(text.buf, text.len, &idx)) {
			/* What changed since is read; the rest is the index's. */
			keep = true;
			ret = probe_index_scan(&idx, group, event, fn, ctx);
			used = true;
		}
	}
	if (map != MAP_FAILED)
		munmap(map, st.st_size);
	/*
	 * No index, a broken one, or nothing found in it (perhaps a probes file
	 * was edited in place since): walk them all.
	 */
	if (!used || ret == 0 || ret == -ESTALE) {
		keep = probe_index_build(&stamp, &text);
		ret = 0;
		if (probe_index_parse(text.buf, text.len, &idx))
			ret = probe_index_scan(&idx, group, event, fn, ctx);
		if (ret == -ESTALE)
			ret = -EIO;
	}
	/*
	 * Kept only after a search that found something: a refused command
	 * leaves the build-id cache as it was.  The list of changed entries is
	 * dropped with it, unless it grew meanwhile or a writer was between
	 * its note and the end of its write when it was read.
	 */
	if (keep && ret > 0 && rootfd >= 0 && access(buildid_dir(), W_OK) == 0) {
		if (cache_fs__write_atomic(rootfd, PROBE_INDEX_NAME, text.buf, text.len, 0644,
					   false))
			pr_debug("Not writing the probe cache index %s\n", path);
		else if (had_dirty && !busy)
			drop_dirty(rootfd, dfd, &dst);
	}
	if (dfd >= 0)
		close(dfd);
	strbuf_release(&err);
	lsdir_free(dirty, nr_dirty);
	strbuf_release(&text);
	free(path);
	return ret;
}
