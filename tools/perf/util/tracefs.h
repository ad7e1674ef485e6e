/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TRACEFS_H
#define PERF_UTIL_TRACEFS_H

/*
 * tracefs: where it is mounted, paths in it, the kernel's features listed
 * in its README, and the reasons the kernel logs in error_log.
 *
 * Owns: the mount discovery (once per process) and reading those files.
 * It knows nothing of probe events or their files (probe-file.h does).
 * May call: util, strbuf, debug.  Nothing above.
 */

#include <stdbool.h>
#include <stdio.h>

#include "util/strbuf.h"

/* Where tracefs is mounted when it has to be mounted by perf itself. */
#define TRACEFS_DEFAULT "/sys/kernel/tracing"

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

/* Is tracefs a stand-in ($PERF_TRACEFS_DIR, for tests), not the kernel's? */
bool tracefs__is_standin(void);

/* tracefs__mountpoint()/@name in a new string, or NULL with errno set. */
char *tracefs__path(const char *name);

/*
 * Does a line of tracefs's README match the glob @pattern (fnmatch, the
 * whole line; write "*...*" for a part)?  The kernel's features show
 * there, e.g. "*place (uprobe):*(ref_ctr_offset)*" or "*x8/16/32/64*".
 * 1, 0, or -errno when there is no README.
 */
int tracefs__readme_has(const char *pattern);

/*
 * The same over the text of a README in @readme (the test seam of the
 * README parser): 1 or 0.  @readme is changed while it is searched, then
 * restored.
 */
int tracefs__readme_text_has(struct strbuf *readme, const char *pattern);

/*
 * Can the kernel raise an SDT semaphore while a uprobe exists, i.e. does
 * uprobe_events take "PATH:OFFSET(REF_CTR_OFFSET)"?  From tracefs's
 * README ("place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]").
 * 1, 0, or -errno when there is no README (tracefs not mounted).
 */
int tracefs__has_ref_ctr_offset(void);

/*
 * Does the kernel take a kretprobe at an offset ("_text+OFF%return")?
 * From the README ("place (kretprobe): ..."); 1, 0 or -errno as above.
 */
int tracefs__has_kretprobe_offset(void);

/* Append the whole of tracefs's error_log to @sb (nothing when absent). */
void tracefs__read_error_log(struct strbuf *sb);

/*
 * The reason of the newest entry of error_log, appended to @reason, when
 * the log changed since @before (its text from tracefs__read_error_log()):
 * entries look like "[ 603.82] trace_uprobe: error: REASON\n
 *   Command: ...\n   ^\n".
 */
void tracefs__error_log_reason(const struct strbuf *before, struct strbuf *reason);

/*
 * The reason of tracefs__error_log_reason() from the two texts of the log,
 * @before and @after the command (the test seam of the error_log parser).
 */
void tracefs__error_log_diff(const struct strbuf *before, const struct strbuf *after,
			     struct strbuf *reason);

/*
 * The tracefs mount (a new string, or NULL) from the lines of @f, in the
 * format of /proc/mounts ("DEV DIR TYPE ...", \ooo escapes in DIR): the
 * first tracefs, else DIR/tracing of the first debugfs when that is a
 * directory.  tracefs__mountpoint() reads /proc/mounts with it.
 */
char *tracefs__parse_mounts(FILE *f);

#endif
