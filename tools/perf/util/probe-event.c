// SPDX-License-Identifier: GPL-2.0
/*
 * Resolve and apply (see probe-event.h): each perf_probe_event becomes
 * probe_trace_events through the stages of the resolve order -- the probe
 * cache, SDT notes, DWARF, the symbol table -- and is named; the events of
 * one command are written to tracefs (and with --cache to the probe cache)
 * all or none.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/debug.h"
#include "util/demangle.h"
#include "util/probe-btf.h"
#include "util/debuginfo.h"
#include "util/go-return.h"
#include "util/probe-cache.h"
#include "util/probe-event.h"
#include "util/probe-file.h"
#include "util/probe-finder.h"
#include "util/probe-index.h"
#include "util/probe-target.h"
#include "util/probe-trace.h"
#include "util/probe-verify.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/symbol-elf.h"
#include "util/target-ns.h"
#include "util/tracefs.h"
#include "util/util.h"

/* The default group: "probe_<basename up to the first non-identifier>". */
static char *default_group(const struct probe_target *t)
{
	return probe_default_group(t->uprobes ? t->path : NULL);
}

/*
 * The base of an event's name from a DWARF place: the function asked for;
 * for a glob perf takes (no '::') or a source line, the function's own name
 * as perf has it ("depth" of *deep*), else (a closure) its qualified one.
 */
static const char *dwarf_event_base(const struct perf_probe_event *pev,
				    const struct probe_trace_event *tev)
{
	const char *fn = pev->point.function, *own;

	if (fn && (!demangle_is_glob(fn) || strstr(fn, "::"))) /* perf takes no '::' */
		return fn && !demangle_is_glob(fn) ? fn : tev->point.realname;
	own = tev->point.realname ? demangle_own_name(tev->point.realname) : NULL;
	return own ? own : tev->point.realname;
}

static void fill_trace_event(const struct perf_probe_event *pev, const struct probe_target *t,
			     struct probe_trace_event *tev)
{
	tev->uprobes = t->uprobes;
	tev->group = pev->group ? xstrdup(pev->group) : default_group(t);
	/* The symbol table names the symbol found (for a glob, each match). */
	tev->event = probe_event_name(pev, tev->point.realname);
	tev->nargs = pev->nargs;
	tev->args = xzalloc(sizeof(*tev->args) * (pev->nargs ? pev->nargs : 1));
	for (int i = 0; i < pev->nargs; i++)
		raw_probe_trace_arg(&pev->args[i], &tev->args[i]);
	if (!t->uprobes && t->module && !tev->point.module)
		tev->point.module = xstrdup(t->module);
}

static void free_trace_events(struct probe_trace_event *tevs, int ntevs)
{
	for (int i = 0; i < ntevs; i++)
		clear_probe_trace_event(&tevs[i]);
	free(tevs);
}

static int check_kprobe_blacklist(const struct probe_trace_event *tev)
{
	struct kprobe_blacklist bl = { 0 };
	const struct kprobe_blacklist_entry *e = NULL;

	if (kprobe_blacklist__load(&bl, NULL))
		return 0;
	if (tev->point.address)
		e = kprobe_blacklist__find_addr(&bl, tev->point.address);
	if (!e && tev->point.symbol)
		e = kprobe_blacklist__find_symbol(&bl, tev->point.symbol);
	if (!e && tev->point.realname) /* _text+OFF: the function's own name */
		e = kprobe_blacklist__find_symbol(&bl, tev->point.realname);
	if (e)
		pr_err("Error: %s is blacklisted for kprobes; it can not be probed.\n", e->symbol);
	kprobe_blacklist__clear(&bl);
	return e ? -EPERM : 0;
}

/* A trace point from a place of the symbol table, its strings copied. */
static void point_from_place(struct probe_trace_point *tp, const struct symbol_elf_place *pl)
{
	tp->module = pl->module ? xstrdup(pl->module) : NULL;
	tp->realname = pl->realname ? xstrdup(pl->realname) : NULL;
	tp->symbol = pl->symbol ? xstrdup(pl->symbol) : NULL;
	tp->address = pl->address;
	tp->offset = pl->offset;
	tp->retprobe = pl->retprobe;
}

/* Resolve @pev through the symbol table into *@tevs; returns their count. */
static int find_probe_trace_events_from_symbols(const struct perf_probe_event *pev,
						struct probe_target *t,
						struct probe_trace_event **tevs_out)
{
	const struct perf_probe_point *pp = &pev->point;
	const struct elf_symbol **syms = NULL;
	struct symbol_elf_place pl;
	struct probe_trace_event *tevs;
	int nsyms, ret = 0;

	ret = probe_target__symbols(t);
	if (ret)
		return ret;
	if (!pp->function) {
		if (!t->uprobes) {
			pr_err("Error: an absolute address needs a user-space target (-x)\n");
			return -EINVAL;
		}
		tevs = xzalloc(sizeof(*tevs));
		ret = symbol_elf__uprobe_place_abs(t->syms, pp->abs_address, pp->retprobe, &pl);
		if (!ret)
			point_from_place(&tevs->point, &pl);
		if (ret) {
			pr_err("Error: address 0x%" PRIx64 " is not in a loaded segment of %s\n",
			       pp->abs_address, t->path);
			free_trace_events(tevs, 1);
			return ret;
		}
		fill_trace_event(pev, t, tevs);
		*tevs_out = tevs;
		return 1;
	}

	if (strpbrk(pp->function, "*?["))
		nsyms = symbol_elf__find_glob(t->syms, pp->function, &syms);
	else
		nsyms = symbol_elf__find_name(t->syms, pp->function, &syms);
	if (nsyms <= 0) {
		free(syms);
		probe_target__say_not_found(t, pp);
		return -ENOENT;
	}
	if (!strpbrk(pp->function, "*?[")) {
		/* Data (a global counter) never runs: perf places no probe there. */
		int nfuncs = 0;

		for (int i = 0; i < nsyms; i++)
			if (syms[i]->type != STT_OBJECT)
				syms[nfuncs++] = syms[i];
		if (!nfuncs) {
			pr_err("Error: Probe point '%s' not found: it is a data symbol (OBJECT), not a function\n",
			       pp->function);
			free(syms);
			return -ENOENT;
		}
		nsyms = nfuncs;
	}
	if (nsyms > probe_conf.max_probes) {
		free(syms);
		pr_err("Error: Too many (%d) probe points found for %s; the limit is %d (--max-probes).\n",
		       nsyms, pp->function, probe_conf.max_probes);
		return -E2BIG;
	}
	tevs = xzalloc(sizeof(*tevs) * nsyms);
	for (int i = 0; i < nsyms && !ret; i++) {
		if (syms[i]->type == STT_GNU_IFUNC) /* perf's words */
			pr_warning(
				"Warning: The probe function (%s) is a GNU indirect function.\n"
				"Consider identifying the final function used at run time and set the probe directly on that.\n",
				pp->function);
		if (t->uprobes)
			ret = symbol_elf__uprobe_place(t->syms, syms[i], pp->offset, pp->retprobe,
						       &pl);
		else
			ret = symbol_elf__kprobe_place(t->syms, syms[i], pp->offset, pp->retprobe,
						       tracefs__has_kretprobe_offset() == 1, &pl);
		if (!ret)
			point_from_place(&tevs[i].point, &pl);
		if (ret == -ERANGE)
			pr_err("Error: Offset %lu is bigger than the size of %s\n", pp->offset,
			       syms[i]->name);
		else if (ret)
			pr_err("Error: Failed to place a probe on %s: %s\n", syms[i]->name,
			       strerror(-ret));
		if (!ret)
			fill_trace_event(pev, t, &tevs[i]);
		if (!ret && !t->uprobes)
			ret = check_kprobe_blacklist(&tevs[i]);
	}
	free(syms);
	/* Go moves its stacks: no uretprobe there (go-return.h). */
	if (!ret && t->uprobes && pp->retprobe && go_return__is_go_elf(t->path))
		ret = go_return__expand(NULL, t->syms, probe_conf.max_probes, &tevs, &nsyms);
	if (ret) {
		free_trace_events(tevs, nsyms);
		return ret;
	}
	*tevs_out = tevs;
	return nsyms;
}

static int find_in_cache(struct probe_cache *pc, const struct perf_probe_event *pev,
			 struct probe_target *t, struct probe_trace_event **tevs);

/* SDT markers read straight from the target (not yet cached). */
static int find_sdt_in_binary(const struct perf_probe_event *pev, struct probe_target *t,
			      struct probe_trace_event **tevs)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	int ret;

	if (!t->uprobes)
		return 0;
	pc = probe_cache__new();
	ret = probe_cache__add_sdt_entries(pc, t->path, &err);
	if (ret < 0 && ret != -EEXIST)
		pr_debug("SDT notes of %s: %s\n", t->path, err.buf);
	ret = ret > 0 ? find_in_cache(pc, pev, t, tevs) : 0;
	probe_cache__close(pc);
	strbuf_release(&err);
	return ret;
}

/*
 * SDT events with a semaphore need the kernel to raise it while the event
 * exists ("(ref_ctr_offset)" in uprobe_events); say so when it can't.
 */
static int check_ref_ctr_support(const struct probe_trace_event *tevs, int ntevs)
{
	for (int i = 0; i < ntevs; i++) {
		if (!tevs[i].point.ref_ctr_offset)
			continue;
		if (tracefs__has_ref_ctr_offset() == 0) {
			pr_err("Error: %s:%s is guarded by a semaphore, and this kernel's uprobes can not raise semaphores (no ref_ctr_offset in tracefs README)\n",
			       tevs[i].group, tevs[i].event);
			return -EOPNOTSUPP;
		}
		break;
	}
	return 0;
}

/*
 * The spec an entry is kept under, as perf 6.1 writes (and looks for) it:
 * the request with the group spelled out when the event is named, member
 * chains named after their last member ("handle len=r->len"), a point of
 * a file alone as "@FILE:LINE", and FUNC:LINE named as perf names it
 * ("probe_app:handle_L2=handle:2").  @legacy: the spec as this tool wrote
 * it before (no '@', no name for FUNC:LINE), still read.  Lazy patterns
 * keep that older form: perf can not read its own entries for them.
 */
static char *cache_spec_as(const struct perf_probe_event *pev, const char *group, bool legacy)
{
	const struct perf_probe_point *pp = &pev->point;
	struct perf_probe_event tmp = *pev;
	struct perf_probe_arg *args = NULL;
	char *event = NULL, *file = NULL, *spec;

	if (!legacy && !pp->lazy_line && !pev->sdt) {
		if (!pev->event && pp->function && pp->line && !pp->retprobe)
			tmp.event = event = probe_event_name(pev, pp->function);
		if (!pp->function && pp->file) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "@%s", pp->file);
			tmp.point.file = file = strbuf_detach(&sb, NULL);
		}
	}
	if (tmp.event && !tmp.group)
		tmp.group = (char *)group;
	if (pev->nargs) {
		args = xzalloc(sizeof(*args) * pev->nargs);
		memcpy(args, pev->args, sizeof(*args) * pev->nargs);
		for (int i = 0; i < pev->nargs; i++) {
			struct perf_probe_arg_field *f = args[i].field;

			while (f && f->next)
				f = f->next;
			if (!args[i].name && f && f->name[0] != '[')
				args[i].name = f->name;
		}
		tmp.args = args;
	}
	spec = synthesize_perf_probe_command(&tmp);
	free(args);
	free(event);
	free(file);
	return spec;
}

static char *probe_cache_spec(const struct perf_probe_event *pev, const struct probe_target *t)
{
	char *group = default_group(t);
	char *spec = cache_spec_as(pev, group, false);

	free(group);
	return spec;
}

/*
 * The default group of the file a probe cache was written for: the
 * entry's directory is ROOT/NAME/BID, so "probe_<basename of NAME>".
 * NULL for a cache of no file or of the kernel.
 */
static char *cache_owner_group(const struct probe_cache *pc)
{
	struct probe_target owner = { .uprobes = true };
	char *path, *slash, *group = NULL;

	if (!pc->path)
		return NULL;
	path = xstrdup(pc->path);
	for (int i = 0; i < 2 && (slash = strrchr(path, '/')); i++)
		*slash = '\0'; /* drop "/probes", then "/BID" */
	if (strrchr(path, '/') && strrchr(path, '/')[1] != '[') {
		owner.path = path;
		group = default_group(&owner);
	}
	free(path);
	return group;
}

/* Does one of @e's lines define an event matching [GROUP:]EVENT (globs)? */
static bool cache_entry_defines(const struct probe_cache_entry *e, const char *group,
				const char *event)
{
	for (int i = 0; i < e->nr_lines; i++) {
		char *g, *ev;
		bool ok;

		if (probe_file__line_event(e->lines[i], &g, &ev))
			continue;
		ok = probe_event_match(group, event, g, ev);
		free(g);
		free(ev);
		if (ok)
			return true;
	}
	return false;
}

/* The whole symbol table of @ctx (a probe_target) for the check of its cached lines. */
static int target_symbols(void *ctx, struct symbol_elf **se)
{
	struct probe_target *t = ctx;
	int ret = probe_target__try_symbols(t);

	*se = ret ? NULL : t->syms;
	return ret;
}

/*
 * Append the events of @e's lines to *@tevs, placed on @t's file.  An
 * event @pev names no group of goes to @t's default group, as if resolved
 * here: a copy of the build at another path gets its own group.  The
 * entry is refused whole when a line does not check out (probe-verify.h).
 */
static int tevs_from_cache_entry(const struct probe_cache *pc, const struct probe_cache_entry *e,
				 const struct perf_probe_event *pev, struct probe_target *t,
				 struct probe_trace_event **tevs, int *ntevs)
{
	struct probe_verify_source src = { 0 };

	/*
	 * A file's symbols are read as its entries' checks need them, and kept
	 * for the next: the segments, then its exported functions by hash,
	 * then the whole table (python3.11d's 20,000 symbols sorted).
	 */
	if (pc->path && t->uprobes) {
		/* A file that can not be read: the check says so, once. */
		if (!t->syms && !t->layout && symbol_elf__load_layout(t->path, &t->layout))
			t->layout = NULL;
		src.se = t->syms ? t->syms : t->layout;
		src.layout_only = !t->syms;
		src.dyn = probe_target__dynamic(t);
		src.symbols = target_symbols;
		src.ctx = t;
	}
	if (probe_verify__cache_entry(pc->path, e, t->uprobes ? t->path : probe_conf.vmlinux,
				      t->uprobes, &src))
		return -EBADMSG;
	for (int i = 0; i < e->nr_lines; i++) {
		struct probe_trace_event tev = { 0 };

		if (parse_probe_trace_command(e->lines[i], &tev)) {
			pr_err("Error: a bad line in the probe cache entry '%s': %s\n", e->spec,
			       e->lines[i]);
			return -EBADMSG;
		}
		tev.cached = pc->path != NULL;
		if (tev.uprobes != t->uprobes) {
			clear_probe_trace_event(&tev);
			continue;
		}
		if (tev.uprobes) {
			/* The same build, maybe at another path. */
			free(tev.point.module);
			tev.point.module = xstrdup(t->path);
		}
		if (!pev->sdt && !pev->group) {
			free(tev.group);
			tev.group = default_group(t);
		}
		*tevs = xrealloc(*tevs, sizeof(**tevs) * (*ntevs + 1));
		(*tevs)[(*ntevs)++] = tev;
	}
	return 0;
}

/* The events of the entries of @pc that answer @pev; their count or -errno. */
static int find_in_cache(struct probe_cache *pc, const struct perf_probe_event *pev,
			 struct probe_target *t, struct probe_trace_event **tevs)
{
	int ntevs = 0, ret = 0;

	*tevs = NULL;
	if (pev->sdt) {
		for (int i = 0; i < pc->nr && !ret; i++)
			if (cache_entry_defines(&pc->entries[i], pev->group, pev->event))
				ret = tevs_from_cache_entry(pc, &pc->entries[i], pev, t, tevs,
							    &ntevs);
	} else {
		/* Named after the target, else after the file the cache is of. */
		char *groups[2] = { default_group(t), cache_owner_group(pc) };
		struct probe_cache_entry *e = NULL;

		for (int legacy = 0; !e && legacy < 2; legacy++)
			for (int g = 0; !e && g < 2; g++) {
				char *spec;

				if (!groups[g] || (g && !strcmp(groups[0], groups[1])))
					continue;
				spec = cache_spec_as(pev, groups[g], legacy);
				e = probe_cache__find(pc, false, spec);
				free(spec);
			}
		if (e)
			ret = tevs_from_cache_entry(pc, e, pev, t, tevs, &ntevs);
		free(groups[0]);
		free(groups[1]);
	}
	if (ret) {
		free_trace_events(*tevs, ntevs);
		*tevs = NULL;
		return ret;
	}
	return ntevs;
}

/* The events of every cached binary that answer one SDT or cached event. */
struct every_cache {
	const struct perf_probe_event *pev;
	struct probe_trace_event *tevs;
	int ntevs;
};

static int find_in_one_of_every_cache(const struct build_id_cache_entry *ent, const char *dir,
				      void *ctx)
{
	struct every_cache *ec = ctx;
	struct probe_target bt = { .uprobes = true };
	struct probe_cache *pc;
	int before = ec->ntevs, ret = 0;

	/* Only a file that is still there, and still that build (as perf). */
	if (ent->name[0] != '/' || access(ent->name, R_OK) < 0 ||
	    probe_cache__open(dir, false, &pc, NULL))
		return 0;
	bt.path = xstrdup(ent->name);
	for (int i = 0; i < pc->nr && !ret; i++)
		if (cache_entry_defines(&pc->entries[i], ec->pev->group, ec->pev->event))
			ret = tevs_from_cache_entry(pc, &pc->entries[i], ec->pev, &bt, &ec->tevs,
						    &ec->ntevs);
	probe_cache__close(pc);
	probe_target__clear(&bt);
	return ret ? ret : ec->ntevs - before;
}

/*
 * With no target (-x): SDT and cached %GROUP:EVENT events of every binary
 * of the build-id cache, each placed on its own binary, as perf does.
 */
static int find_in_every_cache(const struct perf_probe_event *pev, struct probe_trace_event **tevs)
{
	struct every_cache ec = { .pev = pev };
	int ret = probe_caches__for_each_defining(pev->group, pev->event,
						  find_in_one_of_every_cache, &ec);

	if (ret < 0) {
		free_trace_events(ec.tevs, ec.ntevs);
		return ret;
	}
	*tevs = ec.tevs;
	return ec.ntevs;
}

/*
 * Stage 1: the probe cache of the target's build-id, and for SDT events
 * the target's own SDT notes.  Returns the count of *@tevs, 0 for a miss
 * (go on), or -errno.
 */
static int find_probe_trace_events_from_cache(const struct perf_probe_event *pev,
					      struct probe_target *t,
					      struct probe_trace_event **tevs)
{
	struct probe_cache *pc;
	int ret = probe_target__open_cache(t, &pc); /* kept for the next spec */

	ret = ret < 0 ? ret : ret ? 0 : find_in_cache(pc, pev, t, tevs);
	if (ret == 0 && pev->sdt)
		ret = find_sdt_in_binary(pev, t, tevs);
	if (ret == 0 && pev->sdt && !t->uprobes && !t->path && !t->module)
		ret = find_in_every_cache(pev, tevs);
	if (ret > 0 && pev->sdt && !probe_conf.dry_run) {
		int err = check_ref_ctr_support(*tevs, ret);

		if (err) {
			free_trace_events(*tevs, ret);
			return err;
		}
	}
	if (ret == 0 && pev->sdt) {
		char *spec = synthesize_perf_probe_command(pev);

		pr_err("Error: %s is not a cached or SDT event of %s\n", spec,
		       probe_target__name(t));
		free(spec);
		return -ENOENT;
	}
	if (ret > probe_conf.max_probes) {
		pr_err("Error: Too many (%d) probe points found; the limit is %d (--max-probes).\n",
		       ret, probe_conf.max_probes);
		free_trace_events(*tevs, ret);
		return -E2BIG;
	}
	return ret;
}

/* Turn the virtual address the finder gave into the probe's point. */
static int dwarf_place_point(struct probe_target *t, struct debuginfo *dbg,
			     struct probe_trace_event *tev)
{
	struct probe_trace_point *tp = &tev->point;
	const struct elf_symbol *sym;
	struct probe_trace_point kp = { 0 };
	const char *name;
	uint64_t off;
	int ret;

	if (t->uprobes) {
		ret = symbol_elf__vaddr_to_offset(probe_target__layout(t), tp->address, &off);
		if (ret) {
			pr_err("Error: address 0x%" PRIx64 " is not in a loaded segment of %s\n",
			       tp->address, t->path);
			return ret;
		}
		tp->module = xstrdup(t->path);
		tp->offset = off;
		return 0;
	}
	/* A module's .ko: its symbols are offsets into sections, libdwfl's are not. */
	ret = t->module ? debuginfo__rel_addr_symbol(dbg, tp->address, &name, &off) : -EINVAL;
	sym = ret == -EINVAL ? symbol_elf__find_addr(t->syms, tp->address) : NULL;
	if (!ret) {
		kp.symbol = xstrdup(name);
		kp.offset = off;
	} else if (sym) {
		kp.symbol = xstrdup(sym->name);
		kp.offset = tp->address - sym->addr;
	} else {
		pr_err("Error: no symbol holds address 0x%" PRIx64 "\n", tp->address);
		return -ENOENT;
	}
	kp.realname = xstrdup(kp.symbol);
	kp.address = tp->address;
	kp.retprobe = tp->retprobe;
	free(tp->realname);
	*tp = kp;
	if (t->module)
		tp->module = xstrdup(t->module);
	probe_target__kprobe_on_text(t, tp);
	return 0;
}

/*
 * A place DWARF gave on a file, checked against the file's own code
 * before it is used: a debuginfo of another build whose build-id note
 * was made the file's puts lines inside instructions.
 */
static int check_dwarf_place(struct probe_target *t, struct debuginfo *dbg,
			     const struct perf_probe_event *pev,
			     const struct probe_trace_event *tev)
{
	struct probe_verify_source src = {
		.se = (struct symbol_elf *)probe_target__layout(t),
		.layout_only = true,
		.symbols = target_symbols,
		.ctx = t,
	};
	const struct perf_probe_point *pp = &pev->point;
	struct strbuf why = STRBUF_INIT;
	uint64_t addr = tev->point.address;
	int ret;

	/* FUNC+OFF: DWARF gave FUNC, the offset is the user's own (perf's too). */
	if (pp->function && pp->offset && !pp->line && !pp->lazy_line && addr >= pp->offset)
		addr -= pp->offset;
	ret = probe_verify__code_address(t->path, &src, addr, tev->point.realname, &why);

	if (ret) {
		char *point = synthesize_perf_probe_point(&pev->point);

		pr_err("Error: not using the debuginfo %s for '%s': %s\n",
		       debuginfo__dwarf_file(dbg), point, why.buf);
		free(point);
	}
	strbuf_release(&why);
	return ret;
}

/*
 * Stage 3: DWARF.  Returns the count of *@tevs, 0 when the target has no
 * debuginfo and the symbol table may serve (a spec without lines or
 * variables), or -errno after one message.
 */
static int find_probe_trace_events_from_dwarf(const struct perf_probe_event *pev,
					      struct probe_target *t,
					      struct probe_trace_event **tevs)
{
	const char *path = t->uprobes ? t->path : t->path ? t->path : probe_conf.vmlinux;
	bool need = perf_probe_event_need_dwarf(pev);
	struct probe_finder_opts opts = { 0 };
	struct debuginfo *dbg = NULL;
	bool glob, plain;
	int ret = 0, n;

	if (!need && t->uprobes && pev->point.function && !strpbrk(pev->point.function, "*?[") &&
	    probe_target__may_have_versions(t, pev->point.function) &&
	    !probe_target__try_symbols(t) &&
	    symbol_elf__has_versions(t->syms, pev->point.function)) {
		/* A versioned name is its default version: the symbol table's. */
		pr_debug("%s is versioned: placed by the symbol table\n", pev->point.function);
		return 0;
	}
	if (pev->point.function || pev->point.file)
		ret = probe_target__open_debuginfo(t, &dbg);
	else if (!need)
		return 0;
	else
		ret = -ENODATA;
	if (ret == -EBADMSG || ret == -ESTALE) { /* -ESTALE: said by probe_target */
		if (ret == -EBADMSG)
			pr_err("Error: Failed to read the debuginfo of %s: it is corrupt\n", path);
		return ret;
	} else if (ret) {
		const char *urls = getenv("DEBUGINFOD_URLS");
		char *spec;

		if (!need || !t->uprobes)
			return 0; /* the symbol table, or for the kernel BTF */
		spec = synthesize_perf_probe_command(pev);
		if (urls && *urls)
			pr_err("Error: '%s' needs debuginfo (source lines or variables) of %s, which is neither here nor on the debuginfod servers (%s)\n",
			       spec, probe_target__name(t), urls);
		else
			pr_err("Error: '%s' needs debuginfo (source lines or variables) of %s, which is not available\n",
			       spec, probe_target__name(t));
		free(spec);
		return -ENOENT;
	}
	/* Uprobes need only the segments; kprobes name the symbol of a place. */
	if (t->uprobes)
		ret = probe_target__layout(t) ? 0 : -EINVAL;
	else
		ret = probe_target__symbols(t);
	if (ret)
		goto out;
	/* A glob over the limit fails whole, in one line: no symbols add a part. */
	glob = pev->point.function && strpbrk(pev->point.function, "*?[");
	opts.max_probes = glob ? INT_MAX : probe_conf.max_probes;
	opts.no_inlines = probe_conf.no_inlines;
	plain = t->uprobes && pev->point.function && !glob && !pev->point.file;
	if (need && plain && probe_target__lacks_dwarf(t, dbg, &pev->point)) {
		ret = -ENOENT; /* said in perf's words */
		goto out;
	}
	opts.quiet_missing = !need;
	if (t->uprobes) {
		opts.global_offset = probe_target__global_offset;
		opts.ctx = (void *)probe_target__layout(t);
	}
	n = debuginfo__find_trace_events(dbg, pev, &opts, tevs);
	if (glob && n > probe_conf.max_probes) {
		pr_err("Error: Too many functions matched in %s: %d probe points for %s, more than --max-probes %d\n",
		       probe_target__name(t), n, pev->point.function, probe_conf.max_probes);
		free_trace_events(*tevs, n);
		*tevs = NULL;
		ret = -E2BIG;
		goto out;
	}
	/* Not in DWARF (asm, a PLT entry), or inlined too often (put_page): symbols. */
	if ((n == -ENOENT || n == -E2BIG) && !need) {
		ret = 0;
		goto out;
	}
	if (n < 0) {
		ret = n;
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		struct probe_trace_event *tev = &(*tevs)[i];

		ret = dwarf_place_point(t, dbg, tev);
		if (!ret && t->uprobes)
			ret = check_dwarf_place(t, dbg, pev, tev);
		tev->uprobes = t->uprobes;
		tev->group = pev->group ? xstrdup(pev->group) : default_group(t);
		tev->event = probe_event_name(pev, dwarf_event_base(pev, tev));
		if (!ret && !t->uprobes)
			ret = check_kprobe_blacklist(tev);
	}
	if (!ret && t->uprobes && pev->point.retprobe && go_return__any(dbg, *tevs, n)) {
		/* Go moves its stacks: no uretprobe there (go-return.h). */
		probe_target__try_symbols(t);
		ret = go_return__expand(dbg, t->syms, probe_conf.max_probes, tevs, &n);
	}
	if (ret) {
		free_trace_events(*tevs, n);
		*tevs = NULL;
	} else {
		ret = n;
	}
out:
	debuginfo__delete(dbg);
	return ret;
}

/* Why kbtf__open() failed, in words. */
static const char *btf_error_text(int err)
{
	return err == -EBADMSG	 ? "it is corrupt or truncated"
	       : err == -ENODATA ? "it has no .BTF section"
				 : strerror(-err);
}

/* A bare $retval of a kernel return probe: BTF gives it the function's type. */
static bool typed_retval_wanted(const struct perf_probe_event *pev)
{
	for (int i = 0; i < pev->nargs && pev->point.retprobe; i++)
		if (!strcmp(pev->args[i].var, "$retval") && !pev->args[i].type)
			return true;
	return false;
}

/*
 * Stage 3 for the kernel without DWARF (or with --btf): BTF.  The point is
 * FUNC+OFF, then spelled as through DWARF (probe_target__kprobe_on_text()).
 * Count of *@tevs, or -errno after one message.
 */
static int find_probe_trace_events_from_btf(const struct perf_probe_event *pev,
					    struct probe_target *t, struct probe_trace_event **tevs)
{
	const struct elf_symbol **syms = NULL;
	const struct kbtf *b;
	int ret = probe_target__open_btf(t, &b), n;

	n = 0;

	if (ret && !probe_conf.btf && !perf_probe_event_need_dwarf(pev))
		return 0;
	if (ret && !probe_conf.btf) {
		char *spec = synthesize_perf_probe_command(pev);

		pr_err("Error: '%s' needs debuginfo (source lines or variables) of %s, which is not available, nor BTF (%s: %s)\n",
		       spec, probe_target__name(t), t->btf_path, btf_error_text(ret));
		free(spec);
		return -ENOENT;
	}
	if (ret) {
		pr_err("Error: Failed to read the BTF of %s from %s: %s\n", probe_target__name(t),
		       t->btf_path, btf_error_text(ret));
		return ret;
	}
	/* Without --btf a spec the symbol table can place needs not be in BTF. */
	if (!probe_conf.btf && !perf_probe_event_need_dwarf(pev) &&
	    !probe_btf__has_func(b, pev->point.function))
		return 0;
	ret = probe_btf__find_trace_events(b, probe_target__name(t), pev, tevs);
	if (ret < 0)
		return ret;
	ret = 0;
	/*
	 * FUNC+0 is the kernel's to find (BTF has only functions with a
	 * symbol); an offset is checked against the symbol's size.
	 */
	if (pev->point.offset) {
		const struct elf_symbol *sym = NULL;

		ret = probe_target__symbols(t);
		n = ret ? 0 : symbol_elf__find_name(t->syms, pev->point.function, &syms);
		for (int i = 0; i < n && !sym; i++) /* a static name of several files: the first */
			if (syms[i]->type == STT_FUNC)
				sym = syms[i];
		if (!ret && !sym) {
			pr_err("Error: %s is in the BTF but not a function of %s\n",
			       pev->point.function, probe_target__name(t));
			ret = -ENOENT;
		} else if (!ret && sym->size && pev->point.offset >= sym->size) {
			pr_err("Error: Offset %lu is bigger than the size of %s\n",
			       pev->point.offset, sym->name);
			ret = -ERANGE;
		} else if (!ret) {
			(*tevs)->point.address = sym->addr + pev->point.offset;
		}
	}
	if (!ret)
		probe_target__kprobe_on_text(t, &(*tevs)->point);
	if (!ret) {
		struct probe_trace_event *tev = *tevs;

		tev->group = pev->group ? xstrdup(pev->group) : default_group(t);
		tev->event = probe_event_name(pev, pev->point.function);
		if (t->module)
			tev->point.module = xstrdup(t->module);
		ret = check_kprobe_blacklist(tev);
	}
	free(syms);
	if (ret) {
		free_trace_events(*tevs, 1);
		*tevs = NULL;
		return ret;
	}
	return 1;
}

/*
 * Resolve one event on its target @t (what it loads stays for the next
 * event of the same target), in the order of probe-event.h.  Count of
 * *@tevs, or -errno.
 */
static int convert_to_probe_trace_events(const struct perf_probe_event *pev, struct probe_target *t,
					 struct probe_trace_event **tevs)
{
	int ret = find_probe_trace_events_from_cache(pev, t, tevs);

	if (ret > 0)
		pr_debug("%d places from the probe cache or SDT notes\n", ret);
	if (!ret && !(probe_conf.btf && !t->uprobes)) {
		ret = find_probe_trace_events_from_dwarf(pev, t, tevs);
		if (ret > 0)
			pr_debug("Found %d probe_trace_events.\n", ret); /* perf's words */
	}
	/* DWARF answers 0 for a kernel spec it has no debuginfo for. */
	if (!ret && !t->uprobes && !pev->sdt && pev->point.function &&
	    (probe_conf.btf || perf_probe_event_need_dwarf(pev) || typed_retval_wanted(pev))) {
		ret = find_probe_trace_events_from_btf(pev, t, tevs);
		if (ret > 0)
			pr_debug("%d places from BTF\n", ret);
	}
	if (!ret) {
		ret = find_probe_trace_events_from_symbols(pev, t, tevs);
		if (ret > 0)
			pr_debug("%d places from the symbol table\n", ret);
	}
	if (ret > 0 && pev->bad_arg) {
		/* The point is found: now the argument that did not parse. */
		free_trace_events(*tevs, ret);
		*tevs = NULL;
		pr_err("%s\n", pev->bad_arg);
		ret = pev->bad_arg_err;
	}
	return ret;
}

/* The trace events of a whole command, with the event each came from. */
struct probe_batch {
	struct probe_trace_event *tevs;
	const struct perf_probe_event **from;
	int ntevs;
};

static void probe_batch__clear(struct probe_batch *b)
{
	free_trace_events(b->tevs, b->ntevs);
	free(b->from);
	memset(b, 0, sizeof(*b));
}

/* Resolve every event before anything is written: all or nothing. */
static int probe_batch__convert(struct probe_batch *b, const struct perf_probe_event *pevs,
				int npevs)
{
	/* One target for the events of one binary in a row: its symbols read once. */
	const struct perf_probe_event *on = NULL;
	struct probe_target t;

	memset(b, 0, sizeof(*b));
	for (int i = 0; i < npevs; i++) {
		struct probe_trace_event *tevs = NULL;
		int n = 0;

		if (pevs[i].bad_point) {
			pr_err("%s\n", pevs[i].bad_arg);
			n = pevs[i].bad_arg_err;
		} else if (!on || on->uprobes != pevs[i].uprobes ||
			   strcmp(on->target ? on->target : "",
				  pevs[i].target ? pevs[i].target : "") ||
			   !on->target != !pevs[i].target) {
			if (on)
				probe_target__clear(&t);
			on = NULL;
			n = probe_target__init(&t, &pevs[i]);
			if (!n)
				on = &pevs[i];
		}
		if (!n)
			n = convert_to_probe_trace_events(&pevs[i], &t, &tevs);
		if (n < 0) {
			if (on)
				probe_target__clear(&t);
			probe_batch__clear(b);
			return n;
		}
		b->tevs = xrealloc(b->tevs, sizeof(*b->tevs) * (b->ntevs + n));
		b->from = xrealloc(b->from, sizeof(*b->from) * (b->ntevs + n));
		memcpy(b->tevs + b->ntevs, tevs, sizeof(*tevs) * n);
		for (int j = 0; j < n; j++)
			b->from[b->ntevs + j] = &pevs[i];
		b->ntevs += n;
		free(tevs);
	}
	if (on)
		probe_target__clear(&t);
	return 0;
}

/*
 * --bootconfig: the definitions as a kernel boot configuration, as perf
 * 6.1 prints them: "ftrace.event.kprobes.EVENT.probe = 'POINT ARGS'", the
 * group ignored (with a warning), the places of consecutive events of one
 * name on one line ("'A', 'B'"), and the "p:"/"r:" type not kept.
 */
static void print_bootconfig(const struct probe_batch *b)
{
	const char *prev = NULL;

	for (int i = 0; i < b->ntevs; i++) {
		const struct probe_trace_event *tev = &b->tevs[i];
		char *line = synthesize_probe_trace_command(tev);
		const char *def = strchr(line, ' ');

		def = def ? def + 1 : "";
		if (b->from[i]->group && (i == 0 || b->from[i - 1] != b->from[i]))
			pr_warning("WARN: Group name %s is ignored\n", b->from[i]->group);
		if (prev && !strcmp(prev, tev->event))
			printf(", '%s'", def);
		else
			printf("%sftrace.event.kprobes.%s.probe = '%s'", prev ? "\n" : "",
			       tev->event, def);
		prev = tev->event;
		free(line);
	}
	if (prev)
		printf("\n");
}

int show_probe_trace_definitions(struct perf_probe_event *pevs, int npevs)
{
	struct probe_batch b;
	int ret = probe_batch__convert(&b, pevs, npevs);

	if (ret)
		return ret;
	if (probe_conf.bootconfig) {
		print_bootconfig(&b);
		probe_batch__clear(&b);
		return 0;
	}
	for (int i = 0; i < b.ntevs; i++) {
		char *line = synthesize_probe_trace_command(&b.tevs[i]);

		printf("%s\n", line);
		free(line);
	}
	probe_batch__clear(&b);
	return 0;
}

/*
 * The event an earlier trace event of the same spec, group and name was
 * given (@bases: the names as resolved), or NULL.  The kernel appends a
 * probe to an event of the same name and arguments (README "Create/append/"),
 * so as with perf one event then stands for all the places of a spec.
 * Arguments of other names or types (SDT markers of one name) it refuses
 * ("File exists", where perf 6.1 fails): those places take numbered names.
 */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_trace_args(const struct probe_trace_event *a, const struct probe_trace_event *b)
{
	if (a->nargs != b->nargs || a->point.retprobe != b->point.retprobe)
		return false;
	for (int i = 0; i < a->nargs; i++)
		if (!same_str(a->args[i].name, b->args[i].name) ||
		    !same_str(a->args[i].type, b->args[i].type))
			return false;
	return true;
}

static const char *probe_batch__same_event(const struct probe_batch *b, char *const *bases, int i)
{
	for (int j = i - 1; j >= 0 && b->from[j] == b->from[i]; j--)
		if (!strcmp(bases[j], bases[i]) && !strcmp(b->tevs[j].group, b->tevs[i].group))
			return same_trace_args(&b->tevs[j], &b->tevs[i]) ? b->tevs[j].event : NULL;
	return NULL;
}

/*
 * Give every trace event a name not taken in tracefs nor earlier in the
 * batch, except that the places of one spec share one event when the
 * kernel can append probes to an event.  Without that, and after the first
 * place of a spec, names are numbered as with -f (perf's rule).
 */
static int probe_batch__name_events(struct probe_batch *b, bool uprobes)
{
	char **names = NULL;
	int nr = probe_file__get_event_names(uprobes, &names);
	int ret = 0;
	bool append = tracefs__readme_has("*Create/append/*") == 1;
	char **bases = xzalloc(sizeof(*bases) * (b->ntevs ? b->ntevs : 1));

	if (nr < 0 && probe_conf.dry_run) {
		/* -n writes nothing: without tracefs (not root) names are unchecked. */
		pr_debug("Not checking event names: %s\n", probe_file__strerror(nr));
		nr = 0;
		names = NULL;
	} else if (nr < 0) {
		pr_err("Error: Failed to read the %s events: %s\n", uprobes ? "uprobe" : "kprobe",
		       probe_file__strerror(nr));
		free(bases);
		return nr;
	}
	for (int i = 0; i < b->ntevs && !ret; i++) {
		struct probe_trace_event *tev = &b->tevs[i];
		bool later = i > 0 && b->from[i - 1] == b->from[i];
		const char *same;
		char *name;
		struct strbuf full = STRBUF_INIT;

		bases[i] = xstrdup(tev->event);
		same = append ? probe_batch__same_event(b, bases, i) : NULL;
		if (same) {
			free(tev->event);
			tev->event = xstrdup(same);
			continue;
		}
		name = probe_file__unique_event_name(tev->group, tev->event, names, nr,
						     probe_conf.force_add || later, &ret);

		if (!name) {
			if (ret == -EEXIST)
				pr_err("Error: event \"%s\" already exists; remove it with 'perf probe -d' or force a numbered duplicate with 'perf probe -f'\n",
				       tev->event);
			else
				pr_err("Error: Failed to name the event %s:%s: %s\n", tev->group,
				       tev->event, probe_file__strerror(ret));
			break;
		}
		free(tev->event);
		tev->event = name;
		strbuf_addf(&full, "%s:%s", tev->group, name);
		names = xrealloc(names, sizeof(*names) * (nr + 1));
		names[nr++] = strbuf_detach(&full, NULL);
	}
	probe_file__free_lines(names, nr);
	for (int i = 0; i < b->ntevs; i++)
		free(bases[i]);
	free(bases);
	return ret;
}

static int probe_batch__write(struct probe_batch *b, bool uprobes)
{
	struct strbuf reason = STRBUF_INIT;
	char **lines = xzalloc(sizeof(*lines) * b->ntevs);
	int fd, failed = -1, ret;

	for (int i = 0; i < b->ntevs; i++)
		lines[i] = synthesize_probe_trace_command(&b->tevs[i]);
	fd = probe_file__open(uprobes, O_WRONLY);
	if (fd < 0) {
		pr_err("Error: Failed to open %s: %s\n",
		       uprobes ? "uprobe_events" : "kprobe_events", probe_file__strerror(fd));
		ret = fd;
		goto out;
	}
	ret = probe_file__add_lines(fd, lines, b->ntevs, &failed, &reason);
	close(fd);
	if (ret)
		pr_err("Error: Failed to add event %s:%s (%s): %s%s%s\n",
		       failed >= 0 ? b->tevs[failed].group : "?",
		       failed >= 0 ? b->tevs[failed].event : "?", failed >= 0 ? lines[failed] : "",
		       strerror(-ret), reason.len ? ": " : "", reason.buf);
out:
	for (int i = 0; i < b->ntevs; i++)
		free(lines[i]);
	free(lines);
	strbuf_release(&reason);
	return ret;
}

void probe_event__print_line(FILE *out, const char *group, const char *event, const char *point,
			     const char *target, const char *args)
{
	struct strbuf name = STRBUF_INIT;

	strbuf_addf(&name, "%s:%s", group, event);
	fprintf(out, "  %-20s (on %s%s%s%s%s)\n", name.buf, point, target ? " in " : "",
		target ? target : "", args && *args ? " with " : "", args ? args : "");
	strbuf_release(&name);
}

static void print_added_event(const struct probe_trace_event *tev,
			      const struct perf_probe_event *pev)
{
	char *point, *args;

	probe_verify__describe(tev, pev, probe_conf_demangle(tev->uprobes), &point, &args);
	probe_event__print_line(stderr, tev->group, tev->event, point, tev->point.module, args);
	free(point);
	free(args);
}

/*
 * --cache: put each event's resolved lines, as resolved (before names are
 * made unique in tracefs), into the target's cache, held locked in *@out
 * until the caller commits.  The build-id cache entry is created as
 * `perf buildid-cache --add` would.
 */
static int probe_batch__cache(const struct probe_batch *b, const struct perf_probe_event *pevs,
			      int npevs, struct probe_cache **out)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_target t;
	struct build_id bid;
	char *name = NULL, *dir = NULL;
	int ret;

	*out = NULL;
	ret = probe_target__init(&t, &pevs[0]);
	if (ret)
		return ret;
	ret = probe_target__cache_id(&t, &name, &bid);
	if (ret) {
		pr_err("Error: Failed to read the build-id of %s: %s\n", probe_target__name(&t),
		       build_id__strerror(ret));
		goto out;
	}
	ret = build_id_cache__add(name, t.path, &bid, false);
	if (ret) {
		pr_err("Error: Failed to add %s to the build-id cache %s: %s\n", name,
		       buildid_dir(), build_id_cache__strerror(ret));
		goto out;
	}
	dir = build_id_cache__dirname(name, &bid);
	ret = probe_cache__open(dir, true, out, &err);
	if (ret) {
		struct strbuf msg = STRBUF_INIT;

		probe_cache__strerror(PROBE_CACHE_UPDATE, ret, dir, err.buf, &msg);
		pr_err("Error: %s\n", msg.buf);
		strbuf_release(&msg);
	}
	for (int i = 0; !ret && i < npevs; i++) {
		char **lines = xzalloc(sizeof(*lines) * (b->ntevs ? b->ntevs : 1));
		char *spec;
		int n = 0;

		if (pevs[i].sdt) { /* already a cached or SDT event */
			free(lines);
			continue;
		}
		for (int j = 0; j < b->ntevs; j++) {
			struct probe_trace_event tev = b->tevs[j]; /* shallow: read only */

			if (b->from[j] != &pevs[i])
				continue;
			/* --target-ns: the container's path, not one pid's /proc/PID/root */
			tev.point.module = (char *)target_ns__inside(tev.point.module);
			lines[n++] = synthesize_probe_trace_command(&tev);
		}
		spec = probe_cache_spec(&pevs[i], &t);
		probe_cache__add_entry(*out, false, spec, lines, n);
		free(spec);
		for (int j = 0; j < n; j++)
			free(lines[j]);
		free(lines);
	}
out:
	strbuf_release(&err);
	free(dir);
	free(name);
	probe_target__clear(&t);
	return ret;
}

/* Take back the events this command wrote (the cache could not follow). */
static void probe_batch__unwrite(const struct probe_batch *b, bool uprobes)
{
	for (int i = 0; i < b->ntevs; i++) {
		struct strbuf name = STRBUF_INIT;

		if (i > 0 && !strcmp(b->tevs[i - 1].event, b->tevs[i].event) &&
		    !strcmp(b->tevs[i - 1].group, b->tevs[i].group))
			continue; /* one event of several places, removed whole */
		strbuf_addf(&name, "%s:%s", b->tevs[i].group, b->tevs[i].event);
		probe_file__del_events(uprobes, name.buf, NULL, NULL, NULL);
		strbuf_release(&name);
	}
}

int add_perf_probe_events(struct perf_probe_event *pevs, int npevs)
{
	struct probe_cache *pc = NULL;
	const char *file_arch = NULL, *host_arch = NULL;
	struct probe_batch b;
	/* one -x for all */
	int ret = npevs > 0 ? probe_target__is_foreign(&pevs[0], &file_arch, &host_arch) : 0;
	bool uprobes, foreign = ret > 0;

	if (ret < 0)
		return ret;
	if (foreign && !probe_conf.cache && !probe_conf.dry_run) {
		pr_err("Error: %s is an %s file: this %s host can not place its probes (-D shows them, --cache keeps them for %s hosts)\n",
		       pevs[0].target, file_arch, host_arch, file_arch);
		return -EINVAL;
	}
	ret = probe_batch__convert(&b, pevs, npevs);
	if (ret)
		return ret;
	/* SDT events found with no -x are uprobes of the binaries that have them. */
	uprobes = b.ntevs > 0 ? b.tevs[0].uprobes : npevs > 0 && pevs[0].uprobes;
	if (probe_conf.cache)
		ret = probe_batch__cache(&b, pevs, npevs, &pc);
	if (!ret)
		ret = probe_batch__name_events(&b, uprobes);
	if (!ret && !probe_conf.dry_run && !foreign) /* those go to their hosts by the cache */
		ret = probe_batch__write(&b, uprobes);
	if (!ret && pc) {
		ret = probe_cache__commit(pc);
		if (ret) {
			struct strbuf msg = STRBUF_INIT;

			probe_cache__strerror(PROBE_CACHE_WRITE, ret, pc->path, NULL, &msg);
			pr_err("Error: %s\n", msg.buf);
			strbuf_release(&msg);
			if (!probe_conf.dry_run)
				probe_batch__unwrite(&b, uprobes);
		}
	}
	probe_cache__close(pc);
	if (!ret && !quiet) { /* -n too, as perf */
		const struct probe_trace_event *last = &b.tevs[b.ntevs - 1];

		if (foreign)
			fprintf(stderr, "Cached for %s hosts (not placed on this %s host):\n",
				file_arch, host_arch);
		else
			fprintf(stderr, "Added new event%s:\n", b.ntevs > 1 ? "s" : "");
		for (int i = 0; i < b.ntevs; i++)
			print_added_event(&b.tevs[i], b.from[i]);
		if (!foreign)
			fprintf(stderr,
				"\nYou can now use it in all perf tools, such as:\n\n\tperf record -e %s:%s -aR sleep 1\n\n",
				last->group, last->event);
	}
	probe_batch__clear(&b);
	return ret;
}
