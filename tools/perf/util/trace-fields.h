/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TRACE_FIELDS_H
#define PERF_UTIL_TRACE_FIELDS_H

/*
 * The fields of one tracepoint sample (its PERF_SAMPLE_RAW data) in the
 * words of `perf trace`:
 *
 *	__probe_ip: 94729693655353, arg1: 5, arg2: "text"
 *
 * The event's own fields in format order (the common_* ones left out),
 * "NAME: VALUE" joined by ", ":
 *   - integers read unsigned at their size and printed in decimal, the
 *     8-byte ones as signed ("-5", while an s32 -1 is "4294967295"),
 *     whatever the x/s/u type says: perf trace does the same;
 *   - integers and pointers that are 0 are left out, as perf does;
 *   - pointers as 0x%lx;
 *   - strings (char arrays, __data_loc/__rel_loc char[]) in double quotes,
 *     as they are, up to their NUL, empty ones too;
 *   - pid_t fields as "PID (COMM)" when @comm knows the pid;
 *   - other arrays as {E1,E2,...} in the element's signedness (perf prints
 *     an address there, which helps nobody).
 */

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

struct tep_event;

/* The command name of @pid, or NULL when unknown. */
typedef const char *(*trace_fields__comm_fn)(int pid, void *priv);

/*
 * Append to @sb the fields of @event found in @data (@size bytes, the raw
 * sample as the kernel wrote it).  Data outside @size is never read: a
 * field reaching beyond it is left out.  @comm may be NULL.
 */
void trace_fields__format(struct strbuf *sb, struct tep_event *event, const void *data, int size,
			  trace_fields__comm_fn comm, void *priv);

/*
 * Append @ns as milliseconds the way printf's "%10.3f" shows ns / 1e6,
 * without floating point (rounded to the microsecond, half up).
 */
void trace_fields__add_msecs(struct strbuf *sb, uint64_t ns);

#endif
