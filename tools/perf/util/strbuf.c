// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/alloc.h"

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want <= sb->alloc)
		return;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	if (want < 64)
		want = 64;
	if (!sb->alloc) {
		sb->buf = xrealloc(NULL, want);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, want);
	}
	sb->alloc = want;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	/* Once into the room there is; twice only when it did not fit. */
	if (sb->alloc - sb->len < 64)
		strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* Append what @fd still gives, stopping past @max bytes read (-EFBIG). */
static int read_fd_upto(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		strbuf_setlen(sb, sb->len + n);
		if (sb->len - start > max)
			return -EFBIG;
	}
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	return read_fd_upto(sb, fd, SIZE_MAX);
}

int strbuf_read_fd_bounded(struct strbuf *sb, int fd, size_t max)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	/* The file may grow while read: what is past @max is not read. */
	return read_fd_upto(sb, fd, max);
}

int strbuf_read_regular(struct strbuf *sb, int dirfd, const char *path, size_t max)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = strbuf_read_fd_bounded(sb, fd, max);
	close(fd);
	return ret;
}

const char *strbuf_read_strerror(int err)
{
	if (err == -EINVAL)
		return "not a regular file";
	if (err == -EFBIG)
		return "file too large";
	return strerror(-err);
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = strbuf_read_fd(sb, fd);
	close(fd);
	return ret;
}
