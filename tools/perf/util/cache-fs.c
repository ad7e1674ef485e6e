// SPDX-License-Identifier: GPL-2.0
/*
 * The fd-based walk of a cache nobody else may steer (see cache-fs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/cache-fs.h"
#include "util/strbuf.h"
#include "util/util.h"

bool cache_fs__owned(const struct stat *st)
{
	static uid_t euid = (uid_t)-1;

	if (euid == (uid_t)-1)
		euid = geteuid();
	return st->st_uid == euid || st->st_uid == 0;
}

bool cache_fs__trusted(const struct stat *st)
{
	if (!cache_fs__owned(st))
		return false;
	/* A link's own mode means nothing; its directory is what is checked. */
	return S_ISLNK(st->st_mode) || !(st->st_mode & (S_IWGRP | S_IWOTH));
}

void cache_fs__why_untrusted(const char *path, const struct stat *st, struct strbuf *err)
{
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		struct passwd *pw = getpwuid(st->st_uid);

		strbuf_addf(err, "refusing %s: owned by uid %u", path, (unsigned int)st->st_uid);
		if (pw)
			strbuf_addf(err, " (%s)", pw->pw_name);
		strbuf_addstr(err, ", not by you or root; chown or remove it");
		return;
	}
	strbuf_addf(err, "refusing %s: writable by %s; chmod go-w it or remove it", path,
		    st->st_mode & S_IWOTH ? "others" : "its group");
}

/* The line for a non-directory where a directory should be. */
static void why_not_dir(const char *path, const struct stat *st, struct strbuf *err)
{
	if (S_ISLNK(st->st_mode))
		strbuf_addf(err,
			    "refusing %s: a symbolic link where a directory should be; remove it",
			    path);
	else
		strbuf_addf(err, "refusing %s: not a directory; remove it", path);
}

/* Check the directory @fd (@path); 0 or -CACHE_FS_REFUSED. */
static int check_dir_fd(int fd, const char *path, struct strbuf *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		why_not_dir(path, &st, err);
		return -CACHE_FS_REFUSED;
	}
	if (!cache_fs__trusted(&st)) {
		cache_fs__why_untrusted(path, &st, err);
		return -CACHE_FS_REFUSED;
	}
	return 0;
}

/* The longest chain of links a path may go through, as the kernel's. */
#define ROOT_MAX_LINKS 40

/* Drop the last component of @path ("/a/b" -> "/a"), for a "..". */
static void path_up(struct strbuf *path)
{
	char *slash = strrchr(path->buf, '/');

	if (slash)
		strbuf_setlen(path, slash == path->buf ? 1 : (size_t)(slash - path->buf));
}

/*
 * Resolve @root as the kernel would, one component at a time, but follow
 * a symbolic link only when it is owned by the effective user or root:
 * another user's link (their HOME kept by sudo -E, ~/.debug -> /etc) is
 * refused like anything of theirs below the root.  Each link is opened
 * (O_PATH) before it is judged and read, so what is read is what was
 * checked.  With @create, missing directories are made (0755).  The
 * directory's fd, or -errno; -CACHE_FS_REFUSED with the line in @err.
 */
static int open_root_path(const char *root, bool create, struct strbuf *err)
{
	struct strbuf shown = STRBUF_INIT, target = STRBUF_INIT;
	char *rest = xstrdup(root), *p = rest;
	int cur, links = 0, ret = 0;

	if (!*root) {
		free(rest);
		return -ENOENT;
	}
	cur = open(root[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0) {
		ret = -errno;
		goto out;
	}
	if (root[0] == '/')
		strbuf_addch(&shown, '/');
	while (*p) {
		size_t skip = strspn(p, "/"), len = strcspn(p + skip, "/");
		char *name = xstrndup(p + skip, len);
		struct stat st;
		ssize_t n;
		int fd;

		p += skip + len;
		if (!len || !strcmp(name, ".")) {
			free(name);
			continue;
		}
		if (!strcmp(name, "..")) {
			path_up(&shown);
		} else {
			if (shown.len && shown.buf[shown.len - 1] != '/')
				strbuf_addch(&shown, '/');
			strbuf_addstr(&shown, name);
		}
		fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT && create) {
			if (mkdirat(cur, name, 0755) < 0 && errno != EEXIST)
				fd = -1;
			else
				fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		}
		free(name);
		if (fd < 0 || fstat(fd, &st) < 0) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			close(cur);
			cur = fd;
			continue;
		}
		if (!S_ISLNK(st.st_mode)) {
			close(fd);
			ret = -ENOTDIR;
			break;
		}
		if (!cache_fs__owned(&st)) {
			cache_fs__why_untrusted(shown.buf, &st, err);
			close(fd);
			ret = -CACHE_FS_REFUSED;
			break;
		}
		strbuf_reset(&target);
		strbuf_grow(&target, PATH_MAX);
		n = readlinkat(fd, "", target.buf, PATH_MAX);
		close(fd);
		if (n <= 0 || n >= PATH_MAX || ++links > ROOT_MAX_LINKS) {
			ret = n < 0	      ? -errno
			      : n == 0	      ? -ENOENT
			      : n >= PATH_MAX ? -ENAMETOOLONG
					      : -ELOOP;
			break;
		}
		strbuf_setlen(&target, n);
		/* The link's target takes its place in what is left to walk. */
		strbuf_addf(&target, "/%s", p);
		free(rest);
		p = rest = strbuf_detach(&target, NULL);
		path_up(&shown);
		if (rest[0] == '/') {
			close(cur);
			cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
			strbuf_reset(&shown);
			strbuf_addch(&shown, '/');
			if (cur < 0) {
				ret = -errno;
				break;
			}
		}
	}
	if (!ret) {
		/* A real descriptor of the directory: O_PATH ones lock and list nothing. */
		ret = openat(cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ret < 0)
			ret = -errno;
	}
	if (cur >= 0)
		close(cur);
out:
	free(rest);
	strbuf_release(&shown);
	strbuf_release(&target);
	return ret;
}

int cache_fs__open_root(const char *root, bool create, struct strbuf *err)
{
	int fd = open_root_path(root, create, err), ret;

	if (fd < 0)
		return fd;
	ret = check_dir_fd(fd, root, err);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static void made_add(struct cache_fs_made *made, const char *rel, size_t len)
{
	ALLOC_GROW(made->rel, made->nr + 1, made->alloc);
	made->rel[made->nr++] = xstrndup(rel, len);
}

/*
 * The directories of the last walk that made nothing, so that the next one
 * starts from the deepest one they share (a walk over every entry goes
 * down the same directories again and again).  Their checks hold for the
 * command.  Never the last component of a walk: that one is opened anew,
 * so an entry removed and made again since is seen as the new one.
 */
static struct {
	int dirfd;
	char *base;
	char **names;
	int *fds;
	int nr, alloc, alloc_fds;
} memo = { .dirfd = -1 };

void cache_fs__forget(void)
{
	for (int i = 0; i < memo.nr; i++) {
		close(memo.fds[i]);
		free(memo.names[i]);
	}
	memo.nr = 0;
	free(memo.base);
	memo.base = NULL;
	memo.dirfd = -1;
}

/* Keep the first @k directories of the memo of walks from @dirfd (@base). */
static void memo_keep(int dirfd, const char *base, int k)
{
	if (memo.dirfd != dirfd || !memo.base || strcmp(memo.base, base)) {
		cache_fs__forget();
		memo.dirfd = dirfd;
		memo.base = xstrdup(base);
		return;
	}
	while (memo.nr > k) {
		memo.nr--;
		close(memo.fds[memo.nr]);
		free(memo.names[memo.nr]);
	}
}

static void memo_push(const char *name, int fd)
{
	ALLOC_GROW(memo.names, memo.nr + 1, memo.alloc);
	ALLOC_GROW(memo.fds, memo.nr + 1, memo.alloc_fds);
	memo.names[memo.nr] = xstrdup(name);
	memo.fds[memo.nr++] = fd;
}

/* The components of @rel, or -EINVAL for a "." or "..". */
static int split_rel(const char *rel, char ***out)
{
	char **v = NULL;
	int n = 0, alloc = 0;

	for (const char *p = rel; *p;) {
		size_t len = strcspn(p, "/");

		if ((len == 1 && p[0] == '.') || (len == 2 && !strncmp(p, "..", 2))) {
			lsdir_free(v, n);
			return -EINVAL;
		}
		if (len) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = xstrndup(p, len);
		}
		p += len + (p[len] == '/');
	}
	*out = v;
	return n;
}

/*
 * Open directory @name of @fd (@path, its name added) as the walk does;
 * with @made, make it when missing and note it as @sofar.
 */
static int walk_one(int fd, const char *name, struct strbuf *path, const char *sofar,
		    struct cache_fs_made *made, struct strbuf *err)
{
	int next, ret = 0;

	strbuf_addch(path, '/');
	strbuf_addstr(path, name);
	next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (next < 0 && errno == ENOENT && made) {
		if (mkdirat(fd, name, 0755) == 0)
			made_add(made, sofar, strlen(sofar));
		else if (errno != EEXIST)
			return -errno;
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (next < 0) {
		struct stat st;

		ret = -errno;
		if ((ret == -ELOOP || ret == -ENOTDIR) &&
		    fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			why_not_dir(path->buf, &st, err);
			ret = -CACHE_FS_REFUSED;
		}
		return ret;
	}
	ret = check_dir_fd(next, path->buf, err);
	if (ret) {
		close(next);
		return ret;
	}
	return next;
}

int cache_fs__open_dir(int dirfd, const char *base, const char *rel, struct cache_fs_made *made,
		       struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, sofar = STRBUF_INIT;
	char **names;
	int n = split_rel(rel, &names), k = 0, cur = dirfd, next = 0;

	if (n < 0)
		return n;
	if (!n) {
		next = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
		return next < 0 ? -errno : next;
	}
	strbuf_addstr(&path, base);
	if (!made) {
		/* Start below the deepest directory the last walk shares. */
		memo_keep(dirfd, base, memo.nr);
		while (k < memo.nr && k < n - 1 && !strcmp(memo.names[k], names[k]))
			k++;
		memo_keep(dirfd, base, k);
		for (int i = 0; i < k; i++) {
			/* not strbuf_addf(): its vsnprintf() was a sixth of a cached add */
			strbuf_addch(&path, '/');
			strbuf_addstr(&path, names[i]);
		}
		cur = k ? memo.fds[k - 1] : dirfd;
	}
	for (int i = k; i < n; i++) {
		if (i)
			strbuf_addch(&sofar, '/');
		strbuf_addstr(&sofar, names[i]);
		next = walk_one(cur, names[i], &path, sofar.buf, made, err);
		if (made && cur != dirfd)
			close(cur);
		if (next < 0)
			break;
		if (!made && i < n - 1)
			memo_push(names[i], next); /* the memo's now */
		cur = next;
	}
	lsdir_free(names, n);
	strbuf_release(&sofar);
	strbuf_release(&path);
	/* Gone below a kept directory: perhaps that one was removed since. */
	if (next == -ENOENT && k > 0) {
		cache_fs__forget();
		return cache_fs__open_dir(dirfd, base, rel, made, err);
	}
	return next;
}

int cache_fs__lock(int fd, int dirfd, const char *rel)
{
	struct stat a, b;

	if (flock(fd, LOCK_EX) < 0 || fstat(fd, &a) < 0)
		return -errno;
	if (fstatat(dirfd, rel, &b, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : -errno;
	return a.st_ino != b.st_ino || a.st_dev != b.st_dev;
}

void cache_fs_walk__init(struct cache_fs_walk *w, int dirfd, const char *base)
{
	memset(w, 0, sizeof(*w));
	w->dirfd = dirfd;
	w->base = xstrdup(base);
}

/* Keep the first @k directories of the walk. */
static void walk_keep(struct cache_fs_walk *w, int k)
{
	while (w->nr > k) {
		w->nr--;
		close(w->fds[w->nr]);
		free(w->names[w->nr]);
	}
}

int cache_fs_walk__open(struct cache_fs_walk *w, const char *rel, bool create, int *parent,
			bool *made, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, sofar = STRBUF_INIT;
	struct cache_fs_made *mk = create ? &w->made : NULL;
	char **names;
	int n = split_rel(rel, &names), k = 0, cur, next = -ENOENT, before;

	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	while (k < w->nr && k < n - 1 && !strcmp(w->names[k], names[k]))
		k++;
	walk_keep(w, k);
	strbuf_addstr(&path, w->base);
	for (int i = 0; i < k; i++) {
		strbuf_addf(&path, "/%s", names[i]);
		strbuf_addf(&sofar, "%s%s", i ? "/" : "", names[i]);
	}
	cur = k ? w->fds[k - 1] : w->dirfd;
	for (int i = k; i < n; i++) {
		strbuf_addf(&sofar, "%s%s", i ? "/" : "", names[i]);
		before = w->made.nr;
		next = walk_one(cur, names[i], &path, sofar.buf, mk, err);
		if (next < 0)
			break;
		if (i == n - 1) {
			if (made)
				*made = w->made.nr > before;
			break;
		}
		ALLOC_GROW(w->names, w->nr + 1, w->alloc);
		ALLOC_GROW(w->fds, w->nr + 1, w->alloc_fds);
		w->names[w->nr] = xstrdup(names[i]);
		w->fds[w->nr++] = next;
		cur = next;
	}
	if (next >= 0 && parent)
		*parent = w->nr ? w->fds[w->nr - 1] : w->dirfd;
	lsdir_free(names, n);
	strbuf_release(&sofar);
	strbuf_release(&path);
	/* Gone below a kept directory: perhaps that one was removed since. */
	if (next == -ENOENT && k > 0) {
		walk_keep(w, 0);
		return cache_fs_walk__open(w, rel, create, parent, made, err);
	}
	return next;
}

void cache_fs_walk__release(struct cache_fs_walk *w)
{
	walk_keep(w, 0);
	free(w->names);
	free(w->fds);
	free(w->base);
	cache_fs__made_release(&w->made);
	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
}

void cache_fs_walk__unmake(struct cache_fs_walk *w)
{
	walk_keep(w, 0);
	cache_fs__unmake(w->dirfd, &w->made);
	cache_fs_walk__release(w);
}

void cache_fs__made_release(struct cache_fs_made *made)
{
	for (int i = 0; i < made->nr; i++)
		free(made->rel[i]);
	free(made->rel);
	memset(made, 0, sizeof(*made));
}

void cache_fs__unmake(int dirfd, struct cache_fs_made *made)
{
	cache_fs__forget();
	/* Made parents first: the deepest is the last one. */
	for (int i = made->nr - 1; i >= 0; i--)
		unlinkat(dirfd, made->rel[i], AT_REMOVEDIR);
	cache_fs__made_release(made);
}

const char *cache_fs__kind(const struct stat *st)
{
	return S_ISREG(st->st_mode)    ? "a regular file"
	       : S_ISLNK(st->st_mode)  ? "a symbolic link"
	       : S_ISFIFO(st->st_mode) ? "a FIFO"
	       : S_ISDIR(st->st_mode)  ? "a directory"
				       : "a device or socket";
}

int cache_fs__check_file(int dirfd, const char *base, const char *name, struct strbuf *err)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "refusing %s/%s: not a regular file (%s); remove it", base, name,
			    cache_fs__kind(&st));
		return -CACHE_FS_REFUSED;
	}
	if (!cache_fs__trusted(&st)) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s", base, name);
		cache_fs__why_untrusted(path.buf, &st, err);
		strbuf_release(&path);
		return -CACHE_FS_REFUSED;
	}
	return 0;
}

/* Reopen the walk of cache_fs__check_path() at "/"; 0 or -errno. */
static int walk_from_root(int *fd, struct strbuf *at, struct strbuf *err)
{
	if (*fd >= 0)
		close(*fd);
	strbuf_reset(at);
	*fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	return check_dir_fd(*fd, "/", err);
}

int cache_fs__check_path(const char *path, bool dir, struct strbuf *err)
{
	struct strbuf todo = STRBUF_INIT, at = STRBUF_INIT;
	char target[PATH_MAX];
	int fd = -1, links = 0, ret;
	size_t pos = 0;

	if (path[0] != '/') {
		strbuf_addf(err, "refusing %s: not an absolute path", path);
		return -CACHE_FS_REFUSED;
	}
	strbuf_addstr(&todo, path);
	ret = walk_from_root(&fd, &at, err);
	while (!ret) {
		size_t len, next;
		bool last, done = false;
		struct stat st;
		char *name;
		ssize_t n;
		int sub;

		while (todo.buf[pos] == '/')
			pos++;
		if (!todo.buf[pos]) { /* "/" itself, or a path ending in '/' */
			if (!dir) {
				strbuf_addf(err, "refusing %s: a directory", path);
				ret = -CACHE_FS_REFUSED;
			}
			break;
		}
		len = strcspn(todo.buf + pos, "/");
		for (next = pos + len; todo.buf[next] == '/'; next++)
			;
		last = !todo.buf[next];
		name = xstrndup(todo.buf + pos, len);
		pos = next;
		if (!strcmp(name, ".")) {
			free(name);
			if (last && !dir)
				ret = -EISDIR;
			continue;
		}
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = -errno;
		} else if (S_ISLNK(st.st_mode)) {
			/* In a trusted directory: only a trusted user changes it. */
			n = readlinkat(fd, name, target, sizeof(target) - 1);
			if (n < 0 || ++links > 40) {
				ret = n < 0 ? -errno : -ELOOP;
			} else {
				struct strbuf rest = STRBUF_INIT;

				target[n] = '\0';
				strbuf_addstr(&rest, target);
				if (todo.buf[pos])
					strbuf_addf(&rest, "/%s", todo.buf + pos);
				strbuf_release(&todo);
				todo = rest;
				pos = 0;
				if (target[0] == '/')
					ret = walk_from_root(&fd, &at, err);
			}
		} else if (last && !dir) {
			ret = cache_fs__check_file(fd, at.len ? at.buf : "", name, err);
			done = true;
		} else if (!S_ISDIR(st.st_mode)) {
			ret = -ENOTDIR;
		} else {
			/* ".." leaves for a parent that is checked as well */
			sub = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (!strcmp(name, "..")) {
				char *slash = strrchr(at.buf, '/');

				strbuf_setlen(&at, slash ? (size_t)(slash - at.buf) : 0);
			} else {
				strbuf_addf(&at, "/%s", name);
			}
			ret = sub < 0 ? -errno : check_dir_fd(sub, at.len ? at.buf : "/", err);
			if (sub >= 0) {
				close(fd);
				fd = sub;
			}
			done = last;
		}
		free(name);
		if (done)
			break;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&todo);
	strbuf_release(&at);
	return ret;
}

/* Remove everything in the directory @fd (closed here), never following a link. */
static int empty_dir_fd(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(d)) != NULL && !ret) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = cache_fs__remove_tree(dirfd(d), de->d_name);
		if (!ret)
			rewinddir(d); /* the listing changed under readdir */
	}
	closedir(d);
	return ret;
}

int cache_fs__remove_tree(int dirfd, const char *name)
{
	int fd, ret;

	cache_fs__forget(); /* what it kept may be removed now */
	if (unlinkat(dirfd, name, 0) == 0)
		return 0;
	if (errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	ret = empty_dir_fd(fd);
	if (ret)
		return ret;
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

void cache_fs__tmp_name(const char *name, struct strbuf *tmp)
{
	static unsigned int seq;

	strbuf_reset(tmp);
	strbuf_addf(tmp, "%s.tmp.%d.%u", name, (int)getpid(), seq++);
}

int cache_fs__open_tmp(int dirfd, const char *name, mode_t mode, struct strbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd;

		cache_fs__tmp_name(name, tmp);
		fd = openat(dirfd, tmp->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0) {
			/* The umask may have taken bits away. */
			if (fchmod(fd, mode) < 0) {
				int err = -errno;

				close(fd);
				unlinkat(dirfd, tmp->buf, 0);
				return err;
			}
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Is the junk "...tmp.PID[.N]" @name's writer gone, or is it too old? */
static bool junk_is_stale(int dirfd, const char *name, const char *pid_at)
{
	struct stat st;
	char *end;
	long pid = strtol(pid_at, &end, 10);

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	if (time(NULL) - st.st_mtime > CACHE_FS_JUNK_AGE_SEC)
		return true;
	if (end == pid_at || (*end && *end != '.') || pid <= 0)
		return false; /* not our naming: only by its age */
	if (pid == getpid())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

void cache_fs__remove_junk(int dirfd, const char *name, bool locked)
{
	struct strbuf prefix = STRBUF_INIT;
	struct dirent *de;
	/* A new open of it: a dup would share (and leave) the listing's offset. */
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (name)
		strbuf_addf(&prefix, "%s.tmp.", name);
	while ((de = readdir(d)) != NULL) {
		const char *at;

		if (name) {
			if (strncmp(de->d_name, prefix.buf, prefix.len))
				continue;
			at = de->d_name + prefix.len;
		} else {
			at = strstr(de->d_name, ".tmp.");
			if (!at)
				continue;
			at += 5;
		}
		if (locked || junk_is_stale(dirfd, de->d_name, at))
			cache_fs__remove_tree(dirfd, de->d_name);
	}
	closedir(d);
	strbuf_release(&prefix);
}

int cache_fs__write_atomic(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
			   bool sync)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd = cache_fs__open_tmp(dirfd, name, mode, &tmp), ret;

	if (fd < 0) {
		strbuf_release(&tmp);
		return fd;
	}
	ret = write_all(fd, data, len);
	if (!ret && sync && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp.buf, dirfd, name) < 0)
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp.buf, 0);
	else if (sync)
		fsync(dirfd);
	strbuf_release(&tmp);
	return ret;
}
