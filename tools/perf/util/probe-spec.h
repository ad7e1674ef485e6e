/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_SPEC_H
#define PERF_UTIL_PROBE_SPEC_H

/*
 * The vocabulary of every probe stage (tools/perf/DESIGN.md): the two
 * data types a probe travels as, their grammars and their text forms.
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

#include "util/probe-limits.h"

#define PERFPROBE_GROUP "probe"
#define MAX_PROBE_ARGS 128
/* The longest probe definition parse_perf_probe_command() takes. */
#define PROBE_SPEC_MAX_LEN 4096

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
	char *name; /* the member's name, or "[N]" for an index */
	long index; /* the index, for "[N]" */
	bool ref;   /* reached through "->" (a pointer), not "." */
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
	char *event; /* EVENT, or NULL: named later */
	char *group; /* GROUP, or NULL: the default */
	struct perf_probe_point point;
	int nargs;
	struct perf_probe_arg *args;
	bool uprobes; /* a user-space target (-x) */
	char *target; /* -x executable or -m module, owned */
	bool sdt;     /* %[GROUP:]EVENT: a cached or SDT event */
	/* The register table of %REG arguments (an arch_regs name); NULL: the host's. */
	const char *arch;
	/*
	 * parse_perf_probe_command_late(): the error of the first argument
	 * word that did not parse, told only once the point resolves (as perf
	 * does), with its -errno, and whether the word names a variable (so it
	 * needs DWARF); or, with bad_point, the error of a point word that
	 * perf lets through and fails later (told before any resolution).
	 */
	char *bad_arg;
	int bad_arg_err;
	bool bad_arg_dwarf;
	bool bad_point;
};

/*
 * A dereference step of a fetcharg: +OFFS(...).  The chain starts at the
 * innermost step, the one applied first to the value: "+8(+0(%di))" is
 * value "%di", ref {0} -> {8}.
 */
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
	struct probe_trace_arg_ref *ref; /* innermost dereference first, or NULL */
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
	bool cached; /* read from a probes file (checked by probe-verify.c) */
};

/*
 * Parse a probe definition (the words of one -a/-D value, joined with
 * spaces) into @pev, which the caller zeroes first.  Returns 0, or a
 * negative errno after printing one message that names and points at the
 * offending part of @cmd ("Semantic error :..." as perf words it).
 *
 * The point word gives, in @pev:
 *   [[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFFS|%return|;PTN]
 *                           group, event, point.function/file/line/offset/
 *                           retprobe/lazy_line (PTN is the rest of the word)
 *   [[GROUP:]EVENT=]SRC:ALN, SRC;PTN
 *                           point.file (a name with '.' or '/'), line/lazy_line
 *   [[GROUP:]EVENT=]0xADDR[%return]
 *                           point.abs_address, function and file NULL
 *   %[GROUP:]EVENT, sdt_PROVIDER:NAME
 *                           sdt = true, group (may be NULL) and event (may be
 *                           a glob); the point is empty and no args are allowed
 * and each further word one pev->args[] entry (see parse_perf_probe_arg()).
 * pev->uprobes and pev->target are left alone; on error everything else
 * is freed and zeroed.
 */
int parse_perf_probe_command(const char *cmd, struct perf_probe_event *pev);
/* The same, the message put in @err (reset first) instead of printed. */
struct strbuf;
int parse_perf_probe_command_quiet(const char *cmd, struct perf_probe_event *pev,
				   struct strbuf *err);
/*
 * parse_perf_probe_command(), but as perf 6.1 parses -a and -D: only the
 * probe point word is checked now (a bad one is the usage error); the
 * first argument word that does not parse is kept in @pev->bad_arg, and
 * the resolution fails with it after the point is found (or not).
 */
int parse_perf_probe_command_late(const char *cmd, struct perf_probe_event *pev);

/*
 * Parse one argument word "[NAME=]VALUE[:TYPE][@user]" into @pa (zeroed by
 * the caller).  VALUE is a C variable with a member chain (var = "p",
 * field = "->next" ".len" "[3]"), or kept whole in var: $retval $params
 * $vars $comm $argN $stack[N], %REG (checked with arch_regs__is_valid()),
 * @SYMBOL, @+OFF, +|-[u]OFFS(VALUE), "string", \IMM.  TYPE is s|u|x
 * 8/16/32/64, string, ustring, char, symbol, symstr, %pd, %pD, bN@O/C or
 * BASIC[N].
 * "@user" (before or after :TYPE) sets user_access.  0 or -EINVAL after
 * one "Semantic error :" message; on error @pa may hold partial results
 * (clear_perf_probe_arg() frees them).
 */
int parse_perf_probe_arg(const char *str, struct perf_probe_arg *pa);

/* The text forms of the structures; new strings the caller frees. */
char *synthesize_perf_probe_command(const struct perf_probe_event *pev);
char *synthesize_perf_probe_point(const struct perf_probe_point *pp);
char *synthesize_perf_probe_arg(const struct perf_probe_arg *pa);

/*
 * Does resolving @pev need debuginfo?  True for a source file, a line, a
 * lazy pattern or an argument that needs it; false for SDT events.
 */
bool perf_probe_event_need_dwarf(const struct perf_probe_event *pev);

/*
 * An argument that needs no DWARF (a register, $comm, @sym, +OFF(...))
 * as the trace argument it stands for: copied, with "@user" turned into
 * the "+u" dereference.  @ta is zeroed by the caller.
 */
void raw_probe_trace_arg(const struct perf_probe_arg *pa, struct probe_trace_arg *ta);
/*
 * The fetcharg name perf gives argument @pa when it has no NAME=: its last
 * member, else VAR[:TYPE] made an identifier.  A new string.
 */
char *perf_probe_arg_default_name(const struct perf_probe_arg *pa);
/* Does @pa name a C variable, a member chain, $params or $vars? */
bool perf_probe_arg_need_dwarf(const struct perf_probe_arg *pa);

/*
 * The one naming rule of perf probe events: EVENT of "EVENT=" as given;
 * else "abs_<addr>" for 0xADDR; else @base (the name of the function the
 * stage placed the probe in; a C++ or Rust symbol demangled) up to a
 * symbol version '@', in identifier characters (demangle_to_ident():
 * "shop::Cart::add" -> "shop_Cart_add", at most 64 characters with the
 * suffixes, a longer one cut and hashed), and "_L<N>" for FUNC:N.  "__return"
 * follows for return probes, a given name included, as perf does.  Used
 * by resolve and by the check of cached lines.  A new string.
 */
char *probe_event_name(const struct perf_probe_event *pev, const char *base);
/*
 * The group of events whose spec names none: "probe_<NAME>" for the file
 * @path, NAME its base name up to the first character that can not stand
 * in an identifier; "probe" for the kernel (@path NULL).  A new string.
 */
char *probe_default_group(const char *path);

/*
 * The words of a definition: @str split at blanks into a NULL-terminated
 * array of new strings, the count in *@argc; free it with free_words().
 * The first word may be a C++ source name with blanks in it
 * ("ns::f(int, char)", demangle_word_len()).
 */
char **split_words(const char *str, int *argc);
/* The same with every word split at blanks (the trace-line grammar, probe-trace.c). */
char **split_blank_words(const char *str, int *argc);
void free_words(char **argv);
/* The first @c in @s outside "..." and (...); with @last the last one; or NULL. */
const char *find_toplevel(const char *s, char c, bool last);
/* Is [s, s+n) a C identifier? */
bool is_c_ident_n(const char *s, size_t n);

/* Is @name a valid event/group name (a C identifier, not too long)? */
bool is_c_func_name(const char *name);
/* May @c stand in a C identifier (after its first character)? */
bool is_ident_char(int c);

/*
 * Print "Semantic error :<message>" as one line (perf's words for a spec
 * that does not parse); returns -EINVAL.
 */
int __attribute__((format(printf, 1, 2))) semantic_error(const char *fmt, ...);

/* Free what the structures own and zero them (they stay reusable). */
void clear_perf_probe_event(struct perf_probe_event *pev);
void clear_perf_probe_arg(struct perf_probe_arg *pa);
void clear_probe_trace_event(struct probe_trace_event *tev);

#endif
