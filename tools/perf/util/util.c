// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/util.h"

int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The 8 bytes of @s from @at (NUL-padded past its end, which is not read
 * beyond), big-endian: keys compare as the bytes do under strcmp().
 * @padded: 8 bytes past @s's NUL may be read, so they are read at once,
 * and what follows the first NUL masked off.
 */
static uint64_t str_key(const char *s, size_t at, bool padded)
{
	uint64_t k = 0;
	int i = 0;

	if (padded) {
		uint64_t z;

		memcpy(&k, s + at, 8);
		if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
			/* the lowest zero byte is the first one: the bytes before it kept */
			z = (k - 0x0101010101010101ULL) & ~k & 0x8080808080808080ULL;
			if (z)
				k &= (1ULL << (__builtin_ctzll(z) & ~7)) - 1;
			return __builtin_bswap64(k);
		}
		k = 0;
	}
	for (s += at; i < 8 && s[i]; i++)
		k = k << 8 | (unsigned char)s[i];
	return i ? k << (8 * (8 - i)) : 0;
}

struct str_key {
	uint64_t key; /* of s at the depth being sorted */
	char *s;
};

static void str_key_swap(struct str_key *a, struct str_key *b)
{
	struct str_key t = *a;

	*a = *b;
	*b = t;
}

/*
 * @a (@n strings equal in their first @depth bytes, keyed at @depth)
 * sorted: three-way quicksort of the keys, the strings of one key sorted
 * on at the next 8 bytes unless it holds their end.  The names of a C++
 * program share long prefixes ("ClassName::"): each byte is looked at
 * about once, not once per comparison.
 */
static void str_keys_sort(struct str_key *a, size_t n, size_t depth, bool padded)
{
	while (n > 12) {
		uint64_t x = a[0].key, y = a[n / 2].key, z = a[n - 1].key, pivot;
		size_t lt = 0, i = 0, gt = n;

		/* the median of three */
		pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		while (i < gt) {
			if (a[i].key < pivot)
				str_key_swap(&a[lt++], &a[i++]);
			else if (a[i].key > pivot)
				str_key_swap(&a[i], &a[--gt]);
			else
				i++;
		}
		/* [lt, gt) share 8 more bytes: on with the next 8, unless they ended */
		if ((pivot & 0xff) && gt - lt > 1) {
			for (size_t k = lt; k < gt; k++)
				a[k].key = str_key(a[k].s, depth + 8, padded);
			str_keys_sort(a + lt, gt - lt, depth + 8, padded);
		}
		/* the smaller side by recursion, the larger by the loop */
		if (lt < n - gt) {
			str_keys_sort(a, lt, depth, padded);
			a += gt;
			n -= gt;
		} else {
			str_keys_sort(a + gt, n - gt, depth, padded);
			n = lt;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct str_key v = a[i];
		size_t j = i;

		for (; j > 0 && (a[j - 1].key > v.key ||
				 (a[j - 1].key == v.key && (v.key & 0xff) &&
				  strcmp(a[j - 1].s + depth + 8, v.s + depth + 8) > 0));
		     j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void sort_keyed(char **v, size_t n, void *scratch, bool padded)
{
	struct str_key *k = scratch;

	for (size_t i = 0; i < n; i++)
		k[i] = (struct str_key){ str_key(v[i], 0, padded), v[i] };
	str_keys_sort(k, n, 0, padded);
	for (size_t i = 0; i < n; i++)
		v[i] = k[i].s;
}

void strings_sort_in(char **v, size_t n, void *scratch)
{
	sort_keyed(v, n, scratch, false);
}

void strings_sort_padded(char **v, size_t n, void *scratch)
{
	sort_keyed(v, n, scratch, true);
}

void strings_sort(char **v, size_t n)
{
	void *k = xmalloc(STRINGS_SORT_SCRATCH(n ? n : 1));

	strings_sort_in(v, n, k);
	free(k);
}

void *huge_map(size_t *size)
{
	size_t huge = 2UL << 20, want = (*size + huge - 1) & ~(huge - 1);
	char *p = mmap(NULL, want + huge, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
	     *at;

	if (p == MAP_FAILED)
		return NULL;
	/* 2 MiB aligned, what is around it given back */
	at = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	if (at > p)
		munmap(p, (size_t)(at - p));
	munmap(at + want, (size_t)(p + want + huge - (at + want)));
	madvise(at, want, MADV_HUGEPAGE);
	*size = want;
	return at;
}

void huge_unmap(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

static bool addr_name_less(const struct addr_name_key *x, const struct addr_name_key *y)
{
	int c;

	if (x->addr != y->addr)
		return x->addr < y->addr;
	c = strcmp(x->name, y->name);
	return c ? c < 0 : x->order < y->order;
}

/* @k (@n keys) sorted by merging: a run of many keys at one address. */
static void addr_name_merge(struct addr_name_key *k, size_t n)
{
	struct addr_name_key *tmp = xmalloc(sizeof(*tmp) * (n ? n : 1)), *from = k, *to = tmp, *t;

	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				to[o++] =
					addr_name_less(&from[j], &from[i]) ? from[j++] : from[i++];
			while (i < mid)
				to[o++] = from[i++];
			while (j < hi)
				to[o++] = from[j++];
		}
		t = from, from = to, to = t;
	}
	if (from != k)
		memcpy(k, from, sizeof(*k) * n);
	free(tmp);
}

/*
 * By address with a radix sort, a byte at a time and only the bytes that
 * differ (stable: the keys of one address stay in their order), then each
 * run of one address by name (merged when long).  A merge sort comparing
 * names was a tenth of -F on libjvm's 59,000 symbols.
 */
void addr_name_sort(struct addr_name_key *k, size_t n)
{
	struct addr_name_key *tmp = xmalloc(sizeof(*tmp) * (n ? n : 1)), *from = k, *to = tmp, *t;
	static const int bytes = sizeof(k->addr);
	size_t(*count)[256] = xzalloc(sizeof(*count) * bytes);

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < bytes; b++)
			count[b][(k[i].addr >> (8 * b)) & 0xff]++;
	for (int b = 0; b < bytes; b++) {
		size_t at = 0;

		if (n && count[b][(k[0].addr >> (8 * b)) & 0xff] == n)
			continue; /* one value of this byte */
		for (int v = 0; v < 256; v++) {
			size_t c = count[b][v];

			count[b][v] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[b][(from[i].addr >> (8 * b)) & 0xff]++] = from[i];
		t = from, from = to, to = t;
	}
	if (from != k)
		memcpy(k, from, sizeof(*k) * n);
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && k[hi].addr == k[lo].addr; hi++)
			;
		if (hi - lo > 16) {
			addr_name_merge(k + lo, hi - lo);
			continue;
		}
		for (size_t i = lo + 1; i < hi; i++) {
			struct addr_name_key x = k[i];
			size_t j = i;

			for (; j > lo && addr_name_less(&x, &k[j - 1]); j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
	}
	free(count);
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
