// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/util.h"

int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first 8 bytes of @s (NUL-padded), big-endian: compared as numbers, as strcmp() would. */
static uint64_t str_key(const char *s)
{
	uint64_t k = 0;
	int i = 0;

	for (; i < 8 && s[i]; i++)
		k = k << 8 | (unsigned char)s[i];
	return k << (8 * (8 - i));
}

struct str_key {
	uint64_t key;
	char *s;
};

static bool str_key_less(const struct str_key *x, const struct str_key *y)
{
	if (x->key != y->key)
		return x->key < y->key;
	/* the same 8 bytes: equal if they hold the NUL, else compare on */
	return (x->key & 0xff) && strcmp(x->s + 8, y->s + 8) < 0;
}

void strings_sort(char **v, size_t n)
{
	struct str_key *k = xmalloc(sizeof(*k) * (n ? n : 1)),
		       *tmp = xmalloc(sizeof(*k) * (n ? n : 1));
	struct str_key *from = k, *to = tmp, *t;

	for (size_t i = 0; i < n; i++)
		k[i] = (struct str_key){ str_key(v[i]), v[i] };
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				to[o++] = str_key_less(&from[j], &from[i]) ? from[j++] : from[i++];
			while (i < mid)
				to[o++] = from[i++];
			while (j < hi)
				to[o++] = from[j++];
		}
		t = from, from = to, to = t;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = from[i].s;
	free(k);
	free(tmp);
}

char *path_join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	strbuf_add(&sb, dir, len);
	if (!(len == 1 && dir[0] == '/'))
		strbuf_addch(&sb, '/');
	while (*name == '/')
		name++;
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

int mkdir_p(const char *path, mode_t mode)
{
	char *copy = xstrdup(path);
	int ret = 0;

	for (char *p = copy + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(copy, mode) < 0 && errno != EEXIST) {
			ret = -errno;
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	if (!ret) {
		struct stat st;

		if (stat(path, &st) < 0)
			ret = -errno;
		else if (!S_ISDIR(st.st_mode))
			ret = -ENOTDIR;
	}
	free(copy);
	return ret;
}

void rmdir_parents(const char *path, const char *stop)
{
	char *copy = xstrdup(path);
	size_t stop_len = strlen(stop);

	while (strlen(copy) > stop_len && !strncmp(copy, stop, stop_len)) {
		char *slash;

		if (rmdir(copy) < 0)
			break;
		slash = strrchr(copy, '/');
		if (!slash || slash == copy)
			break;
		*slash = '\0';
	}
	free(copy);
}

int rm_rf(const char *path)
{
	struct stat st;
	char **names;
	int nr, ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	nr = lsdir(path, NULL, &names);
	if (nr < 0)
		return nr;
	for (int i = 0; i < nr && !ret; i++) {
		char *sub = path_join(path, names[i]);

		ret = rm_rf(sub);
		free(sub);
	}
	lsdir_free(names, nr);
	if (!ret && rmdir(path) < 0)
		ret = -errno;
	return ret;
}

int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* Open a fresh temporary file next to @path; its name is left in @tmp. */
static int open_tmp_beside(const char *path, struct strbuf *tmp, mode_t mode)
{
	int fd;

	strbuf_addf(tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp->buf);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) < 0) {
		int err = -errno;

		close(fd);
		unlink(tmp->buf);
		return err;
	}
	return fd;
}

/* fsync, close and rename @fd's file @tmp to @path, or remove it on error. */
static int commit_tmp(int fd, const char *tmp, const char *path, int ret)
{
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd = open_tmp_beside(path, &tmp, mode);
	int ret;

	if (fd < 0) {
		strbuf_release(&tmp);
		return fd;
	}
	ret = commit_tmp(fd, tmp.buf, path, write_all(fd, data, len));
	strbuf_release(&tmp);
	return ret;
}

int copyfile_atomic(const char *from, const char *to, mode_t mode)
{
	struct strbuf tmp = STRBUF_INIT;
	char buf[65536];
	int in, out, ret = 0;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open_tmp_beside(to, &tmp, mode);
	if (out < 0) {
		close(in);
		strbuf_release(&tmp);
		return out;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				ret = -errno;
			break;
		}
		ret = write_all(out, buf, n);
		if (ret)
			break;
	}
	close(in);
	ret = commit_tmp(out, tmp.buf, to, ret);
	strbuf_release(&tmp);
	return ret;
}

bool lsdir_no_dot_filter(const char *dir, const char *name, unsigned char d_type)
{
	return name[0] != '.';
}

int lsdir(const char *dir, lsdir_filter_t filter, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **list = NULL;
	int nr = 0, alloc = 0;

	*names = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (filter && !filter(dir, de->d_name, de->d_type))
			continue;
		ALLOC_GROW(list, nr + 1, alloc);
		list[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(list, nr, sizeof(*list), strcmp_ptr);
	*names = list;
	return nr;
}

void lsdir_free(char **names, int nr)
{
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}
