// SPDX-License-Identifier: GPL-2.0
/*
 * What perf probe shows without adding anything (see probe-show.h):
 * -l (the events of tracefs), -d, -F (functions), -V (variables at a
 * place) and -L (source lines).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/debug.h"
#include "util/demangle.h"
#include "util/debuginfo.h"
#include "util/func-names.h"
#include "util/probe-btf.h"
#include "util/probe-event.h"
#include "util/probe-file.h"
#include "util/probe-finder-show.h"
#include "util/probe-finder.h"
#include "util/probe-show.h"
#include "util/probe-target.h"
#include "util/probe-trace.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/symbol-elf.h"
#include "util/tracefs.h"
#include "util/util.h"

/* What -l loads once for the events of one file. */
struct list_ctx {
	struct symbol_elf *syms; /* the symbols of `path` */
	struct debuginfo *dbg;	 /* its DWARF, when it has some */
	char *path;
	struct symbol_elf *ksyms; /* the kernel's */
};

static void list_ctx__load(struct list_ctx *ctx, const char *path)
{
	struct probe_target t = { .uprobes = true };

	if (ctx->path && !strcmp(ctx->path, path))
		return;
	if (ctx->syms)
		symbol_elf__delete(ctx->syms);
	if (ctx->dbg)
		debuginfo__delete(ctx->dbg);
	free(ctx->path);
	ctx->path = xstrdup(path);
	if (symbol_elf__load(path, &ctx->syms))
		ctx->syms = NULL;
	t.path = ctx->path; /* borrowed: t is not cleared */
	if (probe_target__open_debuginfo(&t, &ctx->dbg))
		ctx->dbg = NULL;
}

static void list_ctx__clear(struct list_ctx *ctx)
{
	if (ctx->syms)
		symbol_elf__delete(ctx->syms);
	if (ctx->ksyms)
		symbol_elf__delete(ctx->ksyms);
	if (ctx->dbg)
		debuginfo__delete(ctx->dbg);
	free(ctx->path);
}

/*
 * A source path as perf -l shows it: whole up to 30 characters, else the
 * longest tail of whole components ("/tmp/build-dir/x.c" -> "build-dir/x.c")
 * that fits in 30 with its leading '/', shown without it.
 */
static const char *short_source_name(const char *path)
{
	const char *s = path;

	while (strlen(s) > 30) {
		const char *slash = strchr(s + 1, '/');

		if (!slash)
			break;
		s = slash;
	}
	return s == path ? s : s + 1;
}

/*
 * The probe point of a listed uprobe, from its file offset: as perf names
 * it, "FUNC:RLN@SRC" through DWARF when the file has some, else "FUNC+OFF"
 * through the symbol table; "%return" after the function for returns.
 */
static char *uprobe_point_name(const struct probe_trace_point *tp, struct list_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	const struct elf_symbol *sym = NULL;
	uint64_t vaddr = 0;
	bool found = false;
	char *name;

	list_ctx__load(ctx, tp->module);
	found = ctx->syms && !symbol_elf__offset_to_vaddr(ctx->syms, tp->offset, &vaddr);
	name = found && ctx->dbg ? debuginfo__probe_point_name(ctx->dbg, vaddr) : NULL;
	if (name) {
		/* FUNC[:RLN][@SRC]; a C++ or Rust FUNC has colons of its own. */
		char *at = strchr(name, '@');
		size_t fn = at ? (size_t)(at - name) : strlen(name);
		char *colon = memrchr(name, ':', fn);

		if (colon && colon > name && colon[-1] != ':' && colon + 1 < name + fn &&
		    strspn(colon + 1, "0123456789") == (size_t)(name + fn - colon - 1))
			fn = colon - name;

		strbuf_add(&sb, name, fn);
		if (tp->retprobe)
			strbuf_addstr(&sb, "%return");
		if (at) {
			strbuf_add(&sb, name + fn, at + 1 - (name + fn));
			strbuf_addstr(&sb, short_source_name(at + 1));
		} else {
			strbuf_addstr(&sb, name + fn);
		}
		free(name);
		return strbuf_detach(&sb, NULL);
	}
	if (found)
		sym = symbol_elf__find_addr(ctx->syms, vaddr);
	if (sym) {
		const char *at = strchr(sym->name, '@');
		char *bare = xstrndup(sym->name, at ? (size_t)(at - sym->name) : strlen(sym->name));
		char *shown = demangle_display(bare, probe_conf_demangle(true));

		strbuf_addstr(&sb, shown);
		free(shown);
		free(bare);
		if (vaddr != sym->addr)
			strbuf_addf(&sb, "+%" PRIu64, vaddr - sym->addr);
	} else {
		strbuf_addf(&sb, "0x%lx", tp->offset);
	}
	if (tp->retprobe)
		strbuf_addstr(&sb, "%return");
	return strbuf_detach(&sb, NULL);
}

/*
 * The probe point of a listed kprobe: "_text+7166832" back to "vfs_read",
 * through the kernel's symbols (-k vmlinux, else /proc/kallsyms).
 */
static char *kprobe_point_name(const struct probe_trace_point *tp, struct symbol_elf **kcache)
{
	struct strbuf sb = STRBUF_INIT;
	const struct elf_symbol **base = NULL, *sym = NULL;
	uint64_t addr = 0;

	if (!*kcache && !tp->module) {
		int ret = probe_conf.vmlinux ? symbol_elf__load(probe_conf.vmlinux, kcache)
					     : symbol_elf__load_kallsyms(NULL, kcache);

		if (ret)
			*kcache = NULL;
	}
	if (*kcache && tp->symbol && !tp->module &&
	    symbol_elf__find_name(*kcache, tp->symbol, &base) > 0) {
		addr = base[0]->addr + tp->offset;
		sym = symbol_elf__find_addr(*kcache, addr);
	}
	free(base);
	if (sym) {
		strbuf_addstr(&sb, sym->name);
		if (addr != sym->addr)
			strbuf_addf(&sb, "+%" PRIu64, addr - sym->addr);
	} else {
		strbuf_addstr(&sb, tp->symbol ? tp->symbol : "");
		if (tp->offset)
			strbuf_addf(&sb, "+%lu", tp->offset);
	}
	if (tp->retprobe)
		strbuf_addstr(&sb, "%return");
	return strbuf_detach(&sb, NULL);
}

/*
 * Does GROUP:EVENT pass the strfilter @sf (NULL: all)?  As perf has it, a
 * name passes when the event name alone or "GROUP:EVENT" does.
 */
static bool event_passes(const struct strfilter *sf, const char *group, const char *event)
{
	struct strbuf full = STRBUF_INIT;
	bool ok;

	if (!sf || strfilter__compare(sf, event))
		return true;
	strbuf_addf(&full, "%s:%s", group, event);
	ok = strfilter__compare(sf, full.buf);
	strbuf_release(&full);
	return ok;
}

static void show_event_lines(bool uprobes, const struct strfilter *sf, const char *exec,
			     struct list_ctx *ctx)
{
	char **lines;
	int nr = probe_file__get_lines(uprobes, &lines);

	/* perf lists the events in the order of their definition lines. */
	if (nr > 1)
		qsort(lines, nr, sizeof(*lines), strcmp_ptr);
	for (int i = 0; i < nr; i++) {
		struct probe_trace_event tev = { 0 };
		struct strbuf point = STRBUF_INIT, args = STRBUF_INIT;

		if (parse_probe_trace_command(lines[i], &tev) ||
		    !event_passes(sf, tev.group, tev.event) ||
		    (exec && (!tev.point.module || strcmp(tev.point.module, exec)))) {
			clear_probe_trace_event(&tev);
			continue;
		}
		if (tev.uprobes) {
			char *p = uprobe_point_name(&tev.point, ctx);

			strbuf_addstr(&point, p);
			free(p);
		} else {
			char *p = kprobe_point_name(&tev.point, &ctx->ksyms);

			strbuf_addstr(&point, p);
			free(p);
		}
		for (int j = 0; j < tev.nargs; j++)
			strbuf_addf(&args, "%s%s", j ? " " : "",
				    tev.args[j].name ? tev.args[j].name : tev.args[j].value);
		probe_event__print_line(stdout, tev.group, tev.event, point.buf, tev.point.module,
					args.buf);
		strbuf_release(&point);
		strbuf_release(&args);
		clear_probe_trace_event(&tev);
	}
	if (nr > 0)
		probe_file__free_lines(lines, nr);
}

int show_perf_probe_events(const char *filter, const char *exec)
{
	struct list_ctx ctx = { 0 };
	struct strfilter *sf = NULL;
	char *path = NULL;
	int ret = 0;

	if (filter) {
		sf = strfilter__new(filter, NULL);
		if (!sf) {
			pr_err("Error: bad filter '%s'\n", filter);
			return -EINVAL;
		}
	}
	if (exec) {
		path = realpath(exec, NULL);
		if (!path) {
			ret = -errno;
			pr_err("Error: target executable %s: %s\n", exec, strerror(errno));
			goto out;
		}
	}
	if (!tracefs__mountpoint()) {
		pr_err("Error: Failed to find tracefs: %s\n", strerror(errno));
		ret = -ENOENT;
		goto out;
	}
	if (!exec)
		show_event_lines(false, sf, NULL, &ctx);
	show_event_lines(true, sf, path, &ctx);
	list_ctx__clear(&ctx);
out:
	free(path);
	strfilter__delete(sf);
	return ret;
}

/* Is @filter more than one glob (perf's filter language: | & ! ( ))? */
static bool compound_filter(const char *filter)
{
	return strpbrk(filter, "|&!()") != NULL;
}

/*
 * The events matching the strfilter @filter, as "GROUP:EVENT" globs for
 * probe_file__del_events(); *@out NULL-free with probe_file__free_lines().
 */
static int expand_filter(bool uprobes, const char *filter, char ***out)
{
	struct strfilter *sf = strfilter__new(filter, NULL);
	char **names = NULL, **hits;
	int nr = probe_file__get_event_names(uprobes, &names), n = 0;

	*out = NULL;
	if (!sf || nr <= 0) {
		strfilter__delete(sf);
		return !sf ? -EINVAL : nr;
	}
	hits = xzalloc(sizeof(*hits) * nr);
	for (int i = 0; i < nr; i++) {
		char *colon = strchr(names[i], ':');

		*colon = '\0';
		if (event_passes(sf, names[i], colon + 1)) {
			*colon = ':';
			hits[n++] = xstrdup(names[i]);
		}
		*colon = ':';
	}
	probe_file__free_lines(names, nr);
	strfilter__delete(sf);
	*out = hits;
	return n;
}

/* Delete what one glob matches, through probe_file__del_events(). */
static int del_one_glob(bool up, const char *glob, const char *shown, int *total)
{
	char **removed = NULL, *busy = NULL;
	int nr_removed = 0;
	int n = probe_file__del_events(up, glob, &removed, &nr_removed, &busy);

	if (nr_removed > 1)
		qsort(removed, nr_removed, sizeof(*removed), strcmp_ptr);
	for (int j = 0; j < nr_removed; j++)
		pr_info("Removed event: %s\n", removed[j]);
	if (n == -ENOENT)
		n = 0; /* this kernel has no such probe type */
	if (n == -EBUSY)
		pr_err("Error: Failed to delete %s: it is enabled (in use); disable it first\n",
		       busy ? busy : shown);
	else if (n < 0)
		pr_err("Error: Failed to delete events matching \"%s\": %s\n", shown,
		       probe_file__strerror(n));
	*total += nr_removed;
	free(busy);
	if (removed)
		probe_file__free_lines(removed, nr_removed);
	return n < 0 ? n : 0;
}

int del_perf_probe_events(const char *const *filters, int nr)
{
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		int total = 0;

		for (int up = 0; up < 2 && !ret; up++) {
			char **hits = NULL;
			int n;

			if (!compound_filter(filters[i])) {
				ret = del_one_glob(up, filters[i], filters[i], &total);
				continue;
			}
			n = expand_filter(up, filters[i], &hits);
			if (n == -ENOENT)
				n = 0;
			if (n < 0) {
				pr_err("Error: Failed to delete events matching \"%s\": %s\n",
				       filters[i], probe_file__strerror(n));
				ret = n;
			}
			for (int j = 0; j < n && !ret; j++)
				ret = del_one_glob(up, hits[j], filters[i], &total);
			if (hits)
				probe_file__free_lines(hits, n > 0 ? n : 0);
		}
		if (!ret && total == 0) {
			pr_err("\"%s\" does not hit any event.\n", filters[i]); /* perf's words */
			ret = -ENOENT;
		}
	}
	return ret;
}

/*
 * -F --btf: the functions of the kernel's BTF, those of its symbol table
 * (kallsyms, the -k vmlinux) when it has one (not -k a raw BTF file); a
 * module's all (its BTF is there only while it is loaded).
 */
static int btf_func_names(struct probe_target *t, const struct strfilter *sf)
{
	const struct kbtf *b;
	struct func_names fn = { 0 };
	char **names, **syms;
	int nr, nsyms = -1, j = 0, ret = probe_target__open_btf(t, &b);

	if (ret) {
		pr_err("Error: Failed to read the BTF of %s from %s: %s\n", probe_target__name(t),
		       t->btf_path,
		       ret == -EBADMSG ? "it is corrupt or truncated" : strerror(-ret));
		return ret;
	}
	nr = probe_btf__func_names(b, sf, &names);
	if (!t->module && !probe_target__try_symbols(t))
		nsyms = symbol_elf__func_names(t->syms, NULL, sf, probe_conf_demangle(false), &fn);
	syms = fn.names;
	for (int i = 0; i < nr; i++) {
		/* both sorted by strcmp: a merge */
		while (nsyms > 0 && j < nsyms && strcmp(syms[j], names[i]) < 0)
			j++;
		if (nsyms <= 0 || (j < nsyms && !strcmp(syms[j], names[i])))
			printf("%s\n", names[i]);
		free(names[i]);
	}
	func_names__release(&fn);
	free(names);
	return 0;
}

int show_available_funcs(const char *target, bool user, const char *filter)
{
	struct perf_probe_event pev = { .uprobes = user, .target = (char *)target };
	struct probe_target t;
	struct strfilter *sf;
	const char *err = NULL;
	struct func_names_job *job;
	struct func_names fn;
	int ret;

	sf = strfilter__new(filter, &err);
	if (!sf) {
		pr_err("Error: bad filter '%s' at '%s'\n", filter, err ? err : "");
		return -EINVAL;
	}
	ret = probe_target__init(&t, &pev);
	if (!ret && !user && probe_conf.btf) {
		ret = btf_func_names(&t, sf);
		goto out;
	}
	t.names_only = true;
	/* its thread comes up while the names load */
	job = ret ? NULL : func_names__begin(probe_conf_demangle(user));
	if (!ret && user && probe_target__try_symbols(&t) == -ENODATA) {
		/* a stripped file: perf's words and status (255) */
		pr_err("Failed to load symbols in %s\n", t.path);
		ret = -1;
	}
	if (!ret)
		ret = probe_target__symbols(&t);
	if (ret)
		func_names__cancel(job);
	if (!ret) {
		symbol_elf__func_names(t.syms, job, sf, probe_conf_demangle(user), &fn);
		func_names__print(&fn, stdout);
		func_names__release(&fn);
	}
out:
	probe_target__clear(&t);
	strfilter__delete(sf);
	return ret;
}

/* Open the debuginfo of @pev's target, with perf's message when there is none. */
static int open_target_debuginfo(const struct perf_probe_event *pev, struct probe_target *t,
				 struct debuginfo **dbg)
{
	int ret = probe_target__init(t, pev);

	if (ret)
		return ret;
	ret = probe_target__open_debuginfo(t, dbg);
	if (ret == -EBADMSG)
		pr_err("Error: Failed to read the debuginfo of %s: it is corrupt\n",
		       t->path ? t->path : probe_conf.vmlinux);
	else if (ret && ret != -ESTALE && t->uprobes) { /* -ESTALE: said already */
		/* perf's words, and its status (254) */
		pr_err("The %s file has no debug information.\n"
		       "Rebuild with -g, or install an appropriate debuginfo package.\n",
		       t->path);
		ret = -ENOENT;
	} else if (ret && ret != -ESTALE)
		pr_err("Error: Failed to find the debuginfo of %s\n", probe_target__name(t));
	if (ret)
		probe_target__clear(t);
	return ret;
}

/*
 * -V of a kernel spec from BTF, with --btf or when there is no DWARF: 0
 * shown, -errno after one message, 1 when DWARF is to answer.
 */
static int show_btf_vars(const struct perf_probe_event *pev, const struct strfilter *sf)
{
	struct probe_target t;
	struct debuginfo *dbg = NULL;
	const struct kbtf *b;
	int ret = probe_target__init(&t, pev);

	if (ret)
		return ret;
	if (!probe_conf.btf && !probe_target__open_debuginfo(&t, &dbg)) {
		debuginfo__delete(dbg);
		probe_target__clear(&t);
		return 1;
	}
	ret = probe_target__open_btf(&t, &b);
	if (ret)
		pr_err("Error: Failed to find the debuginfo of %s, nor its BTF (%s: %s)\n",
		       probe_target__name(&t), t.btf_path,
		       ret == -EBADMSG ? "corrupt or truncated" : strerror(-ret));
	else
		ret = probe_btf__show_vars(b, probe_target__name(&t), pev, sf);
	probe_target__clear(&t);
	return ret;
}

/* FUNC alone: no glob, source file, line, offset or pattern. */
static bool plain_function(const struct perf_probe_point *pp)
{
	return pp->function && !demangle_is_glob(pp->function) && !pp->file && !pp->line &&
	       !pp->offset && !pp->lazy_line && !pp->retprobe;
}

/*
 * -V FUNC that DWARF does not have, as perf says it: a name the symbol
 * table lacks too (254), or a function without debuginfo, such as the
 * C runtime's (234).
 */
static int vars_not_found(struct probe_target *t, const char *name)
{
	const struct elf_symbol **syms = NULL;
	int n = probe_target__try_symbols(t) ? 0 : symbol_elf__find_name(t->syms, name, &syms);
	uint64_t off;

	/* its file offset, as perf 6.1 prints it (6.12 with "0x") */
	if (n > 0 &&
	    probe_target__global_offset((void *)probe_target__layout(t), syms[0]->addr, &off))
		off = syms[0]->addr;
	if (n > 0)
		pr_err("Failed to find debug information for address %" PRIx64
		       "\nDebuginfo analysis failed.\n",
		       off);
	else
		pr_err("Failed to find the address of %s\n", name);
	free(syms);
	return n > 0 ? -EINVAL : -ENOENT;
}

int show_available_vars(struct perf_probe_event *pevs, int npevs, bool externs, bool range,
			const char *filter)
{
	struct strfilter *sf = NULL;
	const char *err = NULL;
	int ret = 0;

	if (filter) {
		sf = strfilter__new(filter, &err);
		if (!sf) {
			pr_err("Error: bad filter '%s' at '%s'\n", filter, err ? err : "");
			return -EINVAL;
		}
	}
	for (int i = 0; i < npevs && !ret; i++) {
		struct probe_finder_opts opts = { .max_probes = probe_conf.max_probes,
						  .no_inlines = probe_conf.no_inlines };
		struct probe_target t;
		struct debuginfo *dbg = NULL;

		if (!pevs[i].uprobes) {
			/* The kernel without DWARF (or with --btf): its BTF. */
			ret = show_btf_vars(&pevs[i], sf);
			if (ret <= 0)
				continue;
		}
		ret = open_target_debuginfo(&pevs[i], &t, &dbg);
		if (ret)
			break;
		/* Uprobes need only the segments (of the file itself, not --symfs's). */
		if (t.uprobes) {
			opts.global_offset = probe_target__global_offset;
			opts.ctx = (void *)probe_target__layout(&t);
			ret = opts.ctx ? 0 : -EINVAL;
		} else {
			ret = probe_target__symbols(&t);
		}
		/* A plain FUNC not found is told in perf's words below. */
		opts.quiet_missing = t.uprobes && plain_function(&pevs[i].point);
		if (!ret)
			ret = debuginfo__check(dbg, debuginfo__show_vars(dbg, &pevs[i], &opts,
									 externs, range, sf));
		if (ret == -ENOENT && opts.quiet_missing)
			ret = vars_not_found(&t, pevs[i].point.function);
		debuginfo__delete(dbg);
		probe_target__clear(&t);
	}
	strfilter__delete(sf);
	return ret;
}

int show_line_range(const char *spec, const char *target, bool user)
{
	struct perf_probe_event pev = { .uprobes = user, .target = (char *)target };
	struct strbuf name = STRBUF_INIT;
	char *head, *func = NULL, *file = NULL;
	const char *p;
	struct probe_target t;
	struct debuginfo *dbg = NULL;
	long start = 0, end = -1;
	bool source;
	/* FUNC may be a C++, Rust or Go name ("shop::Cart::add(int):2"). */
	int ret = demangle_scan_name(spec, &name, &source);

	head = strbuf_detach(&name, NULL);
	p = ret < 0 ? "" : spec + ret;
	if (ret >= 0 && *p == '@') {
		size_t n = strcspn(p + 1, ":");

		file = xstrndup(p + 1, n);
		p += 1 + n;
	}
	if (ret >= 0 && *p == ':') {
		const char *colon = p + 1;
		char *e;

		start = strtol(colon, &e, 10);
		if (*e == '-')
			end = strtol(e + 1, &e, 10);
		else if (*e == '+')
			end = start + strtol(e + 1, &e, 10) - 1;
		if (e == colon || (end >= 0 && end < start))
			ret = -1;
		p = e;
	}
	if (ret < 0 || *p) {
		semantic_error("'%s' is not a valid line range.", spec);
		free(head);
		free(file);
		return 1;
	}
	if (!file && !source && strpbrk(head, "./"))
		file = head, head = NULL;
	else
		func = head;
	ret = open_target_debuginfo(&pev, &t, &dbg);
	if (!ret) {
		ret = debuginfo__check(
			dbg, debuginfo__show_lines(dbg, func, file, (int)start, (int)end));
		debuginfo__delete(dbg);
		probe_target__clear(&t);
	}
	free(head);
	free(file);
	return ret;
}
