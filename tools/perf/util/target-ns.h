/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TARGET_NS_H
#define PERF_UTIL_TARGET_NS_H

/*
 * --target-ns=PID: the files a command names are the ones the process PID
 * sees (its mount namespace and its root).  They are read, and the uprobe
 * is placed, through /proc/PID/root, the process's root as this host sees
 * it: "/opt/app" of the container is "/proc/PID/root/opt/app" here.  perf's
 * own process never changes namespace, so tracefs, $HOME's build-id cache
 * and debuginfod stay the host's.  The build-id cache keeps such a file
 * under the container's path.
 *
 * Each file resolved is pinned (opened inside the container's root, no
 * link followed), and its uprobe lands on that inode whatever the
 * container does to the path meanwhile (target_ns__write()).
 */

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Take @pid (the option's argument) as the target namespace's process;
 * NULL for none.  0, or -errno after one line on stderr.
 */
int target_ns__set(const char *pid);

/* Is a --target-ns in force? */
int target_ns__active(void);

/*
 * The real path of @path: without --target-ns realpath(3); with it, the
 * path resolved as PID sees it (its root and cwd, symlinks within its
 * root) and prefixed with /proc/PID/root.  A path that already has the
 * prefix is taken as it is.  With --target-ns the file is pinned: opened
 * from PID's root one component at a time, refusing links and "..", and
 * kept open for the command.  A new string, or NULL with errno set (ELOOP:
 * a link where the resolved path has none, i.e. the container changed it).
 */
char *target_ns__realpath(const char *path);

/*
 * Is @st (a stat(2) of @path) the file pinned for @path?  True as well when
 * no --target-ns is in force or @path was not pinned.
 */
bool target_ns__same_file(const char *path, const struct stat *st);

/*
 * write(2) for uprobe_events: a line whose file is in the target namespace
 * (/proc/PID/root/...) is written by a child whose /proc leads the kernel's
 * walk of that path to the pinned file (pinned now when it was not yet,
 * e.g. a cached line); any other line is written as it is.  Returns @len,
 * or -1 with errno (the write's, or ELOOP/ENOENT when the file could not
 * be pinned).
 */
ssize_t target_ns__write(int fd, const void *buf, size_t len);

/*
 * The path inside the target namespace of a path target_ns__realpath()
 * gave (the prefix dropped), for the names in the build-id cache; @path
 * itself otherwise.
 */
const char *target_ns__inside(const char *path);

#endif
