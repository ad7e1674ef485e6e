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
 */

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
 * prefix is taken as it is.  A new string, or NULL with errno set.
 */
char *target_ns__realpath(const char *path);

/*
 * The path inside the target namespace of a path target_ns__realpath()
 * gave (the prefix dropped), for the names in the build-id cache; @path
 * itself otherwise.
 */
const char *target_ns__inside(const char *path);

#endif
