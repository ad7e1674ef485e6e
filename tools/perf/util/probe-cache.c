// SPDX-License-Identifier: GPL-2.0
/*
 * The probe cache: the probes file of a build-id cache entry, its SDT
 * entries, and the walk over all of them (see probe-cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/probe-cache.h"
#include "util/probe-limits.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/sdt-arg.h"
#include "util/sdt-note.h"
#include "util/strfilter.h"
#include "util/util.h"

static void probe_cache_entry__clear(struct probe_cache_entry *e)
{
	free(e->spec);
	for (int i = 0; i < e->nr_lines; i++)
		free(e->lines[i]);
	free(e->lines);
	free(e->line_nos);
	memset(e, 0, sizeof(*e));
}

/*
 * The arrays grow geometrically (ALLOC_GROW): one element at a time made
 * a file of 100,000 entries quadratic wherever realloc() copies.
 */
static struct probe_cache_entry *probe_cache__new_entry(struct probe_cache *pc)
{
	struct probe_cache_entry *e;

	ALLOC_GROW(pc->entries, pc->nr + 1, pc->alloc);
	e = &pc->entries[pc->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

static void entry_add_line(struct probe_cache_entry *e, const char *line, size_t len, int lineno)
{
	if (e->nr_lines + 1 > e->alloc_lines) {
		ALLOC_GROW(e->lines, e->nr_lines + 1, e->alloc_lines);
		e->line_nos = xrealloc(e->line_nos, sizeof(*e->line_nos) * e->alloc_lines);
	}
	e->line_nos[e->nr_lines] = lineno;
	e->lines[e->nr_lines++] = xstrndup(line, len);
}

/* Does the trace-event line @line (@len bytes) parse? */
static bool trace_line_parses(const char *line, size_t len)
{
	struct probe_trace_event tev = { 0 };
	char *copy = xstrndup(line, len);
	bool ok = !parse_probe_trace_command(copy, &tev);

	clear_probe_trace_event(&tev);
	free(copy);
	return ok;
}

/* Is this a trace-event line: "p:", "r:", or "p"/"r" with a maxactive count? */
static bool is_trace_line(const char *line, size_t len)
{
	size_t i = 1;

	if (len < 2 || (line[0] != 'p' && line[0] != 'r'))
		return false;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	return i < len && line[i] == ':';
}

int probe_cache__parse(struct probe_cache *pc, const char *text, size_t len, int *bad_line,
		       const char **why)
{
	struct probe_cache_entry *cur = NULL;
	size_t pos = 0;
	int lineno = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		lineno++;
		*bad_line = lineno;
		if (!nl) {
			*why = "the last line has no newline (a truncated file?)";
			return -EBADMSG;
		}
		if (n > PROBE_CACHE_MAX_LINE) {
			*why = "a line is too long";
			return -EBADMSG;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char c = line[i];

			if ((c < 0x20 && c != '\t') || c == 0x7f) {
				*why = "a control character (not a text file)";
				return -EBADMSG;
			}
		}
		pos += n + 1;
		if (n == 0)
			continue;
		if (line[0] == '#' || line[0] == '%') {
			if (n == 1) {
				*why = "an entry header without a spec";
				return -EBADMSG;
			}
			cur = probe_cache__new_entry(pc);
			cur->sdt = line[0] == '%';
			cur->spec = xmalloc(n);
			memcpy(cur->spec, line + 1, n - 1);
			cur->spec[n - 1] = '\0';
			cur->header_no = lineno;
		} else if (is_trace_line(line, n)) {
			if (!cur) {
				*why = "a trace-event line before any '#' or '%' entry header";
				return -EBADMSG;
			}
			if (!trace_line_parses(line, n)) {
				*why = "a trace-event line that does not parse";
				return -EBADMSG;
			}
			entry_add_line(cur, line, n, lineno);
		} else {
			*why = "neither an entry header ('#', '%') nor a trace-event line ('p:', 'r:')";
			return -EBADMSG;
		}
	}
	*bad_line = 0;
	return 0;
}

static void probe_cache__free(struct probe_cache *pc)
{
	for (int i = 0; i < pc->nr; i++)
		probe_cache_entry__clear(&pc->entries[i]);
	free(pc->entries);
	free(pc->path);
	free(pc);
}

/*
 * Lock the entry @fd (the directory @dir) and make sure it is still the one
 * at @dir: a remover that went first leaves a directory nobody sees, and
 * writing there would lose what is acknowledged.  0 (locked), 1 (moved:
 * try again), or -errno.
 */
static int lock_entry(int fd, const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	struct stat a, b;
	int again, ret = 0;

	if (flock(fd, LOCK_EX) < 0 || fstat(fd, &a) < 0)
		return -errno;
	again = build_id_cache__open_dir(dir, &err);
	if (again >= 0) {
		if (fstat(again, &b) < 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev)
			ret = 1;
		close(again);
	} else {
		ret = again == -ENOENT ? -ENOENT : again;
	}
	strbuf_release(&err);
	return ret;
}

/* Open (and with @update lock) the entry @dir; an fd or -errno. */
static int open_entry(const char *dir, bool update, struct strbuf *err)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd = build_id_cache__open_dir(dir, err), ret;

		if (fd < 0 || !update)
			return fd;
		ret = lock_entry(fd, dir);
		if (!ret)
			return fd;
		close(fd);
		if (ret < 0)
			return ret;
	}
	return -EAGAIN;
}

/*
 * Read and parse the probes file of the open entry @fd (the directory
 * @dir) into @pc; with @missing_ok a missing file is an empty cache.  Its
 * stat (zeroed when missing) in *@st when not NULL.
 */
static int read_probes(struct probe_cache *pc, int fd, const char *dir, bool missing_ok,
		       struct stat *st, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, why_not = STRBUF_INIT;
	const char *why = NULL;
	int ret, bad_line = 0;

	ret = cache_fs__check_file(fd, dir, "probes", &why_not);
	if (st) {
		memset(st, 0, sizeof(*st));
		if (!ret && fstatat(fd, "probes", st, AT_SYMLINK_NOFOLLOW) < 0)
			ret = -errno;
	}
	if (!ret) {
		ret = strbuf_read_regular(&text, fd, "probes", PROBE_CACHE_MAX_FILE);
		if (ret == -EFBIG || ret == -EINVAL) {
			strbuf_addf(&why_not, "refusing %s: %s", pc->path,
				    strbuf_read_strerror(ret));
			ret = -CACHE_FS_REFUSED;
		}
	}
	if (ret == -ENOENT && missing_ok)
		ret = 0;
	if (!ret)
		ret = probe_cache__parse(pc, text.buf, text.len, &bad_line, &why);
	if (ret == -EBADMSG && err)
		strbuf_addf(err, "%s:%d: %s", pc->path, bad_line, why);
	if (ret == -CACHE_FS_REFUSED && err)
		strbuf_add(err, why_not.buf, why_not.len);
	else if (ret == -CACHE_FS_REFUSED) /* a walk over every cache: skipped */
		pr_warning("Warning: %s (skipped)\n", why_not.buf);
	strbuf_release(&text);
	strbuf_release(&why_not);
	return ret;
}

int probe_cache__open(const char *dir, bool update, struct probe_cache **out, struct strbuf *err)
{
	struct probe_cache *pc = xzalloc(sizeof(*pc));
	struct strbuf why_not = STRBUF_INIT;
	int ret, fd;

	pc->path = path_join(dir, "probes");
	pc->dir_fd = -1;
	fd = open_entry(dir, update, &why_not);
	if (fd < 0) {
		ret = fd;
		if (ret == -CACHE_FS_REFUSED && err)
			strbuf_add(err, why_not.buf, why_not.len);
		else if (ret == -CACHE_FS_REFUSED)
			pr_warning("Warning: %s (skipped)\n", why_not.buf);
	} else {
		ret = read_probes(pc, fd, dir, update, NULL, err);
	}
	strbuf_release(&why_not);
	if (update && !ret)
		pc->dir_fd = fd;
	else if (fd >= 0)
		close(fd);
	if (ret) {
		probe_cache__free(pc);
		return ret;
	}
	*out = pc;
	return 0;
}

int probe_cache__read_at(int fd, const char *dir, struct probe_cache **out, struct stat *st,
			 struct strbuf *err)
{
	struct probe_cache *pc = xzalloc(sizeof(*pc));
	int ret;

	pc->path = path_join(dir, "probes");
	pc->dir_fd = -1;
	ret = read_probes(pc, fd, dir, true, st, err);
	if (ret) {
		probe_cache__free(pc);
		return ret;
	}
	*out = pc;
	return 0;
}

struct probe_cache *probe_cache__new(void)
{
	struct probe_cache *pc = xzalloc(sizeof(*pc));

	pc->dir_fd = -1;
	return pc;
}

void probe_cache__format(const struct probe_cache *pc, struct strbuf *sb)
{
	for (int i = 0; i < pc->nr; i++) {
		const struct probe_cache_entry *e = &pc->entries[i];

		strbuf_addf(sb, "%c%s\n", e->sdt ? '%' : '#', e->spec);
		for (int j = 0; j < e->nr_lines; j++)
			strbuf_addf(sb, "%s\n", e->lines[j]);
	}
}

int probe_cache__commit(struct probe_cache *pc)
{
	struct strbuf sb = STRBUF_INIT, old = STRBUF_INIT;
	struct probe_caches_note note;
	int ret;

	if (pc->dir_fd < 0)
		return -EBADF;
	/* Every writer of it holds this lock: what is there is a killed one's. */
	cache_fs__remove_junk(pc->dir_fd, "probes", true);
	probe_cache__format(pc, &sb);
	/* The same text (a cached add again) is not written and synced again. */
	if (!strbuf_read_regular(&old, pc->dir_fd, "probes", PROBE_CACHE_MAX_FILE) &&
	    old.len == sb.len && !memcmp(old.buf, sb.buf, sb.len)) {
		strbuf_release(&old);
		strbuf_release(&sb);
		return 0;
	}
	strbuf_release(&old);
	/* Noted first: a writer killed after the rename leaves it noted. */
	probe_caches__note_written((const char *const *)&pc->path, 1, true, &note);
	ret = cache_fs__write_atomic(pc->dir_fd, "probes", sb.buf, sb.len, 0644, true);
	probe_caches__note_done(&note, !ret);
	strbuf_release(&sb);
	return ret;
}

void probe_cache__close(struct probe_cache *pc)
{
	if (!pc)
		return;
	if (pc->dir_fd >= 0)
		close(pc->dir_fd); /* releases the lock */
	probe_cache__free(pc);
}

struct probe_cache_entry *probe_cache__find(struct probe_cache *pc, bool sdt, const char *spec)
{
	for (int i = 0; i < pc->nr; i++)
		if (pc->entries[i].sdt == sdt && !strcmp(pc->entries[i].spec, spec))
			return &pc->entries[i];
	return NULL;
}

void probe_cache__add_entry(struct probe_cache *pc, bool sdt, const char *spec, char *const *lines,
			    int nr_lines)
{
	struct probe_cache_entry *e = probe_cache__find(pc, sdt, spec);

	if (e)
		probe_cache_entry__clear(e);
	else
		e = probe_cache__new_entry(pc);
	e->sdt = sdt;
	e->spec = xstrdup(spec);
	for (int i = 0; i < nr_lines; i++)
		entry_add_line(e, lines[i], strlen(lines[i]), 0);
}

void probe_cache__remove_entry(struct probe_cache *pc, int index)
{
	if (index < 0 || index >= pc->nr)
		return;
	probe_cache_entry__clear(&pc->entries[index]);
	memmove(&pc->entries[index], &pc->entries[index + 1],
		sizeof(*pc->entries) * (pc->nr - index - 1));
	pc->nr--;
}

/* SDT markers in the cache. */

struct sdt_line {
	char *spec; /* "sdt_PROVIDER:NAME=NAME" */
	char *line;
};

static bool entry_has_line(const struct probe_cache_entry *e, const char *line)
{
	for (int i = 0; e && i < e->nr_lines; i++)
		if (!strcmp(e->lines[i], line))
			return true;
	return false;
}

/* The lines of the markers, checked against @pc and each other; 0 or -errno. */
static int sdt_lines(struct probe_cache *pc, const char *path, const struct sdt_note *notes, int nr,
		     struct sdt_line *out, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		char *bad = NULL;

		strbuf_reset(&sb);
		ret = sdt_note__synthesize(&notes[i], path, &sb, &bad);
		if (ret) {
			if (err)
				strbuf_addf(err,
					    "SDT marker %s:%s of %s: invalid argument size in '%s'",
					    notes[i].provider, notes[i].name, path, bad);
			free(bad);
			break;
		}
		out[i].line = strbuf_detach(&sb, NULL);
		strbuf_addf(&sb, "sdt_%s:%s=%s", notes[i].provider, notes[i].name, notes[i].name);
		out[i].spec = strbuf_detach(&sb, NULL);
		if (entry_has_line(probe_cache__find(pc, true, out[i].spec), out[i].line)) {
			ret = -EEXIST;
			if (err)
				strbuf_addf(err, "SDT marker %s:%s of %s is already in the cache",
					    notes[i].provider, notes[i].name, path);
		}
		for (int j = 0; j < i && !ret; j++) {
			if (strcmp(out[j].line, out[i].line) || strcmp(out[j].spec, out[i].spec))
				continue;
			/* perf keeps an entry's lines in a set: it fails the same way. */
			ret = -EEXIST;
			if (err)
				strbuf_addf(err, "SDT marker %s:%s of %s has two identical notes",
					    notes[i].provider, notes[i].name, path);
		}
	}
	strbuf_release(&sb);
	return ret;
}

int probe_cache__add_sdt_entries(struct probe_cache *pc, const char *path, struct strbuf *err)
{
	struct sdt_note *notes = NULL;
	struct sdt_line *lines;
	const char *why = NULL;
	int nr, ret;

	nr = sdt_notes__read(path, &notes, &why);
	if (nr < 0) {
		if (err)
			strbuf_addf(err, "Cannot read the SDT markers of %s: %s", path,
				    why ? why : strerror(-nr));
		return nr;
	}
	lines = xzalloc((nr + 1) * sizeof(*lines));
	ret = sdt_lines(pc, path, notes, nr, lines, err);
	for (int i = 0; i < nr && !ret; i++) {
		struct probe_cache_entry *e = probe_cache__find(pc, true, lines[i].spec);

		if (!e) {
			probe_cache__add_entry(pc, true, lines[i].spec, &lines[i].line, 1);
			continue;
		}
		entry_add_line(e, lines[i].line, strlen(lines[i].line), 0);
		qsort(e->lines, e->nr_lines, sizeof(*e->lines), strcmp_ptr);
		memset(e->line_nos, 0, sizeof(*e->line_nos) * e->nr_lines); /* sorted */
	}
	for (int i = 0; i < nr; i++) {
		free(lines[i].spec);
		free(lines[i].line);
	}
	free(lines);
	sdt_notes__free(notes, nr);
	return ret ? ret : nr;
}

int probe_cache__remove_sdt_entries(struct probe_cache *pc)
{
	int removed = 0;

	for (int i = pc->nr - 1; i >= 0; i--) {
		if (pc->entries[i].sdt) {
			probe_cache__remove_entry(pc, i);
			removed++;
		}
	}
	return removed;
}

void probe_cache__strerror(enum probe_cache_doing doing, int err, const char *where,
			   const char *detail, struct strbuf *msg)
{
	static const char *const verb[PROBE_CACHE_NR_DOING] = {
		[PROBE_CACHE_LIST] = "read",   [PROBE_CACHE_USE] = "read",
		[PROBE_CACHE_UPDATE] = "open", [PROBE_CACHE_EXPORT] = "read",
		[PROBE_CACHE_IMPORT] = "read", [PROBE_CACHE_WRITE] = "write",
	};
	static const char *const consequence[PROBE_CACHE_NR_DOING] = {
		[PROBE_CACHE_UPDATE] = " (left as it is)",
		[PROBE_CACHE_EXPORT] = "; nothing exported",
		[PROBE_CACHE_IMPORT] = "; nothing was imported",
	};
	const char *tail = consequence[doing] ? consequence[doing] : "";

	if (err == -CACHE_FS_REFUSED && detail && *detail)
		strbuf_addf(msg, "%s%s", detail, tail);
	else if (err == -EBADMSG)
		strbuf_addf(msg, "%scorrupt probe cache %s%s",
			    doing == PROBE_CACHE_USE ? "not using the " : "",
			    detail && *detail ? detail : where, tail);
	else
		strbuf_addf(msg, "Failed to %s the probe cache %s: %s%s", verb[doing], where,
			    strerror(-err), tail);
}

static int for_each_cache_of(struct build_id_cache_entry *ents, int nr, bool current_only,
			     probe_caches_fn fn, void *ctx)
{
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		char *dir = build_id_cache__dirname(ents[i].name, &ents[i].bid);
		char *path = path_join(dir, "probes");
		struct stat st;

		/* No probes file: nothing is cached for it. */
		if (current_only && !build_id_cache__entry_current(&ents[i]))
			;
		else if (lstat(path, &st) == 0 || errno != ENOENT)
			ret = fn(&ents[i], dir, ctx);
		free(path);
		free(dir);
	}
	build_id_cache__free_entries(ents, nr > 0 ? nr : 0);
	return ret;
}

int probe_caches__for_each(probe_caches_fn fn, void *ctx)
{
	struct build_id_cache_entry *ents;
	int nr = build_id_cache__list_all(&ents);

	return for_each_cache_of(ents, nr, false, fn, ctx);
}

int probe_caches__for_each_listed(probe_caches_fn fn, void *ctx)
{
	struct build_id_cache_entry *ents;
	int nr = build_id_cache__list(&ents);

	return for_each_cache_of(ents, nr, true, fn, ctx);
}

int probe_cache__update_sdt(const char *name, const struct build_id *bid, const char *path,
			    bool update, struct strbuf *err)
{
	char *dir = build_id_cache__dirname(name, bid);
	struct strbuf why = STRBUF_INIT;
	struct probe_cache *pc;
	int removed = 0, ret = probe_cache__open(dir, true, &pc, &why);

	if (ret) {
		probe_cache__strerror(PROBE_CACHE_UPDATE, ret, dir, why.buf, err);
		goto out;
	}
	if (update)
		removed = probe_cache__remove_sdt_entries(pc);
	ret = probe_cache__add_sdt_entries(pc, path, &why);
	if (ret < 0 && why.len) {
		strbuf_add(err, why.buf, why.len);
		if (ret != -EEXIST)
			strbuf_addstr(err, "; no SDT marker of it was cached");
	} else if (ret < 0) {
		probe_cache__strerror(PROBE_CACHE_UPDATE, ret, pc->path, NULL, err);
	} else if (ret > 0 || (ret == 0 && removed)) {
		int r = probe_cache__commit(pc);

		if (r) {
			probe_cache__strerror(PROBE_CACHE_WRITE, r, pc->path, NULL, err);
			ret = r;
		}
	}
	probe_cache__close(pc);
out:
	strbuf_release(&why);
	free(dir);
	return ret;
}

/* The '%' entries of one cache, appended to the growing array of @ctx. */
struct sdt_events {
	struct probe_cache_sdt_event *v;
	int nr, alloc;
};

static void sdt_event_append(struct sdt_events *evs, const char *spec,
			     const struct build_id_cache_entry *ent)
{
	const char *colon = strchr(spec, ':');
	size_t end = strcspn(spec, "=");
	struct probe_cache_sdt_event *e;

	if (!colon || (size_t)(colon - spec) >= end || colon == spec || colon + 1 == spec + end)
		return;
	ALLOC_GROW(evs->v, evs->nr + 1, evs->alloc);
	e = &evs->v[evs->nr++];
	e->group = xstrndup(spec, colon - spec);
	e->event = xstrndup(colon + 1, spec + end - colon - 1);
	e->name = xstrdup(ent->name);
	build_id__sprintf(&ent->bid, e->sbid);
}

static int collect_sdt_events(const struct build_id_cache_entry *ent, const char *dir, void *ctx)
{
	struct strbuf err = STRBUF_INIT, msg = STRBUF_INIT;
	struct probe_cache *pc;
	int ret = probe_cache__open(dir, false, &pc, &err);

	if (ret == -EBADMSG || ret == -CACHE_FS_REFUSED) {
		probe_cache__strerror(PROBE_CACHE_USE, ret, dir, err.buf, &msg);
		pr_warning("Warning: %s%s\n", msg.buf, ret == -EBADMSG ? "" : " (skipped)");
	}
	for (int j = 0; !ret && j < pc->nr; j++)
		if (pc->entries[j].sdt)
			sdt_event_append(ctx, pc->entries[j].spec, ent);
	if (!ret)
		probe_cache__close(pc);
	strbuf_release(&err);
	strbuf_release(&msg);
	return 0;
}

static int cmp_sdt_event(const void *a, const void *b)
{
	const struct probe_cache_sdt_event *x = a, *y = b;
	struct strbuf kx = STRBUF_INIT, ky = STRBUF_INIT;
	int ret;

	strbuf_addf(&kx, "%s:%s@%s", x->group, x->event, x->sbid);
	strbuf_addf(&ky, "%s:%s@%s", y->group, y->event, y->sbid);
	ret = strcmp(kx.buf, ky.buf);
	strbuf_release(&kx);
	strbuf_release(&ky);
	return ret;
}

int probe_cache__list_sdt_events(struct probe_cache_sdt_event **events)
{
	struct sdt_events evs = { 0 };

	probe_caches__for_each(collect_sdt_events, &evs);
	if (evs.nr)
		qsort(evs.v, evs.nr, sizeof(*evs.v), cmp_sdt_event);
	*events = evs.v;
	return evs.nr;
}

void probe_cache__free_sdt_events(struct probe_cache_sdt_event *events, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(events[i].group);
		free(events[i].event);
		free(events[i].name);
	}
	free(events);
}

static bool same_event(const struct probe_cache_sdt_event *a, const struct probe_cache_sdt_event *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->event, b->event);
}

int probe_cache__sdt_event_names(const char *filter, char ***names)
{
	struct probe_cache_sdt_event *ev;
	struct strbuf sb = STRBUF_INIT;
	char **v = NULL;
	int n = 0, alloc = 0, nr = probe_cache__list_sdt_events(&ev);

	for (int i = 0; i < nr; i++) {
		bool dup = (i > 0 && same_event(&ev[i - 1], &ev[i])) ||
			   (i + 1 < nr && same_event(&ev[i], &ev[i + 1]));

		if (!probe_event_match_filter(filter, ev[i].group, ev[i].event))
			continue;
		strbuf_addf(&sb, "%s:%s", ev[i].group, ev[i].event);
		if (dup)
			strbuf_addf(&sb, "@%s(%.12s)", ev[i].name, ev[i].sbid);
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = strbuf_detach(&sb, NULL);
	}
	if (nr > 0)
		probe_cache__free_sdt_events(ev, nr);
	*names = v;
	return nr < 0 ? nr : n;
}

/* ---- the index of the events of every probe cache ----------------------- */

/* ---- what the index of every probe cache (probe-index.c) must read again */

/*
 * The probes files this perf writes: their entries are noted in
 * ROOT/.probe-index.dirty before the write, under a shared lock of that
 * file held until the write is done (or the writer is killed), and read
 * again by the next search.  A search (probe-index.c) that finds the lock
 * taken keeps the list: what a writer noted may not be written yet when
 * the search reads its entry.  A search removes the list under the
 * exclusive lock, so a writer whose lock is on a list removed meanwhile
 * opens the new one.
 */
static int note_text(const char *text, size_t len, struct probe_caches_note *note)
{
	struct strbuf err = STRBUF_INIT;
	int fd = -1, rootfd = build_id_cache__root_fd(false, &err);
	struct stat st, now;

	for (int tries = 0; rootfd >= 0 && tries < 100; tries++) {
		fd = openat(rootfd, PROBE_INDEX_DIRTY,
			    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
			    0644);
		/* Only a file of ours: another's, a FIFO, is not written to. */
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
				!cache_fs__trusted(&st) || flock(fd, LOCK_SH) < 0)) {
			close(fd);
			fd = -1;
		}
		if (fd < 0)
			break;
		if (fstatat(rootfd, PROBE_INDEX_DIRTY, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
		    now.st_ino == st.st_ino && now.st_dev == st.st_dev)
			break;
		close(fd); /* removed by a search meanwhile: the new one */
		fd = -1;
	}
	if (fd >= 0 && write(fd, text, len) != (ssize_t)len) {
		close(fd);
		fd = -1;
	}
	note->fd = fd;
	note->end = fd >= 0 ? lseek(fd, 0, SEEK_CUR) : -1;
	note->start = note->end - (off_t)len;
	if (fd < 0 && rootfd >= 0) /* not told: rebuilt in full */
		unlinkat(rootfd, PROBE_INDEX_NAME, 0);
	strbuf_release(&err);
	return fd;
}

void probe_caches__note_written(const char *const *paths, int nr, bool probes,
				struct probe_caches_note *note)
{
	struct strbuf sb = STRBUF_INIT;

	note->fd = -2;
	for (int i = 0; i < nr; i++) {
		const char *slash = probes ? strrchr(paths[i], '/') : NULL;

		strbuf_add(&sb, paths[i], slash ? (size_t)(slash - paths[i]) : strlen(paths[i]));
		strbuf_addch(&sb, '\n');
	}
	/* One write: appended whole, not mixed with another writer's lines. */
	if (nr)
		note_text(sb.buf, sb.len, note);
	strbuf_release(&sb);
}

/*
 * Nothing was written after all (a refused write): the note is taken
 * back when nothing was noted after it, under the exclusive lock, so
 * that the cache is as it was.
 */
static void take_back(const struct probe_caches_note *note)
{
	struct strbuf err = STRBUF_INIT;
	int rootfd = build_id_cache__root_fd(false, &err);
	struct stat st, now;

	if (rootfd >= 0 && flock(note->fd, LOCK_EX | LOCK_NB) == 0 && fstat(note->fd, &st) == 0 &&
	    st.st_size == note->end) {
		if (note->start > 0)
			ftruncate(note->fd, note->start);
		else if (fstatat(rootfd, PROBE_INDEX_DIRTY, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
			 now.st_ino == st.st_ino && now.st_dev == st.st_dev)
			unlinkat(rootfd, PROBE_INDEX_DIRTY, 0); /* ours alone */
	}
	strbuf_release(&err);
}

void probe_caches__note_done(struct probe_caches_note *note, bool written)
{
	struct strbuf err = STRBUF_INIT;
	int rootfd;

	if (note->fd >= 0) {
		if (!written)
			take_back(note);
		close(note->fd); /* the lock */
		note->fd = -2;
		return;
	}
	/* Not noted: a search may have kept an index that misses the write. */
	rootfd = note->fd == -1 && written ? build_id_cache__root_fd(false, &err) : -1;
	if (rootfd >= 0)
		unlinkat(rootfd, PROBE_INDEX_NAME, 0);
	note->fd = -2;
	strbuf_release(&err);
}
