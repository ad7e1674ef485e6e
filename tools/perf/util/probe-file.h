/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_FILE_H
#define PERF_UTIL_PROBE_FILE_H

/*
 * The events files of tracefs (uprobe_events/kprobe_events): reading their
 * lines, all-or-nothing adds and deletes, unique event names, and the
 * kprobe blacklist.  Works on lines of text only ("p:grp/ev /bin/x:0x1139");
 * parsing them into structures is probe-spec.c's business.
 *
 * Owns: the events files and the blacklist file, and the test seam
 * (struct probe_file_ops) through which they are written.
 * May call: tracefs (where the files are, error_log), target-ns (the
 * write of a line whose file is a container's), probe-limits.h,
 * probe-spec's probe_event_match_filter() (the [GROUP:]EVENT glob rule),
 * util, strbuf, debug.  Not probe-cache, nor anything above.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

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
/* Free @nr strings of @lines and the array (NULL: nothing). */
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
 * The test seam: how lines reach an events file and how an event is
 * deleted.  write: one write(2)-like call per event line.  del: delete
 * GROUP/EVENT through @fd, 0 or -errno; NULL writes "-:GROUP/EVENT"
 * through write, as the kernel takes it.
 */
struct probe_file_ops {
	ssize_t (*write)(int fd, const void *buf, size_t len);
	int (*del)(int fd, const char *group, const char *event);
};

/*
 * The kernel's tracefs: write(2) (target_ns__write(): a --target-ns file
 * is reached through the file pinned), deletion by "-:GROUP/EVENT".
 */
extern const struct probe_file_ops probe_file__tracefs_ops;
/* A stand-in directory ($PERF_TRACEFS_DIR): deletion rewrites the plain file. */
extern const struct probe_file_ops probe_file__plain_ops;

/*
 * Use @ops for every later write and delete (tests install their own
 * kernel).  NULL: the default, chosen on first use: probe_file__plain_ops
 * when $PERF_TRACEFS_DIR is set, else probe_file__tracefs_ops.
 */
void probe_file__set_ops(const struct probe_file_ops *ops);

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
/* Free what @bl holds and zero it. */
void kprobe_blacklist__clear(struct kprobe_blacklist *bl);
/* The entry holding @addr, or NULL. */
const struct kprobe_blacklist_entry *kprobe_blacklist__find_addr(const struct kprobe_blacklist *bl,
								 uint64_t addr);
/* The entry of @symbol, or NULL. */
const struct kprobe_blacklist_entry *
kprobe_blacklist__find_symbol(const struct kprobe_blacklist *bl, const char *symbol);

#endif
