// SPDX-License-Identifier: GPL-2.0
/* Generic libdw helpers (see dwarf-aux.h). */
#include <dwarf.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/arch-regs.h"
#include "util/demangle.h"
#include "util/dwarf-aux.h"
#include "util/elf-util.h"
#include "util/lazy-section.h"
#include "util/strbuf.h"
#include "util/util.h"

const char *dwarf_reg_name(const char *arch, unsigned int num)
{
	return arch_regs__dwarf_fetcharg(arch, num);
}

const char *dwfl_module_arch(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	GElf_Ehdr eh;

	if (!elf || !gelf_getehdr(elf, &eh))
		return NULL;
	return arch_regs__elf_arch(eh.e_machine);
}

int die_name_match(Dwarf_Die *die, const char *pattern)
{
	const char *name = dwarf_diename(die);
	Dwarf_Attribute attr;
	const char *linkage;

	if (!name)
		return 0;
	if (strpbrk(pattern, "*?[") ? !fnmatch(pattern, name, 0) : !strcmp(pattern, name))
		return 1;
	/* C++ and Rust: the source name of the function, from its linkage name. */
	if (!dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) &&
	    !dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		return 0;
	linkage = dwarf_formstring(&attr);
	return linkage && demangle_match(pattern, linkage);
}

bool die_get_udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *val)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, at, &attr) && !dwarf_formudata(&attr, val);
}

bool die_get_real_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Die tmp;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &tmp))
		return false;
	return dwarf_peel_type(&tmp, type) == 0;
}

bool die_cu_is_unoptimized(Dwarf_Die *cu)
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

/* Append to *@chain the scopes below @parent holding @addr, outermost first. */
static void scopes_below(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die **chain, int *nr, int *alloc)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_namespace) {
			/* Kept only when something inside holds the address. */
			int before = *nr;

			ALLOC_GROW(*chain, *nr + 1, *alloc);
			(*chain)[(*nr)++] = child;
			scopes_below(&child, addr, chain, nr, alloc);
			if (*nr > before + 1)
				return;
			*nr = before;
			continue;
		}
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_lexical_block) &&
		    dwarf_haspc(&child, addr) > 0) {
			ALLOC_GROW(*chain, *nr + 1, *alloc);
			(*chain)[(*nr)++] = child;
			scopes_below(&child, addr, chain, nr, alloc);
			return;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

int die_scopes(Dwarf_Die *from, Dwarf_Addr addr, Dwarf_Die **out)
{
	Dwarf_Die *chain = NULL;
	int nr = 0, alloc = 0;

	ALLOC_GROW(chain, 1, alloc);
	chain[nr++] = *from;
	scopes_below(from, addr, &chain, &nr, &alloc);
	/* Innermost first. */
	for (int i = 0; i < nr / 2; i++) {
		Dwarf_Die tmp = chain[i];

		chain[i] = chain[nr - 1 - i];
		chain[nr - 1 - i] = tmp;
	}
	*out = chain;
	return nr;
}

struct inline_calls {
	int line, nr, alloc;
	struct die_inline_call *calls;
};

/* What scopes_below() may go into, all of it: the inlined calls of the line. */
static void inline_calls_below(Dwarf_Die *parent, struct inline_calls *ic)
{
	Dwarf_Die child;
	Dwarf_Word line, file;
	Dwarf_Addr entry;

	if (dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine &&
		    die_get_udata(&child, DW_AT_call_line, &line) && line == (Dwarf_Word)ic->line &&
		    die_get_udata(&child, DW_AT_call_file, &file) &&
		    die_func_entry(&child, &entry)) {
			ALLOC_GROW(ic->calls, ic->nr + 1, ic->alloc);
			ic->calls[ic->nr++] = (struct die_inline_call){ entry, file };
		}
		if (tag == DW_TAG_namespace || tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
			inline_calls_below(&child, ic);
	} while (dwarf_siblingof(&child, &child) == 0);
}

int die_inline_calls_at(Dwarf_Die *scope, int line, struct die_inline_call **out)
{
	struct inline_calls ic = { .line = line };

	if (line > 0)
		inline_calls_below(scope, &ic);
	*out = ic.calls;
	return ic.nr;
}

bool die_find_subprogram_at(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *func)
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

Dwarf_Off die_origin_offset(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin;

	if (dwarf_attr(die, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin))
		return dwarf_dieoffset(&origin);
	return dwarf_dieoffset(die);
}

bool source_file_matches(const char *path, const char *want)
{
	size_t lp, lw;

	if (!path || !want)
		return false;
	/* "./src/app.c" is "src/app.c", relative to where perf runs as to DWARF. */
	while (want[0] == '.' && want[1] == '/')
		for (want += 2; *want == '/'; want++)
			;
	lp = strlen(path);
	lw = strlen(want);
	if (lw > lp || strcmp(path + lp - lw, want))
		return false;
	return lp == lw || path[lp - lw - 1] == '/';
}

const char *die_decl_file(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f = dwarf_decl_file(die);

	if (f)
		return f;
	/*
	 * DWARF 5 numbers the files from 0, the CU's own file (clang uses
	 * it), which libdw's dwarf_decl_file() takes for "no file".
	 */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    !dwarf_cu_die(attr.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

struct global_def {
	const char *name;
	Dwarf_Die *var;
};

static int global_def_in_cu(Dwarf_Die *cu, void *arg)
{
	struct global_def *g = arg;
	Dwarf_Die child;
	const char *n;

	if (dwarf_child(cu, &child))
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_variable && (n = dwarf_diename(&child)) &&
		    !strcmp(n, g->name) && dwarf_hasattr(&child, DW_AT_location) &&
		    !dwarf_hasattr(&child, DW_AT_declaration) &&
		    dwarf_hasattr_integrate(&child, DW_AT_external)) {
			*g->var = child;
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

bool die_find_global_definition(Dwarf *dw, const char *name, Dwarf_Die *var)
{
	struct global_def g = { name, var };

	return die_for_each_cu(dw, global_def_in_cu, &g) == 1;
}

bool die_in_file(Dwarf_Die *die, const char *file)
{
	return !file || source_file_matches(die_decl_file(die), file);
}

/*
 * What libdw reads of a CU it walks past: its header (24 bytes in 64-bit
 * DWARF) and the start of its unit DIE.
 */
#define CU_HEAD_BYTES 64

/* The bytes of @dw's .debug_info (NULL when it has none), for prefetches. */
static const char *debug_info_bytes(Dwarf *dw, size_t *size)
{
	GElf_Shdr shdr;
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = elf ? elf_find_section(elf, SHT_NULL, ".debug_info", &shdr) : NULL;
	Elf_Data *data = scn && shdr.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;

	*size = data && data->d_buf ? data->d_size : 0;
	return *size ? data->d_buf : NULL;
}

int die_for_each_cu(Dwarf *dw, int (*fn)(Dwarf_Die *cu, void *arg), void *arg)
{
	Dwarf_Off off = 0, next;
	size_t hsize, size;
	const char *info = debug_info_bytes(dw, &size);
	int ret = 0;

	while (!ret) {
		Dwarf_Die cu;

		/* Filled before libdw reads it: no fault for each header when lazy. */
		if (info && off < size)
			lazy_region__prefetch(info + off, CU_HEAD_BYTES);
		if (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL))
			break;
		if (dwarf_offdie(dw, off + hsize, &cu))
			ret = fn(&cu, arg);
		off = next;
	}
	return ret;
}

struct cu_file_walk {
	const char *file;
	bool all; /* the second pass: every CU, not only those named so */
	int found;
	int (*fn)(Dwarf_Die *cu, const char *path, void *arg);
	void *arg;
};

/* @path with "." and "dir/.." taken out, as words (no symlinks looked at). */
static char *path_lexical(const char *path)
{
	char *out = xstrdup(path), *q = out;
	const char *p = path;

	while (*p) {
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);

		if ((n == 1 && p[0] == '.') || n == 0) {
			/* nothing: "//" or "/./" */
		} else if (n == 2 && p[0] == '.' && p[1] == '.' && q > out && q[-1] != '.') {
			while (q > out && q[-1] != '/')
				q--;
			if (q > out && q - 1 > out)
				q--; /* the '/' before the removed word, unless the root */
		} else {
			if (q > out && q[-1] != '/')
				*q++ = '/';
			memcpy(q, p, n);
			q += n;
		}
		if (!*e)
			break;
		if (q == out && path[0] == '/')
			*q++ = '/';
		p = e + 1;
	}
	*q = '\0';
	return out;
}

char *die_cu_full_path(Dwarf_Die *cu, const char *p)
{
	Dwarf_Attribute attr;
	const char *dir;

	if (!p)
		return NULL;
	dir = p[0] != '/' && dwarf_attr(cu, DW_AT_comp_dir, &attr) ? dwarf_formstring(&attr) : NULL;
	return dir ? path_join(dir, p) : xstrdup(p);
}

/*
 * Is the file @p of @cu's table the absolute @want, as perf -L shows it
 * (the CU's directory joined, "dir/.." kept) or with "dir/.." resolved?
 */
static bool abs_source_matches(Dwarf_Die *cu, const char *p, const char *want)
{
	char *full, *a, *b;
	bool ok;

	if (!p || want[0] != '/')
		return false;
	full = die_cu_full_path(cu, p);
	a = path_lexical(full);
	b = path_lexical(want);
	ok = !strcmp(full, want) || !strcmp(a, b);
	free(full);
	free(a);
	free(b);
	return ok;
}

static int cu_file_walk_one(Dwarf_Die *cu, void *arg)
{
	struct cu_file_walk *w = arg;
	Dwarf_Files *files;
	size_t nfiles;

	/*
	 * With gcc -flto the CU named after a file holds its early debug
	 * only, no code (no DW_AT_low_pc or DW_AT_ranges): the rows of its
	 * lines are in the "<artificial>" units of the link, which the
	 * second pass reads.
	 */
	if ((!w->all && (!source_file_matches(dwarf_diename(cu), w->file) ||
			 (!dwarf_hasattr(cu, DW_AT_low_pc) && !dwarf_hasattr(cu, DW_AT_ranges)))) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles))
		return 0;
	for (size_t i = 0; i < nfiles; i++) {
		const char *p = dwarf_filesrc(files, i, NULL, NULL);

		if (source_file_matches(p, w->file) || abs_source_matches(cu, p, w->file)) {
			w->found++;
			return w->fn(cu, p, w->arg);
		}
	}
	return 0;
}

/*
 * A source file is first looked for as the name of a CU: reading every
 * CU's line table is what costs, and a .c file is mostly its own CU.
 * Headers (and .c files no CU is named after) take the walk over all.
 */
int die_for_each_cu_with_file(Dwarf *dw, const char *file,
			      int (*fn)(Dwarf_Die *cu, const char *path, void *arg), void *arg)
{
	struct cu_file_walk w = { .file = file, .fn = fn, .arg = arg };
	int ret = 0;

	for (int pass = 0; pass < 2 && !ret && !w.found; pass++) {
		w.all = pass;
		ret = die_for_each_cu(dw, cu_file_walk_one, &w);
	}
	return ret ? ret : w.found;
}

struct cu_at {
	Dwarf_Addr addr;
	Dwarf_Die *cu;
};

static int cu_holding_addr(Dwarf_Die *cu, void *arg)
{
	struct cu_at *w = arg;

	if (dwarf_haspc(cu, w->addr) <= 0)
		return 0;
	*w->cu = *cu;
	return 1;
}

/* One set of .debug_aranges: its CU and where its tuples are. */
struct aranges_set {
	const unsigned char *p; /* the set */
	uint64_t cu_off;
	size_t tuple, end; /* the first tuple and the end, from p */
	unsigned int asize;
};

/* The set at *@pos of @data, and *@pos past it: 1, or 0 at the end or on bad data. */
static int aranges_next(const Elf_Data *data, size_t *pos, struct aranges_set *set)
{
	const unsigned char *p;
	uint64_t len;
	size_t hdr = 4, off_size = 4;

	if (!data->d_buf || *pos + 16 > data->d_size)
		return 0;
	p = (const unsigned char *)data->d_buf + *pos; /* not before: d_buf may be NULL */
	len = p[0] | p[1] << 8 | p[2] << 16 | (uint64_t)p[3] << 24;
	if (len == 0xffffffff) {
		if (*pos + 24 > data->d_size)
			return 0;
		memcpy(&len, p + 4, 8);
		hdr = 12;
		off_size = 8;
	}
	if (len > data->d_size - *pos - hdr || len < 2 + off_size + 2)
		return 0;
	set->p = p;
	set->cu_off = 0;
	memcpy(&set->cu_off, p + hdr + 2, off_size);
	set->asize = p[hdr + 2 + off_size];
	if (set->asize != 8 && set->asize != 4)
		return 0;
	set->tuple = hdr + 2 + off_size + 2;
	set->tuple = (set->tuple + 2 * set->asize - 1) / (2 * set->asize) * (2 * set->asize);
	set->end = hdr + len;
	*pos += hdr + len;
	return 1;
}

/*
 * libdw reads the header of every CU before @below to find the one at
 * @below: those of the CUs .debug_aranges names filled at once when
 * .debug_info is read page by page (lazy-section.h), not a fault each.
 */
static void prefetch_cu_heads(Dwarf *dw, const Elf_Data *aranges, uint64_t below)
{
	size_t size, pos = 0;
	const char *info = debug_info_bytes(dw, &size);
	struct aranges_set set;

	while (info && aranges_next(aranges, &pos, &set))
		if (set.cu_off < below && set.cu_off < size)
			lazy_region__prefetch(info + set.cu_off, CU_HEAD_BYTES);
}

Dwarf_Die *die_cu_of_addr(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu)
{
	GElf_Shdr shdr;
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = elf ? elf_find_section(elf, SHT_NULL, ".debug_aranges", &shdr) : NULL;
	Elf_Data *data = NULL;
	struct aranges_set set;
	size_t pos = 0;

	if (scn && shdr.sh_type != SHT_NOBITS)
		data = elf_getdata(scn, NULL);
	while (data && aranges_next(data, &pos, &set)) {
		size_t asize = set.asize;

		for (size_t tuple = set.tuple; tuple + 2 * asize <= set.end; tuple += 2 * asize) {
			uint64_t start = 0, size = 0;

			memcpy(&start, set.p + tuple, asize);
			memcpy(&size, set.p + tuple + asize, asize);
			if (!start && !size)
				break;
			if (addr >= start && addr - start < size) {
				Dwarf_Off next;
				size_t hsize;

				prefetch_cu_heads(dw, data, set.cu_off + 1);
				if (!dwarf_nextcu(dw, set.cu_off, &next, &hsize, NULL, NULL,
						  NULL) &&
				    dwarf_offdie(dw, set.cu_off + hsize, cu))
					return cu;
				return dwarf_addrdie(dw, addr, cu);
			}
		}
	}
	if (dwarf_addrdie(dw, addr, cu))
		return cu;
	/*
	 * No .debug_aranges (clang, rustc) and a libdw that does not make them
	 * from the CUs' ranges: the CU whose ranges hold @addr.
	 */
	return die_for_each_cu(dw, cu_holding_addr, &(struct cu_at){ addr, cu }) == 1 ? cu : NULL;
}

const char *die_func_name(Dwarf_Die *func)
{
	const char *name = dwarf_diename(func);

	return name ? name : "";
}

bool die_func_entry(Dwarf_Die *func, Dwarf_Addr *addr)
{
	Dwarf_Addr base, end;

	if (!dwarf_entrypc(func, addr) || !dwarf_lowpc(func, addr))
		return true;
	/* Split in hot and cold parts (do_exit in a vmlinux): the first range. */
	return dwarf_ranges(func, 0, &base, addr, &end) > 0;
}

bool die_is_char_type(Dwarf_Die *type)
{
	Dwarf_Word enc, size;

	if (dwarf_tag(type) != DW_TAG_base_type || !die_get_udata(type, DW_AT_encoding, &enc) ||
	    !die_get_udata(type, DW_AT_byte_size, &size))
		return false;
	return size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char ||
			     enc == DW_ATE_signed || enc == DW_ATE_unsigned);
}

bool die_is_struct_type(Dwarf_Die *type)
{
	int tag = dwarf_tag(type);

	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type;
}

bool die_is_reference_type(Dwarf_Die *type)
{
	int tag = dwarf_tag(type);

	return tag == DW_TAG_reference_type || tag == DW_TAG_rvalue_reference_type;
}

bool die_member_is_static(Dwarf_Die *member)
{
	/* DWARF 5 (gcc 11+): a DW_TAG_variable; DWARF 4: a declared member. */
	return dwarf_tag(member) == DW_TAG_variable ||
	       (dwarf_hasattr(member, DW_AT_declaration) &&
		!dwarf_hasattr(member, DW_AT_data_member_location));
}

/* The members named @name in @type itself, anonymous ones looked into. */
static bool find_own_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, long *offset)
{
	Dwarf_Die child;

	if (dwarf_child(type, &child))
		return false;
	do {
		Dwarf_Word off = 0;
		const char *mname;
		int tag = dwarf_tag(&child);

		if (tag != DW_TAG_member && tag != DW_TAG_variable)
			continue;
		die_get_udata(&child, DW_AT_data_member_location, &off);
		mname = dwarf_diename(&child);
		if (mname && !strcmp(mname, name)) {
			*member = child;
			*offset = (long)off;
			return true;
		}
		if (!mname && tag == DW_TAG_member) {
			Dwarf_Die sub;
			long suboff;

			if (die_get_real_type(&child, &sub) && die_is_struct_type(&sub) &&
			    die_find_member(&sub, name, member, &suboff)) {
				*offset = (long)off + suboff;
				return true;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool die_find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, long *offset)
{
	Dwarf_Die child;

	/* A member of the class hides one of the same name in a base. */
	if (find_own_member(type, name, member, offset))
		return true;
	if (dwarf_child(type, &child))
		return false;
	do {
		Dwarf_Word off = 0;
		Dwarf_Die base;
		long suboff;

		/* C++: the base class object sits at the inheritance's offset. */
		if (dwarf_tag(&child) != DW_TAG_inheritance || !die_get_real_type(&child, &base) ||
		    !die_is_struct_type(&base))
			continue;
		die_get_udata(&child, DW_AT_data_member_location, &off);
		if (die_find_member(&base, name, member, &suboff)) {
			*offset = (long)off + suboff;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

struct static_def {
	Dwarf_Off decl;
	Dwarf_Die *def;
};

/* A variable of @scope (or of a namespace in it) whose specification is the declaration. */
static bool find_specifying(Dwarf_Die *scope, struct static_def *s)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return false;
	do {
		Dwarf_Attribute attr;
		Dwarf_Die spec;
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_namespace && find_specifying(&child, s))
			return true;
		if (tag == DW_TAG_variable && dwarf_attr(&child, DW_AT_specification, &attr) &&
		    dwarf_formref_die(&attr, &spec) && dwarf_dieoffset(&spec) == s->decl &&
		    dwarf_hasattr(&child, DW_AT_location)) {
			*s->def = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int static_def_in_cu(Dwarf_Die *cu, void *arg)
{
	return find_specifying(cu, arg);
}

bool die_find_static_member_definition(Dwarf_Die *member, Dwarf_Die *def)
{
	struct static_def s = { dwarf_dieoffset(member), def };
	Dwarf_Die cu;

	/* Mostly in the unit declaring it; else any unit of the file. */
	if (dwarf_diecu(member, &cu, NULL, NULL) && find_specifying(&cu, &s))
		return true;
	return die_for_each_cu(dwarf_cu_getdwarf(member->cu), static_def_in_cu, &s) == 1;
}

bool die_lang_auto_deref(Dwarf_Die *die)
{
	Dwarf_Die cu;
	int lang;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return false;
	lang = dwarf_srclang(&cu);
	return lang == DW_LANG_Rust || lang == DW_LANG_Go;
}

bool die_is_go_result(Dwarf_Die *param)
{
	Dwarf_Attribute attr;
	Dwarf_Die cu;
	bool flag = false;

	return dwarf_tag(param) == DW_TAG_formal_parameter &&
	       dwarf_attr(param, DW_AT_variable_parameter, &attr) &&
	       !dwarf_formflag(&attr, &flag) && flag && dwarf_diecu(param, &cu, NULL, NULL) &&
	       die_cu_is_go(&cu);
}

bool die_is_va_list(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Die type = *var;

	/* a few typedefs deep at most: va_list -> __gnuc_va_list -> __builtin_va_list */
	for (int depth = 0; depth < 8; depth++) {
		const char *name;
		int tag;

		if (!dwarf_attr_integrate(&type, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, &type))
			return false;
		tag = dwarf_tag(&type);
		name = dwarf_diename(&type);
		if (tag == DW_TAG_typedef && name &&
		    (!strcmp(name, "va_list") || !strcmp(name, "__gnuc_va_list") ||
		     !strcmp(name, "__builtin_va_list")))
			return true;
		if (tag == DW_TAG_structure_type)
			return name && !strcmp(name, "__va_list_tag");
		if (tag != DW_TAG_typedef && tag != DW_TAG_array_type && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type)
			return false;
	}
	return false;
}

bool die_cu_is_go(Dwarf_Die *cu)
{
	return dwarf_srclang(cu) == DW_LANG_Go;
}

int die_array_dims(Dwarf_Die *type, Dwarf_Word *counts, int max)
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

long die_elem_size(Dwarf_Die *elem)
{
	Dwarf_Word agg = 0;
	int size = dwarf_bytesize(elem);

	if (size > 0)
		return size;
	return dwarf_aggregate_size(elem, &agg) ? 0 : (long)agg;
}

/*
 * A C type name as perf prints it: "struct req*", "long unsigned int",
 * "void*" for a pointer to void, "char[]" for an array (perf 6.12; 6.1
 * said "(unknown_type)" and "char*").
 */
static bool add_type_name(struct strbuf *sb, Dwarf_Die *die)
{
	Dwarf_Die type;
	Dwarf_Attribute attr;
	const char *name;

	/* void itself is what perf calls "(unknown_type)". */
	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type))
		return false;
	switch (dwarf_tag(&type)) {
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
		return add_type_name(sb, &type);
	case DW_TAG_pointer_type:
	case DW_TAG_array_type:
		if (!add_type_name(sb, &type)) {
			Dwarf_Attribute to;

			/* a pointer to void (an array of void cannot be) */
			if (dwarf_attr_integrate(&type, DW_AT_type, &to))
				return false;
			strbuf_addstr(sb, "void");
		}
		strbuf_addstr(sb, dwarf_tag(&type) == DW_TAG_array_type ? "[]" : "*");
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

void die_type_name(struct strbuf *sb, Dwarf_Die *die)
{
	size_t len = sb->len;

	if (!add_type_name(sb, die)) {
		strbuf_setlen(sb, len);
		strbuf_addstr(sb, "(unknown_type)");
	}
}

bool dwarf_op_is_location(unsigned int atom)
{
	return (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) ||
	       (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) || atom == DW_OP_regx ||
	       atom == DW_OP_bregx || atom == DW_OP_fbreg || atom == DW_OP_addr ||
	       /* DWARF 5's address by its index (clang), read as DW_OP_addr */
	       atom == DW_OP_addrx || atom == DW_OP_GNU_addr_index;
}

void die_var_range(struct strbuf *sb, Dwarf_Die *var, const char *fname, Dwarf_Addr entry,
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

bool die_has_some_range(Dwarf_Die *var)
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

bool die_first_entry_readable(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(var, DW_AT_location, &attr) ||
	    dwarf_getlocations(&attr, 0, &base, &start, &end, &ops, &nops) <= 0 || !nops)
		return false;
	return dwarf_op_is_location(ops[0].atom);
}

/* A LEB128 number at *@p (before @end), moved past it. */
static bool read_leb(const unsigned char **p, const unsigned char *end, bool sign, uint64_t *v)
{
	unsigned int shift = 0;
	unsigned char byte;

	*v = 0;
	do {
		if (*p >= end || shift >= 64)
			return false;
		byte = *(*p)++;
		*v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
	} while (byte & 0x80);
	if (sign && shift < 64 && (byte & 0x40))
		*v |= ~(uint64_t)0 << shift;
	return true;
}

bool die_block_ops(Dwarf_Attribute *attr, Dwarf_Op *ops, size_t max, size_t *nops)
{
	Dwarf_Block block;
	const unsigned char *p, *end;
	size_t n = 0;

	if (dwarf_formblock(attr, &block) || !block.length)
		return false;
	p = block.data;
	end = p + block.length;
	while (p < end) {
		Dwarf_Op *op = &ops[n];
		uint8_t atom = *p++;
		uint64_t v = 0;

		if (n == max)
			return false;
		memset(op, 0, sizeof(*op));
		op->atom = atom;
		if ((atom >= DW_OP_reg0 && atom <= DW_OP_reg31) || atom == DW_OP_call_frame_cfa ||
		    atom == DW_OP_deref || atom == DW_OP_stack_value ||
		    (atom >= DW_OP_lit0 && atom <= DW_OP_lit31)) {
			/* no operand */
		} else if (atom == DW_OP_addr) {
			if (end - p < 8)
				return false;
			memcpy(&v, p, 8);
			p += 8;
		} else if (atom == DW_OP_fbreg || (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) ||
			   atom == DW_OP_consts) {
			if (!read_leb(&p, end, true, &v))
				return false;
		} else if (atom == DW_OP_piece || atom == DW_OP_plus_uconst || atom == DW_OP_regx ||
			   atom == DW_OP_constu) {
			if (!read_leb(&p, end, false, &v))
				return false;
		} else {
			return false;
		}
		op->number = v;
		op->offset = (Dwarf_Word)(p - (const unsigned char *)block.data);
		n++;
	}
	*nops = n;
	return true;
}

char *die_func_qualname(Dwarf_Die *func)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Attribute attr;
	Dwarf_Die origin, *d = func, *scopes = NULL;
	const char *linkage = NULL;
	int n;

	if ((dwarf_attr_integrate(func, DW_AT_linkage_name, &attr) ||
	     dwarf_attr_integrate(func, DW_AT_MIPS_linkage_name, &attr)))
		linkage = dwarf_formstring(&attr);
	if (linkage) {
		char *name = demangle_sym(linkage, false);

		if (name)
			return name;
	}
	/* The declaration (a method's, inside its class) and its scopes. */
	while ((dwarf_attr(d, DW_AT_abstract_origin, &attr) ||
		dwarf_attr(d, DW_AT_specification, &attr)) &&
	       dwarf_formref_die(&attr, &origin))
		d = &origin;
	n = dwarf_getscopes_die(d, &scopes);
	for (int i = n - 1; i > 0; i--) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name = dwarf_diename(&scopes[i]);

		if (tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		    tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		strbuf_addf(&sb, "%s::", name ? name : "(anonymous namespace)");
	}
	free(scopes);
	strbuf_addstr(&sb, die_func_name(func));
	return strbuf_detach(&sb, NULL);
}
