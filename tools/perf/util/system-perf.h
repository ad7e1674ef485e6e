/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SYSTEM_PERF_H
#define PERF_UTIL_SYSTEM_PERF_H

#include <stdbool.h>

#include "util/strbuf.h"

/*
 * The system's perf, which runs the commands this perf does not implement:
 * the first `perf` on PATH that is not this binary (compared by device and
 * inode, so a symlink or hard link to it is this binary too), else Debian's
 * versioned /usr/bin/perf_X.Y (the running kernel's version first).
 *
 * Every run of it carries PERF_FALLBACK_PID=<its pid> in the environment.
 * A perf started with that variable naming its own pid or its parent's was
 * started by its own fallback (a wrapper script that runs this binary):
 * it never runs the system perf again, so nothing loops.
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
 * Replace this process by @path with @argv (argv[0] is replaced by @path).
 * Returns -errno only when the exec fails.
 */
int system_perf__exec(const char *path, const char **argv);

/*
 * Run @path with @argv (argv[0] is replaced by @path), its stdout into @out,
 * its stderr to /dev/null and its stdin from /dev/null.  Returns its exit
 * status, or -errno when it could not run.
 */
int system_perf__run(const char *path, const char **argv, struct strbuf *out);

#endif
