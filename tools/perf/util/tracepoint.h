/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TRACEPOINT_H
#define PERF_UTIL_TRACEPOINT_H

/*
 * Tracefs events by name: "GROUP:EVENT" specs, globs allowed in both parts
 * ("probe_app:*", "sched:sched_process_*"), resolved to the directories of
 * tracefs__mountpoint()/events/ with their "id" and "format" files.
 */

#include <stddef.h>

#include "util/strbuf.h"

/* One tracefs event, as perf_event_open (config = id) and libtraceevent see it. */
struct tracepoint {
	char *group;
	char *name;
	int id;
	char *format; /* the whole format file, NUL-terminated */
	size_t format_len;
};

/* The events of a command line, in the order the specs named them. */
struct tracepoint_list {
	struct tracepoint *tps;
	int nr;
};

/*
 * Is @spec a well-formed "GROUP:EVENT" (both parts non-empty, one ':',
 * names of letters, digits, '_', '.', '-' and the glob characters '*', '?'
 * and closed '[...]')?  0, or -EINVAL with the reason appended to @why
 * (may be NULL), e.g. "malformed: unclosed '[' in the event name".
 */
int tracepoint__check_spec(const char *spec, struct strbuf *why);

/*
 * Append to @list the events matching @spec, groups and events each in
 * name order, leaving out those already in @list.  Returns the number of
 * events matched (0 is never returned: no match is -ENOENT), or -errno:
 * -EINVAL (malformed spec, see tracepoint__check_spec()), -ENOENT (nothing
 * matches), -ENODEV (no tracefs), -EACCES (events unreadable).  The reason
 * is appended to @why (may be NULL) on failure.
 */
int tracepoint_list__add(struct tracepoint_list *list, const char *spec, struct strbuf *why);

/* Free the events of @list and leave it empty. */
void tracepoint_list__clear(struct tracepoint_list *list);

#endif
