/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_CACHE_H
#define PERF_UTIL_PROBE_CACHE_H

/*
 * The probe cache: the `probes` file of a build-id cache entry
 * (ROOT/NAME/BID/probes, see build-id.h), in the system perf's format.
 * Each entry is a header line, then its trace-event lines:
 *
 *	#handle len=r->len				a perf probe spec
 *	p:probe_app/handle /usr/bin/app:0x1144 len=+0(%di):s32
 *	%sdt_python:gc__start=gc__start			an SDT marker
 *	p:sdt_python/gc__start /usr/bin/python3.11:0x26fc1(0x67dd4e) arg1=+112(%sp):s32
 *
 * A file that breaks this shape is corrupt: it is reported with its path
 * and line, never used, and never overwritten.  Updates take an exclusive
 * flock on the entry's directory for the whole read-modify-write and
 * replace the file with a rename, so concurrent writers never lose entries
 * and a writer killed at any instant leaves the old file or the new one.
 *
 * Owns: the probes file's format (parse, format), its lock and commit,
 * its SDT ('%') entries, the walk over every probe cache of the build-id
 * cache, and the one wording of a cache that could not be read or written.
 * May call: build-id (entry directories and their listing), sdt-note and
 * sdt-arg (the markers of a file), probe-spec (the [GROUP:]EVENT glob
 * rule), probe-trace (a trace-event line must parse), util, strbuf, debug.  Not probe-file, tracefs, nor anything above.
 */

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <sys/stat.h>

#include "util/build-id.h"
#include "util/strbuf.h"

#define PROBE_CACHE_MAX_LINE 65536

struct probe_cache_entry {
	bool sdt;     /* a '%' (SDT marker) entry, not a '#' one */
	char *spec;   /* the header without its '#' or '%' */
	char **lines; /* the trace-event lines, without newlines */
	int nr_lines;
	int header_no;	 /* the header's line in the file (1-based), 0: not read from one */
	int *line_nos;	 /* each line's number there, the same way */
	int alloc_lines; /* the capacity of lines and line_nos */
};

struct probe_cache {
	char *path; /* the probes file */
	int dir_fd; /* the locked entry directory, or -1 when read-only */
	struct probe_cache_entry *entries;
	int nr;
	int alloc; /* the capacity of entries (ALLOC_GROW) */
};

/*
 * Parse the text of a probes file into @pc's entries (appended).  Returns
 * 0, or -EBADMSG with the 1-based line number in *@bad_line and a static
 * reason in *@why: a trace-event line before any header, an empty header,
 * a line that is neither, a trace-event line that does not parse
 * (parse_probe_trace_command()), a control character, a line longer than
 * PROBE_CACHE_MAX_LINE, or a last line without its newline.  The entries
 * keep the line numbers of their header and lines.
 */
int probe_cache__parse(struct probe_cache *pc, const char *text, size_t len, int *bad_line,
		       const char **why);

/*
 * Open the probe cache in the directory @dir.  With @update the directory
 * is locked (exclusive, waiting) until probe_cache__close(), and a missing
 * file is an empty cache; without it a missing file gives -ENOENT.
 * Returns 0 with a new cache in *@out, or -errno; for a corrupt file
 * -EBADMSG, and "PATH:LINE: reason" is appended to @err (may be NULL).
 */
int probe_cache__open(const char *dir, bool update, struct probe_cache **out, struct strbuf *err);

/*
 * Read the probe cache of the entry directory @fd (the path @dir), which
 * the caller opened (and locked, to change it): a missing file is an
 * empty cache.  The probes file's stat, zeroed when there is none, in
 * *@st (may be NULL).  0 or -errno as probe_cache__open(); the cache's
 * dir_fd is -1 (the caller keeps @fd).
 */
int probe_cache__read_at(int fd, const char *dir, struct probe_cache **out, struct stat *st,
			 struct strbuf *err);

/* A new empty cache in memory, attached to no file (path NULL). */
struct probe_cache *probe_cache__new(void);

/* The text of the cache, as it is written to the file. */
void probe_cache__format(const struct probe_cache *pc, struct strbuf *sb);

/*
 * Write the cache back (opened with @update): a temporary file, fsync,
 * rename over the old one.  Leftover temporary files of killed writers are
 * removed.  0 or -errno (then the old file is untouched).
 */
int probe_cache__commit(struct probe_cache *pc);

/* Unlock and free (NULL: nothing). */
void probe_cache__close(struct probe_cache *pc);

/* The entry whose header is @spec (of the kind @sdt), or NULL. */
struct probe_cache_entry *probe_cache__find(struct probe_cache *pc, bool sdt, const char *spec);

/*
 * Add an entry (the strings are copied), replacing one with the same kind
 * and spec in place.
 */
void probe_cache__add_entry(struct probe_cache *pc, bool sdt, const char *spec, char *const *lines,
			    int nr_lines);

/* Remove the entry at @index. */
void probe_cache__remove_entry(struct probe_cache *pc, int index);

/*
 * SDT markers (see util/sdt-note.h).  Add the markers of the ELF file
 * @path (its uprobe lines name @path, so pass the real path) to @pc as
 * perf 6.1 does: one '%' entry "sdt_PROVIDER:NAME=NAME" per marker name,
 * appended in the order of the name's first note, whose lines
 * ("p:sdt_PROVIDER/NAME PATH:0xOFF[(0xSEM)] arg1=%di:s32 ...", see
 * sdt_note__synthesize()) are kept sorted by strcmp; a name that already
 * has an entry gets the new lines merged into it.
 *
 * All or nothing: on error @pc is unchanged and a message naming @path
 * is appended to @err (may be NULL).  Returns the number of markers (0:
 * the file has none), or -EEXIST when a line is already in the cache
 * (the cache is up to date: perf then writes nothing either), -EINVAL
 * for an argument of more than 8 bytes, -EBADMSG for malformed notes, or
 * sdt_notes__read()'s other errors.
 */
int probe_cache__add_sdt_entries(struct probe_cache *pc, const char *path, struct strbuf *err);

/*
 * Remove every '%' (SDT) entry, e.g. before a rescan of an updated file.
 * Returns how many were removed.
 */
int probe_cache__remove_sdt_entries(struct probe_cache *pc);

/*
 * What a caller was doing with a probe cache when it failed, for
 * probe_cache__strerror().
 */
enum probe_cache_doing {
	PROBE_CACHE_LIST,   /* reading it to show it (--cache --list) */
	PROBE_CACHE_USE,    /* reading it for its entries: it is not used */
	PROBE_CACHE_UPDATE, /* opening it to change it: it is left as it is */
	PROBE_CACHE_EXPORT, /* reading it into a bundle: nothing is exported */
	PROBE_CACHE_IMPORT, /* checking it before an import: nothing is imported */
	PROBE_CACHE_WRITE,  /* writing it back (probe_cache__commit()) */
	PROBE_CACHE_NR_DOING
};

/*
 * The one wording of a probe cache that could not be opened, read or
 * written, appended to @msg without "Error: "/"Warning: " and newline.
 * @err: what probe_cache__open()/__commit() returned; @where: the probes
 * file or the entry directory; @detail: for -EBADMSG the "PATH:LINE:
 * reason" probe_cache__open() gave (NULL or "": @where is named).  E.g.
 *	"corrupt probe cache PATH:3: a line is too long (left as it is)"
 *	"not using the corrupt probe cache PATH:3: a line is too long"
 *	"Failed to write the probe cache PATH: No space left on device"
 */
void probe_cache__strerror(enum probe_cache_doing doing, int err, const char *where,
			   const char *detail, struct strbuf *msg);

/*
 * The walk over every probe cache of the build-id cache: @fn is called
 * for each entry of the tree (build_id_cache__list_all(): also entries no
 * .build-id link leads to) that has a probes file, in the order of that
 * list (by name, then build-id), with the entry and its directory.  A
 * nonzero return of @fn stops the walk and is returned; else 0.
 */
typedef int (*probe_caches_fn)(const struct build_id_cache_entry *ent, const char *dir, void *ctx);
/* Walk them, as above. */
int probe_caches__for_each(probe_caches_fn fn, void *ctx);
/*
 * The same walk over the caches perf lists (`perf probe --cache --list`):
 * those the .build-id links lead to, by build-id, whose binary still has
 * that build-id (build_id_cache__list(), build_id_cache__entry_current()).
 */
int probe_caches__for_each_listed(probe_caches_fn fn, void *ctx);

/*
 * The index of every probe cache (probe-index.c) and the list of the
 * entries whose probes file this perf wrote since it was made.
 */
#define PROBE_INDEX_NAME ".probe-index"
#define PROBE_INDEX_DIRTY ".probe-index.dirty"
/*
 * Note that the @nr paths (probes files with @probes, else entry
 * directories) are about to be written, in one write to the list of
 * PROBE_INDEX_DIRTY, before any of them is: the index is never trusted
 * beyond what was committed, whenever the writer is killed.  @note is
 * filled for probe_caches__note_done(), to call once they are written
 * (@written: at least one of them was), until when a search keeps the
 * list; a write refused before any rename takes the note back when it is
 * the last of the list (probe_cache__commit() does both).
 */
struct probe_caches_note {
	int fd;		  /* the list, locked shared; -1: not noted; -2: nothing to note */
	off_t start, end; /* where the note is in it */
};
void probe_caches__note_written(const char *const *paths, int nr, bool probes,
				struct probe_caches_note *note);
void probe_caches__note_done(struct probe_caches_note *note, bool written);

/*
 * Refresh the SDT entries of the probe cache of the build-id cache entry
 * @name/@bid with the markers of the ELF file @path (its real path: the
 * uprobe lines name it), as perf buildid-cache --add does: with @update
 * (--update) the old '%' entries are replaced, else the markers are added
 * (probe_cache__add_sdt_entries()).  The cache is written only when it
 * changed.  Returns the number of markers, or -errno with the message
 * appended to @err: -EEXIST when the cache is up to date already (not a
 * failure; perf writes nothing either), else the cache is left as it was.
 */
int probe_cache__update_sdt(const char *name, const struct build_id *bid, const char *path,
			    bool update, struct strbuf *err);

/*
 * A '%' entry of a probe cache in the build-id cache, as perf list shows
 * it: the GROUP:EVENT of its header ("%sdt_python:audit=audit"), and the
 * cached file's name and build-id (hex).
 */
struct probe_cache_sdt_event {
	char *group, *event;
	char *name;
	char sbid[41];
};

/*
 * Every '%' entry of every probe cache (probe_caches__for_each()), sorted
 * as perf sorts them: by "GROUP:EVENT@BUILDID" (strcmp).  A corrupt probes
 * file is skipped with a warning; headers without a "GROUP:" are skipped.
 * Returns the count (*@events: free with probe_cache__free_sdt_events())
 * or -errno.
 */
int probe_cache__list_sdt_events(struct probe_cache_sdt_event **events);

/* Free what probe_cache__list_sdt_events() returned. */
void probe_cache__free_sdt_events(struct probe_cache_sdt_event *events, int nr);

/*
 * The names perf list shows for the cached SDT events matching the
 * "[GROUP:]EVENT" glob @filter (NULL: all), in the order above: "GROUP:EVENT",
 * or, for an event cached for several files or builds, one
 * "GROUP:EVENT@NAME(BUILDID's first 12 digits)" for each.  Returns the
 * count (*@names: the caller frees each string and the array) or -errno.
 */
int probe_cache__sdt_event_names(const char *filter, char ***names);

#endif
