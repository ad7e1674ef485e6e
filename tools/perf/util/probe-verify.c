// SPDX-License-Identifier: GPL-2.0
/*
 * Cached lines checked against their entries before they are placed, and
 * the "(on ...)" text of added events (see probe-verify.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/arch-regs.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/demangle.h"
#include "util/eh-frame.h"
#include "util/elf-util.h"
#include "util/insn.h"
#include "util/probe-cache.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/probe-verify.h"
#include "util/strbuf.h"
#include "util/symbol-dyn.h"
#include "util/symbol-elf.h"
#include "util/target-ns.h"

void probe_verifier__clear(struct probe_verifier *v)
{
	if (v->own_se)
		symbol_elf__delete(v->se);
	probe_cache__close(v->sdt);
	v->se = NULL;
	v->sdt = NULL;
	v->own_se = false;
	v->se_layout_only = false;
}

static int verifier_symbols(struct probe_verifier *v, struct strbuf *why)
{
	int ret;

	if (v->se && !v->se_layout_only)
		return 0;
	if (v->se) { /* the segments only: the symbols now */
		if (v->own_se)
			symbol_elf__delete(v->se);
		v->se = NULL;
		v->own_se = v->se_layout_only = false;
	}
	pr_debug("cached lines checked against the symbol table of %s\n",
		 v->path ? v->path : "/proc/kallsyms");
	ret = v->symbols ? v->symbols(v->ctx, &v->se) : -ENOENT;
	if (!ret)
		return 0; /* the caller's, kept for its next entries */
	v->se = NULL;
	/* The running kernel's: /proc/kallsyms.  No symbols: not read twice. */
	if (ret != -ENODATA)
		ret = v->path ? symbol_elf__load(v->path, &v->se)
			      : symbol_elf__load_kallsyms(NULL, &v->se);
	/*
	 * A file stripped of every symbol (what hosts without debuginfo run):
	 * its segments, and the functions its call frame information knows.
	 */
	if (ret == -ENODATA && v->path && !symbol_elf__load_layout(v->path, &v->se)) {
		v->se->dynsym_only = true;
		ret = 0;
	}
	if (ret) {
		v->se = NULL;
		strbuf_addf(why, "the symbols of %s can not be read: %s",
			    v->path ? v->path : "/proc/kallsyms", symbol_elf__strerror(ret));
		return -EBADMSG;
	}
	v->own_se = true;
	return 0;
}

/*
 * The segments of @v's file, for a check that needs no symbol (an SDT
 * semaphore): read alone when nothing is loaded yet, not the whole symbol
 * table (90% of a cached SDT `-D` on python3.11).
 */
static int verifier_segments(struct probe_verifier *v, struct strbuf *why)
{
	if (v->se)
		return 0;
	if (!v->path || !v->uprobes)
		return verifier_symbols(v, why);
	if (symbol_elf__load_layout(v->path, &v->se)) {
		v->se = NULL;
		return verifier_symbols(v, why);
	}
	v->own_se = v->se_layout_only = true;
	return 0;
}

/* The PT_LOAD segment holding @vaddr in its file part, or NULL. */
static const struct elf_load_segment *segment_of(const struct symbol_elf *se, uint64_t vaddr)
{
	for (int i = 0; i < se->nr_loads; i++) {
		const struct elf_load_segment *l = &se->loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz)
			return l;
	}
	return NULL;
}

/* The symbols a spec's FUNC names: by name (C++/Rust source names too) or glob. */
static int named_functions(const struct symbol_elf *se, const char *func,
			   const struct elf_symbol ***out)
{
	if (demangle_is_glob(func))
		return symbol_elf__find_glob(se, func, out);
	return symbol_elf__find_name(se, func, out);
}

/* "r", "r->len" -> the name perf gives the argument in the line, or NULL (raw). */
static char *expected_arg_name(const struct perf_probe_arg *pa)
{
	if (pa->name)
		return xstrdup(pa->name);
	if (!perf_probe_arg_need_dwarf(pa))
		return NULL;
	return perf_probe_arg_default_name(pa);
}

static bool is_any_args(const struct perf_probe_arg *pa)
{
	return !pa->field && pa->var &&
	       (!strcmp(pa->var, "$vars") || !strcmp(pa->var, "$params") ||
		!strcmp(pa->var, "$args"));
}

static bool spec_takes_any_args(const struct perf_probe_event *pev)
{
	for (int i = 0; i < pev->nargs; i++)
		if (is_any_args(&pev->args[i]))
			return true;
	return false;
}

/* The arguments of @tev are @pev's: as many, with the names perf gives them. */
static int check_args(const struct perf_probe_event *pev, const struct probe_trace_event *tev,
		      struct strbuf *why)
{
	if (spec_takes_any_args(pev))
		return 0;
	if (tev->nargs != pev->nargs) {
		strbuf_addf(why, "%d argument%s where the entry asks for %d", tev->nargs,
			    tev->nargs == 1 ? "" : "s", pev->nargs);
		return -EBADMSG;
	}
	for (int i = 0; i < pev->nargs; i++) {
		char *want = expected_arg_name(&pev->args[i]);
		const char *have = tev->args[i].name;
		bool same = want && have ? !strcmp(want, have) : !want && !have;

		if (!same)
			strbuf_addf(why, "argument %d is named %s where the entry asks for %s",
				    i + 1, have ? have : "nothing", want ? want : "no name");
		free(want);
		if (!same)
			return -EBADMSG;
	}
	return 0;
}

/*
 * Does the line name the file it is placed on: that path, the one it was
 * cached for, or the same build elsewhere (a path that is not here: the
 * build host's)?  Another file that is here is not.
 */
static bool names_target(struct probe_verifier *v, const char *module)
{
	struct build_id there;

	if (!module || !v->path)
		return false;
	if (!strcmp(module, v->path) || !strcmp(module, target_ns__inside(v->path)) ||
	    (v->owner && !strcmp(module, v->owner)))
		return true;
	if (access(module, F_OK) < 0)
		return errno == ENOENT || errno == ENOTDIR;
	if (!v->bid_read)
		v->bid_read = filename__read_build_id(v->path, &v->bid) ? -1 : 1;
	return v->bid_read > 0 && !filename__read_build_id(module, &there) &&
	       build_id__equal(&there, &v->bid);
}

/*
 * The function a uprobe line is checked in: a symbol of the file's table,
 * or, on a file whose only table is .dynsym (stripped), the frame
 * description of its call frame information (.eh_frame) that holds the
 * address: every function's range, without a name.
 */
struct line_function {
	uint64_t start, size; /* size 0: none (a 0xADDR in no function) */
	/*
	 * The spec's FUNC itself, by its name or (stripped) by the frame
	 * description standing for it: the spec's entry and offsets count
	 * from its start.  Not for a function that merely holds the line
	 * (a FUNC inlined everywhere, SRC:LINE, 0xADDR).
	 */
	bool own;
	bool named_other; /* a stripped file's .dynsym names it, not the spec's FUNC */
	const char *name; /* the symbol's, or @frame */
	char frame[128];  /* "FUNC (at 0x... by .eh_frame)", "the function at 0x..." */
};

static void function_of_symbol(struct line_function *fn, const struct elf_symbol *sym, bool own)
{
	fn->start = sym->addr;
	fn->size = sym->size;
	fn->own = own;
	fn->name = sym->name;
}

/*
 * A stripped file's function holding @vaddr by its call frame
 * information, standing for @func (NULL: a spec that names none).
 */
static int function_of_frame(struct probe_verifier *v, uint64_t vaddr, const char *func,
			     struct line_function *fn, struct strbuf *why)
{
	uint64_t start, end;

	if (eh_frame__range(v->path, vaddr, &start, &end)) {
		strbuf_addf(why,
			    "address 0x%" PRIx64
			    " is in no function %s's call frame information knows",
			    vaddr, v->path);
		return -EBADMSG;
	}
	fn->start = start;
	fn->size = end - start;
	if (func)
		snprintf(fn->frame, sizeof(fn->frame), "%.64s (at 0x%" PRIx64 " by .eh_frame)",
			 func, start);
	else
		snprintf(fn->frame, sizeof(fn->frame), "the function at 0x%" PRIx64 " (.eh_frame)",
			 start);
	fn->name = fn->frame;
	return 0;
}

/*
 * The function of the spec holding @vaddr into *@fn (zeroed here): 0, or
 * -EBADMSG when the line is in none it may be in.
 */
static int check_function(struct probe_verifier *v, const struct perf_probe_event *pev,
			  uint64_t vaddr, struct line_function *fn, struct strbuf *why)
{
	const struct perf_probe_point *pp = &pev->point;
	const struct elf_symbol **syms = NULL, *at, *held, *sym = NULL;
	bool stripped;
	int nr = 0;

	memset(fn, 0, sizeof(*fn));
	/*
	 * An exported function found by hash is the symbol table's answer
	 * too (it lists .dynsym): the table is read only when that fails.
	 */
	if (pp->function && v->dyn && v->se_layout_only &&
	    !symbol_dyn__find(v->dyn, pp->function, vaddr, &v->dyn_sym)) {
		function_of_symbol(fn, &v->dyn_sym, true);
		return 0;
	}
	if (verifier_symbols(v, why))
		return -EBADMSG;
	/* No .symtab, no debug file, no MiniDebugInfo: .dynsym names few. */
	stripped = v->se->dynsym_only && v->uprobes;
	at = symbol_elf__find_addr(v->se, vaddr);
	held = at && elf_symbol__is_function(at) ? at : NULL;
	if (pp->function) {
		nr = named_functions(v->se, pp->function, &syms);
		for (int i = 0; i < nr && !sym; i++)
			if (elf_symbol__holds(syms[i], vaddr))
				sym = syms[i];
		free(syms);
		if (sym) {
			function_of_symbol(fn, sym, true);
			return 0;
		}
		if (nr) {
			strbuf_addf(why, "address 0x%" PRIx64 " is %s%s, not in %s", vaddr,
				    at ? "in " : "in no function", at ? at->name : "",
				    pp->function);
			return -EBADMSG;
		}
		if (stripped && !held) {
			/* Its frame description stands for the function unnamed. */
			if (function_of_frame(v, vaddr, pp->function, fn, why))
				return -EBADMSG;
			fn->own = true;
			return 0;
		}
		/*
		 * Not in a whole table: inlined everywhere, the line is in
		 * some function (below).  In an exported function of a
		 * stripped file: inlined there, or not the spec's FUNC.
		 */
		fn->named_other = stripped;
	} else if (!pp->file) { /* 0xADDR */
		if (vaddr != pp->abs_address) {
			strbuf_addf(why, "address 0x%" PRIx64 " is not the requested 0x%" PRIx64,
				    vaddr, pp->abs_address);
			return -EBADMSG;
		}
		if (held)
			function_of_symbol(fn, held, false);
		else if (stripped && function_of_frame(v, vaddr, NULL, fn, why))
			strbuf_reset(why); /* in no function: checked as it is */
		return 0;
	}
	if (held) {
		function_of_symbol(fn, held, false);
		return 0;
	}
	if (stripped)
		return function_of_frame(v, vaddr, NULL, fn, why);
	strbuf_addf(why, "address 0x%" PRIx64 " is in no function", vaddr);
	return -EBADMSG;
}

/* Is @vaddr one of the return instructions of @fn (a Go %return)? */
static bool is_return_of(const char *path, const struct line_function *fn, uint64_t vaddr)
{
	struct insn_returns r = { 0 };
	bool found = false;

	if (!insn__find_returns(path, fn->start, fn->size, &r))
		for (int i = 0; i < r.nr && !found; i++)
			found = r.addr[i] == vaddr;
	insn_returns__clear(&r);
	return found;
}

/* Does the spec read something through DWARF (where perf may skip the prologue)? */
static bool reads_dwarf_args(const struct perf_probe_event *pev)
{
	for (int i = 0; i < pev->nargs; i++)
		if (perf_probe_arg_need_dwarf(&pev->args[i]))
			return true;
	return false;
}

/*
 * Where in @fn the spec's kind puts its lines: the entry for FUNC%return
 * (r:, a Go %return at a return), start + OFF for FUNC+OFF, the entry
 * for FUNC alone, or after it through code that runs straight there (a
 * prologue) when the spec reads an argument through DWARF; FUNC:LINE,
 * FUNC;PTN, SRC:LINE, SRC;PTN anywhere (the line table alone knows).
 */
static int check_entry_rules(struct probe_verifier *v, const struct perf_probe_event *pev,
			     const struct probe_trace_event *tev, const struct line_function *fn,
			     uint64_t vaddr, struct strbuf *why)
{
	const struct perf_probe_point *pp = &pev->point;
	bool alone = pp->function && !pp->line && !pp->lazy_line && !pp->offset && !pp->retprobe;
	bool with_off = pp->function && !pp->line && !pp->lazy_line && pp->offset;
	int ret;

	/* A uretprobe anywhere else takes a return address that is none. */
	if (tev->point.retprobe && pp->function && vaddr != fn->start) {
		strbuf_addf(why, "a return probe (r:) at 0x%" PRIx64 ", not at the entry of %s",
			    vaddr, fn->name);
		return -EBADMSG;
	}
	if (pp->retprobe && !tev->point.retprobe && !is_return_of(v->path, fn, vaddr)) {
		strbuf_addf(why,
			    "a plain probe (p:) at 0x%" PRIx64
			    " for a %%return request, not at a return of %s",
			    vaddr, fn->name);
		return -EBADMSG;
	}
	if (fn->named_other && (alone || with_off || pp->retprobe)) {
		strbuf_addf(why, "address 0x%" PRIx64 " is in %s, not in %s", vaddr, fn->name,
			    pp->function);
		return -EBADMSG;
	}
	if (!fn->own)
		return 0;
	if (with_off && vaddr - fn->start != pp->offset) {
		strbuf_addf(why, "address 0x%" PRIx64 " is not %s+%lu but +%" PRIu64 " in %s",
			    vaddr, pp->function, pp->offset, vaddr - fn->start, fn->name);
		return -EBADMSG;
	}
	if (!alone || vaddr == fn->start)
		return 0;
	ret = reads_dwarf_args(pev) ? insn__falls_through_to(v->path, fn->start, fn->size, vaddr)
				    : 0;
	if (ret > 0 || ret == -EOPNOTSUPP) /* other machines: no decoder */
		return 0;
	if (ret < 0)
		strbuf_addf(why, "the code of %s can not be read: %s", fn->name, strerror(-ret));
	else
		strbuf_addf(why, "address 0x%" PRIx64 " is not the entry of %s%s", vaddr, fn->name,
			    reads_dwarf_args(pev) ? " nor past its prologue alone" : "");
	return -EBADMSG;
}

/* A uprobe line's place: segment, function, instruction, entry. */
static int check_uprobe_place(struct probe_verifier *v, const struct perf_probe_event *pev,
			      const struct probe_trace_event *tev, struct strbuf *why)
{
	struct line_function fn;
	const struct elf_load_segment *seg;
	uint64_t vaddr;
	int ret;

	if (elf_loads__offset_to_vaddr(v->se->loads, v->se->nr_loads, tev->point.offset, &vaddr) ||
	    !(seg = segment_of(v->se, vaddr))) {
		strbuf_addf(why, "offset 0x%lx is in no loaded segment of %s", tev->point.offset,
			    v->path);
		return -EBADMSG;
	}
	if (!seg->exec) {
		strbuf_addf(why, "address 0x%" PRIx64 " is not in an executable segment", vaddr);
		return -EBADMSG;
	}
	ret = check_function(v, pev, vaddr, &fn, why);
	if (ret || !fn.size)
		return ret;
	/* A function's first byte starts an instruction: no decoder needed. */
	ret = vaddr == fn.start ? 1 : insn__starts_at(v->path, fn.start, fn.size, vaddr);
	if (ret == 0) {
		strbuf_addf(why, "address 0x%" PRIx64 " is not an instruction start in %s", vaddr,
			    fn.name);
		return -EBADMSG;
	}
	if (ret < 0 && ret != -EOPNOTSUPP) { /* other machines: no decoder */
		strbuf_addf(why, "the code of %s can not be read: %s", fn.name, strerror(-ret));
		return -EBADMSG;
	}
	return check_entry_rules(v, pev, tev, &fn, vaddr, why);
}

/*
 * A "_text+OFF" kprobe line (how a -k vmlinux place is written): does the
 * function @func holds the address?  Through the symbols of the vmlinux,
 * or of the running kernel.
 */
static bool text_offset_in(struct probe_verifier *v, const char *func, uint64_t off,
			   struct strbuf *why)
{
	const struct elf_symbol **text = NULL, **syms = NULL;
	bool in = false;
	int nr;

	if (verifier_symbols(v, why))
		return false;
	if (symbol_elf__find_name(v->se, "_text", &text) >= 1) {
		nr = named_functions(v->se, func, &syms);
		for (int i = 0; i < nr && !in; i++)
			in = elf_symbol__holds(syms[i], text[0]->addr + off);
	}
	free(text);
	free(syms);
	return in;
}

/* A kprobe line: the function of the spec, an offset inside it. */
static int check_kprobe_place(struct probe_verifier *v, const struct perf_probe_event *pev,
			      const struct probe_trace_event *tev, struct strbuf *why)
{
	const struct perf_probe_point *pp = &pev->point;
	const char *symbol = tev->point.symbol;
	const struct elf_symbol **syms = NULL;
	int nr;

	if (!symbol) {
		if (pp->function || tev->point.address != pp->abs_address) {
			strbuf_addf(why, "address 0x%" PRIx64 " is not what the entry asks for",
				    tev->point.address);
			return -EBADMSG;
		}
		return 0;
	}
	if (pp->function && !strcmp(symbol, "_text") && strcmp(pp->function, "_text")) {
		if (text_offset_in(v, pp->function, tev->point.offset, why))
			return 0;
		if (!why->len)
			strbuf_addf(why, "the probe at _text+%lu is not in %s", tev->point.offset,
				    pp->function);
		return -EBADMSG;
	}
	if (!pp->function || (strcmp(pp->function, symbol) && fnmatch(pp->function, symbol, 0))) {
		strbuf_addf(why, "the probe is on %s, not on %s", symbol,
			    pp->function ? pp->function : "a function");
		return -EBADMSG;
	}
	if (!v->path || verifier_symbols(v, why)) { /* sizes only from a -k vmlinux */
		strbuf_reset(why);
		return 0;
	}
	nr = symbol_elf__find_name(v->se, symbol, &syms);
	if (nr && syms[0]->size && tev->point.offset >= syms[0]->size) {
		strbuf_addf(why, "offset %lu is outside %s (%" PRIu64 " bytes)", tev->point.offset,
			    symbol, syms[0]->size);
		nr = -EBADMSG;
	}
	free(syms);
	return nr < 0 ? nr : 0;
}

/* The length of @event without the "_N" perf adds to make a name unique (perf probe -f). */
static size_t event_base_len(const char *event)
{
	size_t n = strlen(event), d = n;

	while (d && isdigit((unsigned char)event[d - 1]))
		d--;
	return d > 1 && d < n && event[d - 1] == '_' ? d - 1 : n;
}

/* Is @have @name, or @name made unique? */
static bool is_event_named(const char *have, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(have, name, n) && (!have[n] || event_base_len(have) == n);
}

/*
 * Is @event named after a function the glob @glob matches: that name,
 * maybe made unique, "__return" after it for a return probe?
 */
static bool event_of_glob(const char *glob, const char *event, bool retprobe)
{
	char *base = xstrdup(event);
	size_t n = strlen(base);
	bool ok = false;

	for (int unique = 0; unique < 2 && !ok; unique++) {
		char *end = base + (unique ? event_base_len(event) : n);

		strcpy(base, event);
		*end = '\0';
		if (retprobe) {
			if (end - base <= 8 || strcmp(end - 8, "__return"))
				continue;
			end[-8] = '\0';
		}
		ok = !fnmatch(glob, base, 0);
	}
	free(base);
	return ok;
}

/*
 * Is @event what resolving @pev (a glob) names an event at the function
 * holding the line of @tev: that function's name, a C++ or Rust one by
 * its source name, qualified ("shop_Cart_add") or not ("add", as DWARF
 * names it)?
 */
static bool event_of_placed_function(struct probe_verifier *v, const struct perf_probe_event *pev,
				     const struct probe_trace_event *tev, const char *event)
{
	const struct elf_symbol *sym = NULL;
	struct strbuf why = STRBUF_INIT;
	const char *name = tev->point.symbol;
	char *shown, *last, *want;
	uint64_t vaddr;
	bool ok;

	if (v->uprobes) {
		if (!verifier_symbols(v, &why) &&
		    !elf_loads__offset_to_vaddr(v->se->loads, v->se->nr_loads, tev->point.offset,
						&vaddr))
			sym = symbol_elf__find_addr(v->se, vaddr);
		name = sym ? sym->name : NULL;
	}
	strbuf_release(&why);
	if (!name)
		return false;
	want = probe_event_name(pev, name);
	ok = is_event_named(event, want);
	free(want);
	shown = demangle_display(name, true);
	demangle_strip_params(shown);
	last = strstr(shown, "::");
	for (char *p = last; p; p = strstr(p + 2, "::"))
		last = p;
	if (!ok && last) {
		want = probe_event_name(pev, last + 2);
		ok = is_event_named(event, want);
		free(want);
	}
	free(shown);
	return ok;
}

/*
 * The group and event a line of a '#' entry defines are the ones
 * resolving its spec gives: the spec's GROUP, else the default group of
 * the file the entry was cached for or of the target ("probe" for the
 * kernel); the spec's EVENT, else the name perf derives from FUNC or
 * 0xADDR, or from the function a glob matched; for a source line or a
 * lazy pattern of a file (named after a function only the debuginfo
 * knows) any.  "__return" follows for a return probe, and a name may
 * have been made unique ("_N").
 */
static int check_line_names(struct probe_verifier *v, const struct perf_probe_event *pev,
			    const struct probe_trace_event *tev, struct strbuf *why)
{
	const struct perf_probe_point *pp = &pev->point;
	const char *group = tev->group ? tev->group : PERFPROBE_GROUP;
	const char *event = tev->event ? tev->event : "";
	char *groups[2] = { NULL, NULL }, *want = NULL;
	bool group_ok, event_ok = true;

	if (pev->group) {
		group_ok = !strcmp(group, pev->group);
	} else {
		groups[0] = probe_default_group(v->uprobes ? v->path : NULL);
		if (v->uprobes && v->owner)
			groups[1] = probe_default_group(v->owner);
		group_ok = !strcmp(group, groups[0]) || (groups[1] && !strcmp(group, groups[1]));
	}
	if (!pev->event && pp->function && demangle_is_glob(pp->function)) {
		if (!event_of_glob(pp->function, event, pp->retprobe) &&
		    !event_of_placed_function(v, pev, tev, event)) {
			event_ok = false;
			want = xstrdup(pp->function);
		}
	} else if (pev->event || pp->function || !pp->file) {
		want = probe_event_name(pev, pp->function);
		event_ok = is_event_named(event, want);
	}
	if (!group_ok || !event_ok)
		strbuf_addf(why, "the line defines %s:%s, where the entry asks for %s:%s", group,
			    event, pev->group ? pev->group : groups[0], want ? want : "*");
	free(groups[0]);
	free(groups[1]);
	free(want);
	return group_ok && event_ok ? 0 : -EBADMSG;
}

/* One line of a '#' entry. */
static int check_spec_line(struct probe_verifier *v, const struct perf_probe_event *pev,
			   const struct probe_trace_event *tev, struct strbuf *why)
{
	if (tev->uprobes != v->uprobes) {
		strbuf_addstr(why, tev->uprobes ? "a user-space probe in the cache of the kernel"
						: "a kernel probe in the cache of a file");
		return -EBADMSG;
	}
	if (v->uprobes && !names_target(v, tev->point.module)) {
		strbuf_addf(why, "the line names another file, %s", tev->point.module);
		return -EBADMSG;
	}
	if (check_line_names(v, pev, tev, why))
		return -EBADMSG;
	/* A Go %return is plain probes on the returns (checked with the place). */
	if (tev->point.retprobe && !pev->point.retprobe) {
		strbuf_addstr(why, "a return probe (r:) for a request without %return");
		return -EBADMSG;
	}
	if (tev->point.ref_ctr_offset) {
		strbuf_addf(why,
			    "a semaphore (ref_ctr_offset 0x%" PRIx64
			    ") on an entry that is not an SDT marker",
			    tev->point.ref_ctr_offset);
		return -EBADMSG;
	}
	if (v->uprobes) {
		if (verifier_segments(v, why) || check_uprobe_place(v, pev, tev, why))
			return -EBADMSG;
	} else if (check_kprobe_place(v, pev, tev, why)) {
		return -EBADMSG;
	}
	return check_args(pev, tev, why);
}

/*
 * @line as written on v->path, to compare with what the notes give; with
 * @bare without its arguments (a line that reads none is a marker's too:
 * perf writes those when it can not read the operands).
 */
static char *canonical_line(const struct probe_verifier *v, const char *line, bool bare)
{
	struct probe_trace_event tev = { 0 };
	char *text;
	int nargs;

	if (parse_probe_trace_command(line, &tev))
		return NULL;
	free(tev.point.module);
	tev.point.module = xstrdup(v->path);
	nargs = tev.nargs;
	if (bare)
		tev.nargs = 0;
	text = synthesize_probe_trace_command(&tev);
	tev.nargs = nargs;
	clear_probe_trace_event(&tev);
	return text;
}

/* One line of a '%' entry: one of the lines the file's notes give. */
static int check_sdt_line(struct probe_verifier *v, const struct probe_cache_entry *e,
			  const char *text, const struct probe_trace_event *tev, struct strbuf *why)
{
	const struct probe_cache_entry *own;
	const struct elf_load_segment *seg;
	uint64_t vaddr;
	char *line;
	bool found = false;

	if (!v->uprobes || !tev->uprobes || !names_target(v, tev->point.module)) {
		strbuf_addf(why, "the line names another file, %s",
			    tev->point.module ? tev->point.module : "none");
		return -EBADMSG;
	}
	if (!v->sdt && !v->sdt_err) {
		v->sdt = probe_cache__new();
		v->sdt_err = probe_cache__add_sdt_entries(v->sdt, v->path, NULL);
		if (v->sdt_err >= 0)
			v->sdt_err = 0;
		else if (v->sdt_err != -EEXIST)
			pr_debug("SDT notes of %s: %s\n", v->path, strerror(-v->sdt_err));
	}
	own = v->sdt ? probe_cache__find(v->sdt, true, e->spec) : NULL;
	if (!own) {
		strbuf_addf(why, "%s has no SDT marker %s", v->path, e->spec);
		return -EBADMSG;
	}
	line = canonical_line(v, text, false);
	for (int i = 0; i < own->nr_lines && !found; i++) {
		char *mine = canonical_line(v, own->lines[i], !tev->nargs);

		found = mine && line && !strcmp(mine, line);
		free(mine);
	}
	free(line);
	if (!found) {
		strbuf_addf(
			why,
			"the note of %s in %s gives no such line (address, semaphore or arguments differ)",
			e->spec, v->path);
		return -EBADMSG;
	}
	if (!tev->point.ref_ctr_offset)
		return 0;
	if (verifier_segments(v, why))
		return -EBADMSG;
	if (elf_loads__offset_to_vaddr(v->se->loads, v->se->nr_loads, tev->point.ref_ctr_offset,
				       &vaddr) ||
	    !(seg = segment_of(v->se, vaddr)) || !seg->write) {
		strbuf_addf(why,
			    "the semaphore (ref_ctr_offset 0x%" PRIx64
			    ") is not in a writable segment",
			    tev->point.ref_ctr_offset);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The spec of a header as the spec grammar takes it: "@SRC:LINE" (a file
 * alone, as perf 6.1 writes it, maybe after "EVENT=") without its '@'.
 * In @buf.
 */
static const char *spec_of(const char *header, struct strbuf *buf)
{
	size_t word = strcspn(header, " \t"), at = strcspn(header, "=");

	at = at < word ? at + 1 : 0;
	strbuf_addstr(buf, header);
	if (header[at] == '@') {
		memmove(buf->buf + at, buf->buf + at + 1, buf->len - at);
		strbuf_setlen(buf, buf->len - 1);
	}
	return buf->buf;
}

int probe_verifier__check(struct probe_verifier *v, const struct probe_cache_entry *e,
			  int *bad_line, struct strbuf *why)
{
	struct perf_probe_event pev = { 0 };
	int ret = 0;

	*bad_line = e->header_no;
	if (!e->sdt) {
		int m = 0;

		/* Once per file, not once per entry. */
		if (v->uprobes && v->path && !v->machine)
			v->machine = elf_util__machine(v->path);
		m = v->uprobes && v->path ? v->machine : 0;

		pev.uprobes = v->uprobes;
		pev.arch = m > 0 ? arch_regs__elf_arch(m) : NULL;
		struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;

		ret = parse_perf_probe_command_quiet(spec_of(e->spec, &spec), &pev, &err);
		if (ret)
			strbuf_addf(why, "the entry's spec does not parse: %s", err.buf);
		strbuf_release(&spec);
		strbuf_release(&err);
		if (ret)
			return -EBADMSG;
	}
	for (int i = 0; i < e->nr_lines && !ret; i++) {
		struct probe_trace_event tev = { 0 };

		*bad_line = e->line_nos ? e->line_nos[i] : 0;
		strbuf_reset(why);
		if (parse_probe_trace_command(e->lines[i], &tev)) {
			strbuf_addstr(why, "a trace-event line that does not parse");
			ret = -EBADMSG;
		} else if (e->sdt) {
			ret = check_sdt_line(v, e, e->lines[i], &tev, why);
		} else {
			ret = check_spec_line(v, &pev, &tev, why);
		}
		clear_probe_trace_event(&tev);
	}
	clear_perf_probe_event(&pev);
	return ret;
}

char *probe_verify__cache_owner(const char *pc_path)
{
	const char *root = buildid_dir();
	size_t n = strlen(root);
	char *dir, *slash, *name = NULL;

	if (!pc_path || strncmp(pc_path, root, n) || pc_path[n] != '/')
		return NULL;
	dir = xstrdup(pc_path + n);
	for (int i = 0; i < 2 && (slash = strrchr(dir, '/')); i++)
		*slash = '\0'; /* drop "/probes", then "/BID" */
	if (dir[0] == '/')
		name = xstrdup(dir);
	free(dir);
	return name;
}

int probe_verify__cache_entry(const char *pc_path, const struct probe_cache_entry *e,
			      const char *path, bool uprobes, const struct probe_verify_source *src)
{
	struct strbuf why = STRBUF_INIT;
	char *owner;
	struct probe_verifier v = { .path = path, .uprobes = uprobes };
	int ret, line;

	if (!pc_path)
		return 0;
	if (src) {
		v.se = src->se;
		v.se_layout_only = src->se && src->layout_only;
		v.dyn = src->dyn;
		v.symbols = src->symbols;
		v.ctx = src->ctx;
	}
	v.owner = owner = probe_verify__cache_owner(pc_path);
	ret = probe_verifier__check(&v, e, &line, &why);
	if (ret) {
		if (line)
			pr_err("perf: refusing cached probe %s:%d: %s\n", pc_path, line, why.buf);
		else
			pr_err("perf: refusing cached probe %s (%s): %s\n", pc_path, e->spec,
			       why.buf);
	}
	probe_verifier__clear(&v);
	free(owner);
	strbuf_release(&why);
	return ret;
}

/*
 * Is @name here, of the build @bid?  Then @v is set up on it from one open
 * of the file: its build-id, machine and symbols are read from the same
 * libelf handle, not each by an open of its own.
 */
static bool open_here(struct probe_verifier *v, const char *name, const struct build_id *bid)
{
	struct build_id here;
	uint64_t size;
	GElf_Ehdr eh;
	Elf *elf;
	int fd;

	if (elf_util__open(name, &fd, &elf, &size))
		return false;
	if (elf__read_build_id(elf, size, &here) || !build_id__equal(&here, bid)) {
		elf_util__close(fd, elf);
		return false;
	}
	v->uprobes = true;
	v->path = name;
	v->machine = gelf_getehdr(elf, &eh) ? eh.e_machine : -ENOEXEC;
	/* A file without symbols is read as verifier_symbols() reads it. */
	if (!symbol_elf__load_elf(elf, size, name, &v->se))
		v->own_se = true;
	else
		v->se = NULL;
	elf_util__close(fd, elf);
	return true;
}

int probe_verify__probes_text(const char *name, const struct build_id *bid, const char *probes,
			      size_t len, struct strbuf *why)
{
	struct probe_cache *pc = probe_cache__new();
	struct probe_verifier v = { .owner = name };
	const char *reason;
	int ret, line = 0;

	ret = probe_cache__parse(pc, probes, len, &line, &reason);
	if (ret) {
		strbuf_addf(why, "line %d: %s", line, reason);
		goto out;
	}
	if (!strcmp(name, KERNEL_CACHE_NAME)) {
		v.uprobes = false;
	} else if (!open_here(&v, name, bid)) {
		goto out; /* not here: checked where it is used */
	}
	for (int i = 0; i < pc->nr && !ret; i++) {
		struct strbuf reason_sb = STRBUF_INIT;

		ret = probe_verifier__check(&v, &pc->entries[i], &line, &reason_sb);
		if (ret)
			strbuf_addf(why, "line %d: %s", line, reason_sb.buf);
		strbuf_release(&reason_sb);
	}
	probe_verifier__clear(&v);
out:
	probe_cache__close(pc);
	return ret;
}

/* ---- places another stage made ---------------------------------------- */

int probe_verify__code_address(const char *path, const struct probe_verify_source *src,
			       uint64_t vaddr, const char *func, struct strbuf *why)
{
	const struct elf_load_segment *seg = src->se ? segment_of(src->se, vaddr) : NULL;
	const struct elf_symbol *sym = NULL;
	struct symbol_elf *se = NULL;
	uint64_t start, end;
	int ret;

	if (!seg || !seg->exec) {
		strbuf_addf(why, "0x%" PRIx64 " is not in an executable segment of %s", vaddr,
			    path);
		return -EBADMSG;
	}
	/*
	 * Where instructions start, from the file itself: the frame
	 * description holding it (a binary search of .eh_frame_hdr), else the
	 * symbol of the function (the whole table: two thirds of a -D on
	 * python3.11d when read first).
	 */
	if (eh_frame__range(path, vaddr, &start, &end)) {
		if (src->symbols && !src->symbols(src->ctx, &se))
			sym = symbol_elf__find_addr(se, vaddr);
		if (!sym || !elf_symbol__is_function(sym) || !sym->size) {
			strbuf_addf(why,
				    "0x%" PRIx64
				    " is in no function of %s (its call frames and symbols)",
				    vaddr, path);
			return -EBADMSG;
		}
		start = sym->addr;
		end = sym->addr + sym->size;
		func = sym->name;
	}
	ret = vaddr == start ? 1 : insn__starts_at(path, start, end - start, vaddr);
	if (ret == 0) {
		strbuf_addf(why, "0x%" PRIx64 " is not an instruction start in %s of %s", vaddr,
			    func ? func : "the function", path);
		return -EBADMSG;
	}
	if (ret < 0 && ret != -EOPNOTSUPP) { /* other machines: no decoder */
		strbuf_addf(why, "the code at 0x%" PRIx64 " of %s can not be read: %s", vaddr, path,
			    strerror(-ret));
		return -EBADMSG;
	}
	return 0;
}

/* ---- what was placed -------------------------------------------------- */

/*
 * The point as perf shows an added event: FUNC[+OFF][:RLN][%return][@SRC],
 * @SRC[:ALN] for a file, without the lazy pattern.
 */
static char *added_point(const struct perf_probe_point *pp)
{
	struct perf_probe_point p = *pp;
	struct strbuf sb = STRBUF_INIT;
	char *text;

	p.lazy_line = NULL;
	text = synthesize_perf_probe_point(&p);
	if (!p.function && p.file)
		strbuf_addch(&sb, '@');
	strbuf_addstr(&sb, text);
	free(text);
	return strbuf_detach(&sb, NULL);
}

/*
 * An argument as perf shows an added event: NAME=ARG with the name given
 * or, for a member chain, the name of its last member ("len=r->len",
 * "peers=peers[1]"); a plain variable or register as it is.
 */
static char *added_arg(const struct perf_probe_arg *pa)
{
	struct perf_probe_arg bare = *pa;
	const char *name = pa->name;
	struct strbuf sb = STRBUF_INIT;
	char *text;

	for (const struct perf_probe_arg_field *f = pa->field; !pa->name && f; f = f->next)
		name = f->name[0] == '[' ? (name ? name : pa->var) : f->name;
	bare.name = NULL;
	text = synthesize_perf_probe_arg(&bare);
	if (name)
		strbuf_addf(&sb, "%s=", name);
	strbuf_addstr(&sb, text);
	free(text);
	return strbuf_detach(&sb, NULL);
}

/*
 * A cached uprobe's place in the symbol table of its file: the function
 * holding it (*@func, new), the offset there, and whether the spec's
 * @spec_func (a name or a glob) names that function (*@named).  0 or
 * -errno.
 */
static int placed_function(const struct probe_trace_event *tev, const char *spec_func, char **func,
			   uint64_t *off, bool *named)
{
	const struct elf_symbol *sym, **syms = NULL;
	struct symbol_elf *se;
	uint64_t vaddr;
	int ret, nr;

	if (!tev->uprobes) {
		/* _text+OFF (a -k vmlinux place) was checked to be in the spec's function. */
		if (!tev->point.symbol || !strcmp(tev->point.symbol, "_text"))
			return -ENOENT;
		*func = xstrdup(tev->point.symbol);
		*off = tev->point.offset;
		*named = !strcmp(spec_func, *func) || !fnmatch(spec_func, *func, 0);
		return 0;
	}
	ret = symbol_elf__load(tev->point.module, &se);
	if (ret)
		return ret;
	ret = elf_loads__offset_to_vaddr(se->loads, se->nr_loads, tev->point.offset, &vaddr);
	sym = ret ? NULL : symbol_elf__find_addr(se, vaddr);
	if (sym) {
		*func = xstrdup(sym->name);
		*off = vaddr - sym->addr;
		nr = named_functions(se, spec_func, &syms);
		*named = false;
		for (int i = 0; i < nr && !*named; i++)
			*named = syms[i]->addr == sym->addr;
		free(syms);
	}
	symbol_elf__delete(se);
	return sym ? 0 : -ENOENT;
}

/* The line's arguments are the spec's: as many, the same names. */
static bool line_has_spec_args(const struct probe_trace_event *tev,
			       const struct perf_probe_event *pev)
{
	struct strbuf why = STRBUF_INIT;
	bool same = !check_args(pev, tev, &why);

	strbuf_release(&why);
	return same;
}

void probe_verify__describe(const struct probe_trace_event *tev, const struct perf_probe_event *pev,
			    bool demangle, char **point, char **args)
{
	struct perf_probe_point pp = pev->point;
	struct strbuf sb = STRBUF_INIT;
	char *placed = NULL, *shown = NULL;
	uint64_t off = 0;
	bool named = true;

	if (tev->cached && pp.function &&
	    !placed_function(tev, pp.function, &placed, &off, &named)) {
		if (!named) {
			/*
			 * In another function than the spec names (one it was
			 * inlined in): where the line is, FUNC+OFF of that one.
			 */
			memset(&pp, 0, sizeof(pp));
			pp.offset = off;
		} else if (pp.offset && !pp.line && !pp.lazy_line && !pp.retprobe) {
			/* +OFF as placed; FUNC alone (a prologue skip) and lines stay perf's. */
			pp.offset = off;
		}
		pp.function = placed;
	} else if (pp.function && tev->point.realname && demangle_is_glob(pp.function)) {
		/* A glob or an alias shows the function actually probed. */
		pp.function = tev->point.realname;
	}
	if (pp.function && demangle)
		pp.function = shown = demangle_display(pp.function, true);
	if (pev->sdt) /* perf shows the marker's own name: "%foo__bar" */
		strbuf_addf(&sb, "%%%s", pev->event ? pev->event : "");
	else
		*point = added_point(&pp);
	if (pev->sdt)
		*point = strbuf_detach(&sb, NULL);
	if (!tev->cached || pev->sdt || line_has_spec_args(tev, pev)) {
		for (int i = 0; i < pev->nargs; i++) {
			char *a = added_arg(&pev->args[i]);

			strbuf_addf(&sb, "%s%s", i ? " " : "", a);
			free(a);
		}
	} else { /* what the line reads */
		for (int i = 0; i < tev->nargs; i++) {
			char *a = synthesize_probe_trace_arg(&tev->args[i]);

			strbuf_addf(&sb, "%s%s", i ? " " : "", a);
			free(a);
		}
	}
	*args = strbuf_detach(&sb, NULL);
	free(placed);
	free(shown);
}
