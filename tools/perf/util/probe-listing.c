// SPDX-License-Identifier: GPL-2.0
/*
 * The listing of every probe cache, kept in ROOT/.probe-list (see
 * probe-listing.h).
 *
 * The file: a first line "perf-probe-list 1 STAMP", then per build of
 * the build-id cache (current or not, with a probes file or not) a line
 * "BINARY\tPROBES\tNR\tSBID\tNAME" (BINARY and PROBES: stat keys, "-" for
 * no such file, "k" for a kernel or module, which has no file) followed by
 * NR lines "\tSPEC", the specs listed for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/probe-cache.h"
#include "util/probe-index.h"
#include "util/probe-listing.h"
#include "util/util.h"

#define PROBE_LISTING_NAME ".probe-list"
#define PROBE_LISTING_MAGIC "perf-probe-list 1 "
#define PROBE_LISTING_MAX (256u << 20)

#define KEY_SIZE 20

/*
 * The directories of the files asked about, kept open: every probes file
 * and most binaries of a cache share a few directories, and a stat from
 * one costs a lookup of the last components only, not of the whole path.
 */
#define DIR_SLOTS 256

struct dir_fds {
	struct {
		char *dir;
		size_t len;
		int fd;
	} slot[DIR_SLOTS];
	struct strbuf dir, rel; /* entry_keys()' paths, kept for the next entry */
	int last[2]; /* the slots of the last two directories asked (1 + index, 0: none) */
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * fstatat() of @dir/@rel through the kept fd of @dir (@len bytes of it),
 * or of the whole path when @dir can not be opened.
 */
static int stat_through(struct dir_fds *d, const char *dir, size_t len, const char *rel,
			struct stat *st, int flags)
{
	unsigned int h;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* An entry's binary and probes file: the same two directories as the last one's. */
	for (int i = 0; i < 2; i++) {
		int at = d->last[i] - 1;

		if (at >= 0 && d->slot[at].len == len && !memcmp(d->slot[at].dir, dir, len) &&
		    d->slot[at].fd >= 0) {
			d->last[0] = d->last[1 - i]; /* [1]: the newest */
			d->last[1] = at + 1;
			return fstatat(d->slot[at].fd, rel, st, flags);
		}
	}
	h = fnv1a(0xcbf29ce484222325ULL, dir, len) % DIR_SLOTS;
	for (unsigned int i = 0; i < DIR_SLOTS; i++, h = (h + 1) % DIR_SLOTS) {
		if (!d->slot[h].dir) {
			d->slot[h].dir = xstrndup(dir, len);
			d->slot[h].len = len;
			d->slot[h].fd = open(d->slot[h].dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			break;
		}
		if (d->slot[h].len == len && !memcmp(d->slot[h].dir, dir, len))
			break;
	}
	if (d->slot[h].dir && d->slot[h].len == len && !memcmp(d->slot[h].dir, dir, len) &&
	    d->slot[h].fd >= 0) {
		d->last[0] = d->last[1];
		d->last[1] = h + 1;
		return fstatat(d->slot[h].fd, rel, st, flags);
	}
	strbuf_add(&sb, dir, len);
	strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, rel);
	ret = fstatat(AT_FDCWD, sb.buf, st, flags);
	strbuf_release(&sb);
	return ret;
}

static void dir_fds_close(struct dir_fds *d)
{
	for (int i = 0; i < DIR_SLOTS; i++) {
		if (d->slot[i].dir && d->slot[i].fd >= 0)
			close(d->slot[i].fd);
		free(d->slot[i].dir);
	}
	strbuf_release(&d->dir);
	strbuf_release(&d->rel);
}

/* A 64-bit mix of @n words (the stat fields): not byte by byte, 20,000 times a listing. */
static uint64_t hash_words(const uint64_t *k, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= k[i];
		h *= 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	return h;
}

/*
 * What changes when the file @dir/@rel is replaced or written: a hash of
 * its device, inode, size, mtime and ctime; "-" when there is none, false
 * (nothing kept) when it can not be asked.
 */
static bool stat_key(struct dir_fds *d, const char *dir, size_t len, const char *rel, int flags,
		     char *buf)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t k[7], h;
	struct stat st;

	if (stat_through(d, dir, len, rel, &st, flags) < 0) {
		strcpy(buf, "-");
		return errno == ENOENT || errno == ENOTDIR;
	}
	k[0] = st.st_dev, k[1] = st.st_ino, k[2] = st.st_size;
	k[3] = st.st_mtim.tv_sec, k[4] = st.st_mtim.tv_nsec;
	k[5] = st.st_ctim.tv_sec, k[6] = st.st_ctim.tv_nsec;
	h = hash_words(k, ARRAY_SIZE(k));
	for (int i = 0; i < 16; i++)
		buf[i] = hex[(h >> (60 - 4 * i)) & 0xf];
	buf[16] = '\0';
	return true;
}

/*
 * The keys of the entry @name, @sbid as they are now: of its binary (its
 * target, when a link; "k" for the kernel or a module, no file) and of
 * its probes file ROOT/NAME/SBID/probes, each asked from the directory of
 * NAME (or ROOT/ and that), which the binaries of a cache share.
 */
static bool entry_keys(struct dir_fds *d, const char *name, const char *sbid, char *bin,
		       char *probes)
{
	const char *slash = strrchr(name, '/');
	struct strbuf dir = STRBUF_INIT;
	bool ok;

	if (name[0] != '/' || !slash) {
		char *path;
		struct build_id bid;

		if (build_id__from_hex(&bid, sbid))
			return false;
		strcpy(bin, "k");
		path = build_id_cache__dirname(name, &bid);
		strbuf_addstr(&dir, path);
		free(path);
		ok = stat_key(d, dir.buf, dir.len, "probes", AT_SYMLINK_NOFOLLOW, probes);
		strbuf_release(&dir);
		return ok;
	}
	ok = stat_key(d, name, slash == name ? 1 : slash - name, slash + 1, 0, bin);
	/* path_join(ROOT, NAME's directory) and NAME's last part/SBID/probes */
	{
		const char *root = buildid_dir(), *p = name;
		size_t len = strlen(root);

		while (len > 1 && root[len - 1] == '/')
			len--;
		strbuf_reset(&d->dir);
		strbuf_add(&d->dir, root, len);
		if (!(len == 1 && root[0] == '/'))
			strbuf_addch(&d->dir, '/');
		while (p < slash && *p == '/')
			p++;
		strbuf_add(&d->dir, p, slash - p);
	}
	strbuf_reset(&d->rel);
	strbuf_addstr(&d->rel, slash + 1);
	strbuf_addch(&d->rel, '/');
	strbuf_addstr(&d->rel, sbid);
	strbuf_addstr(&d->rel, "/probes");
	/* both, always: the walk reads the probes key even when the binary's failed */
	return stat_key(d, d->dir.buf, d->dir.len, d->rel.buf, AT_SYMLINK_NOFOLLOW, probes) && ok;
}

/* Next line of @text from *@pos, NUL-terminated in place; NULL at the end. */
static char *next_line(char *text, size_t len, size_t *pos)
{
	char *line = text + *pos, *nl;

	if (*pos >= len)
		return NULL;
	nl = memchr(line, '\n', len - *pos);
	if (!nl)
		return NULL;
	*nl = '\0';
	*pos = nl + 1 - text;
	return line;
}

struct listed {
	const char *name, *sbid;
	int first, nr; /* its specs in the array of specs */
};

/*
 * The listing from @text (changed in place), when every key still holds:
 * a change anywhere and nothing is shown from the file.
 */
static bool listing_from(char *text, size_t len, uint64_t stamp, probe_listing_fn fn, void *ctx)
{
	char bin[KEY_SIZE], probes[KEY_SIZE], *line, **specs = NULL;
	int alloc = 0, nr_specs = 0, nr = 0, alloc_ents = 0;
	struct listed *ents = NULL;
	struct dir_fds dirs = { 0 };
	bool ok = false;
	size_t pos = 0;

	line = next_line(text, len, &pos);
	if (!line || strncmp(line, PROBE_LISTING_MAGIC, strlen(PROBE_LISTING_MAGIC)) ||
	    strtoull(line + strlen(PROBE_LISTING_MAGIC), NULL, 16) != stamp)
		return false;
	while ((line = next_line(text, len, &pos))) {
		char *f[5], *s = line, *end;
		long n;

		for (int i = 0; i < 5; i++) {
			f[i] = s;
			if (i == 4)
				break;
			s = strchr(s, '\t');
			if (!s)
				goto out;
			*s++ = '\0';
		}
		n = strtol(f[2], &end, 10);
		if (*end || n < 0 || n > 1000000)
			goto out;
		if (!entry_keys(&dirs, f[4], f[3], bin, probes) || strcmp(bin, f[0]) ||
		    strcmp(probes, f[1]))
			goto out;
		ALLOC_GROW(ents, nr + 1, alloc_ents);
		ents[nr++] = (struct listed){ f[4], f[3], nr_specs, (int)n };
		ALLOC_GROW(specs, nr_specs + n, alloc);
		for (long i = 0; i < n; i++) {
			char *spec = next_line(text, len, &pos);

			if (!spec || spec[0] != '\t')
				goto out;
			specs[nr_specs++] = spec + 1;
		}
	}
	if (pos != len)
		goto out;
	for (int i = 0; i < nr; i++)
		if (ents[i].nr)
			fn(ents[i].name, ents[i].sbid, specs + ents[i].first, ents[i].nr, ctx);
	ok = true;
out:
	dir_fds_close(&dirs);
	free(ents);
	free(specs);
	return ok;
}

/* Walk every entry: show, and write down what was shown with the keys. */
static int listing_walk(uint64_t stamp, probe_listing_fn fn, probe_listing_err_fn efn, void *ctx,
			struct strbuf *text, bool *keep)
{
	struct build_id_cache_entry *ents;
	int nr = build_id_cache__list(&ents), ret = 0;
	struct dir_fds dirs = { 0 };
	char **specs = NULL;
	int alloc = 0;

	strbuf_addf(text, PROBE_LISTING_MAGIC "%016" PRIx64 "\n", stamp);
	*keep = true;
	for (int i = 0; i < nr; i++) {
		const struct build_id_cache_entry *ent = &ents[i];
		char bin[KEY_SIZE], probes[KEY_SIZE], sbid[SBUILD_ID_SIZE];
		char *dir = build_id_cache__dirname(ent->name, &ent->bid);
		struct strbuf err = STRBUF_INIT;
		struct probe_cache *pc = NULL;
		int n = 0;

		build_id__sprintf(&ent->bid, sbid);
		/* the keys first: a change while it is read shows next time */
		if (!entry_keys(&dirs, ent->name, sbid, bin, probes) || strchr(ent->name, '\n') ||
		    strchr(ent->name, '\t'))
			*keep = false;
		if (strcmp(probes, "-") && build_id_cache__entry_current(ent)) {
			int r = probe_cache__open(dir, false, &pc, &err);

			if (r == -ENOENT) {
				pc = NULL; /* no probes file: nothing cached */
			} else if (r) {
				/* kept nothing: the warning or error shows every time */
				efn(r, dir, &err, ctx);
				if (r != -CACHE_FS_REFUSED)
					ret = r;
				*keep = false;
				pc = NULL;
			}
		}
		if (pc) {
			ALLOC_GROW(specs, pc->nr, alloc);
			for (int j = 0; j < pc->nr; j++)
				specs[n++] = pc->entries[j].spec;
			if (n) /* an empty cache is not listed, as perf */
				fn(ent->name, sbid, specs, n, ctx);
		}
		strbuf_addf(text, "%s\t%s\t%d\t%s\t%s\n", bin, probes, n, sbid, ent->name);
		for (int j = 0; j < n; j++)
			strbuf_addf(text, "\t%s\n", specs[j]);
		if (pc)
			probe_cache__close(pc);
		strbuf_release(&err);
		free(dir);
	}
	dir_fds_close(&dirs);
	free(specs);
	build_id_cache__free_entries(ents, nr > 0 ? nr : 0);
	return ret;
}

int probe_caches__listing(probe_listing_fn fn, probe_listing_err_fn efn, void *ctx)
{
	char *path = path_join(buildid_dir(), PROBE_LISTING_NAME);
	uint64_t stamp = probe_index__links_stamp();
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	/* Read and written from the checked root only: never through a link to it. */
	int rootfd = build_id_cache__root_fd(false, &err);
	bool keep = false;
	int ret = 0;

	if (rootfd >= 0 && !cache_fs__check_file(rootfd, buildid_dir(), PROBE_LISTING_NAME, &err) &&
	    strbuf_read_regular(&text, rootfd, PROBE_LISTING_NAME, PROBE_LISTING_MAX) == 0 &&
	    listing_from(text.buf, text.len, stamp, fn, ctx))
		goto out;
	strbuf_reset(&text);
	ret = listing_walk(stamp, fn, efn, ctx, &text, &keep);
	if (keep && rootfd >= 0 && access(buildid_dir(), W_OK) == 0 &&
	    cache_fs__write_atomic(rootfd, PROBE_LISTING_NAME, text.buf, text.len, 0644, false))
		pr_debug("Not writing the probe cache listing %s\n", path);
out:
	strbuf_release(&text);
	strbuf_release(&err);
	free(path);
	return ret;
}
