// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF probe finder (see probe-finder.h).  A function named in a spec
 * is found through the symbol table and dwarf_addrdie() (aranges), not by
 * scanning every CU; only names the symbol table does not have (static
 * inline functions that exist only inlined) and source files need a walk.
 */
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/arch-regs.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/probe-spec.h"
#include "util/probe-finder.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/util.h"

struct debuginfo {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	char *path;
	char *source_dir; /* -s: where the sources are */
};

/* A debuginfo file to use before libdwfl's own search (see debuginfo__new_with). */
static const char *preferred_debug_file;

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	if (preferred_debug_file) {
		int fd = open(preferred_debug_file, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			*debuginfo_file_name = xstrdup(preferred_debug_file);
			return fd;
		}
	}
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool has_debug_info(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, ".debug_info") && shdr.sh_type != SHT_NOBITS)
			return true;
	}
	return false;
}

int debuginfo__new_with(const char *path, const char *debug_file, struct debuginfo **out)
{
	int ret;

	preferred_debug_file = debug_file;
	ret = debuginfo__new(path, out);
	preferred_debug_file = NULL;
	return ret;
}

int debuginfo__new(const char *path, struct debuginfo **out)
{
	struct debuginfo *dbg;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	dbg = xzalloc(sizeof(*dbg));
	dbg->dwfl = dwfl_begin(&offline_callbacks);
	if (!dbg->dwfl)
		goto nodata;
	dwfl_report_begin(dbg->dwfl);
	/* dwfl_report_offline takes the descriptor. */
	dbg->mod = dwfl_report_offline(dbg->dwfl, "", path, fd);
	fd = -1;
	if (!dbg->mod || dwfl_report_end(dbg->dwfl, NULL, NULL))
		goto nodata;
	dbg->dw = dwfl_module_getdwarf(dbg->mod, &dbg->bias);
	if (!dbg->dw) {
		/* A .debug_info that is there but unreadable is not "no DWARF". */
		int err = has_debug_info(dbg->mod) ? -EBADMSG : -ENODATA;

		debuginfo__delete(dbg);
		return err;
	}
	{
		/* A unit header libdw can not read: the .debug_info is corrupt. */
		Dwarf_Off next;
		size_t hsize;
		Dwarf_Die cu;

		if (dwarf_nextcu(dbg->dw, 0, &next, &hsize, NULL, NULL, NULL) != 0 ||
		    !dwarf_offdie(dbg->dw, hsize, &cu)) {
			debuginfo__delete(dbg);
			return -EBADMSG;
		}
	}
	dbg->path = xstrdup(path);
	*out = dbg;
	return 0;
nodata:
	if (fd >= 0)
		close(fd);
	debuginfo__delete(dbg);
	return -ENODATA;
}

void debuginfo__delete(struct debuginfo *dbg)
{
	if (!dbg)
		return;
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);
	free(dbg->path);
	free(dbg->source_dir);
	free(dbg);
}

void debuginfo__set_source_dir(struct debuginfo *dbg, const char *dir)
{
	free(dbg->source_dir);
	dbg->source_dir = dir ? xstrdup(dir) : NULL;
}

/* ---- small DWARF helpers ---------------------------------------------- */

/* The fetcharg of DWARF register @reg ("%ax"), from the one table. */
static const char *dwarf_regname(unsigned int reg)
{
	return arch_regs__dwarf_fetcharg("x86_64", reg);
}

static int die_name_match(Dwarf_Die *die, const char *pattern)
{
	const char *name = dwarf_diename(die);

	if (!name)
		return 0;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, name, 0);
	return !strcmp(pattern, name);
}

static bool die_get_udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *val)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, at, &attr) && !dwarf_formudata(&attr, val);
}

/* The type of @die with typedefs and qualifiers peeled off. */
static bool die_get_real_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Die tmp;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &tmp))
		return false;
	return dwarf_peel_type(&tmp, type) == 0;
}

/* Was the CU built without optimization (perf skips prologues there)? */
static bool cu_is_unoptimized(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *producer, *p;

	if (!dwarf_attr(cu, DW_AT_producer, &attr))
		return false;
	producer = dwarf_formstring(&attr);
	if (!producer)
		return false;
	for (p = strstr(producer, " -O"); p; p = strstr(p + 1, " -O")) {
		if (p[3] != '0')
			return false;
	}
	return true;
}

/*
 * The scopes holding @addr, innermost first, ending with the CU: following
 * what really contains the address.  (dwarf_getscopes() continues from an
 * inlined instance into its abstract definition instead of its caller.)
 * Returns the count; *@out is a new array.
 */
static int die_scopes(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **out)
{
	Dwarf_Die *chain = xmalloc(sizeof(*chain) * 8), child;
	int nr = 1, alloc = 8;

	chain[0] = *cu;
	for (;;) {
		bool deeper = false;

		if (dwarf_child(&chain[nr - 1], &child))
			break;
		do {
			int tag = dwarf_tag(&child);

			if (tag == DW_TAG_namespace ||
			    ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			      tag == DW_TAG_lexical_block) &&
			     dwarf_haspc(&child, addr) > 0)) {
				if (tag == DW_TAG_namespace) {
					/* Look inside only if something there holds it. */
					Dwarf_Die *sub = NULL;
					int n = die_scopes(&child, addr, &sub);

					if (n > 1) {
						chain = realloc(chain, sizeof(*chain) * (nr + n));
						for (int i = 0; i < n; i++)
							chain[nr + i] = sub[n - 1 - i];
						nr += n;
						alloc = nr;
						free(sub);
						deeper = false;
						goto done;
					}
					free(sub);
					continue;
				}
				if (nr == alloc) {
					alloc *= 2;
					chain = realloc(chain, sizeof(*chain) * alloc);
				}
				chain[nr++] = child;
				deeper = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!deeper)
			break;
	}
done:
	/* Innermost first. */
	for (int i = 0; i < nr / 2; i++) {
		Dwarf_Die tmp = chain[i];

		chain[i] = chain[nr - 1 - i];
		chain[nr - 1 - i] = tmp;
	}
	*out = chain;
	return nr;
}

/* The innermost DW_TAG_subprogram holding @addr, in *@func. */
static bool find_subprogram_at(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *func)
{
	Dwarf_Die *scopes = NULL;
	int n = die_scopes(cu, addr, &scopes);
	bool found = false;

	for (int i = 0; i < n && !found; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*func = scopes[i];
			found = true;
		}
	}
	free(scopes);
	return found;
}

/* ---- places ----------------------------------------------------------- */

/* One place found: an address in a function (or an inlined instance). */
struct probe_place {
	Dwarf_Addr addr;
	Dwarf_Die cu;
	Dwarf_Die func; /* the subprogram or inlined_subroutine probed */
	Dwarf_Die real; /* the subprogram holding addr (frame base) */
	char *name;	/* the function's name */
};

struct place_list {
	struct probe_place *p;
	int nr, alloc;
};

static void place_list__add(struct place_list *pl, Dwarf_Addr addr, Dwarf_Die *cu, Dwarf_Die *func,
			    const char *name)
{
	struct probe_place *p;

	for (int i = 0; i < pl->nr; i++)
		if (pl->p[i].addr == addr)
			return;
	if (pl->nr == pl->alloc) {
		pl->alloc = pl->alloc ? pl->alloc * 2 : 8;
		pl->p = realloc(pl->p, sizeof(*pl->p) * pl->alloc);
		if (!pl->p) {
			pr_err("fatal: out of memory\n");
			abort();
		}
	}
	p = &pl->p[pl->nr++];
	memset(p, 0, sizeof(*p));
	p->addr = addr;
	p->cu = *cu;
	p->func = *func;
	if (dwarf_tag(func) == DW_TAG_subprogram || !find_subprogram_at(cu, addr, &p->real))
		p->real = *func;
	p->name = xstrdup(name ? name : "");
}

static void place_list__clear(struct place_list *pl)
{
	for (int i = 0; i < pl->nr; i++)
		free(pl->p[i].name);
	free(pl->p);
	memset(pl, 0, sizeof(*pl));
}

/*
 * The scopes whose variables perf sees at a place, innermost first: the
 * blocks and the code inlined into the probed function (or inlined
 * instance) holding the address, the function, then the CU.  Followed
 * down from the function itself: gcc may leave an inlined instance outside
 * the ranges of the instance that called it (do_sys_open in the syscall
 * wrappers of a vmlinux), so a walk down from the CU can miss it.
 * Returns the count; *@out is a new array.
 */
static int place_scopes(struct probe_place *place, Dwarf_Die **out)
{
	Dwarf_Die *chain = xmalloc(sizeof(*chain) * 2), child;
	int nr = 1;

	chain[0] = place->func;
	for (bool deeper = true; deeper;) {
		deeper = false;
		if (dwarf_child(&chain[nr - 1], &child))
			break;
		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
			    dwarf_haspc(&child, place->addr) > 0) {
				chain = realloc(chain, sizeof(*chain) * (nr + 2));
				chain[nr++] = child;
				deeper = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	chain[nr++] = place->cu;
	/* Innermost first, the CU last. */
	for (int i = 0; i < (nr - 1) / 2; i++) {
		Dwarf_Die tmp = chain[i];

		chain[i] = chain[nr - 2 - i];
		chain[nr - 2 - i] = tmp;
	}
	*out = chain;
	return nr;
}

/* Candidate functions of a spec: DIEs (subprograms or inlined instances). */
struct func_list {
	Dwarf_Die *die;
	Dwarf_Die *cu;
	int nr, alloc;
};

static void func_list__add(struct func_list *fl, Dwarf_Die *die, Dwarf_Die *cu)
{
	for (int i = 0; i < fl->nr; i++)
		if (dwarf_dieoffset(&fl->die[i]) == dwarf_dieoffset(die))
			return;
	if (fl->nr == fl->alloc) {
		fl->alloc = fl->alloc ? fl->alloc * 2 : 8;
		fl->die = realloc(fl->die, sizeof(*fl->die) * fl->alloc);
		fl->cu = realloc(fl->cu, sizeof(*fl->cu) * fl->alloc);
		if (!fl->die || !fl->cu) {
			pr_err("fatal: out of memory\n");
			abort();
		}
	}
	fl->die[fl->nr] = *die;
	fl->cu[fl->nr++] = *cu;
}

static void func_list__clear(struct func_list *fl)
{
	free(fl->die);
	free(fl->cu);
	memset(fl, 0, sizeof(*fl));
}

static int cmp_die_offset(const void *a, const void *b)
{
	Dwarf_Off x = dwarf_dieoffset((Dwarf_Die *)a), y = dwarf_dieoffset((Dwarf_Die *)b);

	return x < y ? -1 : x > y;
}

/* Sort by DIE offset, keeping each DIE with its CU. */
static void func_list__sort(struct func_list *fl)
{
	struct pair {
		Dwarf_Die die, cu;
	} *p = xmalloc(sizeof(*p) * (fl->nr ? fl->nr : 1));

	for (int i = 0; i < fl->nr; i++) {
		p[i].die = fl->die[i];
		p[i].cu = fl->cu[i];
	}
	qsort(p, fl->nr, sizeof(*p), cmp_die_offset);
	for (int i = 0; i < fl->nr; i++) {
		fl->die[i] = p[i].die;
		fl->cu[i] = p[i].cu;
	}
	free(p);
}

struct inline_walk {
	struct func_list *fl;
	Dwarf_Die *cu;
};

/* The abstract DIE of a copy of a function, or the DIE itself. */
static Dwarf_Off origin_offset(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin;

	if (dwarf_attr(die, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin))
		return dwarf_dieoffset(&origin);
	return dwarf_dieoffset(die);
}

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
			if (origin_offset(&w->fl->die[i]) == origin_offset(inst) &&
			    dwarf_haspc(&w->fl->die[i], entry) > 0)
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
};

static int match_function(Dwarf_Die *func, void *arg)
{
	struct func_walk *w = arg;

	if (die_name_match(func, w->pattern))
		add_function(w->fl, func, w->cu, w->no_inlines);
	return DWARF_CB_OK;
}

/* Does the source path @path name the file @want ("x.c", "dir/x.c")? */
static bool source_matches(const char *path, const char *want)
{
	size_t lp, lw;

	if (!path || !want)
		return false;
	lp = strlen(path);
	lw = strlen(want);
	if (lw > lp || strcmp(path + lp - lw, want))
		return false;
	return lp == lw || path[lp - lw - 1] == '/';
}

static bool die_in_file(Dwarf_Die *die, const char *file)
{
	return !file || source_matches(dwarf_decl_file(die), file);
}

/*
 * The CU whose .debug_aranges cover @addr, read straight from that section:
 * dwarf_addrdie() would first read the header of every CU, which in a
 * vmlinux faults in ~100 MB of .debug_info for one function.  Falls back
 * to dwarf_addrdie() without aranges or when they do not cover @addr.
 */
static Dwarf_Die *cu_die_of_address(struct debuginfo *dbg, Dwarf_Addr addr, Dwarf_Die *cu)
{
	Elf *elf = dwarf_getelf(dbg->dw);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf_Data *data = NULL;

	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr shdr;
			const char *name;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS)
				continue;
			name = elf_strptr(elf, shstrndx, shdr.sh_name);
			if (name && !strcmp(name, ".debug_aranges")) {
				data = elf_getdata(scn, NULL);
				break;
			}
		}
	}
	for (size_t pos = 0; data && data->d_buf && pos + 16 <= data->d_size;) {
		const unsigned char *p = (const unsigned char *)data->d_buf + pos;
		uint64_t len, cu_off;
		size_t hdr, off_size = 4, tuple;
		unsigned int asize;

		len = p[0] | p[1] << 8 | p[2] << 16 | (uint64_t)p[3] << 24;
		hdr = 4;
		if (len == 0xffffffff) {
			if (pos + 24 > data->d_size)
				break;
			memcpy(&len, p + 4, 8);
			hdr = 12;
			off_size = 8;
		}
		if (len > data->d_size - pos - hdr || len < 2 + off_size + 2)
			break;
		cu_off = 0;
		memcpy(&cu_off, p + hdr + 2, off_size);
		asize = p[hdr + 2 + off_size];
		if (asize != 8 && asize != 4)
			break;
		tuple = hdr + 2 + off_size + 2;
		tuple = (tuple + 2 * asize - 1) / (2 * asize) * (2 * asize);
		for (; tuple + 2 * asize <= hdr + len; tuple += 2 * asize) {
			uint64_t start = 0, size = 0;

			memcpy(&start, p + tuple, asize);
			memcpy(&size, p + tuple + asize, asize);
			if (!start && !size)
				break;
			if (addr >= start && addr - start < size) {
				Dwarf_Off next;
				size_t hsize;

				if (!dwarf_nextcu(dbg->dw, cu_off, &next, &hsize, NULL, NULL,
						  NULL) &&
				    dwarf_offdie(dbg->dw, cu_off + hsize, cu))
					return cu;
				return dwarf_addrdie(dbg->dw, addr, cu);
			}
		}
		pos += hdr + len;
	}
	return dwarf_addrdie(dbg->dw, addr, cu);
}

/* Is symbol @name the function @pattern, perhaps with a version ("f@@V1")? */
static bool symbol_is(const char *name, const char *pattern, size_t len)
{
	return name && name[0] == pattern[0] && !strncmp(name, pattern, len) &&
	       (name[len] == '\0' || name[len] == '@');
}

/*
 * Add the function at @addr when its DWARF is the one looked for.  A
 * static function of a header (put_page) may be inlined in every CU that
 * includes it, not only in the one that kept a copy: *@in_headers tells
 * the caller to walk the CUs then, as perf does.  Other functions are
 * inlined only in their own CU.
 */
static bool add_function_at(struct debuginfo *dbg, const GElf_Sym *sym, const char *file,
			    bool no_inlines, struct func_list *fl, bool *in_headers)
{
	Dwarf_Die cu, func;

	if (!cu_die_of_address(dbg, sym->st_value, &cu) ||
	    !find_subprogram_at(&cu, sym->st_value, &func) || !die_in_file(&func, file))
		return false;
	if (GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
	    !source_matches(dwarf_decl_file(&func), dwarf_diename(&cu)))
		*in_headers = true;
	add_function(fl, &func, &cu, no_inlines);
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
	Elf *elfs[2] = { NULL, dwarf_getelf(dbg->dw) };
	GElf_Addr bias;
	bool found = false;

	elfs[0] = dwfl_module_getelf(dbg->mod, &bias);
	for (int e = 0; e < 2; e++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr shdr;

		if (!elfs[e] || (e == 1 && elfs[1] == elfs[0]))
			continue;
		while ((scn = elf_nextscn(elfs[e], scn))) {
			Elf_Data *data;
			size_t nr;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB ||
			    !shdr.sh_entsize)
				continue;
			data = elf_getdata(scn, NULL);
			nr = data ? shdr.sh_size / shdr.sh_entsize : 0;
			for (size_t i = 1; i < nr; i++) {
				GElf_Sym sym;

				if (!gelf_getsym(data, i, &sym) ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
				    !symbol_is(elf_strptr(elfs[e], shdr.sh_link, sym.st_name),
					       pattern, len))
					continue;
				found |= add_function_at(dbg, &sym, file, no_inlines, fl,
							 in_headers);
			}
			return found;
		}
	}
	/* No .symtab anywhere: libdwfl's table (.dynsym, minidebuginfo). */
	for (int i = 1, nsyms = dwfl_module_getsymtab(dbg->mod); i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name =
			dwfl_module_getsym_info(dbg->mod, i, &sym, &addr, NULL, NULL, NULL);

		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_value &&
		    symbol_is(name, pattern, len))
			found |= add_function_at(dbg, &sym, file, no_inlines, fl, in_headers);
	}
	return found;
}

/*
 * The functions named @pattern (a name or a glob), optionally declared in
 * @file.  The symbol table gives the addresses of the named ones; aranges
 * their CU.  Names it does not know are looked for in every CU.
 */
static void find_functions(struct debuginfo *dbg, const char *pattern, const char *file,
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
	func_list__clear(fl);

	/* Not in the symbol table (inlined only, or a glob): walk the CUs. */
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (!dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		struct func_walk w = { fl, &cu, pattern, no_inlines };

		if (dwarf_offdie(dbg->dw, off + hsize, &cu) &&
		    (!file || dwarf_tag(&cu) != DW_TAG_compile_unit || true)) {
			struct func_list here = { 0 };

			w.fl = &here;
			dwarf_getfuncs(&cu, match_function, &w, 0);
			for (int i = 0; i < here.nr; i++)
				if (die_in_file(&here.die[i], file))
					func_list__add(fl, &here.die[i], &here.cu[i]);
			func_list__clear(&here);
		}
		off = next;
	}
sort:
	/* perf walks the DIEs: inlined instances in their callers' order. */
	func_list__sort(fl);
}
/* The name of a function or inlined instance. */
static const char *func_name(Dwarf_Die *func)
{
	const char *name = dwarf_diename(func);

	return name ? name : "";
}

static bool func_entry(Dwarf_Die *func, Dwarf_Addr *addr)
{
	Dwarf_Addr base, end;

	if (!dwarf_entrypc(func, addr) || !dwarf_lowpc(func, addr))
		return true;
	/* Split in hot and cold parts (do_exit in a vmlinux): the first range. */
	return dwarf_ranges(func, 0, &base, addr, &end) > 0;
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

/* ---- lines -------------------------------------------------------------- */

/*
 * Collect the statement rows of line @lineno of @file (NULL: any) whose
 * address is in @func (NULL: any function of @cu).  Returns 0, or the
 * line of an earlier row at the same address as one of them: perf refuses
 * such a line, it could not tell them apart.
 */
/*
 * The call site of the outermost inlined instance holding @addr, as the
 * line perf attributes code inlined there to: only at the entry of that
 * instance, the rest of its code is not the call's line.  False when none
 * holds it.
 */
static bool call_site(Dwarf_Die *cu, Dwarf_Addr addr, const char **src, int *line)
{
	Dwarf_Die *scopes = NULL;
	int n = die_scopes(cu, addr, &scopes);
	Dwarf_Files *files;
	size_t nfiles;
	Dwarf_Word cfile, cline;
	bool found = false;

	for (int i = n - 1; i >= 0 && !found; i--) {
		Dwarf_Addr entry;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		if (func_entry(&scopes[i], &entry) && entry == addr &&
		    die_get_udata(&scopes[i], DW_AT_call_file, &cfile) &&
		    die_get_udata(&scopes[i], DW_AT_call_line, &cline) &&
		    !dwarf_getsrcfiles(cu, &files, &nfiles) && cfile < nfiles) {
			*src = dwarf_filesrc(files, cfile, NULL, NULL);
			*line = (int)cline;
			found = true;
		}
		break;
	}
	free(scopes);
	return found;
}

/*
 * Is @a the entry of subprogram @func?  perf takes the entry as the line
 * of the declaration: another line whose first row is there ("{" of a
 * kernel function, built with -fpatchable-function-entry) is refused as
 * sharing the declaration's address.
 */
static bool at_entry(Dwarf_Die *func, Dwarf_Addr a, bool mapped)
{
	Dwarf_Addr entry;

	return func && !mapped && dwarf_tag(func) == DW_TAG_subprogram &&
	       func_entry(func, &entry) && entry == a;
}

static int find_line_rows(Dwarf_Die *cu, Dwarf_Die *func, const char *file, int lineno,
			  struct place_list *pl, const char *name)
{
	Dwarf_Lines *lines;
	size_t nlines;
	int shared = 0;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		return 0;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		bool stmt = false, end = false, mapped;
		int shared_here = 0;
		Dwarf_Die f;

		const char *src;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		if (!stmt || end)
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		/* Code inlined from another file counts as its call's line. */
		mapped = file && !source_matches(src, file);
		if (mapped && !call_site(cu, a, &src, &ln))
			continue;
		if (ln != lineno)
			continue;
		if (file && !source_matches(src, file))
			continue;
		if (func && dwarf_haspc(func, a) <= 0)
			continue;
		if (!func && !find_subprogram_at(cu, a, &f))
			continue;
		for (size_t j = i; j-- > 0 && !shared_here && !mapped;) {
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
		if (!shared && (shared_here || at_entry(func, a, mapped))) {
			Dwarf_Addr entry;

			/* At a function's entry perf points at the function itself. */
			shared = func && func_entry(func, &entry) && entry == a ? -1 : shared_here;
		}
		if (func)
			place_list__add(pl, a, cu, func, name);
		else
			place_list__add(pl, a, cu, &f, func_name(&f));
	}
	return shared;
}

/*
 * The path to read the source file @file (as the CU names it) from: under
 * comp_dir when relative; with -s DIR, DIR/path, else DIR with leading
 * components of the path dropped one by one, the first that exists.
 */
static char *source_path(struct debuginfo *dbg, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = NULL, *p;
	char *full;

	if (!file)
		return NULL;
	if (file[0] != '/' && dwarf_attr(cu, DW_AT_comp_dir, &attr))
		dir = dwarf_formstring(&attr);
	full = dir ? path_join(dir, file) : xstrdup(file);
	for (p = full; dbg->source_dir && p && *p; p = strchr(p + 1, '/')) {
		char *try = path_join(dbg->source_dir, p[0] == '/' ? p + 1 : p);

		if (!access(try, R_OK)) {
			free(full);
			return try;
		}
		free(try);
	}
	if (access(full, R_OK) < 0) {
		/* Not here: the debuginfod servers may have it, by build-id. */
		const unsigned char *bits;
		GElf_Addr vaddr;
		struct build_id bid;
		char *fetched = NULL;
		int n = dwfl_module_build_id(dbg->mod, &bits, &vaddr);

		if (n > 0 && n <= BUILD_ID_SIZE) {
			memcpy(bid.data, bits, n);
			bid.size = n;
			if (!debuginfod__find_source(&bid, NULL, full, &fetched)) {
				free(full);
				return fetched;
			}
		}
	}
	return full;
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
	int *nums = NULL, nr = 0, ln = 1;
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
			nums = realloc(nums, sizeof(*nums) * (nr + 1));
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
	char *path = source_path(dbg, cu, file);
	int from = 1, to = -1, *nums = NULL, n, ret = 0;

	if (func) {
		int decl = 0;

		dwarf_decl_line(func, &decl);
		from = decl;
		to = func_last_line(cu, func);
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

/*
 * The CUs that have @file in their line table.  A source file is first
 * looked for as the name of a CU: reading every CU's line table is what
 * costs, and a .c file is mostly its own CU.  Headers (and .c files no
 * CU is named after) take the walk over all.
 */
static int for_each_cu_with_file(struct debuginfo *dbg, const char *file,
				 int (*fn)(Dwarf_Die *cu, const char *path, void *arg), void *arg)
{
	int ret = 0, found = 0;

	for (int pass = 0; pass < 2 && !ret && !found; pass++) {
		Dwarf_Off off = 0, next;
		size_t hsize;

		while (!ret && !dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL)) {
			Dwarf_Die cu;
			Dwarf_Files *files;
			size_t nfiles;

			if (dwarf_offdie(dbg->dw, off + hsize, &cu) &&
			    (pass || source_matches(dwarf_diename(&cu), file)) &&
			    !dwarf_getsrcfiles(&cu, &files, &nfiles)) {
				for (size_t i = 1; i < nfiles; i++) {
					const char *p = dwarf_filesrc(files, i, NULL, NULL);

					if (source_matches(p, file)) {
						found++;
						ret = fn(&cu, p, arg);
						break;
					}
				}
			}
			off = next;
		}
	}
	return ret ? ret : found;
}

struct src_walk {
	struct debuginfo *dbg;
	const struct perf_probe_point *pp;
	struct place_list *pl;
};

static int src_walk_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	struct src_walk *w = arg;
	int shared;

	if (w->pp->lazy_line)
		return find_lazy_rows(w->dbg, cu, NULL, path, w->pp->lazy_line, w->pl, NULL) < 0
			       ? -ENOENT
			       : 0;
	shared = find_line_rows(cu, NULL, path, w->pp->line, w->pl, NULL);
	if (shared) {
		pr_err("This line is sharing the address with other lines.\n"
		       "Please try to probe at %s:%d instead.\n",
		       path, shared);
		return -EEXIST;
	}
	return 0;
}

/* ---- fetchargs ---------------------------------------------------------- */

/* A value being built: REG or a global, then dereferences. */
struct arg_loc {
	const char *reg; /* register name, or NULL for a global */
	bool global;	 /* the memory at global_addr + global_off */
	Dwarf_Addr global_addr;
	long global_off;
	const char *global_name;
	char *constant;			  /* "\\N" of a DW_OP_lit/const value */
	int mask_bytes;			  /* the value read is masked to so many bytes */
	struct probe_trace_arg_ref *refs; /* innermost first */
};

static void arg_loc__push(struct arg_loc *loc, long offset)
{
	struct probe_trace_arg_ref *r = xzalloc(sizeof(*r)), **p = &loc->refs;

	r->offset = offset;
	while (*p)
		p = &(*p)->next;
	*p = r;
}

static struct probe_trace_arg_ref *arg_loc__outer(struct arg_loc *loc)
{
	struct probe_trace_arg_ref *r = loc->refs;

	while (r && r->next)
		r = r->next;
	return r;
}

static void arg_loc__clear(struct arg_loc *loc)
{
	free(loc->constant);
	loc->constant = NULL;
	while (loc->refs) {
		struct probe_trace_arg_ref *n = loc->refs->next;

		free(loc->refs);
		loc->refs = n;
	}
}

/* The place being resolved, with what fetchargs need of it. */
struct arg_ctx {
	struct debuginfo *dbg;
	struct probe_place *place;
	const struct probe_finder_opts *opts;
	const char *spec_var; /* for messages */
};

/* DW_OP_breg<N>/bregx as a register and offset. */
static bool op_breg(const Dwarf_Op *op, const char **reg, long *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = dwarf_regname(op->atom - DW_OP_breg0);
		*off = (long)op->number;
	} else if (op->atom == DW_OP_bregx) {
		*reg = dwarf_regname((unsigned int)op->number);
		*off = (long)op->number2;
	} else {
		return false;
	}
	return *reg != NULL;
}

/* The frame base of the place's function as REG+OFF (CFA through CFI). */
static int frame_base(struct arg_ctx *c, const char **reg, long *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	Dwarf_Addr addr = c->place->addr;

	if (!dwarf_attr(&c->place->real, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) != 1 || nops < 1)
		return -ENOENT;
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		Dwarf_Addr bias;
		Dwarf_CFI *cfi[2] = { dwfl_module_eh_cfi(c->dbg->mod, &bias),
				      dwfl_module_dwarf_cfi(c->dbg->mod, &bias) };

		for (int i = 0; i < 2; i++) {
			Dwarf_Frame *frame;
			Dwarf_Op *cops;
			size_t ncops;
			int ok;

			/* libdw's CFI takes the addresses of the file, unbiased. */
			if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], addr, &frame))
				continue;
			ok = !dwarf_frame_cfa(frame, &cops, &ncops) && ncops == 1 &&
			     op_breg(&cops[0], reg, off);
			free(frame);
			if (ok)
				return *reg ? 0 : -ENOTSUP;
		}
		return -ENOENT;
	}
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = dwarf_regname(ops[0].atom - DW_OP_breg0);
		*off = (long)ops[0].number;
		return *reg ? 0 : -ENOTSUP;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = dwarf_regname(ops[0].atom - DW_OP_reg0);
		*off = 0;
		return *reg ? 0 : -ENOTSUP;
	}
	return -ENOTSUP;
}

/*
 * The location of variable @var at the place.  -ENOENT when it has none
 * there (optimized out), -ENOTSUP for an expression we can not turn into
 * a fetcharg.
 */
static int var_location(struct arg_ctx *c, Dwarf_Die *var, struct arg_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	int n;

	memset(loc, 0, sizeof(*loc));
	if (!dwarf_attr(var, DW_AT_location, &attr))
		return -ENOENT;
	n = dwarf_getlocation_addr(&attr, c->place->addr, &ops, &nops, 1);
	if (n <= 0 || nops == 0)
		return -ENOENT;
	if (nops == 4 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31 &&
	    !ops[0].number && ops[2].atom == DW_OP_and && ops[3].atom == DW_OP_stack_value &&
	    (ops[1].number == 0xff || ops[1].number == 0xffff || ops[1].number == 0xffffffff)) {
		/*
		 * A register masked to its low bytes: the register, read as wide
		 * as the type.  (perf 6.1 reads the memory it points to.)
		 */
		loc->mask_bytes = ops[1].number == 0xff ? 1 : ops[1].number == 0xffff ? 2 : 4;
		loc->reg = dwarf_regname(ops[0].atom - DW_OP_breg0);
		return loc->reg ? 0 : -ENOTSUP;
	}
	if (nops == 2 && ops[1].atom == DW_OP_stack_value) {
		/* A value, not a place: a constant, or a register as it is. */
		uint8_t op = ops[0].atom;
		struct strbuf sb = STRBUF_INIT;

		if (op >= DW_OP_lit0 && op <= DW_OP_lit31)
			strbuf_addf(&sb, "\\%d", op - DW_OP_lit0);
		else if (op == DW_OP_const1s || op == DW_OP_const2s || op == DW_OP_const4s ||
			 op == DW_OP_const8s || op == DW_OP_consts)
			strbuf_addf(&sb, "\\%" PRId64, (int64_t)ops[0].number);
		else if (op == DW_OP_const1u || op == DW_OP_const2u || op == DW_OP_const4u ||
			 op == DW_OP_const8u || op == DW_OP_constu)
			strbuf_addf(&sb, "\\%" PRIu64, (uint64_t)ops[0].number);
		else if (op >= DW_OP_breg0 && op <= DW_OP_breg31 && ops[0].number == 0 &&
			 dwarf_regname(op - DW_OP_breg0))
			loc->reg = dwarf_regname(op - DW_OP_breg0);
		if (!sb.len)
			return loc->reg ? 0 : -ENOTSUP;
		loc->constant = strbuf_detach(&sb, NULL);
		return 0;
	}
	if (nops >= 3 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31 &&
	    ops[1].atom == DW_OP_deref && ops[nops - 1].atom == DW_OP_stack_value) {
		/*
		 * The value loaded from REG+OFF, maybe masked (a short passed in
		 * pt_regs): the memory at REG+OFF, read as wide as the type, when
		 * the mask keeps at least that much.
		 */
		if (nops == 5 && ops[3].atom == DW_OP_and &&
		    (ops[2].number == 0xff || ops[2].number == 0xffff ||
		     ops[2].number == 0xffffffff))
			loc->mask_bytes = ops[2].number == 0xff	    ? 1
					  : ops[2].number == 0xffff ? 2
								    : 4;
		else if (nops != 3)
			return -ENOTSUP;
		loc->reg = dwarf_regname(ops[0].atom - DW_OP_breg0);
		if (!loc->reg)
			return -ENOTSUP;
		arg_loc__push(loc, (long)ops[0].number);
		return 0;
	}
	if (nops == 1 || (nops == 2 && ops[1].atom == DW_OP_plus_uconst)) {
		long extra = nops == 2 ? (long)ops[1].number : 0;
		uint8_t op = ops[0].atom;

		if (op == DW_OP_addr) {
			loc->global = true;
			loc->global_addr = ops[0].number;
			loc->global_off = extra;
			loc->global_name = dwarf_diename(var);
			return 0;
		}
		if (op == DW_OP_fbreg) {
			const char *reg;
			long off;
			int ret = frame_base(c, &reg, &off);

			if (ret)
				return ret;
			loc->reg = reg;
			arg_loc__push(loc, off + (long)ops[0].number + extra);
			return 0;
		}
		if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
			loc->reg = dwarf_regname(op - DW_OP_breg0);
			if (!loc->reg)
				return -ENOTSUP;
			arg_loc__push(loc, (long)ops[0].number + extra);
			return 0;
		}
		if ((op >= DW_OP_reg0 && op <= DW_OP_reg31) || op == DW_OP_regx) {
			loc->reg =
				dwarf_regname(op == DW_OP_regx ? (unsigned int)ops[0].number
							       : (unsigned int)(op - DW_OP_reg0));
			return loc->reg && !extra ? 0 : -ENOTSUP;
		}
	}
	return -ENOTSUP;
}

static bool is_char_type(Dwarf_Die *type)
{
	Dwarf_Word enc, size;

	if (dwarf_tag(type) != DW_TAG_base_type || !die_get_udata(type, DW_AT_encoding, &enc) ||
	    !die_get_udata(type, DW_AT_byte_size, &size))
		return false;
	return size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char ||
			     enc == DW_ATE_signed || enc == DW_ATE_unsigned);
}

static const char *type_name_for_msg(Dwarf_Die *type)
{
	const char *n = dwarf_diename(type);

	return n ? n : "(unnamed)";
}

/* The fetcharg type perf gives a value of @type: s/x + bits, NULL for arrays. */
static char *basic_type_name(Dwarf_Die *type)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Word enc = 0;
	int size, tag = dwarf_tag(type);

	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
		/* perf reads a struct as its first bits, at most 64. */
		size = dwarf_bytesize(type);
		if (size <= 0)
			return NULL;
		if (size > 8) {
			pr_warning("%s exceeds max-bitwidth. Cut down to 64 bits.\n",
				   type_name_for_msg(type));
			size = 8;
		}
		strbuf_addf(&sb, "x%d", size * 8);
		return strbuf_detach(&sb, NULL);
	}
	if (tag != DW_TAG_base_type && tag != DW_TAG_pointer_type &&
	    tag != DW_TAG_enumeration_type && tag != DW_TAG_reference_type)
		return NULL;
	size = dwarf_bytesize(type);
	if (size <= 0)
		size = tag == DW_TAG_enumeration_type ? 4 : 8;
	if (tag == DW_TAG_base_type)
		die_get_udata(type, DW_AT_encoding, &enc);
	strbuf_addf(&sb, "%c%d", enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' : 'x',
		    size * 8);
	return strbuf_detach(&sb, NULL);
}

/* Find member @name of struct/union @type, looking into anonymous members. */
static bool find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, long *offset)
{
	Dwarf_Die child;

	if (dwarf_child(type, &child))
		return false;
	do {
		Dwarf_Word off = 0;
		const char *mname;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		die_get_udata(&child, DW_AT_data_member_location, &off);
		mname = dwarf_diename(&child);
		if (mname && !strcmp(mname, name)) {
			*member = child;
			*offset = (long)off;
			return true;
		}
		if (!mname) {
			Dwarf_Die sub;
			long suboff;

			if (die_get_real_type(&child, &sub) &&
			    (dwarf_tag(&sub) == DW_TAG_structure_type ||
			     dwarf_tag(&sub) == DW_TAG_union_type) &&
			    find_member(&sub, name, member, &suboff)) {
				*offset = (long)off + suboff;
				return true;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The extents of the dimensions of array @type into @counts; their number. */
static int array_dims(Dwarf_Die *type, Dwarf_Word *counts, int max)
{
	Dwarf_Die sub;
	int n = 0;

	if (dwarf_child(type, &sub))
		return 1;
	do {
		Dwarf_Word lo = 0, hi = 0, count = 0;

		if (dwarf_tag(&sub) != DW_TAG_subrange_type || n == max)
			continue;
		if (!die_get_udata(&sub, DW_AT_count, &count) &&
		    die_get_udata(&sub, DW_AT_upper_bound, &hi)) {
			die_get_udata(&sub, DW_AT_lower_bound, &lo);
			count = hi + 1 - lo;
		}
		counts[n++] = count;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	return n ? n : 1;
}

static long elem_size(Dwarf_Die *elem)
{
	Dwarf_Word agg = 0;
	int size = dwarf_bytesize(elem);

	if (size > 0)
		return size;
	return dwarf_aggregate_size(elem, &agg) ? 0 : (long)agg;
}

/* Add @off to the memory the location refers to ("." and array index). */
static int loc_add_offset(struct arg_loc *loc, long off)
{
	struct probe_trace_arg_ref *r = arg_loc__outer(loc);

	if (r)
		r->offset += off;
	else if (loc->global)
		loc->global_off += off;
	else
		return -ENOTSUP;
	return 0;
}

/*
 * Walk the member chain of @pa from @loc/@type.  The bitfield of the last
 * member goes to *@bitfield.  -EINVAL after one message.
 */
static int walk_fields(const struct perf_probe_arg *pa, struct arg_loc *loc, Dwarf_Die *type,
		       char **bitfield)
{
	const char *prev = pa->var;
	int dim = 0; /* dimensions of a multi-dimensional array indexed so far */

	for (const struct perf_probe_arg_field *f = pa->field; f; f = f->next) {
		int tag = dwarf_tag(type);

		if (f->name[0] == '[') {
			Dwarf_Die elem;
			int esize;

			if (tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) {
				pr_err("%s is not an array nor a pointer.\n", prev);
				return -EINVAL;
			}
			if (!die_get_real_type(type, &elem)) {
				pr_err("%s has an element of unknown type.\n", prev);
				return -EINVAL;
			}
			if (tag == DW_TAG_array_type) {
				Dwarf_Word counts[8];
				int ndims = array_dims(type, counts, 8);
				long stride = elem_size(&elem);

				/* int a[2][3]: a[1] is the int[3] at +12. */
				for (int d = dim + 1; d < ndims; d++)
					stride *= (long)counts[d];
				if (loc_add_offset(loc, f->index * stride)) {
					pr_err("An array on a register is not supported (%s).\n",
					       prev);
					return -ENOTSUP;
				}
				if (dim + 1 < ndims) {
					dim++;
					continue;
				}
				dim = 0;
			} else {
				Dwarf_Word agg = 0;

				esize = dwarf_bytesize(&elem);
				if (esize <= 0)
					esize = dwarf_aggregate_size(&elem, &agg) ? 0 : (int)agg;
				arg_loc__push(loc, f->index * esize);
			}
			*type = elem;
			continue;
		}
		if (tag == DW_TAG_pointer_type) {
			Dwarf_Die target;

			if (!f->ref) {
				pr_err("Semantic error: %s must be referred by '->'\n", f->name);
				return -EINVAL;
			}
			if (!die_get_real_type(type, &target)) {
				pr_err("%s is not a data structure nor a union.\n", prev);
				return -EINVAL;
			}
			*type = target;
			tag = dwarf_tag(type);
			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				pr_err("%s is not a data structure nor a union.\n", prev);
				return -EINVAL;
			}
			arg_loc__push(loc, 0);
		} else if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
			if (f->ref) {
				pr_err("Semantic error: %s is not a pointer.\n", prev);
				return -EINVAL;
			}
		} else {
			pr_err("%s is not a data structure nor a union.\n", prev);
			return -EINVAL;
		}

		Dwarf_Die member, mtype;
		long off;

		if (!find_member(type, f->name, &member, &off)) {
			pr_err("%s(type:%s) has no member %s.\n", prev, type_name_for_msg(type),
			       f->name);
			return -EINVAL;
		}
		if (loc_add_offset(loc, off)) {
			pr_err("Structure on a register is not supported yet.\n");
			return -ENOTSUP;
		}
		if (!die_get_real_type(&member, &mtype)) {
			pr_err("%s has no type.\n", f->name);
			return -EINVAL;
		}
		*type = mtype;
		free(*bitfield);
		*bitfield = NULL;
		if (dwarf_hasattr(&member, DW_AT_bit_size)) {
			Dwarf_Word bits = 0, boff = 0, bsize;
			int size = dwarf_bytesize(&mtype);
			struct strbuf sb = STRBUF_INIT;
			long unit;

			die_get_udata(&member, DW_AT_bit_size, &bits);
			if (size <= 0)
				size = 4;
			bsize = (Dwarf_Word)size * 8;
			if (die_get_udata(&member, DW_AT_data_bit_offset, &boff)) {
				/* DWARF 5: bits from the start of the struct. */
				unit = (long)(boff / bsize) * size;
				/* Relative to the struct holding it: off is that one's. */
				loc_add_offset(loc, unit);
				boff -= (Dwarf_Word)unit * 8;
			} else {
				Dwarf_Word be = 0;

				/* DWARF 4 counts from the storage unit's top bit. */
				die_get_udata(&member, DW_AT_bit_offset, &be);
				boff = bsize - be - bits;
			}
			strbuf_addf(&sb, "b%" PRIu64 "@%" PRIu64 "/%" PRIu64, (uint64_t)bits,
				    (uint64_t)boff, (uint64_t)bsize);
			*bitfield = strbuf_detach(&sb, NULL);
		}
		prev = f->name;
	}
	return 0;
}

/* Turn @loc into the value and refs of @ta (they move). */
static int loc_to_trace_arg(struct arg_ctx *c, struct arg_loc *loc, struct probe_trace_arg *ta)
{
	struct strbuf sb = STRBUF_INIT;

	if (loc->global) {
		uint64_t foff;

		if (c->opts->global_offset) {
			if (c->opts->global_offset(c->opts->ctx,
						   loc->global_addr + (uint64_t)loc->global_off,
						   &foff)) {
				pr_err("The address of %s is not in the file.\n", loc->global_name);
				return -ERANGE;
			}
			strbuf_addf(&sb, "@+0x%" PRIx64, foff);
		} else {
			strbuf_addf(&sb, "@%s%+ld", loc->global_name, loc->global_off);
		}
		ta->value = strbuf_detach(&sb, NULL);
	} else if (loc->constant) {
		ta->value = loc->constant;
		loc->constant = NULL;
	} else {
		ta->value = xstrdup(loc->reg);
	}
	ta->ref = loc->refs;
	loc->refs = NULL;
	return 0;
}

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

/* Look a variable up by name in the scopes of the place, then the CU. */
static bool find_variable(struct arg_ctx *c, const char *name, Dwarf_Die *var)
{
	Dwarf_Die *scopes = NULL;
	int n = place_scopes(c->place, &scopes);
	bool found = false;

	for (int i = 0; i < n - 1 && !found; i++)
		found = scope_variable(&scopes[i], name, false, var);
	free(scopes);
	return found || scope_variable(&c->place->cu, name, true, var);
}

/* The argument name perf gives: the last member, else VAR[:TYPE] made an identifier. */
static char *default_arg_name(const struct perf_probe_arg *pa)
{
	const struct perf_probe_arg_field *f;
	const char *last = NULL;
	struct strbuf sb = STRBUF_INIT;

	for (f = pa->field; f; f = f->next)
		if (f->name[0] != '[')
			last = f->name;
	if (pa->field)
		return xstrdup(last ? last : pa->var);
	strbuf_addstr(&sb, pa->var);
	if (pa->type)
		strbuf_addf(&sb, ":%s", pa->type);
	for (size_t i = 0; i < sb.len; i++)
		if (!isalnum((unsigned char)sb.buf[i]) && sb.buf[i] != '_')
			sb.buf[i] = '_';
	return strbuf_detach(&sb, NULL);
}

static bool has_some_range(Dwarf_Die *var);
static void add_var_range(struct strbuf *sb, Dwarf_Die *var, const char *fname, Dwarf_Addr entry,
			  Dwarf_Die *scope);

/* perf's words for a variable with no location here, and where it does live. */
static void optimized_out_message(struct arg_ctx *c, const char *name, Dwarf_Die *var)
{
	struct strbuf where = STRBUF_INIT;
	Dwarf_Addr entry = 0;

	pr_err("Failed to find the location of the '%s' variable at this address.\n", name);
	if (has_some_range(var)) {
		func_entry(&c->place->real, &entry);
		add_var_range(&where, var, func_name(&c->place->real), entry, &c->place->real);
		pr_err(" It lives only at %s.\n", where.buf + 1); /* no tab */
	} else {
		pr_err(" Perhaps it has been optimized out.\n");
	}
	pr_err(" Use -V with the --range option to show '%s' location range.\n", name);
	strbuf_release(&where);
}

/* Convert the variable @var (DIE) for argument @pa of the place into @ta. */
static int convert_variable(struct arg_ctx *c, const struct perf_probe_arg *pa, Dwarf_Die *var,
			    struct probe_trace_arg *ta)
{
	struct arg_loc loc = { 0 };
	Dwarf_Die type;
	char *bitfield = NULL;
	int ret;

	ret = var_location(c, var, &loc);
	if (ret == -ENOENT) {
		optimized_out_message(c, pa->var, var);
		return ret;
	}
	if (ret) {
		pr_err("Sorry, we don't support this variable location yet.\n");
		arg_loc__clear(&loc);
		return ret;
	}
	if (!die_get_real_type(var, &type)) {
		pr_err("Failed to get the type of %s.\n", pa->var);
		arg_loc__clear(&loc);
		return -EINVAL;
	}
	if (loc.mask_bytes &&
	    (dwarf_bytesize(&type) <= 0 || dwarf_bytesize(&type) > loc.mask_bytes)) {
		pr_err("Sorry, we don't support this variable location yet.\n");
		arg_loc__clear(&loc);
		return -ENOTSUP;
	}
	ret = walk_fields(pa, &loc, &type, &bitfield);
	if (ret)
		goto out;
	if (pa->type && !strcmp(pa->type, "string")) {
		Dwarf_Die elem;
		int tag = dwarf_tag(&type);

		if ((tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) ||
		    !die_get_real_type(&type, &elem) || !is_char_type(&elem)) {
			pr_err("Failed to cast into string: %s is not a pointer nor array of char.\n",
			       pa->var);
			ret = -EINVAL;
			goto out;
		}
		if (tag == DW_TAG_pointer_type) {
			arg_loc__push(&loc, 0);
		} else if (!loc.refs && !loc.global) {
			pr_err("Failed to cast into string: %s is on a register.\n", pa->var);
			ret = -EINVAL;
			goto out;
		}
		ta->type = xstrdup("string");
	} else if (pa->type) {
		ta->type = xstrdup(pa->type);
	} else if (bitfield) {
		ta->type = bitfield;
		bitfield = NULL;
	} else {
		ta->type = basic_type_name(&type);
	}
	ret = loc_to_trace_arg(c, &loc, ta);
	if (!ret)
		ta->name = pa->name ? xstrdup(pa->name) : default_arg_name(pa);
out:
	free(bitfield);
	arg_loc__clear(&loc);
	return ret;
}

/* A variable of $vars/$params: a simple name, no messages for missing ones. */
static int add_plain_var(struct arg_ctx *c, Dwarf_Die *var, struct probe_trace_arg **args,
			 int *nargs)
{
	struct perf_probe_arg pa = { 0 };
	struct probe_trace_arg ta = { 0 };
	struct arg_loc loc = { 0 };
	const char *name = dwarf_diename(var);
	Dwarf_Die type;

	/* perf lists only variables that live somewhere, not constants. */
	if (!name || var_location(c, var, &loc) || loc.constant) {
		arg_loc__clear(&loc);
		return 0;
	}
	arg_loc__clear(&loc);
	if (!die_get_real_type(var, &type))
		return 0;
	pa.var = (char *)name;
	if (convert_variable(c, &pa, var, &ta))
		return 0;
	*args = realloc(*args, sizeof(**args) * (*nargs + 1));
	(*args)[(*nargs)++] = ta;
	return 0;
}

/* $vars: the function's parameters and variables, into blocks holding the address. */
static void collect_vars(struct arg_ctx *c, Dwarf_Die *scope, bool params_only,
			 struct probe_trace_arg **args, int *nargs)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_formal_parameter || (!params_only && tag == DW_TAG_variable))
			add_plain_var(c, &child, args, nargs);
		else if (!params_only && tag == DW_TAG_lexical_block &&
			 dwarf_haspc(&child, c->place->addr) > 0)
			collect_vars(c, &child, params_only, args, nargs);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The fetchargs of @pev at @place, into @tev. */
static int convert_args(struct debuginfo *dbg, const struct perf_probe_event *pev,
			struct probe_place *place, const struct probe_finder_opts *opts,
			struct probe_trace_event *tev)
{
	struct arg_ctx c = { dbg, place, opts, NULL };
	struct probe_trace_arg *args = NULL;
	int nargs = 0, ret = 0;

	for (int i = 0; i < pev->nargs && !ret; i++) {
		const struct perf_probe_arg *pa = &pev->args[i];
		struct probe_trace_arg ta = { 0 };
		Dwarf_Die var;

		if (!strcmp(pa->var, "$vars") || !strcmp(pa->var, "$params")) {
			int before = nargs;

			collect_vars(&c, &place->func, pa->var[1] == 'p', &args, &nargs);
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
		} else if (!find_variable(&c, pa->var, &var)) {
			pr_err("Failed to find a variable '%s' in %s: no local, parameter or global of that name.\n",
			       pa->var, func_name(&place->func));
			ret = -ENOENT;
			break;
		} else {
			ret = convert_variable(&c, pa, &var, &ta);
			if (ret)
				break;
		}
		args = realloc(args, sizeof(*args) * (nargs + 1));
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

	find_functions(dbg, pp->function, pp->file, opts->no_inlines, &fl);
	for (int i = 0; i < fl.nr && !ret; i++) {
		Dwarf_Die *func = &fl.die[i], *cu = &fl.cu[i];
		Dwarf_Addr entry;
		const char *name = func_name(func);

		if (!func_entry(func, &entry))
			continue;
		/* Inlined code has no return of its own to probe. */
		if (pp->retprobe && dwarf_tag(func) == DW_TAG_inlined_subroutine) {
			inlined_returns++;
			continue;
		}
		if (pp->lazy_line) {
			ret = find_lazy_rows(dbg, cu, func, dwarf_decl_file(func), pp->lazy_line,
					     pl, name);
		} else if (pp->line) {
			int decl = 0;

			dwarf_decl_line(func, &decl);
			ret = find_line_rows(cu, func, dwarf_decl_file(func), decl + pp->line, pl,
					     name);
			if (ret) {
				pr_err("This line is sharing the address with other lines.\n"
				       "Please try to probe at %s:%d instead.\n",
				       pp->function, ret > 0 ? ret - decl : 0);
				ret = -EEXIST;
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

			if (!pp->retprobe && args_need_dwarf(pev) &&
			    dwarf_tag(func) == DW_TAG_subprogram && cu_is_unoptimized(cu)) {
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

int debuginfo__find_trace_events(struct debuginfo *dbg, const struct perf_probe_event *pev,
				 const struct probe_finder_opts *opts,
				 struct probe_trace_event **tevs_out)
{
	const struct perf_probe_point *pp = &pev->point;
	struct place_list pl = { 0 };
	struct probe_trace_event *tevs;
	bool skipped = false;
	int ret = 0;

	if (pp->function) {
		ret = find_function_places(dbg, pev, opts, &pl, &skipped);
	} else if (pp->file) {
		struct src_walk w = { dbg, pp, &pl };

		ret = for_each_cu_with_file(dbg, pp->file, src_walk_cu, &w);
		if (ret == 0) {
			pr_err("Failed to find source file path.\n");
			ret = -ENOENT;
		}
		ret = ret > 0 ? 0 : ret;
	}
	if (ret < 0)
		goto out;
	if (pl.nr == 0 && opts->quiet_missing) {
		ret = -ENOENT;
		goto out;
	}
	if (pl.nr == 0) {
		char *point = synthesize_perf_probe_point(pp);

		pr_err("Probe point '%s' not found.\n", point);
		free(point);
		ret = -ENOENT;
		goto out;
	}
	if (pl.nr > opts->max_probes) {
		pr_err("Too many( > %d) probe point found.\n", opts->max_probes);
		ret = -E2BIG;
		goto out;
	}
	tevs = xzalloc(sizeof(*tevs) * pl.nr);
	for (int i = 0; i < pl.nr && !ret; i++) {
		tevs[i].point.address = pl.p[i].addr;
		tevs[i].point.realname = xstrdup(pl.p[i].name);
		tevs[i].point.retprobe = pp->retprobe;
		ret = convert_args(dbg, pev, &pl.p[i], opts, &tevs[i]);
	}
	if (ret) {
		for (int i = 0; i < pl.nr; i++)
			clear_probe_trace_event(&tevs[i]);
		free(tevs);
		goto out;
	}
	*tevs_out = tevs;
	ret = pl.nr;
out:
	place_list__clear(&pl);
	return ret;
}

/* ---- -V: the variables at each place --------------------------------- */

/* A C type name as perf prints it: "struct req*", "long unsigned int". */
static bool add_type_name(struct strbuf *sb, Dwarf_Die *die)
{
	Dwarf_Die type;
	Dwarf_Attribute attr;
	const char *name;

	/* void, and void * too, is what perf calls "(unknown_type)". */
	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type))
		return false;
	switch (dwarf_tag(&type)) {
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
		return add_type_name(sb, &type);
	case DW_TAG_pointer_type:
	case DW_TAG_array_type:
		if (!add_type_name(sb, &type))
			return false;
		strbuf_addch(sb, '*');
		return true;
	case DW_TAG_structure_type:
		strbuf_addstr(sb, "struct ");
		break;
	case DW_TAG_union_type:
		strbuf_addstr(sb, "union ");
		break;
	case DW_TAG_enumeration_type:
		strbuf_addstr(sb, "enum ");
		break;
	case DW_TAG_subroutine_type:
		strbuf_addstr(sb, "(function_type)");
		return true;
	default:
		break;
	}
	name = dwarf_diename(&type);
	/* An anonymous struct, union or enum has no name perf can print. */
	if (!name && sb->len && sb->buf[sb->len - 1] == ' ')
		return false;
	strbuf_addstr(sb, name ? name : "");
	return true;
}

static void type_name(struct strbuf *sb, Dwarf_Die *die)
{
	size_t len = sb->len;

	if (!add_type_name(sb, die)) {
		strbuf_setlen(sb, len);
		strbuf_addstr(sb, "(unknown_type)");
	}
}

/* "@<FUNC+[a-b,c-d]>": where @var lives, relative to the function's entry. */
static void add_var_range(struct strbuf *sb, Dwarf_Die *var, const char *fname, Dwarf_Addr entry,
			  Dwarf_Die *scope)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;
	bool first = true;

	strbuf_addf(sb, "\t@<%s+[", fname);
	if (dwarf_attr(var, DW_AT_location, &attr)) {
		if (attr.form == DW_FORM_exprloc || attr.form == DW_FORM_block1 ||
		    attr.form == DW_FORM_block2 || attr.form == DW_FORM_block4 ||
		    attr.form == DW_FORM_block) {
			/* A single location holds in the whole declaring scope. */
			while ((off = dwarf_ranges(scope, off, &base, &start, &end)) > 0) {
				strbuf_addf(sb, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",",
					    (uint64_t)(start - entry), (uint64_t)(end - entry));
				first = false;
			}
		} else {
			while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops,
							 &nops)) > 0) {
				if (start < entry)
					continue;
				strbuf_addf(sb, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",",
					    (uint64_t)(start - entry), (uint64_t)(end - entry));
				first = false;
			}
		}
	}
	strbuf_addstr(sb, "]>");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct var_lines {
	char **v;
	int nr;
};

/*
 * Is @var somewhere at the place, as perf -V judges it by the first
 * operation of its location: 0 yes, -ENOENT no location there, -ENOTSUP a
 * constant or an operation perf does not read.
 */
static int var_first_op(struct arg_ctx *c, Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	uint8_t op;

	if (!dwarf_attr(var, DW_AT_location, &attr))
		return -ENOENT;
	if (dwarf_getlocation_addr(&attr, c->place->addr, &ops, &nops, 1) <= 0 || !nops)
		return -ENOENT;
	op = ops[0].atom;
	if ((op >= DW_OP_reg0 && op <= DW_OP_reg31) || (op >= DW_OP_breg0 && op <= DW_OP_breg31) ||
	    op == DW_OP_regx || op == DW_OP_bregx || op == DW_OP_fbreg || op == DW_OP_addr)
		return 0;
	return -ENOTSUP;
}

/* Does @var live anywhere (a location list entry that is not empty)? */
static bool has_some_range(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;

	if (!dwarf_attr(var, DW_AT_location, &attr))
		return false;
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &nops)) > 0)
		if (end > start)
			return true;
	return false;
}

/* Is the first entry of @var's location list one perf reads (not a constant)? */
static bool first_entry_readable(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	uint8_t op;

	if (!dwarf_attr(var, DW_AT_location, &attr) ||
	    dwarf_getlocations(&attr, 0, &base, &start, &end, &ops, &nops) <= 0 || !nops)
		return false;
	op = ops[0].atom;
	return (op >= DW_OP_reg0 && op <= DW_OP_reg31) ||
	       (op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_regx || op == DW_OP_bregx ||
	       op == DW_OP_fbreg || op == DW_OP_addr;
}

static void var_lines__add_die(struct arg_ctx *c, struct var_lines *vl, Dwarf_Die *var,
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
	ret = var_first_op(c, var);
	live = ret == 0;
	/*
	 * With --range perf lists those with no location here too, as [INV];
	 * constants and locations it can not read it leaves out.
	 */
	if (!live && ret == -ENOENT && ext &&
	    (dwarf_hasattr_integrate(var, DW_AT_external) || dwarf_hasattr(var, DW_AT_const_value)))
		; /* a global defined elsewhere, or a constant: perf lists it */
	else if (!live && (!range || ret != -ENOENT || !has_some_range(var) || ext ||
			   !first_entry_readable(var)))
		return;
	for (int i = 0; i < vl->nr; i++) {
		/* An inner variable hides an outer one of the same name. */
		const char *tab = strrchr(vl->v[i], '\t');

		if (tab && !strcmp(tab + 1, name))
			return;
	}
	if (range)
		strbuf_addstr(&sb, ext ? "[EXT]\t" : live ? "[VAL]\t" : "[INV]\t");
	type_name(&sb, var);
	strbuf_addf(&sb, "\t%s", name);
	if (range && !ext) {
		func_entry(&c->place->real, &entry);
		add_var_range(&sb, var, func_name(&c->place->real), entry, scope);
	}
	vl->v = realloc(vl->v, sizeof(*vl->v) * (vl->nr + 1));
	vl->v[vl->nr++] = strbuf_detach(&sb, NULL);
}

static void show_place_vars(struct debuginfo *dbg, struct probe_place *place,
			    const struct probe_finder_opts *opts, bool externs, bool range,
			    const struct strfilter *filter)
{
	struct arg_ctx c = { dbg, place, opts, NULL };
	struct var_lines vl = { 0 };
	Dwarf_Die *scopes = NULL, child;
	Dwarf_Addr entry = place->addr;
	int n = place_scopes(place, &scopes);

	func_entry(&place->real, &entry);
	printf("\t@<%s+%" PRIu64 ">\n", func_name(&place->real), (uint64_t)(place->addr - entry));
	for (int i = 0; i < n; i++) {
		bool cu = i == n - 1;

		if (cu && !externs)
			break;
		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			int t = dwarf_tag(&child);

			if (t == DW_TAG_variable || (t == DW_TAG_formal_parameter && !cu))
				var_lines__add_die(&c, &vl, &child, &scopes[i], range, cu, filter);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	if (vl.nr) /* qsort() takes no NULL array, even empty */
		qsort(vl.v, vl.nr, sizeof(*vl.v), cmp_str);
	for (int i = 0; i < vl.nr; i++) {
		printf("\t\t%s\n", vl.v[i]);
		free(vl.v[i]);
	}
	if (!vl.nr)
		printf("\t\t(No matched variables)\n");
	free(vl.v);
}

/* The places of @pev, with the messages of a failed search. */
static int find_places(struct debuginfo *dbg, const struct perf_probe_event *pev,
		       const struct probe_finder_opts *opts, struct place_list *pl)
{
	const struct perf_probe_point *pp = &pev->point;
	bool skipped = true; /* -V probes the entry, no prologue notice */
	int ret = 0;

	if (pp->function) {
		ret = find_function_places(dbg, pev, opts, pl, &skipped);
	} else if (pp->file) {
		struct src_walk w = { dbg, pp, pl };

		ret = for_each_cu_with_file(dbg, pp->file, src_walk_cu, &w);
		if (ret == 0) {
			pr_err("Failed to find source file path.\n");
			ret = -ENOENT;
		}
		ret = ret > 0 ? 0 : ret;
	}
	if (!ret && pl->nr == 0) {
		char *point = synthesize_perf_probe_point(pp);

		pr_err("Probe point '%s' not found.\n", point);
		free(point);
		ret = -ENOENT;
	}
	return ret;
}

/* The point as perf -V names it: no lazy pattern, "@SRC:ALN" for lines. */
static char *vars_point_name(const struct perf_probe_point *pp)
{
	struct strbuf sb = STRBUF_INIT;

	if (!pp->function) {
		strbuf_addf(&sb, "@%s:%d", pp->file, pp->line);
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addstr(&sb, pp->function);
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
	ret = find_places(dbg, &bare, opts, &pl);
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

struct entry_walk {
	struct entry_line *e;
	int nr;
};

static int collect_entry(Dwarf_Die *func, void *arg)
{
	struct entry_walk *w = arg;
	Dwarf_Addr a;
	int line;

	if (func_entry(func, &a) && !dwarf_decl_line(func, &line)) {
		w->e = realloc(w->e, sizeof(*w->e) * (w->nr + 1));
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
		bool stmt = false, end = false;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		if (!stmt || end || strcmp(dwarf_linesrc(l, NULL, NULL), path))
			continue;
		if (func && dwarf_haspc(func, a) <= 0)
			continue;
		if (shares_address(ls, i, a, ln))
			continue;
		for (int j = 0; j < w.nr; j++) {
			if (w.e[j].addr == a) {
				ln = w.e[j].line;
				break;
			}
		}
		if (ln < 1 || ln > max)
			continue;
		lines[ln] = true;
	}
	free(w.e);
}

static int print_lines(const char *path, const bool *code, int nlines, int start, int end, int base)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *nl;
	int ln = 1, ret = strbuf_read_file(&sb, path);

	if (ret) {
		pr_err("Failed to open %s: %s\n", path, strerror(-ret));
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

/* The number of lines of the file at @path, plus one; 0 when unreadable. */
static int count_lines(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 1;

	if (strbuf_read_file(&sb, path)) {
		strbuf_release(&sb);
		return 0;
	}
	for (size_t i = 0; i < sb.len; i++)
		n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n + 1;
}

struct file_lines {
	struct debuginfo *dbg;
	bool *code;
	int nlines;
	char *path; /* as the line table names it */
};

static int file_lines_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	struct file_lines *fl = arg;

	if (!fl->path) {
		char *real = source_path(fl->dbg, cu, path);

		fl->path = xstrdup(path);
		fl->nlines = count_lines(real);
		free(real);
		fl->code = xzalloc(sizeof(bool) * (fl->nlines + 1));
	}
	if (!strcmp(fl->path, path))
		mark_code_lines(cu, NULL, path, fl->code, fl->nlines - 1);
	return 0;
}

int debuginfo__show_lines(struct debuginfo *dbg, const char *func, const char *file, int start,
			  int end)
{
	int ret = 0;

	if (func) {
		struct func_list fl = { 0 };
		Dwarf_Die *f = NULL;
		const char *path;
		char *real;
		bool *code;
		int decl = 0, nlines, last = 0;

		bool inlined_only;

		find_functions(dbg, func, file, false, &fl);
		for (int i = 0; i < fl.nr && !f; i++)
			if (dwarf_tag(&fl.die[i]) == DW_TAG_subprogram)
				f = &fl.die[i];
		/* A function that exists only inlined: its instances' lines. */
		inlined_only = !f;
		if (!f && fl.nr)
			f = &fl.die[0];
		if (!f) {
			pr_err("Specified source line is not found.\n");
			func_list__clear(&fl);
			return -ENOENT;
		}
		path = dwarf_decl_file(f);
		dwarf_decl_line(f, &decl);
		real = source_path(dbg, &fl.cu[f - fl.die], path);
		nlines = count_lines(real);
		if (!nlines) {
			/* Nothing on stdout then, as perf. */
			pr_err("Failed to open %s: %s\nFailed to find source file path.\n", real,
			       strerror(ENOENT));
			free(real);
			func_list__clear(&fl);
			return -ENOENT;
		}
		code = xzalloc(sizeof(bool) * (nlines + 1));
		for (int i = 0; i < fl.nr && nlines > 0; i++)
			if (&fl.die[i] == f ||
			    (inlined_only && !strcmp(dwarf_decl_file(&fl.die[i]), path)))
				mark_code_lines(&fl.cu[i], &fl.die[i], path, code, nlines - 1);
		for (int i = 1; i < nlines; i++)
			if (code[i])
				last = i;
		printf("<%s@%s:%d>\n", func, path, start);
		/* Without an end perf shows the function and three lines more. */
		ret = print_lines(real, code, nlines, decl + start, end < 0 ? last + 3 : decl + end,
				  decl);
		free(code);
		free(real);
		func_list__clear(&fl);
		return ret;
	}

	struct file_lines fl = { .dbg = dbg };

	for_each_cu_with_file(dbg, file, file_lines_cu, &fl);
	if (!fl.path) {
		pr_err("Failed to find source file path.\n");
		return -ENOENT;
	}
	printf("<%s:%d>\n", fl.path, start);
	{
		Dwarf_Off off = 0;
		char *real = NULL;
		Dwarf_Die cu;
		size_t hsize;
		Dwarf_Off next;

		/* The first CU naming the file gives the directory to read it from. */
		while (!real && !dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL)) {
			Dwarf_Files *files;
			size_t nfiles;

			if (dwarf_offdie(dbg->dw, off + hsize, &cu) &&
			    !dwarf_getsrcfiles(&cu, &files, &nfiles)) {
				for (size_t i = 0; i < nfiles && !real; i++)
					if (dwarf_filesrc(files, i, NULL, NULL) &&
					    !strcmp(dwarf_filesrc(files, i, NULL, NULL), fl.path))
						real = source_path(dbg, &cu, fl.path);
			}
			off = next;
		}
		ret = print_lines(real ? real : fl.path, fl.code, fl.nlines, start, end, 0);
		free(real);
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

	if (!cu_die_of_address(dbg, addr, &cu) || !find_subprogram_at(&cu, addr, &func) ||
	    !func_entry(&func, &entry))
		return NULL;
	file = dwarf_decl_file(&func);
	dwarf_decl_line(&func, &decl);
	strbuf_addstr(&sb, func_name(&func));
	line = addr == entry ? NULL : dwarf_getsrc_die(&cu, addr);
	if (line && !dwarf_lineno(line, &ln) && ln > decl)
		strbuf_addf(&sb, ":%d", ln - decl);
	if (file)
		strbuf_addf(&sb, "@%s", file);
	return strbuf_detach(&sb, NULL);
}
