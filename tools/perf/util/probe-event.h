/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_EVENT_H
#define PERF_UTIL_PROBE_EVENT_H

/*
 * Resolve and apply: how perf probe turns parsed events (probe-spec.h)
 * into trace events and writes them.  Each event is resolved in this
 * order, the first stage that answers wins:
 *
 *   1. the probe cache of the target's build-id, and SDT notes (%EVENT)
 *   2. DWARF (probe-finder.h), for lines, lazy patterns and variables
 *   3. the symbol table, for FUNC, FUNC+OFF, FUNC%return and 0xADDR
 *
 * then named (perf's names, unique in the group), checked against
 * tracefs and written, all the events of one command or none.  The
 * settings come from probe_conf (probe-target.h).
 */

#include <stdio.h>

#include "util/probe-spec.h"
#include "util/probe-target.h"

/*
 * Resolve every event, name the results, check them against tracefs, and
 * write them all or none; then say what was added (unless quiet or dry
 * run).  Returns 0 or a negative errno after one message on stderr.
 */
int add_perf_probe_events(struct perf_probe_event *pevs, int npevs);

/* Resolve every event and print its trace-event lines (-D) to stdout. */
int show_probe_trace_definitions(struct perf_probe_event *pevs, int npevs);

/*
 * The line perf prints for an event, by -l and after "Added new event":
 * "  GROUP:EVENT        (on POINT[ in TARGET][ with ARGS])" to @out.
 * @target and @args may be NULL.
 */
void probe_event__print_line(FILE *out, const char *group, const char *event, const char *point,
			     const char *target, const char *args);

#endif
