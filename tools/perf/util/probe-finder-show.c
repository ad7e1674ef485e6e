// SPDX-License-Identifier: GPL-2.0
/* The DWARF views of perf probe: -V, -L, -l names (see probe-finder-show.h). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/debug.h"
#include "util/debuginfo.h"
#include "util/demangle.h"
#include "util/dwarf-aux.h"
#include "util/probe-limits.h"
#include "util/probe-finder-show.h"
#include "util/probe-finder.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/util.h"

/* ---- -V: the variables at each place --------------------------------- */

struct var_lines {
	char **v;
	int nr, alloc;
};
;

/*
 * Is @var somewhere at the place, as perf -V judges it by the first
 * operation of its location: 0 yes, -ENOENT no location there, -ENOTSUP a
 * constant or an operation perf does not read.
 */
static int var_first_op(Dwarf_Die *var, Dwarf_Addr addr)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(var, DW_AT_location, &attr))
		return -ENOENT;
	if (dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0 || !nops)
		return -ENOENT;
	return dwarf_op_is_location(ops[0].atom) ? 0 : -ENOTSUP;
}

static void var_lines__add_die(struct probe_place *place, struct var_lines *vl, Dwarf_Die *var,
			       Dwarf_Die *scope, bool range, bool ext,
			       const struct strfilter *filter)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = dwarf_diename(var);
	Dwarf_Addr entry = 0;
	bool live;
	int ret;

	if (!name || (filter && !strfilter__compare(filter, name)))
		return;
	ret = var_first_op(var, place->addr);
	/*
	 * A constant (DW_AT_const_value, no location: an inlined copy's
	 * argument, a local gcc folded) is a value everywhere, as perf lists
	 * it; with --range perf leaves it out, having no range to print.
	 */
	live = ret == 0 || (ret == -ENOENT && !range && !dwarf_hasattr(var, DW_AT_location) &&
			    dwarf_hasattr(var, DW_AT_const_value));
	/*
	 * With --range perf lists those with no location here too, as [INV];
	 * constants and locations it can not read it leaves out.
	 */
	if (!live && ret == -ENOENT && ext &&
	    (dwarf_hasattr_integrate(var, DW_AT_external) || dwarf_hasattr(var, DW_AT_const_value)))
		; /* a global defined elsewhere, or a constant: perf lists it */
	else if (!live && (!range || ret != -ENOENT || !die_has_some_range(var) || ext ||
			   !die_first_entry_readable(var)))
		return;
	for (int i = 0; i < vl->nr; i++) {
		/* An inner variable hides an outer one of the same name. */
		const char *tab = strrchr(vl->v[i], '\t');

		if (tab && !strcmp(tab + 1, name))
			return;
	}
	if (range)
		strbuf_addstr(&sb, ext ? "[EXT]\t" : live ? "[VAL]\t" : "[INV]\t");
	die_type_name(&sb, var);
	strbuf_addf(&sb, "\t%s", name);
	if (range && !ext) {
		die_func_entry(&place->real, &entry);
		die_var_range(&sb, var, die_func_name(&place->real), entry, scope);
	}
	ALLOC_GROW(vl->v, vl->nr + 1, vl->alloc);
	vl->v[vl->nr++] = strbuf_detach(&sb, NULL);
}

static void show_place_vars(struct debuginfo *dbg, struct probe_place *place,
			    const struct probe_finder_opts *opts, bool externs, bool range,
			    const struct strfilter *filter)
{
	struct var_lines vl = { 0 };
	Dwarf_Die *scopes = NULL, child;
	Dwarf_Addr entry = place->addr;
	int n = probe_place__scopes(place, &scopes);

	char *fname = die_func_qualname(&place->real);

	die_func_entry(&place->real, &entry);
	printf("\t@<%s+%" PRIu64 ">\n", fname, (uint64_t)(place->addr - entry));
	free(fname);
	for (int i = 0; i < n; i++) {
		bool cu = i == n - 1;

		if (cu && !externs)
			break;
		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			int t = dwarf_tag(&child);

			if (t == DW_TAG_variable || (t == DW_TAG_formal_parameter && !cu))
				var_lines__add_die(place, &vl, &child, &scopes[i], range, cu,
						   filter);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	if (vl.nr) /* qsort() takes no NULL array, even empty */
		qsort(vl.v, vl.nr, sizeof(*vl.v), strcmp_ptr);
	for (int i = 0; i < vl.nr; i++) {
		printf("\t\t%s\n", vl.v[i]);
		free(vl.v[i]);
	}
	if (!vl.nr)
		printf("\t\t(No matched variables)\n");
	free(vl.v);
}

/* The point as perf -V names it: no lazy pattern, "@SRC:ALN" for lines. */
static char *vars_point_name(const struct perf_probe_point *pp)
{
	struct strbuf sb = STRBUF_INIT;

	if (!pp->function) {
		strbuf_addf(&sb, "@%s:%d", pp->file, pp->line);
		return strbuf_detach(&sb, NULL);
	}
	{
		char *shown = demangle_display(pp->function, true);

		strbuf_addstr(&sb, shown);
		free(shown);
	}
	if (pp->file)
		strbuf_addf(&sb, "@%s", pp->file);
	if (pp->line)
		strbuf_addf(&sb, ":%d", pp->line);
	if (pp->offset)
		strbuf_addf(&sb, "+%lu", pp->offset);
	if (pp->retprobe)
		strbuf_addstr(&sb, "%return");
	return strbuf_detach(&sb, NULL);
}

int debuginfo__show_vars(struct debuginfo *dbg, const struct perf_probe_event *pev,
			 const struct probe_finder_opts *opts, bool externs, bool range,
			 const struct strfilter *filter)
{
	struct perf_probe_event bare = *pev;
	struct place_list pl = { 0 };
	char *point;
	int ret;

	bare.nargs = 0; /* the places as perf -V takes them: no prologue skip */
	ret = probe_finder__places(dbg, &bare, opts, &pl);
	if (ret)
		goto out;
	point = vars_point_name(&pev->point);
	printf("Available variables at %s\n", point);
	free(point);
	for (int i = 0; i < pl.nr; i++)
		show_place_vars(dbg, &pl.p[i], opts, externs, range, filter);
out:
	place_list__clear(&pl);
	return ret;
}

/* ---- -L: source lines ----------------------------------------------------- */

struct entry_line {
	Dwarf_Addr addr;
	int line;
};
;

struct entry_walk {
	struct entry_line *e;
	int nr, alloc;
};
;

static int collect_entry(Dwarf_Die *func, void *arg)
{
	struct entry_walk *w = arg;
	Dwarf_Addr a;
	int line;

	if (die_func_entry(func, &a) && !dwarf_decl_line(func, &line)) {
		ALLOC_GROW(w->e, w->nr + 1, w->alloc);
		w->e[w->nr].addr = a;
		w->e[w->nr++].line = line;
	}
	return DWARF_CB_OK;
}

/* Does an earlier statement row of another line have the address of row @i? */
static bool shares_address(Dwarf_Lines *ls, size_t i, Dwarf_Addr a, int ln)
{
	while (i-- > 0) {
		Dwarf_Line *p = dwarf_onesrcline(ls, i);
		Dwarf_Addr pa;
		bool stmt = false;
		int pln;

		if (dwarf_lineaddr(p, &pa) || pa != a)
			return false;
		dwarf_linebeginstatement(p, &stmt);
		if (stmt && !dwarf_lineno(p, &pln) && pln != ln)
			return true;
	}
	return false;
}

/*
 * The lines of @path in @cu perf numbers: statement rows that do not share
 * their address with an earlier line, a function's entry row counted as
 * its declaration line.  @func limits them to one function.  Marks @lines[1..max].
 */
static void mark_code_lines(Dwarf_Die *cu, Dwarf_Die *func, const char *path, bool *lines, int max)
{
	struct entry_walk w = { 0 };
	Dwarf_Lines *ls;
	size_t n;

	if (dwarf_getsrclines(cu, &ls, &n))
		return;
	dwarf_getfuncs(cu, collect_entry, &w, 0);
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(ls, i);
		Dwarf_Addr a;
		int ln;
		bool stmt = false, end = false, pe = false;
		const char *src;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		/* A row naming no file of the table (damaged DWARF) is no code of @path. */
		src = dwarf_linesrc(l, NULL, NULL);
		if (!stmt || end || !src || strcmp(src, path))
			continue;
		if (func && dwarf_haspc(func, a) <= 0)
			continue;
		/*
		 * A row marked prologue_end (clang) is where its line's code
		 * starts, even at the entry or after rows of no code.
		 */
		if (!dwarf_lineprologueend(l, &pe) && pe)
			goto mark;
		if (shares_address(ls, i, a, ln))
			continue;
		for (int j = 0; j < w.nr; j++) {
			if (w.e[j].addr == a) {
				ln = w.e[j].line;
				break;
			}
		}
	mark:
		if (ln < 1 || ln > max)
			continue;
		lines[ln] = true;
	}
	free(w.e);
}

/*
 * Read the source file @path for -L: a regular file of at most
 * PROBE_SOURCE_MAX_SIZE (a FIFO or a device planted as a source must not
 * hang or fill memory).  0 or -errno, with one line said.
 */
static int read_source(const char *path, struct strbuf *sb)
{
	int ret = strbuf_read_regular(sb, AT_FDCWD, path, PROBE_SOURCE_MAX_SIZE);

	if (ret)
		pr_err("Failed to open %s: %s\n", path, strbuf_read_strerror(ret));
	return ret;
}

static int print_lines(const char *path, const bool *code, int nlines, int start, int end, int base)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *nl;
	int ln = 1, ret = read_source(path, &sb);

	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	for (p = sb.buf; *p && (end < 0 || ln <= end); p = nl + 1, ln++) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (ln >= start) {
			if (ln < nlines && code[ln])
				printf("%7d  %.*s\n", ln - base, (int)(nl - p), p);
			else
				printf("         %.*s\n", (int)(nl - p), p);
		}
		if (!*nl)
			break;
	}
	strbuf_release(&sb);
	return 0;
}

/*
 * The path the header of -L names: the file read (under the compilation
 * directory, or under -s DIR), as perf; for a source that came from the
 * debuginfod cache ("BUILDID/source##tmp##app.c") the path DWARF gives it.
 */
static char *shown_source_path(Dwarf_Die *cu, const char *file, const char *real)
{
	if (!strstr(real, "/source##"))
		return xstrdup(real);
	return die_cu_full_path(cu, file);
}

/* Has any line of [@start, @end] (@end < 0: to the end) code? */
static bool range_has_code(const bool *code, int nlines, int start, int end)
{
	for (int ln = start > 0 ? start : 1; ln < nlines && (end < 0 || ln <= end); ln++)
		if (code[ln])
			return true;
	return false;
}

/* The number of lines of the file at @path, plus one; -errno (said) when unreadable. */
static int count_lines(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 1, ret = read_source(path, &sb);

	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	for (size_t i = 0; i < sb.len; i++)
		n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n + 1;
}

struct file_lines {
	struct debuginfo *dbg;
	bool *code;
	int nlines; /* or -errno: the file could not be read */
	char *path; /* as the line table names it */
};

static int file_lines_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	struct file_lines *fl = arg;

	if (!fl->path) {
		char *real = debuginfo__source_path(fl->dbg, cu, path);

		fl->path = xstrdup(path);
		fl->nlines = count_lines(real);
		free(real);
		fl->code = xzalloc(sizeof(bool) * (fl->nlines > 0 ? fl->nlines + 1 : 1));
	}
	if (fl->nlines > 0 && !strcmp(fl->path, path))
		mark_code_lines(cu, NULL, path, fl->code, fl->nlines - 1);
	return 0;
}

/* The first CU naming @path in its file table gives the directory to read it from. */
struct first_cu_path {
	struct debuginfo *dbg;
	const char *path;
	char *real;
	char *shown; /* the path the header names */
};

static int first_cu_path_one(Dwarf_Die *cu, void *arg)
{
	struct first_cu_path *w = arg;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		return 0;
	for (size_t i = 0; i < nfiles; i++) {
		const char *p = dwarf_filesrc(files, i, NULL, NULL);

		if (p && !strcmp(p, w->path)) {
			w->real = debuginfo__source_path(w->dbg, cu, w->path);
			w->shown = shown_source_path(cu, w->path, w->real);
			return 1;
		}
	}
	return 0;
}

int debuginfo__show_lines(struct debuginfo *dbg, const char *func, const char *file, int start,
			  int end)
{
	int ret = 0;

	if (func) {
		struct func_list fl = { 0 };
		struct func_item *f = NULL;
		const char *path;
		char *real;
		bool *code;
		int decl = 0, nlines, last = 0;

		bool inlined_only;

		probe_finder__find_functions(dbg, func, file, false, &fl);
		for (int i = 0; i < fl.nr && !f; i++)
			if (dwarf_tag(&fl.f[i].die) == DW_TAG_subprogram)
				f = &fl.f[i];
		/* A function that exists only inlined: its instances' lines. */
		inlined_only = !f;
		if (!f && fl.nr)
			f = &fl.f[0];
		if (!f) {
			if (debuginfo__check(dbg, -ENOENT) != -EBADMSG)
				pr_err("Specified source line is not found.\n");
			func_list__clear(&fl);
			return -ENOENT;
		}
		path = die_decl_file(&f->die);
		if (!path) {
			/* Its DWARF names no file: there is nothing to open. */
			pr_err("Failed to find the source file of %s: its debuginfo names none.\n",
			       func);
			func_list__clear(&fl);
			return -ENOENT;
		}
		dwarf_decl_line(&f->die, &decl);
		real = debuginfo__source_path(dbg, &f->cu, path);
		nlines = count_lines(real);
		if (nlines < 0) {
			/* Nothing on stdout then; perf's second line for a missing file. */
			if (nlines == -ENOENT)
				pr_err("Failed to find source file path.\n");
			free(real);
			func_list__clear(&fl);
			return nlines;
		}
		code = xzalloc(sizeof(bool) * (nlines + 1));
		for (int i = 0; i < fl.nr && nlines > 0; i++) {
			const char *decl_file = die_decl_file(&fl.f[i].die);

			if (&fl.f[i] == f ||
			    (inlined_only && decl_file && !strcmp(decl_file, path)))
				mark_code_lines(&fl.f[i].cu, &fl.f[i].die, path, code, nlines - 1);
		}
		for (int i = 1; i < nlines; i++)
			if (code[i])
				last = i;
		/* Without an end perf shows the function and three lines more. */
		end = end < 0 ? last + 3 : decl + end;
		if (!range_has_code(code, nlines, decl + start, end)) {
			/* A range without code is an error, as perf has it. */
			pr_err("Specified source line is not found.\n");
			free(code);
			free(real);
			func_list__clear(&fl);
			return -ENOENT;
		}
		{
			char *shown = shown_source_path(&f->cu, path, real);

			char *fname = demangle_display(func, true);

			printf("<%s@%s:%d>\n", fname, shown, start);
			free(shown);
			free(fname);
		}
		ret = print_lines(real, code, nlines, decl + start, end, decl);
		free(code);
		free(real);
		func_list__clear(&fl);
		return ret;
	}

	struct file_lines fl = { .dbg = dbg };

	die_for_each_cu_with_file(debuginfo__dwarf(dbg), file, file_lines_cu, &fl);
	if (!fl.path) {
		pr_err("Failed to find source file path.\n");
		return -ENOENT;
	}
	if (fl.nlines < 0) {
		ret = fl.nlines;
	} else if (!range_has_code(fl.code, fl.nlines, start, end)) {
		/* perf fails there too, with EOPNOTSUPP (exit 161). */
		pr_err("Specified source line is not found.\n");
		ret = -EOPNOTSUPP;
	} else {
		struct first_cu_path w = { dbg, fl.path, NULL, NULL };

		die_for_each_cu(debuginfo__dwarf(dbg), first_cu_path_one, &w);
		printf("<%s:%d>\n", w.shown ? w.shown : fl.path, start);
		ret = print_lines(w.real ? w.real : fl.path, fl.code, fl.nlines, start, end, 0);
		free(w.real);
		free(w.shown);
	}
	free(fl.code);
	free(fl.path);
	return ret;
}

/* ---- -l: an address back to its source place -------------------------------- */

char *debuginfo__probe_point_name(struct debuginfo *dbg, uint64_t addr)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Die cu, func;
	Dwarf_Addr entry;
	Dwarf_Line *line;
	const char *file;
	int decl = 0, ln = 0;

	if (!die_cu_of_addr(debuginfo__dwarf(dbg), addr, &cu) ||
	    !die_find_subprogram_at(&cu, addr, &func) || !die_func_entry(&func, &entry))
		return NULL;
	file = die_decl_file(&func);
	dwarf_decl_line(&func, &decl);
	{
		char *fname = die_func_qualname(&func);

		strbuf_addstr(&sb, fname);
		free(fname);
	}
	line = addr == entry ? NULL : dwarf_getsrc_die(&cu, addr);
	if (line && !dwarf_lineno(line, &ln) && ln > decl)
		strbuf_addf(&sb, ":%d", ln - decl);
	if (file)
		strbuf_addf(&sb, "@%s", file);
	return strbuf_detach(&sb, NULL);
}
