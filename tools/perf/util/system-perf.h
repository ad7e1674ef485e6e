/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SYSTEM_PERF_H
#define PERF_UTIL_SYSTEM_PERF_H

#include <stdbool.h>

#include "util/strbuf.h"

/*
 * The system's perf, which runs the commands this perf does not implement:
 * the first `perf` on PATH that is not this binary (compared by device and
 * inode, so a symlink or hard link to it is this binary too), else Debian's
 * versioned /usr/bin/perf_X.Y (the running kernel's version first).  Only
 * from an absolute PATH entry, and only a program that you or root alone
 * could have written (cache_fs__check_path(): the file, every directory on
 * its way, a script's interpreter); one passed over is named in a warning.
 * A script runs with the trusted directories of PATH only.
 *
 * Every run of it carries PERF_FALLBACK_PID=<its pid> in the environment.
 * A perf started with that variable naming its own pid (an exec chain), or
 * its parent's while the parent does not run the system perf's file (a
 * wrapper script that runs this binary as a child), was started by its own
 * fallback: it never runs the system perf again, so nothing loops.  A perf
 * the system perf itself starts (perf record -- perf ...) is not looping.
 */
#define SYSTEM_PERF_ENV "PERF_FALLBACK_PID"

/* True when this process was started by its own fallback (see above). */
bool system_perf__looping(void);

/*
 * The path of the system perf, in a new string, or NULL when there is none
 * or when system_perf__looping().
 */
char *system_perf__find(void);

/*
 * Replace this process by @path with @argv.  argv[0] stays when it names a
 * `perf` (the name the user ran this perf by), else it becomes @path.
 * Returns -errno only when the exec fails.
 */
int system_perf__exec(const char *path, const char **argv);

/*
 * Run @path with @argv (argv[0] as for system_perf__exec()), its stdout into @out,
 * its stderr to /dev/null and its stdin from /dev/null.  Returns its exit
 * status, or -errno when it could not run.
 */
int system_perf__run(const char *path, const char **argv, struct strbuf *out);

#endif
