// SPDX-License-Identifier: GPL-2.0
/*
 * The system's perf behind this one: finding it (never this binary) and
 * running it, with the guard that keeps a wrapper of this binary from
 * looping back (system-perf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/system-perf.h"
#include "util/util.h"

static char *find_candidate(void);

/* The file @pid runs is @path (after symlinks). */
static bool runs_file(long pid, const char *path)
{
	char proc[64], *exe, *file;
	bool same;

	snprintf(proc, sizeof(proc), "/proc/%ld/exe", pid);
	exe = realpath(proc, NULL);
	file = path ? realpath(path, NULL) : NULL;
	same = exe && file && !strcmp(exe, file);
	free(exe);
	free(file);
	return same;
}

bool system_perf__looping(void)
{
	const char *guard = getenv(SYSTEM_PERF_ENV);
	char *end, *sys;
	long pid;
	bool loop;

	if (!guard || !*guard)
		return false;
	errno = 0;
	pid = strtol(guard, &end, 10);
	if (errno || *end)
		return false;
	if (pid == (long)getpid())
		return true;
	if (pid != (long)getppid())
		return false;
	/*
	 * Our parent is the process that ran the system perf.  When it still
	 * runs that very file, it is the system perf itself running us (perf
	 * record -- perf ...): no loop.  Else it is a wrapper that ran us.
	 */
	sys = find_candidate();
	loop = !runs_file(pid, sys);
	free(sys);
	return loop;
}

/* @path is an executable regular file that is not the file @self. */
static bool other_perf(const char *path, const struct stat *self)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, X_OK))
		return false;
	return !self || st.st_dev != self->st_dev || st.st_ino != self->st_ino;
}

/* The next `perf` on PATH that is not this binary. */
static char *find_on_path(const struct stat *self)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *colon = strchrnul(path, ':');
		/* An empty entry is the current directory, as for execvp(). */
		char *dir = colon > path ? xstrndup(path, colon - path) : xstrdup(".");
		char *cand = path_join(dir, "perf");

		free(dir);
		if (other_perf(cand, self))
			return cand;
		free(cand);
		path = *colon ? colon + 1 : colon;
	}
	return NULL;
}

static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Debian's /usr/bin/perf_X.Y: the running kernel's X.Y, else the newest. */
static char *find_versioned(const struct stat *self)
{
	char *found = NULL, want[64] = "";
	struct utsname uts;
	glob_t g;

	if (!uname(&uts)) {
		int major, minor;

		if (sscanf(uts.release, "%d.%d", &major, &minor) == 2)
			snprintf(want, sizeof(want), "/usr/bin/perf_%d.%d", major, minor);
	}
	if (glob("/usr/bin/perf_[0-9]*", 0, NULL, &g))
		return NULL;
	qsort(g.gl_pathv, g.gl_pathc, sizeof(*g.gl_pathv), cmp_version);
	for (size_t i = g.gl_pathc; i-- > 0;) {
		if (!other_perf(g.gl_pathv[i], self))
			continue;
		if (!strcmp(g.gl_pathv[i], want)) {
			free(found);
			found = xstrdup(want);
			break;
		}
		if (!found)
			found = xstrdup(g.gl_pathv[i]);
	}
	globfree(&g);
	return found;
}

static char *find_candidate(void)
{
	struct stat self;
	const struct stat *selfp = stat("/proc/self/exe", &self) ? NULL : &self;
	char *path = find_on_path(selfp);

	return path ? path : find_versioned(selfp);
}

char *system_perf__find(void)
{
	return system_perf__looping() ? NULL : find_candidate();
}

static void set_guard(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	setenv(SYSTEM_PERF_ENV, pid, 1);
}

int system_perf__exec(const char *path, const char **argv)
{
	const char *slash = argv[0] ? strrchr(argv[0], '/') : NULL;
	const char *base = slash ? slash + 1 : argv[0];

	/*
	 * perf puts the directory of its argv[0] first on the PATH of what it
	 * runs: the name the user typed keeps `perf` there this perf.
	 */
	if (!base || strcmp(base, "perf"))
		argv[0] = path;
	set_guard();
	fflush(stdout);
	execv(path, (char *const *)argv);
	return -errno;
}

int system_perf__run(const char *path, const char **argv, struct strbuf *out)
{
	int fds[2], status, err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fds[1], 1);
		system_perf__exec(path, argv);
		_exit(127);
	}
	close(fds[1]);
	err = strbuf_read_fd(out, fds[0]);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (err < 0)
		return err;
	if (WIFEXITED(status))
		return WEXITSTATUS(status) == 127 ? -ENOEXEC : WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
