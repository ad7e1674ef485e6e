// SPDX-License-Identifier: GPL-2.0
/*
 * --target-ns=PID through /proc/PID/root.  The paths of the container are
 * resolved by a child that chroots into the process's root (and moves to
 * its cwd), so absolute symlinks of the container resolve in the container
 * and mount points are the ones of its mount namespace.  Why not setns():
 * a setns(CLONE_NEWNS) of perf's own process would have to be undone around
 * every open of the host's files (tracefs, ~/.debug, debuginfod's cache,
 * the source directory), and it enters the namespace's root, not the root
 * of the process when that one is chrooted.  The kernel resolves the path
 * of a uprobe_events line when it is written: /proc/PID/root/PATH names
 * the container's inode, so the probe fires for the container's processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/target-ns.h"
#include "util/alloc.h"
#include "util/debug.h"
#include "util/strbuf.h"

static char *ns_root; /* "/proc/PID/root", NULL without --target-ns */

int target_ns__set(const char *pid)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	long n;
	struct stat st;

	if (!pid)
		return 0;
	errno = 0;
	n = strtol(pid, &end, 10);
	if (errno || end == pid || *end || n <= 0 || n > INT_MAX) {
		pr_err("Error: --target-ns %s: not a process id\n", pid);
		return -EINVAL;
	}
	strbuf_addf(&sb, "/proc/%ld/root", n);
	if (stat(sb.buf, &st) < 0) {
		int err = errno;

		pr_err("Error: --target-ns %s: %s\n", pid,
		       err == ENOENT ? "no such process" : strerror(err));
		strbuf_release(&sb);
		return -err;
	}
	free(ns_root);
	ns_root = strbuf_detach(&sb, NULL);
	return 0;
}

int target_ns__active(void)
{
	return ns_root != NULL;
}

static const char *after_root(const char *path)
{
	size_t len = ns_root ? strlen(ns_root) : 0;

	if (len && !strncmp(path, ns_root, len) && (path[len] == '/' || !path[len]))
		return path + len;
	return NULL;
}

const char *target_ns__inside(const char *path)
{
	const char *in = path ? after_root(path) : NULL;

	return in ? (*in ? in : "/") : path;
}

/* realpath(@path) in PID's root and cwd, by a child; NULL with errno. */
static char *realpath_inside(const char *path)
{
	char buf[PATH_MAX + 1], cwd[PATH_MAX];
	int fds[2], status, err = 0;
	ssize_t len = 0, n;
	pid_t child;

	snprintf(cwd, sizeof(cwd), "%.*s/cwd", (int)(strlen(ns_root) - 5), ns_root);
	if (pipe(fds) < 0)
		return NULL;
	child = fork();
	if (child < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		errno = err;
		return NULL;
	}
	if (child == 0) {
		int dir = open(cwd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		char *real;

		close(fds[0]);
		if (chroot(ns_root) < 0 || (dir >= 0 ? fchdir(dir) : chdir("/")) < 0)
			_exit(errno);
		real = realpath(path, NULL);
		if (!real)
			_exit(errno ? errno : ENOENT);
		if (write(fds[1], real, strlen(real)) < 0)
			_exit(EIO);
		_exit(0);
	}
	close(fds[1]);
	while (len < PATH_MAX && (n = read(fds[0], buf + len, PATH_MAX - len)) > 0)
		len += n;
	close(fds[0]);
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status))
		err = EIO;
	else
		err = WEXITSTATUS(status);
	if (!err && (len <= 0 || len >= PATH_MAX))
		err = ENAMETOOLONG;
	if (err) {
		errno = err;
		return NULL;
	}
	buf[len] = '\0';
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s", ns_root, strcmp(buf, "/") ? buf : "");
		return strbuf_detach(&sb, NULL);
	}
}

char *target_ns__realpath(const char *path)
{
	if (!ns_root)
		return realpath(path, NULL);
	if (after_root(path))
		return xstrdup(path);
	return realpath_inside(path);
}
