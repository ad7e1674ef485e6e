/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_SHOW_H
#define PERF_UTIL_PROBE_SHOW_H

/*
 * perf probe's views, which add nothing: -l, -d, -F, -V and -L.  Each
 * returns 0 or -errno after one message on stderr; the settings come from
 * probe_conf (probe-target.h).
 */

#include <stdbool.h>

#include "util/probe-spec.h"

/*
 * -l: list the probe events of tracefs matching @filter, a strfilter
 * (strfilter.h) that the event name or "GROUP:EVENT" must pass (NULL: all);
 * with @exec only the uprobes on that file.
 */
int show_perf_probe_events(const char *filter, const char *exec);

/*
 * -d: delete the events matching each of @filters: a "[GROUP:]EVENT" glob,
 * or a strfilter over the names as -l takes it.
 */
int del_perf_probe_events(const char *const *filters, int nr);

/* -F: print the probe-able functions of @target (a path with @user, else a
 * module; NULL: the kernel) that pass the strfilter @filter. */
int show_available_funcs(const char *target, bool user, const char *filter);

/*
 * -V: print the variables available at each place of every event (perf's
 * layout), with @externs the globals too, with @range where each lives;
 * @filter a strfilter on the names (NULL: all).
 */
int show_available_vars(struct perf_probe_event *pevs, int npevs, bool externs, bool range,
			const char *filter);

/*
 * -L: print the source lines of @spec ("FUNC[@SRC][:START[-END|+N]]" or
 * "SRC[:START[-END|+N]]") of @target (@user: an executable), numbering the
 * lines a probe can be put on, as perf does.  1 when @spec does not parse
 * (told on stderr): perf's usage error.
 */
int show_line_range(const char *spec, const char *target, bool user);

#endif
