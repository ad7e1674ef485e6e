/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_FINDER_H
#define PERF_UTIL_PROBE_FINDER_H

/*
 * The DWARF probe finder: the places (addresses in functions) a
 * perf_probe_event names in one ELF file, and the fetchargs of its
 * arguments there.
 *
 * Rules: it owns finding functions, lines and lazy patterns, the prologue
 * skip and the conversion of arguments; it turns a perf_probe_event into
 * trace events holding virtual addresses (point.address) and fetchargs.
 * It knows nothing of tracefs, the probe cache or event names: it calls
 * debuginfo (the open DWARF), dwarf-aux (libdw helpers), dwarf-fetcharg
 * (one variable into one fetcharg) and probe-spec (the types).  The DWARF
 * views (probe-finder-show.h) call it for the places; probe-event.c for
 * the trace events.
 */

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct debuginfo;
struct perf_probe_event;
struct probe_trace_event;

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
 * For Go return probes (go-return.h): is the function whose code holds
 * @addr compiled by Go (its CU's DW_AT_language is DW_LANG_Go, or its
 * producer "Go cmd/compile ...")?  1, with in *@type the fetch type of its
 * first result (the first parameter with DW_AT_variable_parameter: "~r0",
 * or the result's name) when that is a base type or a pointer, else NULL;
 * 0 when it is not Go or no CU holds @addr.
 */
int debuginfo__go_function(struct debuginfo *dbg, uint64_t addr, char **type);

/* ---- places, for the DWARF views ---- */

/* One place found: an address in a function (or an inlined instance). */
struct probe_place {
	Dwarf_Addr addr;
	Dwarf_Die cu;
	Dwarf_Die func; /* the subprogram or inlined_subroutine probed */
	Dwarf_Die real; /* the subprogram holding addr (frame base) */
	char *name;	/* the function's name */
};

/* The places of a spec, each address once, in the order found. */
struct place_list {
	struct probe_place *p;
	int nr, alloc;
};

/*
 * The places of @pev's point into @pl (empty on entry): the one search
 * both adding a probe and -V use.  The prologue is skipped when an
 * argument needs DWARF (a notice once).  0, or -errno after one message
 * (-ENOENT without one when nothing is found and opts->quiet_missing).
 * The caller clears @pl either way.
 */
int probe_finder__places(struct debuginfo *dbg, const struct perf_probe_event *pev,
			 const struct probe_finder_opts *opts, struct place_list *pl);

/* Free what @pl holds and empty it. */
void place_list__clear(struct place_list *pl);

/*
 * The scopes whose variables perf sees at @place, innermost first: the
 * blocks and the code inlined into the probed function holding the
 * address, the function, then the CU.  Followed down from the function
 * itself: gcc may leave an inlined instance outside the ranges of the one
 * that called it, so a walk down from the CU can miss it.  Returns the
 * count; *@out is a new array.
 */
int probe_place__scopes(struct probe_place *place, Dwarf_Die **out);

/* A candidate function of a spec: a subprogram or an inlined instance. */
struct func_item {
	Dwarf_Die die;
	Dwarf_Die cu;
	bool part; /* a part gcc split off (f.part.0): no return of the function's */
};

/* The candidate functions of a spec, each DIE once. */
struct func_list {
	struct func_item *f;
	int nr, alloc;
};

/*
 * The functions named @pattern (a name or a glob), declared in @file
 * (NULL: any), with their inlined instances unless @no_inlines, into @fl
 * (empty on entry) in DIE order.  The symbol table and aranges find the
 * named ones; names it does not know are looked for in every CU.
 */
void probe_finder__find_functions(struct debuginfo *dbg, const char *pattern, const char *file,
				  bool no_inlines, struct func_list *fl);

/* Free what @fl holds and empty it. */
void func_list__clear(struct func_list *fl);

#endif
