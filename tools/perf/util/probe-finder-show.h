/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_FINDER_SHOW_H
#define PERF_UTIL_PROBE_FINDER_SHOW_H

/*
 * The DWARF views of perf probe: -V (variables at the places of a spec),
 * -L (source lines with code) and the source names -l gives DWARF events.
 *
 * Rules: it owns what these print, byte for byte as perf does, and
 * nothing else.  It calls probe-finder (the places of a spec, the
 * functions of a name), debuginfo, dwarf-aux and strfilter; probe-show.c
 * calls it.  Nothing of the finder calls it.
 */

#include <stdbool.h>
#include <stdint.h>

struct debuginfo;
struct perf_probe_event;
struct probe_finder_opts;
struct strfilter;

/*
 * -V: print the variables available at each place of @pev as perf does;
 * with @externs the globals too, with @range where each one lives, only
 * the names @filter passes (NULL: all).  0 or -errno after a message.
 */
int debuginfo__show_vars(struct debuginfo *dbg, const struct perf_probe_event *pev,
			 const struct probe_finder_opts *opts, bool externs, bool range,
			 const struct strfilter *filter);

/*
 * -L: print the source lines of @func (or of @file) between @start and
 * @end (absolute when @func is NULL; relative to the function's line
 * otherwise; @end -1 for the end of the function or file), numbering the
 * lines that have code.  0 or -errno after a message.
 */
int debuginfo__show_lines(struct debuginfo *dbg, const char *func, const char *file, int start,
			  int end);

/*
 * The source place of virtual address @addr as perf -l names a DWARF
 * event: "FUNC:RLN@FILE" (RLN relative to the function's declaration),
 * "FUNC@FILE" at the function's entry.  A new string, or NULL when the
 * DWARF does not cover @addr.
 */
char *debuginfo__probe_point_name(struct debuginfo *dbg, uint64_t addr);

#endif
