// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF probe finder (see probe-finder.h).  A function named in a spec
 * is found through the symbol table and die_cu_of_addr() (aranges), not by
 * scanning every CU; only names the symbol table does not have (static
 * inline functions that exist only inlined) and source files need a walk.
 */
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/debug.h"
#include "util/debuginfo.h"
#include "util/demangle.h"
#include "util/dwarf-aux.h"
#include "util/dwarf-fetcharg.h"
#include "util/probe-finder.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/util.h"
/* ---- places ----------------------------------------------------------- */

/*
 * Add the place @addr in @func (a subprogram or an inlined instance) of
 * @cu, once per address; the subprogram really holding it gives the frame
 * base.  @name is copied.
 */
static void place_list__add(struct place_list *pl, Dwarf_Addr addr, Dwarf_Die *cu, Dwarf_Die *func,
			    const char *name)
{
	struct probe_place *p;

	for (int i = 0; i < pl->nr; i++)
		if (pl->p[i].addr == addr)
			return;
	ALLOC_GROW(pl->p, pl->nr + 1, pl->alloc);
	p = &pl->p[pl->nr++];
	memset(p, 0, sizeof(*p));
	p->addr = addr;
	p->cu = *cu;
	p->func = *func;
	if (dwarf_tag(func) == DW_TAG_subprogram || !die_find_subprogram_at(cu, addr, &p->real))
		p->real = *func;
	p->name = xstrdup(name ? name : "");
}

void place_list__clear(struct place_list *pl)
{
	for (int i = 0; i < pl->nr; i++)
		free(pl->p[i].name);
	free(pl->p);
	memset(pl, 0, sizeof(*pl));
}

int probe_place__scopes(struct probe_place *place, Dwarf_Die **out)
{
	Dwarf_Die *chain = NULL;
	int nr = die_scopes(&place->func, place->addr, &chain);

	chain = xrealloc(chain, sizeof(*chain) * (nr + 1));
	chain[nr++] = place->cu;
	*out = chain;
	return nr;
}

/* ---- functions --------------------------------------------------------- */

/* Add @die of @cu, once per DIE. */
static void func_list__add(struct func_list *fl, Dwarf_Die *die, Dwarf_Die *cu)
{
	for (int i = 0; i < fl->nr; i++)
		if (dwarf_dieoffset(&fl->f[i].die) == dwarf_dieoffset(die))
			return;
	ALLOC_GROW(fl->f, fl->nr + 1, fl->alloc);
	fl->f[fl->nr].die = *die;
	fl->f[fl->nr].part = false;
	fl->f[fl->nr++].cu = *cu;
}

void func_list__clear(struct func_list *fl)
{
	free(fl->f);
	memset(fl, 0, sizeof(*fl));
}

/* By DIE offset (struct func_item starts with its DIE). */
static int cmp_die_offset(const void *a, const void *b)
{
	Dwarf_Off x = dwarf_dieoffset((Dwarf_Die *)a), y = dwarf_dieoffset((Dwarf_Die *)b);

	return x < y ? -1 : x > y;
}

/* Sort by DIE offset, each DIE with its CU. */
static void func_list__sort(struct func_list *fl)
{
	if (fl->nr) /* qsort() takes no NULL array, even empty */
		qsort(fl->f, fl->nr, sizeof(*fl->f), cmp_die_offset);
}

struct inline_walk {
	struct func_list *fl;
	Dwarf_Die *cu;
};

static int add_inline_instance(Dwarf_Die *inst, void *arg)
{
	struct inline_walk *w = arg;
	Dwarf_Addr entry;

	/*
	 * An instance inside another copy of the same function, inlined or
	 * out of line (gcc's split parts inlined back: bprm_execve+100), is a
	 * piece of that one, not a call.
	 */
	if (!dwarf_entrypc(inst, &entry)) {
		for (int i = 0; i < w->fl->nr; i++)
			if (die_origin_offset(&w->fl->f[i].die) == die_origin_offset(inst) &&
			    dwarf_haspc(&w->fl->f[i].die, entry) > 0)
				return DWARF_CB_OK;
	}
	func_list__add(w->fl, inst, w->cu);
	return DWARF_CB_OK;
}

/* A subprogram DIE, its inlined instances when it has some. */
static void add_function(struct func_list *fl, Dwarf_Die *func, Dwarf_Die *cu, bool no_inlines)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, *abstract = func;
	struct inline_walk w = { fl, cu };

	if (dwarf_hasattr(func, DW_AT_low_pc) || dwarf_hasattr(func, DW_AT_ranges))
		func_list__add(fl, func, cu);
	if (dwarf_attr(func, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin))
		abstract = &origin;
	if (!no_inlines && dwarf_func_inline(abstract))
		dwarf_func_inline_instances(abstract, add_inline_instance, &w);
}

struct func_walk {
	struct func_list *fl;
	Dwarf_Die *cu;
	const char *pattern;
	bool no_inlines;
	const char *file; /* the CU walk: declared there (NULL: any) */
};
;

static int match_function(Dwarf_Die *func, void *arg)
{
	struct func_walk *w = arg;

	if (die_name_match(func, w->pattern))
		add_function(w->fl, func, w->cu, w->no_inlines);
	return DWARF_CB_OK;
}

/* The functions of @cu that match, declared in the file looked for. */
static int match_cu_functions(Dwarf_Die *cu, void *arg)
{
	struct func_walk *w = arg;
	struct func_list here = { 0 };
	struct func_walk one = { &here, cu, w->pattern, w->no_inlines, NULL };

	dwarf_getfuncs(cu, match_function, &one, 0);
	for (int i = 0; i < here.nr; i++)
		if (die_in_file(&here.f[i].die, w->file))
			func_list__add(w->fl, &here.f[i].die, &here.f[i].cu);
	func_list__clear(&here);
	return 0;
}

enum symbol_match { SYMBOL_OTHER, SYMBOL_IS, SYMBOL_CLONE };

/*
 * Is symbol @name the function @pattern, perhaps with a version ("f@@V1"),
 * or its demangled name (SYMBOL_IS)?  Or a copy gcc made of part of it
 * ("f.part.0", "f.constprop.0", "f.isra.0": SYMBOL_CLONE), which is the
 * function when its DWARF says so: perf and gdb probe those too.
 */
static enum symbol_match symbol_is(const char *name, const char *pattern, size_t len)
{
	size_t k = 0;

	if (!name)
		return SYMBOL_OTHER;
	/* Inline: 100,000 names differ from the pattern by their first bytes. */
	while (k < len && name[k] == pattern[k])
		k++;
	if (k == len && (name[len] == '\0' || name[len] == '@'))
		return SYMBOL_IS;
	if (k == len && name[len] == '.')
		return SYMBOL_CLONE;
	/* A C++ or Rust function by its source name or signature. */
	return name[0] == '_' && demangle_match(pattern, name) ? SYMBOL_IS : SYMBOL_OTHER;
}

/*
 * Add the function at @addr when its DWARF is the one looked for.  A
 * static function of a header (put_page) may be inlined in every CU that
 * includes it, not only in the one that kept a copy: *@in_headers tells
 * the caller to walk the CUs then, as perf does.  Other functions are
 * inlined only in their own CU.
 */
static bool add_function_at(struct debuginfo *dbg, const GElf_Sym *sym, enum symbol_match how,
			    const char *pattern, const char *file, bool no_inlines,
			    struct func_list *fl, bool *in_headers)
{
	Dwarf_Die cu, func;
	int from;

	if (!die_cu_of_addr(debuginfo__dwarf(dbg), sym->st_value, &cu) ||
	    !die_find_subprogram_at(&cu, sym->st_value, &func) || !die_in_file(&func, file))
		return false;
	/* A clone's own DIE names the function (its abstract origin's name). */
	if (how == SYMBOL_CLONE && !die_name_match(&func, pattern))
		return false;
	if (GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
	    !source_file_matches(die_decl_file(&func), dwarf_diename(&cu)))
		*in_headers = true;
	from = fl->nr;
	add_function(fl, &func, &cu, no_inlines);
	/*
	 * A part of its own DIE ("f.part.0"), not one of the function's
	 * ranges ("f.cold"): the function's own symbol names its DIE, before
	 * or after.
	 */
	for (int i = 0; i < fl->nr; i++)
		if (dwarf_dieoffset(&fl->f[i].die) == dwarf_dieoffset(&func))
			fl->f[i].part = how == SYMBOL_CLONE && (i >= from || fl->f[i].part);
	return true;
}

/*
 * A 64-bit .symtab as libelf holds it in memory (native order, aligned)
 * with its string table: read in place, not through gelf_getsym() and
 * elf_strptr() for each of 100,000 symbols (two thirds of a -D on a
 * program of that many functions).
 */
struct symtab_raw {
	const Elf64_Sym *syms;
	size_t nr;
	const char *strs;
	size_t strs_len;
};

static bool symtab_raw(Elf *elf, const Elf_Data *data, const GElf_Shdr *shdr,
		       struct symtab_raw *raw)
{
	Elf_Data *str = elf_getdata(elf_getscn(elf, shdr->sh_link), NULL);

	if (gelf_getclass(elf) != ELFCLASS64 || !data || data->d_type != ELF_T_SYM ||
	    !data->d_buf || (uintptr_t)data->d_buf % _Alignof(Elf64_Sym) || !str || !str->d_buf ||
	    !str->d_size || ((const char *)str->d_buf)[str->d_size - 1] != '\0')
		return false;
	raw->syms = data->d_buf;
	raw->nr = data->d_size / sizeof(Elf64_Sym);
	raw->strs = str->d_buf;
	raw->strs_len = str->d_size;
	return true;
}

/*
 * The functions named @pattern through the symbol table.  A plain scan of
 * the raw .symtab (of the file, else of its debuginfo file) costs a name
 * comparison per symbol; libdwfl's symbol table, built and adjusted for
 * every symbol first, only serves files without one.
 */
static bool find_functions_by_symbol(struct debuginfo *dbg, const char *pattern, const char *file,
				     bool no_inlines, struct func_list *fl, bool *in_headers)
{
	size_t len = strlen(pattern);
	Elf *elfs[2] = { NULL, dwarf_getelf(debuginfo__dwarf(dbg)) };
	GElf_Addr bias;
	bool found = false;

	elfs[0] = dwfl_module_getelf(debuginfo__module(dbg), &bias);
	for (int e = 0; e < 2; e++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr shdr;

		if (!elfs[e] || (e == 1 && elfs[1] == elfs[0]))
			continue;
		while ((scn = elf_nextscn(elfs[e], scn))) {
			struct symtab_raw raw = { 0 };
			Elf_Data *data;
			size_t nr;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB ||
			    !shdr.sh_entsize)
				continue;
			data = elf_getdata(scn, NULL);
			nr = data ? shdr.sh_size / shdr.sh_entsize : 0;
			if (symtab_raw(elfs[e], data, &shdr, &raw))
				nr = raw.nr;
			for (size_t i = 1; i < nr; i++) {
				const char *name;
				enum symbol_match how;
				GElf_Sym sym;

				if (raw.syms) {
					sym = raw.syms[i]; /* GElf_Sym is Elf64_Sym */
					name = sym.st_name < raw.strs_len ? raw.strs + sym.st_name
									  : NULL;
				} else if (gelf_getsym(data, i, &sym)) {
					name = elf_strptr(elfs[e], shdr.sh_link, sym.st_name);
				} else {
					continue;
				}
				if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
				    !(how = symbol_is(name, pattern, len)))
					continue;
				found |= add_function_at(dbg, &sym, how, pattern, file, no_inlines,
							 fl, in_headers);
			}
			return found;
		}
	}
	/* No .symtab anywhere: libdwfl's table (.dynsym, minidebuginfo). */
	for (int i = 1, nsyms = dwfl_module_getsymtab(debuginfo__module(dbg)); i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(debuginfo__module(dbg), i, &sym, &addr,
							   NULL, NULL, NULL);

		enum symbol_match how = GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_value
						? symbol_is(name, pattern, len)
						: SYMBOL_OTHER;

		if (how)
			found |= add_function_at(dbg, &sym, how, pattern, file, no_inlines, fl,
						 in_headers);
	}
	return found;
}

void probe_finder__find_functions(struct debuginfo *dbg, const char *pattern, const char *file,
				  bool no_inlines, struct func_list *fl)
{
	bool glob = strpbrk(pattern, "*?[") != NULL;
	bool via_symbol = false, in_headers = false;

	/* A glob walks the CUs anyway, and perf lists in their order. */
	if (!glob)
		via_symbol =
			find_functions_by_symbol(dbg, pattern, file, no_inlines, fl, &in_headers);
	if (via_symbol && !glob && !in_headers)
		goto sort;

	/*
	 * Not in the symbol table (inlined only, or a glob): walk the CUs.
	 * What the symbol table gave stays: a mangled name (a local Rust
	 * symbol) is no DW_AT_name the walk could match.
	 */
	struct func_walk w = { fl, NULL, pattern, no_inlines, file };

	die_for_each_cu(debuginfo__dwarf(dbg), match_cu_functions, &w);
sort:
	/* perf walks the DIEs: inlined instances in their callers' order. */
	func_list__sort(fl);
}

/* The address after the prologue, as perf takes it: the next line row. */
static Dwarf_Addr skip_prologue(Dwarf_Die *cu, Dwarf_Die *func, Dwarf_Addr entry)
{
	Dwarf_Lines *lines;
	size_t nlines;
	Dwarf_Addr best = entry;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return entry;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;

		if (dwarf_lineaddr(l, &a) || a <= entry || (best != entry && a >= best))
			continue;
		if (dwarf_haspc(func, a) > 0)
			best = a;
	}
	return best;
}

/*
 * Where the line table marks the end of @func's prologue (prologue_end,
 * clang and DWARF 5 line programs): the first marked row in @func at or
 * after @entry.  False when the table marks none there (gcc).
 */
static bool prologue_end(Dwarf_Die *cu, Dwarf_Die *func, Dwarf_Addr entry, Dwarf_Addr *addr)
{
	Dwarf_Lines *lines;
	size_t nlines;
	bool found = false;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return false;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool pe = false;

		if (dwarf_lineaddr(l, &a) || a < entry || (found && a >= *addr) ||
		    dwarf_lineprologueend(l, &pe) || !pe || dwarf_haspc(func, a) <= 0)
			continue;
		*addr = a;
		found = true;
	}
	return found;
}

/* ---- lines -------------------------------------------------------------- */

/*
 * Is @a the entry of subprogram @func?  perf takes the entry as the line
 * of the declaration: another line whose first row is there ("{" of a
 * kernel function, built with -fpatchable-function-entry) is refused as
 * sharing the declaration's address.
 */
static bool at_entry(Dwarf_Die *func, Dwarf_Addr a)
{
	Dwarf_Addr entry;

	return func && dwarf_tag(func) == DW_TAG_subprogram && die_func_entry(func, &entry) &&
	       entry == a;
}

/*
 * Collect the places of line @lineno of @file (NULL: any) in @func (NULL:
 * any function of @cu): the statement rows of the line, then the entries
 * of the calls inlined from it (code of another file that is the line's:
 * dout(10) << ... starts in an inlined SubsystemMap::should_gather, where
 * no statement row is), as perf 6.1 places them, in that order.  Returns
 * 0, or the line of an earlier row at the same address as one of them
 * (-1: the function's entry): perf refuses such a line, we place it with
 * a warning.
 */
static int find_line_rows(Dwarf_Die *cu, Dwarf_Die *func, const char *file, int lineno,
			  struct place_list *pl, const char *name)
{
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nlines, nfiles;
	int shared = 0, ninl;
	struct die_inline_call *inl = NULL;
	Dwarf_Die f;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return 0;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		bool stmt = false, end = false, pe = false;
		int shared_here = 0;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || ln != lineno)
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		if (!stmt || end)
			continue;
		if (file && !source_file_matches(dwarf_linesrc(l, NULL, NULL), file))
			continue;
		if (func && dwarf_haspc(func, a) <= 0)
			continue;
		if (!func && !die_find_subprogram_at(cu, a, &f))
			continue;
		for (size_t j = i; j-- > 0 && !shared_here;) {
			Dwarf_Line *p = dwarf_onesrcline(lines, j);
			Dwarf_Addr pa;
			int pln;

			if (dwarf_lineaddr(p, &pa) || pa != a)
				break;
			/* Rows of other files there are inlined code, not a clash. */
			if (!dwarf_lineno(p, &pln) && pln != lineno &&
			    dwarf_linesrc(p, NULL, NULL) == dwarf_linesrc(l, NULL, NULL))
				shared_here = pln;
		}
		/*
		 * A row marked prologue_end (clang) starts its line's code:
		 * rows before it at its address (the declaration's) have none.
		 */
		dwarf_lineprologueend(l, &pe);
		if (!shared && !pe && (shared_here || at_entry(func, a))) {
			Dwarf_Addr entry;

			/* At a function's entry perf points at the function itself. */
			shared = func && die_func_entry(func, &entry) && entry == a ? -1
										    : shared_here;
		}
		if (func)
			place_list__add(pl, a, cu, func, name);
		else
			place_list__add(pl, a, cu, &f, die_func_name(&f));
	}
	/* One walk of the function (or the CU) for the calls of the line. */
	ninl = die_inline_calls_at(func ? func : cu, lineno, &inl);
	if (ninl && dwarf_getsrcfiles(cu, &files, &nfiles))
		ninl = 0;
	for (int i = 0; i < ninl; i++) {
		Dwarf_Addr a = inl[i].entry;

		if (inl[i].file >= nfiles ||
		    (file &&
		     !source_file_matches(dwarf_filesrc(files, inl[i].file, NULL, NULL), file)))
			continue;
		if (func && dwarf_haspc(func, a) <= 0)
			continue;
		if (func)
			place_list__add(pl, a, cu, func, name);
		else if (die_find_subprogram_at(cu, a, &f))
			place_list__add(pl, a, cu, &f, die_func_name(&f));
	}
	free(inl);
	return shared;
}

/*
 * A line whose first row shares its address with other lines (perf
 * refuses it): gdb breaks there, and so do we, with one warning naming
 * the other lines of @file at the places @from.. of @pl.  @what is the
 * line as the spec names it.
 */
static void warn_shared_line(Dwarf_Die *cu, const char *file, int lineno, struct place_list *pl,
			     int from, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Lines *lines;
	size_t nlines;
	int total = 0;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return;
	for (int p = from; p < pl->nr; p++) {
		int seen[8], nseen = 0;

		for (size_t i = 0; i < nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			const char *src = dwarf_linesrc(l, NULL, NULL);
			Dwarf_Addr a;
			int ln, k;

			if (dwarf_lineaddr(l, &a) || a != pl->p[p].addr || dwarf_lineno(l, &ln) ||
			    ln == lineno || !src || (file && !source_file_matches(src, file)))
				continue;
			for (k = 0; k < nseen && seen[k] != ln; k++)
				;
			if (k < nseen || nseen == 8)
				continue;
			seen[nseen++] = ln;
			total++;
			strbuf_addf(&sb, "%s%d", sb.len ? ", " : "", ln);
		}
		if (nseen)
			strbuf_addf(&sb, " (0x%" PRIx64 ")", (uint64_t)pl->p[p].addr);
	}
	if (!total && from < pl->nr) /* no other line there: the function's entry (perf's FUNC:0) */
		pr_warning(
			"Warning: %s is the entry of its function (0x%" PRIx64
			"), which perf takes as the function itself: probed there, as gdb breaks.\n",
			what, (uint64_t)pl->p[from].addr);
	else
		pr_warning(
			"Warning: %s shares its address with line%s %s of %s: probed there, as gdb "
			"breaks.\n",
			what, total > 1 ? "s" : "", sb.buf, file ? file : "its file");
	strbuf_release(&sb);
}

/* Does @line match the lazy pattern @pat, ignoring spaces in both? */
static bool lazy_match(const char *line, const char *pat)
{
	struct strbuf l = STRBUF_INIT, p = STRBUF_INIT;
	bool ok;

	for (; *line; line++)
		if (!isspace((unsigned char)*line))
			strbuf_addch(&l, *line);
	for (; *pat; pat++)
		if (!isspace((unsigned char)*pat))
			strbuf_addch(&p, *pat);
	/* perf matches the pattern against the start of the line. */
	strbuf_addch(&p, '*');
	ok = !fnmatch(p.buf, l.buf, 0);
	strbuf_release(&l);
	strbuf_release(&p);
	return ok;
}

/* The line numbers of @path matching @pat between @from and @to. */
static int lazy_lines(const char *path, const char *pat, int from, int to, int **out)
{
	struct strbuf sb = STRBUF_INIT;
	int *nums = NULL, nr = 0, alloc = 0, ln = 1;
	char *p, *nl;
	int ret = strbuf_read_file(&sb, path);

	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	for (p = sb.buf; *p; p = nl ? nl + 1 : p + strlen(p), ln++) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (ln >= from && (to < 0 || ln <= to) && lazy_match(p, pat)) {
			ALLOC_GROW(nums, nr + 1, alloc);
			nums[nr++] = ln;
		}
		if (!nl)
			break;
	}
	strbuf_release(&sb);
	*out = nums;
	return nr;
}

/* The last line of @func: the largest line of its rows. */
static int func_last_line(Dwarf_Die *cu, Dwarf_Die *func)
{
	Dwarf_Lines *lines;
	size_t nlines;
	int last = -1;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return -1;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;

		if (!dwarf_lineaddr(l, &a) && !dwarf_lineno(l, &ln) && dwarf_haspc(func, a) > 0 &&
		    ln > last)
			last = ln;
	}
	return last;
}

static int find_lazy_rows(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Die *func, const char *file,
			  const char *pat, struct place_list *pl, const char *name)
{
	char *path = debuginfo__source_path(dbg, cu, file);
	int from = 1, to = -1, *nums = NULL, n, ret = 0;

	if (func) {
		int decl = 0;

		dwarf_decl_line(func, &decl);
		from = decl;
		to = func_last_line(cu, func);
	}
	/* DWARF naming no declaration file for the function: no source to read. */
	if (!path) {
		pr_err("Failed to find the source file of %s\n", name ? name : "the function");
		return -ENOENT;
	}
	n = lazy_lines(path, pat, from, to, &nums);
	if (n < 0) {
		pr_err("Failed to open %s: %s\n", path, strerror(-n));
		free(path);
		return n;
	}
	for (int i = 0; i < n; i++)
		find_line_rows(cu, func, file, nums[i], pl, name);
	free(nums);
	free(path);
	return ret;
}

struct src_walk {
	struct debuginfo *dbg;
	const struct perf_probe_point *pp;
	struct place_list *pl;
};
;

static int src_walk_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	struct src_walk *w = arg;
	int shared, from;

	if (w->pp->lazy_line)
		return find_lazy_rows(w->dbg, cu, NULL, path, w->pp->lazy_line, w->pl, NULL) < 0
			       ? -ENOENT
			       : 0;
	from = w->pl->nr;
	shared = find_line_rows(cu, NULL, path, w->pp->line, w->pl, NULL);
	if (shared) {
		char *what = synthesize_perf_probe_point(w->pp);

		warn_shared_line(cu, path, w->pp->line, w->pl, from, what);
		free(what);
	}
	return 0;
}

/* ---- fetchargs ---------------------------------------------------------- */

/* The variable or parameter named @name among the children of @scope. */
static bool scope_variable(Dwarf_Die *scope, const char *name, bool globals, Dwarf_Die *var)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return false;
	do {
		int t = dwarf_tag(&child);

		if ((t == DW_TAG_variable || (!globals && t == DW_TAG_formal_parameter)) &&
		    die_name_match(&child, name)) {
			*var = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * Look a variable up by name in the scopes of the place, then the CU, then
 * the external definitions of other CUs: an "extern" declaration has no
 * location of its own (gcc), or no DIE at all in the unit using it (clang).
 */
static bool find_variable(struct debuginfo *dbg, struct probe_place *place, const char *name,
			  Dwarf_Die *var)
{
	Dwarf_Die *scopes = NULL;
	int n = probe_place__scopes(place, &scopes), own = n - 2;
	bool found = false;

	/*
	 * The probed function's own scopes first: its blocks up to the first
	 * function inlined into it at the place, whose parameters (a nested
	 * method's own "this") are not the probed function's.
	 */
	while (own > 0 && dwarf_tag(&scopes[own - 1]) == DW_TAG_lexical_block)
		own--;
	for (int i = own; i < n - 1 && !found; i++)
		found = scope_variable(&scopes[i], name, false, var);
	for (int i = 0; i < own && !found; i++)
		found = scope_variable(&scopes[i], name, false, var);
	free(scopes);
	if (found)
		return true;
	found = scope_variable(&place->cu, name, true, var);
	if (found && dwarf_hasattr(var, DW_AT_location))
		return true;
	if (die_find_global_definition(debuginfo__dwarf(dbg), name, var))
		return true;
	return found;
}

/* Whether @name is a variable with a location (or a value) at @place. */
static bool place_has_variable(struct debuginfo *dbg, const struct fetcharg_ctx *c,
			       struct probe_place *place, const char *name)
{
	struct arg_loc loc = { 0 };
	Dwarf_Die var;
	int ret;

	if (!find_variable(dbg, place, name, &var))
		return false;
	ret = fetcharg__location(c, &var, &loc);
	arg_loc__clear(&loc);
	return ret != -ENOENT;
}

/* $vars: the function's parameters and variables, into blocks holding the address. */
static void collect_vars(const struct fetcharg_ctx *c, Dwarf_Die *scope, bool params_only,
			 struct probe_trace_arg **args, int *nargs, int *alloc)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		struct probe_trace_arg ta = { 0 };

		if (tag == DW_TAG_formal_parameter && die_is_go_result(&child)) {
			/* Go's results are no arguments: not set at the entry. */
		} else if (die_is_va_list(&child)) {
			/* 8 bytes of a va_list tell nothing: perf leaves it out. */
		} else if (tag == DW_TAG_formal_parameter ||
			   (!params_only && tag == DW_TAG_variable)) {
			if (fetcharg__plain_var(c, &child, &ta)) {
				ALLOC_GROW(*args, *nargs + 1, *alloc);
				(*args)[(*nargs)++] = ta;
			}
		} else if (!params_only && tag == DW_TAG_lexical_block &&
			   dwarf_haspc(&child, c->addr) > 0) {
			collect_vars(c, &child, params_only, args, nargs, alloc);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Is @cu Go's (DW_LANG_Go, or "Go cmd/compile go1.19.8; regabi")? */
static bool cu_is_go(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *producer = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &attr));

	return dwarf_srclang(cu) == DW_LANG_Go ||
	       (producer && !strncmp(producer, "Go cmd/compile", 14));
}

/* die_for_each_cu(): the CU holding an address (by its ranges). */
struct cu_at {
	Dwarf_Addr addr;
	Dwarf_Die cu;
};

static int cu_at_addr(Dwarf_Die *cu, void *arg)
{
	struct cu_at *ca = arg;

	if (dwarf_haspc(cu, ca->addr) <= 0)
		return 0;
	ca->cu = *cu;
	return 1;
}

int debuginfo__go_function(struct debuginfo *dbg, uint64_t addr, char **type)
{
	struct cu_at ca = { .addr = addr };
	Dwarf_Die cu, func, child, rtype;
	bool flag;

	*type = NULL;
	/* Go writes no .debug_aranges: the CUs' own ranges, one by one. */
	if (die_for_each_cu(debuginfo__dwarf(dbg), cu_at_addr, &ca) <= 0 || !cu_is_go(&ca.cu))
		return 0;
	cu = ca.cu;
	if (!die_find_subprogram_at(&cu, addr, &func) || dwarf_child(&func, &child))
		return 1;
	do {
		Dwarf_Attribute attr;
		int tag;

		if (dwarf_tag(&child) != DW_TAG_formal_parameter ||
		    dwarf_formflag(dwarf_attr(&child, DW_AT_variable_parameter, &attr), &flag) ||
		    !flag)
			continue;
		if (!die_get_real_type(&child, &rtype))
			return 1;
		tag = dwarf_tag(&rtype);
		if (tag == DW_TAG_base_type || tag == DW_TAG_pointer_type)
			*type = fetcharg_basic_type(&rtype);
		return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 1;
}

/*
 * Does @pa convert at the place of @c?  Silently: 0, or the error of the
 * conversion, without its message.
 */
static int convert_quietly(const struct fetcharg_ctx *c, const struct perf_probe_arg *pa,
			   Dwarf_Die *var)
{
	struct probe_trace_event tev = { 0 };
	int saved = verbose, ret;

	tev.args = xzalloc(sizeof(*tev.args));
	tev.nargs = 1;
	verbose = -2; /* not even pr_err */
	ret = fetcharg__convert(c, pa, var, &tev.args[0]);
	verbose = saved;
	clear_probe_trace_event(&tev);
	return ret;
}

/*
 * The fetchargs of @pev at @place, into @tev.  With @missing (a spec of
 * several places), a variable this place has no DIE or no location for,
 * or one it holds in a form no fetcharg can read, is not an error:
 * -ENODATA, no message, its name in *@missing and why in *@why (the place
 * is skipped).
 */
static int convert_args(struct debuginfo *dbg, const struct perf_probe_event *pev,
			struct probe_place *place, const struct probe_finder_opts *opts,
			struct probe_trace_event *tev, const char **missing, int *why)
{
	bool inlined = dwarf_tag(&place->func) == DW_TAG_inlined_subroutine;

	struct fetcharg_ctx c = { debuginfo__module(dbg), place->addr, &place->real,
				  opts->global_offset, opts->ctx };
	struct probe_trace_arg *args = NULL;
	int nargs = 0, alloc = 0, ret = 0;

	for (int i = 0; i < pev->nargs && !ret; i++) {
		const struct perf_probe_arg *pa = &pev->args[i];
		struct probe_trace_arg ta = { 0 };
		Dwarf_Die var;

		if (pev->point.retprobe && cu_is_go(&place->cu) &&
		    (perf_probe_arg_need_dwarf(pa) || !strcmp(pa->var, "$vars") ||
		     !strcmp(pa->var, "$params"))) {
			pr_err("Semantic error: '%s' needs %s's frame, which is gone at its return instructions (where a Go return probe is placed): only $retval, registers, their +OFF(...) dereferences and $comm can be fetched there.\n",
			       pa->var, die_func_name(&place->func));
			ret = -EINVAL;
			break;
		}
		if (!strcmp(pa->var, "$vars") || !strcmp(pa->var, "$params")) {
			int before = nargs;

			collect_vars(&c, &place->func, pa->var[1] == 'p', &args, &nargs, &alloc);
			if (nargs == before) {
				/* Nothing lives here: perf fails as for one variable. */
				pr_err("Failed to find the location of the '%s' variable at this address.\n"
				       " Perhaps it has been optimized out.\n"
				       " Use -V with the --range option to show '%s' location range.\n",
				       pa->var, pa->var);
				ret = -ENOENT;
			}
			continue;
		}
		if (!perf_probe_arg_need_dwarf(pa)) {
			if (!strcmp(pa->var, "$retval") && !pev->point.retprobe) {
				pr_err("Semantic error: $retval is only available in a return probe (%%return).\n");
				ret = -EINVAL;
				break;
			}
			raw_probe_trace_arg(pa, &ta);
		} else if (pev->point.retprobe) {
			pr_err("Semantic error: You can't specify local variable for kretprobe.\n");
			ret = -EINVAL;
			break;
		} else if (missing && inlined && !place_has_variable(dbg, &c, place, pa->var)) {
			*missing = pa->var;
			*why = -ENOENT;
			ret = -ENODATA;
			break;
		} else if (!find_variable(dbg, place, pa->var, &var)) {
			/* perf's line first, for the scripts that look for it */
			pr_err("Failed to find the location of the '%s' variable at this address: %s has no local, parameter or global of that name.\n",
			       pa->var, die_func_name(&place->func));
			ret = -ENOENT;
			break;
		} else {
			int q = missing ? convert_quietly(&c, pa, &var) : 0;

			if (q == -ENOENT || q == -ENOTSUP) {
				*missing = pa->var;
				*why = q;
				ret = -ENODATA;
				break;
			}
			ret = fetcharg__convert(&c, pa, &var, &ta);
			if (ret)
				break;
		}
		ALLOC_GROW(args, nargs + 1, alloc);
		args[nargs++] = ta;
	}
	tev->args = args;
	tev->nargs = nargs;
	return ret;
}

/* ---- finding places ------------------------------------------------------ */

/* perf skips the prologue only when an argument is read through DWARF. */
static bool args_need_dwarf(const struct perf_probe_event *pev)
{
	for (int i = 0; i < pev->nargs; i++)
		if (perf_probe_arg_need_dwarf(&pev->args[i]))
			return true;
	return false;
}

static int find_function_places(struct debuginfo *dbg, const struct perf_probe_event *pev,
				const struct probe_finder_opts *opts, struct place_list *pl,
				bool *skipped)
{
	const struct perf_probe_point *pp = &pev->point;
	struct func_list fl = { 0 };
	int ret = 0, inlined_returns = 0;

	probe_finder__find_functions(dbg, pp->function, pp->file, opts->no_inlines, &fl);
	for (int i = 0; i < fl.nr && !ret; i++) {
		Dwarf_Die *func = &fl.f[i].die, *cu = &fl.f[i].cu;
		Dwarf_Addr entry;
		const char *name = die_func_name(func);

		if (!die_func_entry(func, &entry))
			continue;
		/* Inlined code has no return of its own to probe. */
		if (pp->retprobe && dwarf_tag(func) == DW_TAG_inlined_subroutine) {
			inlined_returns++;
			continue;
		}
		/* Nor has a split part the function's: perf 6.1 and 6.12 leave it out. */
		if (pp->retprobe && fl.f[i].part)
			continue;
		if (pp->lazy_line) {
			ret = find_lazy_rows(dbg, cu, func, die_decl_file(func), pp->lazy_line, pl,
					     name);
		} else if (pp->line) {
			int decl = 0;

			int from = pl->nr;

			dwarf_decl_line(func, &decl);
			if (find_line_rows(cu, func, die_decl_file(func), decl + pp->line, pl,
					   name)) {
				char *what = synthesize_perf_probe_point(pp);

				warn_shared_line(cu, die_decl_file(func), decl + pp->line, pl, from,
						 what);
				free(what);
			}
		} else if (pp->offset) {
			if (dwarf_haspc(func, entry + pp->offset) <= 0) {
				pr_err("Offset %lu is bigger than the size of %s\n", pp->offset,
				       name);
				ret = -ERANGE;
			} else {
				place_list__add(pl, entry + pp->offset, cu, func, name);
			}
		} else {
			Dwarf_Addr addr = entry;

			if (die_cu_is_go(cu)) {
				/*
				 * Go's register ABI: its DWARF gives the
				 * arguments from the entry, where perf probes.
				 */
			} else if (!pp->retprobe && args_need_dwarf(pev) &&
				   dwarf_tag(func) == DW_TAG_subprogram &&
				   prologue_end(cu, func, entry, &addr)) {
				/*
				 * The compiler says where the prologue ends,
				 * optimized or not: the arguments are in place
				 * there, and not yet moved on.
				 */
				if (addr != entry && !*skipped) {
					pr_warning(
						"Skipping prologue to its end in the line table.\n"
						"Probe on address 0x%" PRIx64
						" to force probing at the function entry.\n\n",
						(uint64_t)entry);
					*skipped = true;
				}
			} else if (!pp->retprobe && args_need_dwarf(pev) &&
				   dwarf_tag(func) == DW_TAG_subprogram &&
				   die_cu_is_unoptimized(cu)) {
				addr = skip_prologue(cu, func, entry);
				if (addr != entry && !*skipped) {
					pr_warning(
						"Target program is compiled without optimization. Skipping prologue.\n"
						"Probe on address 0x%" PRIx64
						" to force probing at the function entry.\n\n",
						(uint64_t)entry);
					*skipped = true;
				}
			}
			place_list__add(pl, addr, cu, func, name);
		}
	}
	func_list__clear(&fl);
	if (!ret && !pl->nr && inlined_returns) {
		pr_err("Failed to probe the return of %s: it exists only inlined.\n", pp->function);
		ret = -EINVAL;
	}
	return ret;
}

/* die_for_each_cu_with_file(): the first line after @line with code of its own. */
struct next_line {
	const char *file; /* as the user wrote it */
	int line, next;
};

static int next_line_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	struct next_line *nl = arg;
	Dwarf_Lines *lines;
	size_t nlines;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return 0;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		bool stmt = false, end = false;
		int ln;

		if (dwarf_lineno(l, &ln) || ln <= nl->line || (nl->next && ln >= nl->next))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		if (stmt && !end && source_file_matches(dwarf_linesrc(l, NULL, NULL), nl->file))
			nl->next = ln;
	}
	return 0;
}

int probe_finder__places(struct debuginfo *dbg, const struct perf_probe_event *pev,
			 const struct probe_finder_opts *opts, struct place_list *pl)
{
	const struct perf_probe_point *pp = &pev->point;
	bool skipped = false;
	int ret = 0;

	if (pp->function) {
		ret = find_function_places(dbg, pev, opts, pl, &skipped);
	} else if (pp->file) {
		struct src_walk w = { dbg, pp, pl };

		ret = die_for_each_cu_with_file(debuginfo__dwarf(dbg), pp->file, src_walk_cu, &w);
		if (ret == 0) {
			pr_err("Failed to find source file path.\n");
			ret = -ENOENT;
		}
		ret = ret > 0 ? 0 : ret;
	}
	if (ret < 0)
		return ret;
	if (pl->nr == 0 && debuginfo__check(dbg, -ENOENT) == -EBADMSG)
		return -EBADMSG; /* not "not found": what was read is not the file's */
	if (pl->nr == 0) {
		struct next_line nl = { pp->file, pp->line, 0 };

		/* SRC:LINE of a line without code: where it is, as gdb moves there */
		if (!pp->function && pp->file && pp->line && !pp->lazy_line)
			die_for_each_cu_with_file(debuginfo__dwarf(dbg), pp->file, next_line_cu,
						  &nl);
		if (!opts->quiet_missing && nl.next) {
			pr_err("Probe point '%s:%d' not found: line %d has no code of its own, the next line with code is %d (%s:%d).\n",
			       pp->file, pp->line, pp->line, nl.next, pp->file, nl.next);
		} else if (!opts->quiet_missing) {
			char *point = synthesize_perf_probe_point(pp);

			pr_err("Probe point '%s' not found.\n", point);
			free(point);
		}
		return -ENOENT;
	}
	return 0;
}

/* The trace event of @pev at @place into @tev (see convert_args for @missing, @why). */
static int place_trace_event(struct debuginfo *dbg, const struct perf_probe_event *pev,
			     struct probe_place *place, const struct probe_finder_opts *opts,
			     struct probe_trace_event *tev, const char **missing, int *why)
{
	Dwarf_Addr entry = 0;

	tev->point.address = place->addr;
	if (verbose > 0 && !dwarf_entrypc(&place->func, &entry)) /* perf's -v line */
		pr_debug("Probe point found: %s+%" PRIu64 "\n", die_func_name(&place->func),
			 (uint64_t)(place->addr - entry));
	/* C++ and Rust functions by their qualified names. */
	tev->point.realname = die_func_qualname(&place->func);
	if (!strcmp(tev->point.realname, die_func_name(&place->func))) {
		free(tev->point.realname);
		tev->point.realname = xstrdup(place->name);
	}
	tev->point.retprobe = pev->point.retprobe;
	return convert_args(dbg, pev, place, opts, tev, missing, why);
}

int debuginfo__find_trace_events(struct debuginfo *dbg, const struct perf_probe_event *pev,
				 const struct probe_finder_opts *opts,
				 struct probe_trace_event **tevs_out)
{
	struct place_list pl = { 0 };
	struct probe_trace_event *tevs;
	const char **skip;
	int ret = 0, n = 0, *why;

	pr_debug("Try to find probe point from debuginfo.\n");
	ret = debuginfo__check(dbg, probe_finder__places(dbg, pev, opts, &pl));
	if (ret)
		goto out;
	if (pl.nr > opts->max_probes) {
		pr_err("Too many( > %d) probe point found.\n", opts->max_probes);
		ret = -E2BIG;
		goto out;
	}
	tevs = xzalloc(sizeof(*tevs) * pl.nr);
	/*
	 * An inlined copy the compiler dropped a variable from is skipped when
	 * another place has it (one warning each); with none left, the error
	 * of the first place.
	 */
	skip = xzalloc(sizeof(*skip) * pl.nr);
	why = xzalloc(sizeof(*why) * pl.nr);
	for (int i = 0; i < pl.nr && !ret; i++) {
		ret = place_trace_event(dbg, pev, &pl.p[i], opts, &tevs[n],
					pl.nr > 1 ? &skip[i] : NULL, &why[i]);
		if (ret == -ENODATA) {
			clear_probe_trace_event(&tevs[n]);
			memset(&tevs[n], 0, sizeof(tevs[n]));
			ret = 0;
		} else if (!ret) {
			n++;
		}
	}
	if (!ret && !n) {
		ret = place_trace_event(dbg, pev, &pl.p[0], opts, &tevs[0], NULL, NULL);
		n = 1;
	}
	for (int i = 0; i < pl.nr && !ret; i++) {
		Dwarf_Addr entry = 0;

		if (!skip[i])
			continue;
		if (dwarf_tag(&pl.p[i].func) == DW_TAG_inlined_subroutine)
			pr_warning("Warning: '%s' is not %s at 0x%" PRIx64
				   " (an inlined copy of %s in %s); that place is skipped\n",
				   skip[i], why[i] == -ENOTSUP ? "fetchable" : "available",
				   (uint64_t)pl.p[i].addr, pl.p[i].name,
				   die_func_name(&pl.p[i].real));
		else if (die_func_entry(&pl.p[i].real, &entry))
			pr_warning("Warning: '%s' is not %s at 0x%" PRIx64 " (%s+%" PRIu64
				   "); that place is skipped\n",
				   skip[i], why[i] == -ENOTSUP ? "fetchable" : "available",
				   (uint64_t)pl.p[i].addr, die_func_name(&pl.p[i].real),
				   (uint64_t)(pl.p[i].addr - entry));
	}
	free(skip);
	free(why);
	ret = debuginfo__check(dbg, ret); /* zeros read from a corrupt section: nothing */
	if (ret) {
		/* tevs[n] is the place that failed, filled in part. */
		for (int i = 0; i <= n && i < pl.nr; i++)
			clear_probe_trace_event(&tevs[i]);
		free(tevs);
		goto out;
	}
	*tevs_out = tevs;
	ret = n;
out:
	place_list__clear(&pl);
	return ret;
}
