/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_FINDER_H
#define PERF_UTIL_PROBE_FINDER_H

/*
 * The DWARF probe finder: source-level probe points and variables of one
 * ELF file through libdw/libdwfl.  It knows nothing of tracefs or of the
 * probe cache: it turns a perf_probe_event into trace events holding
 * virtual addresses (point.address) and fetchargs; probe-event.c turns the
 * addresses into file offsets and names the events.
 */

#include <stdbool.h>
#include <stdint.h>

struct perf_probe_event;
struct probe_trace_event;
struct strfilter;

/* The open debuginfo of one file. */
struct debuginfo;

/*
 * Open the DWARF of the ELF file @path: in the file itself, through
 * .gnu_debuglink or /usr/lib/debug/.build-id (libdwfl's standard search).
 * 0 and a new *@out, -ENOENT (no file), -ENODATA (no DWARF found) or
 * -EBADMSG (DWARF that libdw can not read).  Nothing is printed.
 */
int debuginfo__new(const char *path, struct debuginfo **out);
void debuginfo__delete(struct debuginfo *dbg);

/*
 * The same, with @debug_file (e.g. the `debug` of a build-id cache entry)
 * as the DWARF of @path when @path has none of its own; the code, the
 * symbols and the CFI still come from @path.
 */
int debuginfo__new_with(const char *path, const char *debug_file, struct debuginfo **out);

/*
 * -s DIR: read source files (lazy patterns, -L) under @dir: DIR/PATH, or
 * DIR with leading components of PATH dropped.  NULL: as DWARF names them.
 */
void debuginfo__set_source_dir(struct debuginfo *dbg, const char *dir);

/* How to resolve: the settings of one command. */
struct probe_finder_opts {
	int max_probes;	    /* places one spec may resolve to */
	bool no_inlines;    /* --no-inlines: skip inlined instances */
	bool quiet_missing; /* no message when no place is found */
	/*
	 * Uprobes: the file offset of a global's virtual address, written as
	 * "@+0xOFF"; NULL writes "@SYMBOL+OFF" as for kprobes.
	 */
	int (*global_offset)(void *ctx, uint64_t vaddr, uint64_t *offset);
	void *ctx;
};

/*
 * Resolve @pev into a new array *@tevs: for each place point.address (the
 * virtual address), point.realname (the function holding it), retprobe,
 * and the fetchargs (arguments that need no DWARF are copied as written).
 * Group, event name, module and file offset are left to the caller.
 * Returns the count (>= 1) or -errno after one message on stderr.
 */
int debuginfo__find_trace_events(struct debuginfo *dbg, const struct perf_probe_event *pev,
				 const struct probe_finder_opts *opts,
				 struct probe_trace_event **tevs);

/*
 * -V: print the variables available at each place of @pev as perf does;
 * with @externs the globals too, with @range where each one lives.
 * 0 or -errno after a message.
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
