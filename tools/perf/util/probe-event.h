/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_EVENT_H
#define PERF_UTIL_PROBE_EVENT_H

/*
 * The two data types a probe travels as (see shared/DESIGN.md):
 *
 *   struct perf_probe_event   what the user asked, parsed from a spec such
 *                             as "grp:ev=func:12 req->len name=conn->peer:string"
 *   struct probe_trace_event  a resolved place and its fetchargs: one line of
 *                             uprobe_events/kprobe_events, e.g.
 *                             "p:grp/ev /bin/prog:0x1139 len=+8(%di):u32"
 *
 * All strings are owned (malloc'ed) by the structure that holds them and
 * freed by clear_perf_probe_event() / clear_probe_trace_event().
 */

#include <stdbool.h>
#include <stdint.h>

#define PERFPROBE_GROUP "probe"
#define MAX_EVENT_NAME_LEN 64
#define MAX_PROBE_ARGS 128

/* Where to probe, as written. */
struct perf_probe_point {
	char *file;	      /* @SRC, or SRC of SRC:ALN / SRC;PTN */
	char *function;	      /* FUNC (may hold a glob such as "Py*") */
	int line;	      /* RLN with a function, ALN with a file only */
	bool retprobe;	      /* %return */
	char *lazy_line;      /* PTN of ;PTN */
	unsigned long offset; /* +OFFS */
	uint64_t abs_address; /* 0xADDR; valid when function is NULL and file is NULL */
};

/* One step of a member chain: "->name", ".name" or "[index]". */
struct perf_probe_arg_field {
	struct perf_probe_arg_field *next;
	char *name;  /* the member's name, or "[N]" for an index */
	long index;  /* the index, for "[N]" */
	bool ref;    /* reached through "->" (a pointer), not "." */
};

/* One argument, as written: [NAME=]VAR[->FIELD...][:TYPE] */
struct perf_probe_arg {
	char *name;			    /* NAME=, or NULL */
	char *var;			    /* local/param/global name, $special,
					       %REG, @SYMBOL, +|-OFFS(...) text */
	char *type;			    /* TYPE of :TYPE, or NULL */
	struct perf_probe_arg_field *field; /* member chain, or NULL */
	bool user_access;		    /* @user */
};

struct perf_probe_event {
	char *event;		       /* EVENT, or NULL: named later */
	char *group;		       /* GROUP, or NULL: the default */
	struct perf_probe_point point;
	int nargs;
	struct perf_probe_arg *args;
	bool uprobes;		       /* a user-space target (-x) */
	char *target;		       /* -x executable or -m module, owned */
	bool sdt;		       /* %[GROUP:]EVENT: a cached or SDT event */
};

/* A dereference step of a fetcharg: +OFFS(...), innermost first in the chain. */
struct probe_trace_arg_ref {
	struct probe_trace_arg_ref *next;
	long offset;
	bool user_access; /* +u... */
};

/* One fetcharg: [NAME=]VALUE with dereferences [:TYPE]. */
struct probe_trace_arg {
	char *name;			 /* NAME=, or NULL */
	char *value;			 /* "%di", "@sym", "$comm", "\"str\"", "@+0x10" ... */
	char *type;			 /* "s32", "string", "b4@3/32" ..., or NULL */
	struct probe_trace_arg_ref *ref; /* outermost dereference first */
};

struct probe_trace_point {
	char *realname;		 /* the function's real name (e.g. "__libc_malloc") */
	char *symbol;		 /* SYMBOL of SYMBOL+OFFS (kprobes), or NULL */
	char *module;		 /* the executable's path (uprobes) or module name */
	unsigned long offset;	 /* offset from symbol, or for uprobes the file offset */
	uint64_t address;	 /* the virtual address of the probe */
	uint64_t ref_ctr_offset; /* an SDT semaphore's file offset, or 0 */
	bool retprobe;
};

struct probe_trace_event {
	char *event;
	char *group;
	struct probe_trace_point point;
	int nargs;
	struct probe_trace_arg *args;
	bool uprobes;
};

/*
 * Parse a probe definition (the words of one -a/-D value, joined with
 * spaces) into @pev, which the caller zeroes first.  Returns 0, or a
 * negative errno after printing one message that names and points at the
 * offending part of @cmd ("Semantic error :..." as perf words it).
 */
int parse_perf_probe_command(const char *cmd, struct perf_probe_event *pev);

/*
 * Parse one line of uprobe_events/kprobe_events or of a probe cache
 * ("p:grp/ev /bin/prog:0x1139 len=+8(%di):u32") into @tev (zeroed by the
 * caller).  0 or -EINVAL (a message is printed with pr_debug only).
 */
int parse_probe_trace_command(const char *cmd, struct probe_trace_event *tev);

/* The text forms of the structures; new strings the caller frees. */
char *synthesize_perf_probe_command(const struct perf_probe_event *pev);
char *synthesize_perf_probe_point(const struct perf_probe_point *pp);
char *synthesize_perf_probe_arg(const struct perf_probe_arg *pa);
char *synthesize_probe_trace_command(const struct probe_trace_event *tev);

/* Does resolving @pev need debuginfo (lines, lazy patterns, variables)? */
bool perf_probe_event_need_dwarf(const struct perf_probe_event *pev);

/* Is @name a valid event/group name (a C identifier, not too long)? */
bool is_c_func_name(const char *name);

void clear_perf_probe_event(struct perf_probe_event *pev);
void clear_probe_trace_event(struct probe_trace_event *tev);

#endif
