/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_STRBUF_H
#define PERF_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated string.  A strbuf initialised with
 * STRBUF_INIT is valid and empty; buf is never NULL.  Growth failures abort:
 * the tool cannot do anything useful without memory.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT                  \
	{                            \
		0, 0, strbuf_slopbuf \
	}

/* Prepare @sb for use with room for @hint bytes. */
void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the buffer and leave @sb empty and valid. */
void strbuf_release(struct strbuf *sb);
/* Give the buffer to the caller (who frees it); @sb is left empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Make room for @extra more bytes after len. */
void strbuf_grow(struct strbuf *sb, size_t extra);
/* Shorten to @len bytes (len <= sb->len). */
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Append the whole content of the file at @path; returns 0 or -errno. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Append what remains readable from @fd; returns 0 or -errno. */
int strbuf_read_fd(struct strbuf *sb, int fd);
/*
 * For input nobody vouches for: append the content of regular file @fd, at
 * most @max bytes.  0, -EINVAL when it is not a regular file (a FIFO, a
 * device), -EFBIG when it holds more than @max, or -errno.
 */
int strbuf_read_fd_bounded(struct strbuf *sb, int fd, size_t max);
/*
 * The same for @path, relative to @dirfd (AT_FDCWD for the current
 * directory), opened so a FIFO does not block.  Add O_NOFOLLOW checks in
 * the caller's path walk when links must not be followed.
 */
int strbuf_read_regular(struct strbuf *sb, int dirfd, const char *path, size_t max);
/* The words for an error of the two above ("not a regular file", ...). */
const char *strbuf_read_strerror(int err);

#endif
