/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TRACE_OUTPUT_H
#define PERF_UTIL_TRACE_OUTPUT_H

/*
 * Where `perf trace` writes its lines (a file of -o, else standard error),
 * and the count of the events that reached it.  Lines are kept in memory
 * and written in large blocks; the end of each event's line is noted, so a
 * write that fails (a full disk) tells exactly which events were written.
 * After the first failure nothing more is written (a line cut in two
 * would be worse than none): every later event is counted as not written,
 * and a regular file is cut back to the end of its last whole line.
 *
 * Owns: the output file descriptor and its buffer.  May call: strbuf,
 * alloc.
 */

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct trace_output {
	int fd;
	struct strbuf buf; /* lines not written yet */
	size_t *ends;	   /* the end offset in @buf of each event's line */
	size_t nr_ends, alloc_ends;
	uint64_t offset;    /* bytes written */
	uint64_t written;   /* events whose line was written whole */
	uint64_t unwritten; /* events whose line was not (or not whole) */
	int err;	    /* the first write error (-errno), or 0 */
};

/*
 * Open @path for writing (created, truncated) or, when NULL, a copy of
 * standard error.  0 or -errno.
 */
int trace_output__open(struct trace_output *o, const char *path);

/* An event's line (with its newline). */
void trace_output__add_event(struct trace_output *o, const char *line, size_t len);
/* A line that is no event (e.g. "LOST 3 events!"). */
void trace_output__add_note(struct trace_output *o, const char *line, size_t len);

/*
 * Write what is buffered.  Returns 0, or -errno the first time a write
 * fails (for the caller to say it once); later calls return 0 and only
 * count.
 */
int trace_output__flush(struct trace_output *o);

/*
 * Flush, close, free.  Returns what flush returned, else close's -errno
 * (a delayed write error), else 0.
 */
int trace_output__close(struct trace_output *o);

#endif
