// SPDX-License-Identifier: GPL-2.0
/* perf trace's output: buffered lines, and which events were written (see trace-output.h). */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/trace-output.h"

/* Write when this much is buffered. */
#define TRACE_OUTPUT_BLOCK (256u << 10)

int trace_output__open(struct trace_output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	strbuf_init(&o->buf, 0);
	if (path)
		o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	else
		o->fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	return o->fd < 0 ? -errno : 0;
}

void trace_output__add_note(struct trace_output *o, const char *line, size_t len)
{
	if (o->err)
		return;
	strbuf_add(&o->buf, line, len);
	if (o->buf.len >= TRACE_OUTPUT_BLOCK)
		trace_output__flush(o);
}

void trace_output__add_event(struct trace_output *o, const char *line, size_t len)
{
	if (o->err) {
		o->unwritten++;
		return;
	}
	strbuf_add(&o->buf, line, len);
	ALLOC_GROW(o->ends, o->nr_ends + 1, o->alloc_ends);
	o->ends[o->nr_ends++] = o->buf.len;
	if (o->buf.len >= TRACE_OUTPUT_BLOCK)
		trace_output__flush(o);
}

int trace_output__flush(struct trace_output *o)
{
	size_t done = 0, i;
	int ret = 0;

	while (!o->err && done < o->buf.len) {
		ssize_t n = write(o->fd, o->buf.buf + done, o->buf.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? -errno : -EIO;
			ret = o->err;
			break;
		}
		done += n;
	}
	if (o->err && done && o->buf.buf[done - 1] != '\n') {
		/* A line cut by the failure: cut the file back to the last whole one. */
		const char *nl = memrchr(o->buf.buf, '\n', done);
		size_t whole = nl ? (size_t)(nl - o->buf.buf) + 1 : 0;

		if (!ftruncate(o->fd, o->offset + whole))
			done = whole;
	}
	o->offset += done;
	for (i = 0; i < o->nr_ends && o->ends[i] <= done; i++)
		;
	o->written += i;
	o->unwritten += o->nr_ends - i;
	o->nr_ends = 0;
	strbuf_reset(&o->buf);
	return ret;
}

int trace_output__close(struct trace_output *o)
{
	int ret = 0;

	if (o->fd >= 0) {
		ret = trace_output__flush(o);
		if (close(o->fd) < 0 && !ret && !o->err) {
			o->err = -errno;
			ret = o->err;
		}
		o->fd = -1;
	}
	strbuf_release(&o->buf);
	free(o->ends);
	o->ends = NULL;
	o->nr_ends = o->alloc_ends = 0;
	return ret;
}
