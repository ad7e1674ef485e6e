// SPDX-License-Identifier: GPL-2.0
/*
 * --target-ns=PID through /proc/PID/root.  The paths of the container are
 * resolved by a child that chroots into the process's root (and moves to
 * its cwd), so absolute symlinks of the container resolve in the container
 * and mount points are the ones of its mount namespace.  Why not setns():
 * a setns(CLONE_NEWNS) of perf's own process would have to be undone around
 * every open of the host's files (tracefs, ~/.debug, debuginfod's cache,
 * the source directory), and it enters the namespace's root, not the root
 * of the process when that one is chrooted.
 *
 * The uprobe.  The kernel walks the path of a uprobe_events line when it
 * is written, as the writer sees it: /proc/PID/root/opt/app, where the
 * container owns /opt.  A container that swaps /opt/app for a link to
 * /usr/bin/x (an absolute link, followed from the writer's root: the
 * host's) between our resolution and that write would get root's probe
 * on a host file.  So each file resolved is pinned: opened from
 * /proc/PID/root with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), no
 * link and no ".." on the way.  Its line is written by a child in a
 * mount namespace of its own whose /proc is a private tmpfs holding one
 * path, PID/root/opt/app, a link to /proc/p/self/fd/N (p: a procfs of its
 * own; N: the pinned fd).  The kernel walks the very words of the line,
 * so tracefs and `perf probe -l` show /proc/PID/root/opt/app as before,
 * and lands on the pinned inode.  Not /proc/self/fd/N in the line itself:
 * tracefs would show that, which means nothing once we exit.  Not a check
 * of the inode after the write: a container that swaps back in between
 * passes it, and the kernel tells no inode to compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/target-ns.h"
#include "util/alloc.h"
#include "util/debug.h"
#include "util/strbuf.h"

static char *ns_root; /* "/proc/PID/root", NULL without --target-ns */

/* The files resolved in the container, open (O_PATH) for their uprobes. */
static struct pinned_file {
	char *path; /* /proc/PID/root/... */
	int fd;
} * pinned;
static int nr_pinned, alloc_pinned;

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

/*
 * Open @inside (relative to the root, no leading '/') from the root @root
 * without following a link or leaving it; an O_PATH fd or -errno.
 */
static int open_beneath(int root, const char *inside)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root, *inside ? inside : ".", &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* The pinned fd of @path, or -1. */
static int pinned_fd(const char *path)
{
	for (int i = 0; i < nr_pinned; i++)
		if (!strcmp(pinned[i].path, path))
			return pinned[i].fd;
	return -1;
}

/* Pin @path (under ns_root): 0 or -errno (-ELOOP: a link in the way). */
static int pin(const char *path)
{
	int root, fd;

	if (pinned_fd(path) >= 0)
		return 0;
	root = open(ns_root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	fd = open_beneath(root, after_root(path) + (after_root(path)[0] == '/'));
	close(root);
	if (fd < 0)
		return fd;
	ALLOC_GROW(pinned, nr_pinned + 1, alloc_pinned);
	pinned[nr_pinned].path = xstrdup(path);
	pinned[nr_pinned++].fd = fd;
	return 0;
}

char *target_ns__realpath(const char *path)
{
	char *real;
	int err;

	if (!ns_root)
		return realpath(path, NULL);
	real = after_root(path) ? xstrdup(path) : realpath_inside(path);
	if (!real)
		return NULL;
	err = pin(real);
	if (err) {
		free(real);
		errno = -err;
		return NULL;
	}
	return real;
}

bool target_ns__same_file(const char *path, const struct stat *st)
{
	int fd = ns_root ? pinned_fd(path) : -1;
	struct stat pst;

	if (fd < 0)
		return true;
	return fstat(fd, &pst) == 0 && pst.st_dev == st->st_dev && pst.st_ino == st->st_ino;
}

/*
 * The file of the uprobe line @buf (@len bytes) when it is in the target
 * namespace: "p:G/E /proc/PID/root/opt/app:0x1139 ..." gives the path
 * before the offset's ':', copied into @file (@size bytes).  false when
 * the line names another file or does not fit.
 */
static bool line_file(const char *buf, size_t len, char *file, size_t size)
{
	const char *end = buf + len, *p = buf, *word, *colon = NULL;

	while (p < end && *p != ' ' && *p != '\t')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (word = p; p < end && *p != ' ' && *p != '\t' && *p != '\n'; p++)
		if (*p == ':')
			colon = p;
	if (!colon || (size_t)(colon - word) >= size)
		return false;
	memcpy(file, word, colon - word);
	file[colon - word] = '\0';
	return after_root(file) != NULL;
}

/* mkdir -p of the directories of @path (in a private tmpfs); 0 or errno. */
static int make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return errno;
		*p = '/';
	}
	return 0;
}

/*
 * The child that writes the line: a mount namespace of its own, /proc a
 * tmpfs there with @file a link to the pinned @fd through a procfs of its
 * own, then the write.  Only system calls: it was forked.  Exits with 0
 * or the errno.  @target: "/proc/p/self/fd/N".
 */
static void write_through_pin(int tracefs_fd, const void *buf, size_t len, char *file,
			      const char *target)
{
	ssize_t n;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("perf-target-ns", "/proc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0700") < 0 ||
	    mkdir("/proc/p", 0700) < 0 ||
	    mount("proc", "/proc/p", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		_exit(errno);
	errno = make_parents(file);
	if (errno || symlink(target, file) < 0)
		_exit(errno);
	n = write(tracefs_fd, buf, len);
	_exit(n < 0 ? errno : (size_t)n == len ? 0 : EIO);
}

ssize_t target_ns__write(int fd, const void *buf, size_t len)
{
	char file[PATH_MAX], target[64];
	int pfd, status, err;
	pid_t child;

	if (!ns_root || !line_file(buf, len, file, sizeof(file)))
		return write(fd, buf, len);
	err = -pin(file); /* a line of the cache, not resolved here */
	pfd = err ? -1 : pinned_fd(file);
	if (pfd < 0) {
		errno = err ? err : ENOENT;
		return -1;
	}
	snprintf(target, sizeof(target), "/proc/p/self/fd/%d", pfd);
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0)
		write_through_pin(fd, buf, len, file, target);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	err = WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
	if (err) {
		errno = err;
		return -1;
	}
	return len;
}
