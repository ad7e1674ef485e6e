// SPDX-License-Identifier: GPL-2.0
/*
 * The system's perf behind this one: finding it (never this binary, never
 * one another user could have written) and running it, with the guard
 * that keeps a wrapper of this binary from looping back (system-perf.h).
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

#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/system-perf.h"
#include "util/util.h"

/* The kernel's own limit on interpreters of interpreters (BINPRM_MAX_RECURSION). */
#define MAX_INTERPRETERS 4

static char *find_candidate(struct strbuf *why);

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
	sys = find_candidate(NULL);
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

/*
 * The interpreter of the script @path ("#!INTERP ..."): a new string, NULL
 * when @path is no script.
 */
static char *interpreter(const char *path)
{
	char head[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head) - 1);
	size_t start = 2, len;

	if (fd >= 0)
		close(fd);
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return NULL;
	head[n] = '\0';
	start += strspn(head + 2, " \t");
	len = strcspn(head + start, " \t\n");
	return xstrndup(head + start, len);
}

/*
 * Is the program @path one only you or root could have written: the file
 * and every directory on its way (cache_fs__check_path()), and for a
 * script its interpreter the same way?  The reason it is not in @why.
 */
static bool trusted_program(const char *path, struct strbuf *why)
{
	char *cur = xstrdup(path), *interp;
	bool ok = false;

	for (int depth = 0; depth <= MAX_INTERPRETERS; depth++) {
		int ret = cache_fs__check_path(cur, false, why);

		if (ret) {
			if (ret != -CACHE_FS_REFUSED)
				strbuf_addf(why, "%s: %s", cur, strerror(-ret));
			break;
		}
		interp = interpreter(cur);
		if (!interp) {
			ok = true;
			break;
		}
		free(cur);
		cur = interp;
	}
	if (!ok && !why->len)
		strbuf_addf(why, "refusing %s: interpreters nested too deep", cur);
	free(cur);
	return ok;
}

/*
 * @cand, a perf that is not this binary, when it may run; else the reason
 * is noted in @why (may be NULL), one line per candidate.
 */
static bool usable(const char *cand, struct strbuf *why)
{
	struct strbuf reason = STRBUF_INIT;
	bool ok = trusted_program(cand, &reason);

	if (!ok && why)
		strbuf_addf(why, "Warning: not running %s as the system perf: %s\n", cand,
			    reason.buf);
	strbuf_release(&reason);
	return ok;
}

/*
 * The next `perf` on PATH that is not this binary, from a directory named
 * by an absolute path: an empty entry, "." or a relative one would be
 * wherever the user stands, perhaps another user's directory.
 */
static char *find_on_path(const struct stat *self, struct strbuf *why)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *colon = strchrnul(path, ':');
		char *dir = xstrndup(path, colon - path);
		char *cand = dir[0] == '/' ? path_join(dir, "perf") : NULL;

		free(dir);
		if (cand && other_perf(cand, self) && usable(cand, why))
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
static char *find_versioned(const struct stat *self, struct strbuf *why)
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
		if (!other_perf(g.gl_pathv[i], self) || !usable(g.gl_pathv[i], why))
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

static char *find_candidate(struct strbuf *why)
{
	struct stat self;
	const struct stat *selfp = stat("/proc/self/exe", &self) ? NULL : &self;
	char *path = find_on_path(selfp, why);

	return path ? path : find_versioned(selfp, why);
}

char *system_perf__find(void)
{
	static bool warned; /* once per command, however many times it looks */
	struct strbuf why = STRBUF_INIT;
	char *path = system_perf__looping() ? NULL : find_candidate(&why);

	if (why.len && !warned)
		pr_warning("%s", why.buf);
	warned = true;
	strbuf_release(&why);
	return path;
}

/*
 * PATH for a script: only its absolute, trusted directories, so that what
 * it runs by name (Debian's /usr/bin/perf runs perf_X.Y so) is found
 * where only you or root could have put it.
 */
static void trusted_path_for_scripts(const char *path)
{
	const char *p = getenv("PATH");
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	char *interp = interpreter(path);
	bool changed = false;

	if (!interp || !p)
		goto out;
	while (*p) {
		const char *colon = strchrnul(p, ':');
		char *dir = xstrndup(p, colon - p);

		if (dir[0] == '/' && !cache_fs__check_path(dir, true, &why)) {
			strbuf_addf(&sb, "%s%s", sb.len ? ":" : "", dir);
		} else {
			pr_debug("Not on the system perf's PATH: %s\n", dir);
			changed = true;
		}
		strbuf_reset(&why);
		free(dir);
		p = *colon ? colon + 1 : colon;
	}
	if (changed)
		setenv("PATH", sb.buf, 1);
out:
	free(interp);
	strbuf_release(&sb);
	strbuf_release(&why);
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
	trusted_path_for_scripts(path);
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
