/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_BTF_H
#define PERF_UTIL_PROBE_BTF_H

/*
 * Kernel probes from BTF, for kernels without debuginfo: a function's
 * entry (FUNC, FUNC+OFF without variables) or return, its parameters by
 * name, $params, member chains, arrays, bitfields, :string, and a typed
 * $retval.  The fetchargs are those of the calling convention (x86-64:
 * %di %si %dx %cx %r8 %r9, then the stack at the entry), spelled as the
 * DWARF path spells them for the same spec.  What needs DWARF (lines,
 * lazy patterns, locals, globals) is refused with one line.
 *
 * Rules: it turns a perf_probe_event into trace events holding the
 * function's name (point.symbol, realname) and fetchargs; placing them in
 * the symbol table, naming and the blacklist are probe-event's.  It calls
 * btf (the types), probe-spec, arch-regs; probe-event and probe-show call it.
 */

#include <stdbool.h>

struct kbtf;
struct perf_probe_event;
struct probe_trace_event;
struct strfilter;

/*
 * Resolve @pev (a kernel function spec) in @b (of @what: "the kernel", a
 * module's name, for messages) into a new array *@tevs of
 * one event: point.symbol and realname the function, point.offset and
 * retprobe as asked, and the fetchargs.  1, or -errno after one message.
 */
int probe_btf__find_trace_events(const struct kbtf *b, const char *what,
				 const struct perf_probe_event *pev,
				 struct probe_trace_event **tevs);

/* Does @b have a function named @name? */
bool probe_btf__has_func(const struct kbtf *b, const char *name);

/*
 * The names of -F from BTF: every FUNC passing @filter, sorted and each
 * once.  The count and a new array of new strings in *@names.
 */
int probe_btf__func_names(const struct kbtf *b, const struct strfilter *filter, char ***names);

/* -V from BTF: the parameters of @pev's function and their types, as -V prints them. */
int probe_btf__show_vars(const struct kbtf *b, const char *what, const struct perf_probe_event *pev,
			 const struct strfilter *filter);

/* ---- the calling convention, exposed for tests/unit/test-probe-btf.c ---- */

/* How a parameter of the x86-64 ABI is passed. */
enum btf_abi_where {
	BTF_ABI_REG,   /* in one integer register */
	BTF_ABI_REG2,  /* in two (a 9..16-byte integer or struct) */
	BTF_ABI_STACK, /* on the stack: stack_off from %sp at the entry */
	BTF_ABI_SSE,   /* in a vector register: no fetcharg */
};

struct btf_abi_param {
	long size;	/* bytes */
	bool aggregate; /* a struct or union */
	bool sse;	/* a floating-point scalar */
};

struct btf_abi_slot {
	enum btf_abi_where where;
	int reg;	/* BTF_ABI_REG/REG2: the (first) integer register, 0..5 */
	long stack_off; /* BTF_ABI_STACK: +OFF(%sp) */
};

/* Assign the @n parameters of @in to @out, as the System V x86-64 ABI says. */
void btf_abi_x86_64(const struct btf_abi_param *in, int n, struct btf_abi_slot *out);

/* The fetcharg ("%di") of x86-64 argument register @i (0..5), "%sp" for -1. */
const char *btf_abi_reg_name(int i);

#endif
