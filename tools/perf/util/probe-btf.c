// SPDX-License-Identifier: GPL-2.0
/* Kernel probes from BTF (see probe-btf.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arch-regs.h"
#include "util/btf.h"
#include "util/debug.h"
#include "util/probe-btf.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/util.h"

/* ---- the calling convention ---------------------------------------------- */

/* The DWARF numbers of the x86-64 argument registers, in order, and of %sp. */
static const unsigned int x86_64_arg_dwarf[6] = { 5, 4, 1, 2, 8, 9 };
#define X86_64_SP_DWARF 7

const char *btf_abi_reg_name(int i)
{
	if (i < 0)
		return arch_regs__dwarf_fetcharg("x86_64", X86_64_SP_DWARF);
	return i < 6 ? arch_regs__dwarf_fetcharg("x86_64", x86_64_arg_dwarf[i]) : NULL;
}

void btf_abi_x86_64(const struct btf_abi_param *in, int n, struct btf_abi_slot *out)
{
	int next = 0;	/* the next free integer register */
	long stack = 8; /* the return address is at 0(%sp) at the entry */

	for (int i = 0; i < n; i++) {
		long size = in[i].size > 0 ? in[i].size : 8;
		int words = (int)((size + 7) / 8);

		memset(&out[i], 0, sizeof(out[i]));
		if (in[i].sse && !in[i].aggregate) {
			out[i].where = BTF_ABI_SSE;
			continue;
		}
		/* Over 16 bytes an argument is passed in memory, as is one that does not fit. */
		if (words <= 2 && next + words <= 6) {
			out[i].where = words == 2 ? BTF_ABI_REG2 : BTF_ABI_REG;
			out[i].reg = next;
			next += words;
			continue;
		}
		out[i].where = BTF_ABI_STACK;
		if (size >= 16 && !in[i].aggregate && stack % 16)
			stack += 8; /* __int128 is 16-aligned */
		out[i].stack_off = stack;
		stack += words * 8L;
	}
}

/* ---- values being built -------------------------------------------------- */

/* A fetcharg being built: a register, then dereferences (innermost first). */
struct btf_loc {
	const char *reg;
	struct probe_trace_arg_ref *refs;
};

static void loc_push(struct btf_loc *loc, long offset)
{
	struct probe_trace_arg_ref *r = xzalloc(sizeof(*r)), **p = &loc->refs;

	r->offset = offset;
	while (*p)
		p = &(*p)->next;
	*p = r;
}

/* Add @off to the outer dereference: -ENOTSUP when the value is a register. */
static int loc_add(struct btf_loc *loc, long off)
{
	struct probe_trace_arg_ref *r = loc->refs;

	if (!r)
		return -ENOTSUP;
	while (r->next)
		r = r->next;
	r->offset += off;
	return 0;
}

static void loc_clear(struct btf_loc *loc)
{
	while (loc->refs) {
		struct probe_trace_arg_ref *n = loc->refs->next;

		free(loc->refs);
		loc->refs = n;
	}
}

/* The fetch type of a value of real type @t, as the DWARF path gives it; NULL when none. */
static char *basic_type(const struct kbtf_type *t)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t size = t->size;

	switch (t->kind) {
	case KBTF_STRUCT:
	case KBTF_UNION:
		if (!size)
			return NULL;
		if (size > 8) {
			pr_warning("%s exceeds max-bitwidth. Cut down to 64 bits.\n",
				   *t->name ? t->name : "(unnamed)");
			size = 8;
		}
		strbuf_addf(&sb, "x%u", size * 8);
		break;
	case KBTF_INT:
		strbuf_addf(&sb, "%c%u", t->is_signed && !t->is_bool ? 's' : 'x', size * 8);
		break;
	case KBTF_PTR:
	case KBTF_ENUM:
	case KBTF_FLOAT:
		strbuf_addf(&sb, "x%u", (size ? size : t->kind == KBTF_ENUM ? 4 : 8) * 8);
		break;
	default:
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* ".NAME"/"->NAME" on @type: as the DWARF path words its refusals. */
static int member_step(const struct kbtf *b, struct btf_loc *loc, uint32_t *type,
		       const struct perf_probe_arg_field *f, const char *prev, char **bitfield)
{
	struct kbtf_type t, mt;
	struct kbtf_member m;
	long off;

	kbtf__type(b, *type, &t);
	if (t.kind == KBTF_PTR) {
		if (!f->ref) {
			pr_err("Semantic error: %s must be referred by '->'\n", f->name);
			return -EINVAL;
		}
		kbtf__type(b, t.ref, &t);
		if (t.kind != KBTF_STRUCT && t.kind != KBTF_UNION) {
			pr_err("%s is not a data structure nor a union.\n", prev);
			return -EINVAL;
		}
		loc_push(loc, 0);
	} else if (t.kind == KBTF_STRUCT || t.kind == KBTF_UNION) {
		if (f->ref) {
			pr_err("Semantic error: %s is not a pointer.\n", prev);
			return -EINVAL;
		}
	} else {
		pr_err("%s is not a data structure nor a union.\n", prev);
		return -EINVAL;
	}
	if (!kbtf__member(b, t.id, f->name, &m)) {
		pr_err("%s(type:%s) has no member %s.\n", prev, *t.name ? t.name : "(unnamed)",
		       f->name);
		return -EINVAL;
	}
	kbtf__type(b, m.type, &mt);
	off = m.byte_off;
	free(*bitfield);
	*bitfield = NULL;
	if (m.bitfield) {
		/* The storage unit of the member's type holding it, as DWARF 5 gives it. */
		uint32_t size = mt.size ? mt.size : 4, bits = size * 8;
		long unit = (long)(m.bit_off / bits) * size;
		struct strbuf sb = STRBUF_INIT;

		off += unit;
		strbuf_addf(&sb, "b%u@%lu/%u", m.bitfield, (unsigned long)(m.bit_off - unit * 8),
			    bits);
		*bitfield = strbuf_detach(&sb, NULL);
	}
	if (loc_add(loc, off)) {
		pr_err("Structure on a register is not supported yet.\n");
		return -ENOTSUP;
	}
	*type = m.type;
	return 0;
}

/* "[N]" on @type: an array's element or a pointer's. */
static int array_step(const struct kbtf *b, struct btf_loc *loc, uint32_t *type, long index,
		      const char *prev)
{
	struct kbtf_type t;
	long esize;

	kbtf__type(b, *type, &t);
	if (t.kind != KBTF_ARRAY && t.kind != KBTF_PTR) {
		pr_err("%s is not an array nor a pointer.\n", prev);
		return -EINVAL;
	}
	esize = kbtf__size(b, t.ref);
	if (esize < 0)
		esize = 0;
	if (t.kind == KBTF_ARRAY) {
		if (loc_add(loc, index * esize)) {
			pr_err("An array on a register is not supported (%s).\n", prev);
			return -ENOTSUP;
		}
	} else {
		loc_push(loc, index * esize);
	}
	*type = t.ref;
	return 0;
}

/* Is @id a pointer to or an array of a one-byte integer (a C string)? */
static bool is_string_type(const struct kbtf *b, uint32_t id, bool *array)
{
	struct kbtf_type t, e;

	kbtf__type(b, id, &t);
	if (t.kind != KBTF_PTR && t.kind != KBTF_ARRAY)
		return false;
	*array = t.kind == KBTF_ARRAY;
	kbtf__type(b, t.ref, &e);
	return e.kind == KBTF_INT && e.size == 1 && !e.is_bool;
}

/* The final type of the value, as fetcharg_final_type() gives it for DWARF. */
static int final_type(const struct kbtf *b, const struct perf_probe_arg *pa, struct btf_loc *loc,
		      uint32_t type, char **bitfield, char **out)
{
	struct kbtf_type t;
	bool array = false;

	if (pa->type && (!strcmp(pa->type, "string") || !strcmp(pa->type, "ustring"))) {
		if (!is_string_type(b, type, &array)) {
			pr_err("Failed to cast into string: %s is not a pointer nor array of char.\n",
			       pa->var);
			return -EINVAL;
		}
		if (!array) {
			loc_push(loc, 0);
		} else if (!loc->refs) {
			pr_err("Failed to cast into string: %s is on a register.\n", pa->var);
			return -EINVAL;
		}
		*out = xstrdup(pa->type);
	} else if (pa->type) {
		*out = xstrdup(pa->type);
	} else if (*bitfield) {
		*out = *bitfield;
		*bitfield = NULL;
	} else {
		kbtf__type(b, type, &t);
		*out = basic_type(&t);
	}
	return 0;
}

/* The function of one spec: its prototype and where each parameter is. */
struct btf_func {
	const char *name;
	uint32_t proto;
	int nparams;
	struct btf_abi_slot *slots;
};

static int btf_func__init(const struct kbtf *b, const char *name, struct btf_func *fn)
{
	struct btf_abi_param *in;

	memset(fn, 0, sizeof(*fn));
	fn->name = name;
	if (kbtf__find_func(b, name, &fn->proto))
		return -ENOENT;
	fn->nparams = kbtf__nparams(b, fn->proto);
	in = xzalloc(sizeof(*in) * (size_t)(fn->nparams + 1));
	fn->slots = xzalloc(sizeof(*fn->slots) * (size_t)(fn->nparams + 1));
	for (int i = 0; i < fn->nparams; i++) {
		const char *pn;
		uint32_t type;
		struct kbtf_type t;

		kbtf__param(b, fn->proto, i, &pn, &type);
		kbtf__type(b, type, &t);
		in[i].size = kbtf__size(b, type);
		in[i].aggregate = t.kind == KBTF_STRUCT || t.kind == KBTF_UNION;
		in[i].sse = t.kind == KBTF_FLOAT;
	}
	btf_abi_x86_64(in, fn->nparams, fn->slots);
	free(in);
	return 0;
}

/* The index of parameter @name, or -1. */
static int btf_func__param(const struct kbtf *b, const struct btf_func *fn, const char *name)
{
	for (int i = 0; i < fn->nparams; i++) {
		const char *pn;
		uint32_t type;

		kbtf__param(b, fn->proto, i, &pn, &type);
		if (!strcmp(pn, name))
			return i;
	}
	return -1;
}

/*
 * Parameter @i read as @pa asks into @ta.  @quiet: for $params, a
 * parameter we can not fetch is left out without a message (-ENOTSUP).
 */
static int convert_param(const struct kbtf *b, const struct btf_func *fn, int i,
			 const struct perf_probe_arg *pa, bool silent, struct probe_trace_arg *ta)
{
	const struct btf_abi_slot *s = &fn->slots[i];
	struct btf_loc loc = { 0 };
	const char *pn, *prev = pa->var;
	char *bitfield = NULL;
	uint32_t type;
	int ret = 0;

	kbtf__param(b, fn->proto, i, &pn, &type);
	if (s->where == BTF_ABI_REG) {
		loc.reg = btf_abi_reg_name(s->reg);
	} else if (s->where == BTF_ABI_STACK) {
		loc.reg = btf_abi_reg_name(-1);
		loc_push(&loc, s->stack_off);
	} else {
		if (!silent)
			pr_err("Sorry, '%s' of %s is passed in %s: not supported.\n", pa->var,
			       fn->name,
			       s->where == BTF_ABI_SSE ? "a vector register" : "two registers");
		return -ENOTSUP;
	}
	for (const struct perf_probe_arg_field *f = pa->field; f && !ret; f = f->next) {
		if (f->name[0] == '[') {
			ret = array_step(b, &loc, &type, f->index, prev);
			continue;
		}
		ret = member_step(b, &loc, &type, f, prev, &bitfield);
		prev = f->name;
	}
	if (!ret)
		ret = final_type(b, pa, &loc, type, &bitfield, &ta->type);
	if (!ret) {
		ta->value = xstrdup(loc.reg);
		ta->ref = loc.refs;
		loc.refs = NULL;
		ta->name = pa->name ? xstrdup(pa->name) : perf_probe_arg_default_name(pa);
	}
	free(bitfield);
	loc_clear(&loc);
	return ret;
}

/* Free what @ta holds and zero it. */
static void clear_trace_arg(struct probe_trace_arg *ta)
{
	free(ta->name);
	free(ta->value);
	free(ta->type);
	while (ta->ref) {
		struct probe_trace_arg_ref *n = ta->ref->next;

		free(ta->ref);
		ta->ref = n;
	}
	memset(ta, 0, sizeof(*ta));
}

static void add_arg(struct probe_trace_event *tev, int *alloc, struct probe_trace_arg *ta)
{
	ALLOC_GROW(tev->args, tev->nargs + 1, *alloc);
	tev->args[tev->nargs++] = *ta;
}

/* $params (and $vars: BTF knows no locals): every parameter that can be fetched. */
static int convert_params(const struct kbtf *b, const struct btf_func *fn,
			  const struct perf_probe_arg *pa, struct probe_trace_event *tev,
			  int *alloc)
{
	int before = tev->nargs;

	for (int i = 0; i < fn->nparams; i++) {
		struct perf_probe_arg one = { 0 };
		struct probe_trace_arg ta = { 0 };
		uint32_t type;

		kbtf__param(b, fn->proto, i, (const char **)&one.var, &type);
		if (!*one.var)
			continue;
		if (!convert_param(b, fn, i, &one, true, &ta))
			add_arg(tev, alloc, &ta);
		else
			clear_trace_arg(&ta);
	}
	if (tev->nargs == before) {
		pr_err("Failed to find the location of the '%s' variable: %s has no parameter to fetch.\n",
		       pa->var, fn->name);
		return -ENOENT;
	}
	return 0;
}

/* $retval of a return probe typed as the function returns, unless given. */
static void typed_retval(const struct kbtf *b, const struct btf_func *fn,
			 const struct perf_probe_arg *pa, struct probe_trace_arg *ta)
{
	struct kbtf_type t;

	raw_probe_trace_arg(pa, ta);
	if (pa->type || ta->ref || kbtf__type(b, kbtf__return_type(b, fn->proto), &t))
		return;
	ta->type = basic_type(&t);
}

static int convert_args(const struct kbtf *b, const struct btf_func *fn,
			const struct perf_probe_event *pev, struct probe_trace_event *tev)
{
	int alloc = 0, ret = 0;

	for (int i = 0; i < pev->nargs && !ret; i++) {
		const struct perf_probe_arg *pa = &pev->args[i];
		struct probe_trace_arg ta = { 0 };
		int p;

		if (!strcmp(pa->var, "$retval") && !pev->point.retprobe) {
			pr_err("Semantic error: $retval is only available in a return probe (%%return).\n");
			return -EINVAL;
		}
		if (!strcmp(pa->var, "$retval") && !pa->field) {
			typed_retval(b, fn, pa, &ta);
		} else if (!strcmp(pa->var, "$params") || !strcmp(pa->var, "$vars")) {
			/* As the DWARF path, in a return probe too (the entry's registers). */
			ret = convert_params(b, fn, pa, tev, &alloc);
			continue;
		} else if (!perf_probe_arg_need_dwarf(pa)) {
			raw_probe_trace_arg(pa, &ta);
		} else if (pev->point.retprobe) {
			pr_err("Semantic error: You can't specify local variable for kretprobe.\n");
			return -EINVAL;
		} else if ((p = btf_func__param(b, fn, pa->var)) < 0) {
			pr_err("Failed to find a parameter '%s' of %s in BTF (locals and globals need debuginfo).\n",
			       pa->var, fn->name);
			return -ENOENT;
		} else {
			ret = convert_param(b, fn, p, pa, false, &ta);
			if (ret) {
				clear_trace_arg(&ta);
				return ret;
			}
		}
		add_arg(tev, &alloc, &ta);
	}
	return ret;
}

/* What only DWARF knows: one line naming it. */
static int needs_debuginfo(const struct perf_probe_event *pev, const char *what)
{
	char *spec = synthesize_perf_probe_command(pev);

	pr_err("Error: '%s' needs debuginfo (%s) of the kernel, which is not available: BTF has only functions and types\n",
	       spec, what);
	free(spec);
	return -ENOENT;
}

bool probe_btf__has_func(const struct kbtf *b, const char *name)
{
	uint32_t proto;

	return name && !kbtf__find_func(b, name, &proto);
}

int probe_btf__find_trace_events(const struct kbtf *b, const char *what,
				 const struct perf_probe_event *pev,
				 struct probe_trace_event **tevs)
{
	const struct perf_probe_point *pp = &pev->point;
	struct probe_trace_event *tev;
	struct btf_func fn;
	int ret;

	if (pp->file || pp->line || pp->lazy_line || !pp->function)
		return needs_debuginfo(pev, "source lines");
	if (strpbrk(pp->function, "*?["))
		return needs_debuginfo(pev, "a function glob with variables");
	if (btf_func__init(b, pp->function, &fn)) {
		pr_err("Error: Failed to find %s in the BTF of %s\n", pp->function, what);
		return -ENOENT;
	}
	ret = 0;
	if (pp->offset)
		for (int i = 0; i < pev->nargs && !ret; i++)
			if (perf_probe_arg_need_dwarf(&pev->args[i]))
				ret = needs_debuginfo(pev, "variables after the function entry");
	if (!ret && strcmp(arch_regs__host_arch(), "x86_64") && pev->nargs) {
		pr_err("Error: BTF arguments are supported only on x86_64, not %s\n",
		       arch_regs__host_arch());
		ret = -ENOTSUP;
	}
	if (ret) {
		free(fn.slots);
		return ret;
	}
	tev = xzalloc(sizeof(*tev));
	tev->point.symbol = xstrdup(pp->function);
	tev->point.realname = xstrdup(pp->function);
	tev->point.offset = pp->offset;
	tev->point.retprobe = pp->retprobe;
	ret = convert_args(b, &fn, pev, tev);
	free(fn.slots);
	if (ret) {
		clear_probe_trace_event(tev);
		free(tev);
		return ret;
	}
	*tevs = tev;
	return 1;
}

struct name_list {
	const struct strfilter *filter;
	char **v;
	int nr, alloc;
};

static int add_func_name(const char *name, void *arg)
{
	struct name_list *nl = arg;

	if (!name || !*name || (nl->filter && !strfilter__compare(nl->filter, name)))
		return 0;
	ALLOC_GROW(nl->v, nl->nr + 1, nl->alloc);
	nl->v[nl->nr++] = xstrdup(name);
	return 0;
}

int probe_btf__func_names(const struct kbtf *b, const struct strfilter *filter, char ***names)
{
	struct name_list nl = { filter, NULL, 0, 0 };
	int n = 0;

	kbtf__for_each_func(b, add_func_name, &nl);
	if (nl.nr)
		qsort(nl.v, (size_t)nl.nr, sizeof(*nl.v), strcmp_ptr);
	for (int i = 0; i < nl.nr; i++) {
		if (n && !strcmp(nl.v[n - 1], nl.v[i]))
			free(nl.v[i]);
		else
			nl.v[n++] = nl.v[i];
	}
	*names = nl.v ? nl.v : xzalloc(sizeof(char *));
	return n;
}

int probe_btf__show_vars(const struct kbtf *b, const char *what, const struct perf_probe_event *pev,
			 const struct strfilter *filter)
{
	const struct perf_probe_point *pp = &pev->point;
	struct btf_func fn;
	char **lines;
	int n = 0;

	if (pp->file || pp->line || pp->lazy_line || !pp->function || strpbrk(pp->function, "*?["))
		return needs_debuginfo(pev, "source lines");
	if (btf_func__init(b, pp->function, &fn)) {
		pr_err("Error: Failed to find %s in the BTF of %s\n", pp->function, what);
		return -ENOENT;
	}
	lines = xzalloc(sizeof(*lines) * (size_t)(fn.nparams + 1));
	for (int i = 0; i < fn.nparams; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *pn;
		uint32_t type;

		kbtf__param(b, fn.proto, i, &pn, &type);
		if (!*pn || (filter && !strfilter__compare(filter, pn)))
			continue;
		kbtf__type_name(b, type, &sb);
		strbuf_addf(&sb, "\t%s", pn);
		lines[n++] = strbuf_detach(&sb, NULL);
	}
	qsort(lines, (size_t)n, sizeof(*lines), strcmp_ptr);
	printf("Available variables at %s", pp->function);
	if (pp->offset)
		printf("+%lu", pp->offset);
	printf("%s\n", pp->retprobe ? "%return" : "");
	printf("\t@<%s+%lu>\n", pp->function, pp->offset);
	for (int i = 0; i < n; i++) {
		printf("\t\t%s\n", lines[i]);
		free(lines[i]);
	}
	if (!n)
		printf("\t\t(No matched variables)\n");
	free(lines);
	free(fn.slots);
	return 0;
}
