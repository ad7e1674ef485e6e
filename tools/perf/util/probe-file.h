/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_FILE_H
#define PERF_UTIL_PROBE_FILE_H

/*
 * tracefs: the uprobe_events/kprobe_events files, event names, and the
 * kprobe blacklist.  Works on lines of text only ("p:grp/ev /bin/x:0x1139");
 * parsing them into structures is probe-event.c's business.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

/*
 * The tracefs directory: $PERF_TRACEFS_DIR when set (any directory holding
 * uprobe_events/kprobe_events, maybe README, error_log, events/; used by the
 * tests), else a tracefs mount (or debugfs's tracing/) from /proc/mounts,
 * else, when root, tracefs freshly mounted on /sys/kernel/tracing.
 * Returns a static string, found once and kept, or NULL with errno set
 * (ENODEV: not mounted and could not be mounted, or $PERF_TRACEFS_DIR is
 * not a directory; EACCES: not mounted and not root).
 */
const char *tracefs__mountpoint(void);

/* tracefs__mountpoint()/@name in a new string, or NULL with errno set. */
char *tracefs__path(const char *name);

/*
 * Open uprobe_events (@uprobe) or kprobe_events with @flags (O_RDONLY, or
 * O_WRONLY: append mode is added, as the kernel expects one event per
 * write).  Returns the fd or -errno: -ENODEV (no tracefs), -ENOENT (the
 * kernel lacks that probe type), -EACCES (not root); see
 * probe_file__open_strerror().
 */
int probe_file__open(bool uprobe, int flags);

/*
 * The lines of an events file opened for reading, without the newlines and
 * without empty lines.  Returns the count or -errno; *@lines and its
 * strings belong to the caller (probe_file__free_lines()).
 */
int probe_file__read_lines(int fd, char ***lines);
/* The same, opening and closing the file itself. */
int probe_file__get_lines(bool uprobe, char ***lines);
void probe_file__free_lines(char **lines, int nr);

/*
 * Split the head "p[N]:GROUP/EVENT ..." (or "r", "-") of an events line.
 * On success *@group and *@event are new strings (caller frees) and 0 is
 * returned; -EINVAL when @line has no such head.
 */
int probe_file__line_event(const char *line, char **group, char **event);

/*
 * The "GROUP:EVENT" names of the events in an events file (uprobe or kprobe),
 * in file order.  Count or -errno; free with probe_file__free_lines().
 */
int probe_file__get_event_names(bool uprobe, char ***names);

/*
 * Write @nr event lines (without newline) to the events file @fd (opened
 * with probe_file__open(.., O_WRONLY)), one write() each, all or nothing:
 * when the kernel rejects line k, the events of lines 0..k-1 are deleted
 * again ("-:GROUP/EVENT"), *@failed (if not NULL) is set to k, and the
 * kernel's reason from error_log (e.g. "Invalid register name"), when
 * there is one, is appended to @reason (may be NULL).  Returns 0 or the
 * -errno of the rejected write.
 */
int probe_file__add_lines(int fd, char *const *lines, int nr, int *failed, struct strbuf *reason);

/* The same, opening and closing uprobe_events (@uprobe) or kprobe_events. */
int probe_file__add_events(bool uprobe, char *const *lines, int nr, int *failed,
			   struct strbuf *reason);

/*
 * Does a line of tracefs's README match the glob @pattern (fnmatch, the
 * whole line; write "*...*" for a part)?  The kernel's features show
 * there, e.g. "*place (uprobe):*(ref_ctr_offset)*" or "*x8/16/32/64*".
 * 1, 0, or -errno when there is no README.
 */
int probe_file__readme_has(const char *pattern);

/*
 * Delete from the events file the events whose "GROUP:EVENT" matches the
 * glob pattern @filter, given as "[GROUP:]EVENT" (no GROUP: any group).  The "GROUP:EVENT" names of the deleted
 * events are returned in *@removed (may be NULL; free with
 * probe_file__free_lines()).  Returns the number deleted (0: nothing
 * matched) or -errno on the first failure; -EBUSY means that event is
 * enabled (in use by a tracer) and *@busy (may be NULL) is then set to its
 * "GROUP:EVENT" name, a new string.  The events deleted before the failure
 * stay deleted and are in *@removed.
 */
int probe_file__del_events(bool uprobe, const char *filter, char ***removed, int *nr_removed,
			   char **busy);

/*
 * Test hook: every write to an events file goes through it (default:
 * write(2)).  Tests set it to emulate a kernel that rejects a line.
 */
extern ssize_t (*probe_file__write_fn)(int fd, const void *buf, size_t len);

/*
 * An unused event name in @group from @base, given the events that exist
 * (@existing: "GROUP:EVENT" or bare "EVENT" names, @nr of them; include
 * those added earlier in the same command).  Without @force: @base itself,
 * or NULL with *@err = -EEXIST when taken.  With @force, as perf does:
 * "base", else "base_1", "base_2", ... (at most base_1023; -EBUSY past
 * that).  Names longer than MAX_EVENT_NAME_LEN - 1 give -E2BIG.
 * Returns a new string or NULL with *@err set.
 */
char *probe_file__unique_event_name(const char *group, const char *base, char *const *existing,
				    int nr, bool force, int *err);

/* A short message for the errors above: "tracefs is not mounted..." etc. */
const char *probe_file__strerror(int err);

/*
 * Append to @msg perf's own words for a failed probe_file__open() (no
 * final newline), e.g.
 *	"/sys/kernel/tracing//kprobe_events does not exist.\n
 *	 Please rebuild kernel with CONFIG_KPROBE_EVENTS=y."
 *	"No permission to write tracefs.\nPlease run this command again with sudo."
 *	"No permission to read tracefs.\n
 *	 Please try 'sudo mount -o remount,mode=755 /sys/kernel/tracing/'"
 * @write: the open was for writing.  perf then prints
 * "  Error: Failed to add events." (or "... show event list.").
 */
void probe_file__open_strerror(bool uprobe, bool write, int err, struct strbuf *msg);

/*
 * The kprobe blacklist: lines "0xSTART-0xEND\tSYMBOL" of
 * /sys/kernel/debug/kprobes/blacklist, or, when $PERF_TRACEFS_DIR is set,
 * of $PERF_TRACEFS_DIR/../kprobes/blacklist (the same layout as debugfs,
 * where tracing/ and kprobes/ are siblings).
 */
struct kprobe_blacklist_entry {
	uint64_t start, end; /* [start, end) */
	char *symbol;
};

struct kprobe_blacklist {
	struct kprobe_blacklist_entry *entries;
	int nr;
};

/*
 * Load the blacklist at @path (NULL: the default above) into @bl (zeroed
 * by the caller).  0 or -errno (-ENOENT: no blacklist, nothing is
 * blacklisted).  Malformed lines are skipped.
 */
int kprobe_blacklist__load(struct kprobe_blacklist *bl, const char *path);
void kprobe_blacklist__clear(struct kprobe_blacklist *bl);
/* The entry holding @addr, or NULL. */
const struct kprobe_blacklist_entry *kprobe_blacklist__find_addr(const struct kprobe_blacklist *bl,
								 uint64_t addr);
/* The entry of @symbol, or NULL. */
const struct kprobe_blacklist_entry *
kprobe_blacklist__find_symbol(const struct kprobe_blacklist *bl, const char *symbol);

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
 */

#define PROBE_CACHE_MAX_LINE 65536

struct probe_cache_entry {
	bool sdt;     /* a '%' (SDT marker) entry, not a '#' one */
	char *spec;   /* the header without its '#' or '%' */
	char **lines; /* the trace-event lines, without newlines */
	int nr_lines;
};

struct probe_cache {
	char *path; /* the probes file */
	int dir_fd; /* the locked entry directory, or -1 when read-only */
	struct probe_cache_entry *entries;
	int nr;
};

/*
 * Parse the text of a probes file into @pc's entries (appended).  Returns
 * 0, or -EBADMSG with the 1-based line number in *@bad_line and a static
 * reason in *@why: a trace-event line before any header, an empty header,
 * a line that is neither, a control character, a line longer than
 * PROBE_CACHE_MAX_LINE, or a last line without its newline.
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

/* Unlock and free. */
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
 * Can the kernel raise an SDT semaphore while a uprobe exists, i.e. does
 * uprobe_events take "PATH:OFFSET(REF_CTR_OFFSET)"?  From tracefs's
 * README ("place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]").
 * 1, 0, or -errno when there is no README (tracefs not mounted).
 */
int probe_file__has_ref_ctr_offset(void);

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
 * Every '%' entry of every probe cache of the build-id cache (reached
 * through the .build-id links), sorted as perf sorts them: by
 * "GROUP:EVENT@BUILDID" (strcmp).  A corrupt probes file is skipped with
 * a warning; headers without a "GROUP:" are skipped.  Returns the count
 * (*@events: free with probe_cache__free_sdt_events()) or -errno.
 */
int probe_cache__list_sdt_events(struct probe_cache_sdt_event **events);
void probe_cache__free_sdt_events(struct probe_cache_sdt_event *events, int nr);

#endif
