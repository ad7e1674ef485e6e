/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SYMBOL_ELF_H
#define PERF_UTIL_SYMBOL_ELF_H

/*
 * The symbols of an ELF file (libelf), its PT_LOAD layout for turning
 * virtual addresses into the file offsets uprobes take, and the kernel's
 * symbols (/proc/kallsyms or a vmlinux) for kprobes' SYMBOL+OFFS.  A name
 * looked up may be a C++ or Rust source name (demangle_match()).
 *
 * Owns: symbol tables and where a probe on a symbol lands (struct
 * symbol_elf_place: plain values; building a probe from them is
 * probe-event's business).  It knows no probe types.
 * May call: elf-util (open, sections, PT_LOAD conversions), build-id
 * (separate debug files), demangle, strfilter, util, strbuf, debug.
 */

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/elf-util.h"

struct func_names;
struct func_names_job;
struct strfilter;

/*
 * One symbol.  name is as in the table: .symtab names of shared libraries
 * may carry a version ("fopen@@GLIBC_2.2.5"), .dynsym names never do, PLT
 * entries are "NAME@plt".  addr is st_value, the link-time virtual
 * address; size is st_size (0 for labels), 16 for a PLT entry.
 */
struct elf_symbol {
	char *name;
	uint64_t addr;
	uint64_t size;
	unsigned char bind; /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	unsigned char type; /* STT_FUNC, STT_GNU_IFUNC, STT_OBJECT, STT_NOTYPE */
	bool plt;	    /* a synthesized PLT entry */
};

struct symbol_name_index;

/* A file kept open for the names read from it (symbol_elf__load_names()). */
struct symbol_elf_file {
	int fd;
	Elf *elf;
	void *image; /* a MiniDebugInfo's, decompressed */
};
#define SYMBOL_ELF_KEPT 3

/*
 * A loaded symbol table; everything in it belongs to it.  path is the
 * file's absolute path (realpath), symsrc the file the symbols came from
 * (path itself or a separate debug file, see symbol_elf__load()), e_type
 * ET_EXEC/ET_DYN/ET_REL (0 for kallsyms), dynsym_only when no .symtab was
 * found anywhere (nor a MiniDebugInfo), mdi_err the -errno of a
 * MiniDebugInfo that could not be read (-EILSEQ, -EFBIG; then
 * dynsym_only).  syms are sorted by address, then name; loads are in file
 * order.
 */
struct symbol_elf {
	char *path;
	char *symsrc;
	int e_type;
	bool dynsym_only;
	int mdi_err;
	struct elf_symbol *syms;
	int nr_syms;
	struct elf_load_segment *loads;
	int nr_loads;
	struct symbol_name_index *by_name; /* made by the first symbol_elf__find_name() */
	char **name_blocks;		   /* where the syms' names are */
	int nr_name_blocks;
	char **labels; /* local labels (code, data): listed by -F as perf does, never probed */
	int nr_labels;
	bool names_only; /* symbol_elf__load_names(): names instead of syms */
	char **names;	 /* the names of the symbols (not of the labels), in no order */
	int nr_names;
	struct symbol_elf_file *kept; /* the files they are read in */
	int nr_kept;
};

/*
 * Load the symbols of the ELF file at @path, from the first of these, as
 * perf 6.1 and 6.12 do: the .symtab and .dynsym of a copy with a .symtab
 * in the build-id cache ($PERF_BUILDID_DIR|~/.debug/.build-id/xx/rest/elf,
 * which perf probe -D and buildid-cache -a write); the .symtab of its
 * debug file in /usr/lib/debug/.build-id/xx/rest.debug; its own .symtab
 * and .dynsym (perf lists both, so a name may appear twice at one
 * address); its MiniDebugInfo (.gnu_debugdata, decompressed within
 * limits: see mdi_err) and .dynsym; .dynsym alone.  A debug file is read
 * whatever its program headers (the binary's) say of segments it does not
 * hold.  Plus NAME@plt entries synthesized from .rela.plt.  Kept: defined symbols with a name of type FUNC, GNU_IFUNC,
 * OBJECT in allocated sections, and global/weak NOTYPE labels of an
 * allocated section named *text* or *data*; local labels of those go to
 * labels (the three are what perf lists with -F); FILE, SECTION,
 * undefined and absolute symbols are not kept.
 * On success *@out is a new symbol_elf (symbol_elf__delete()) and 0 is
 * returned; else -errno: -ENOENT (no such file), -EISDIR, -EACCES,
 * -ENOEXEC (not ELF), -EBADMSG (truncated or malformed ELF), -ENODATA (no
 * symbols at all, e.g. a stripped PIE).  Nothing is printed: see
 * symbol_elf__strerror().
 */
int symbol_elf__load(const char *path, struct symbol_elf **out);
/*
 * The same of @path already open in libelf as @elf (@size: the file's
 * size); the symbol_elf's path is @path as given, not resolved (the
 * places it gives name @path).
 */
int symbol_elf__load_elf(struct Elf *elf, uint64_t size, const char *path, struct symbol_elf **out);

/*
 * Load /proc/kallsyms (@path NULL) or a file of that format: symbols of
 * type t/T/w/W become STT_FUNC, the others STT_OBJECT; a size is the
 * distance to the next address.  Module symbols ("[mod]") and read-only
 * data (r/R) are skipped, as perf -F does.
 * 0 or -errno as above; -EACCES when every address reads 0 (kptr_restrict).
 */
int symbol_elf__load_kallsyms(const char *path, struct symbol_elf **out);

/*
 * The offset from _text of function @name in kallsyms (@path NULL:
 * /proc/kallsyms) in *@off: its first t/T symbol of that name, the one
 * the kernel takes for NAME+0, read up to there and nothing kept (a
 * fraction of symbol_elf__load_kallsyms()'s cost).  0, -ENOENT when _text
 * or the function (not a module's) is missing, -EACCES when the addresses
 * read 0, or -errno.
 */
int symbol_elf__kallsyms_text_offset(const char *path, const char *name, uint64_t *off);

/*
 * Only the layout of the ELF file at @path: path, e_type and the PT_LOAD
 * segments, no symbols (for symbol_elf__vaddr_to_offset() when the places
 * come from DWARF).  0 or -errno as symbol_elf__load().
 */
int symbol_elf__load_layout(const char *path, struct symbol_elf **out);

/* Free @se and all it holds (NULL: nothing). */
void symbol_elf__delete(struct symbol_elf *se);

/* A message for symbol_elf__load()'s errors ("not an ELF file", ...). */
const char *symbol_elf__strerror(int err);

/* Is @sym a function (FUNC or GNU_IFUNC, not a PLT entry)? */
bool elf_symbol__is_function(const struct elf_symbol *sym);

/* Does @sym hold @addr: in [addr, addr + size), or at addr for a zero size? */
bool elf_symbol__holds(const struct elf_symbol *sym, uint64_t addr);

/*
 * The places perf's symbol lookup finds for @name: symbols named exactly
 * @name, "@name@plt" PLT entries and default versions "@name@@VER" (not
 * hidden "@name@VER" ones), one per address (the first by name), sorted by
 * address.  Several places may come back (a PLT entry and the function, a
 * name in several objects, versions told apart only by .gnu.version in
 * .dynsym): perf probes each.  *@out is a new array (caller frees the array
 * only; the symbols belong to @se).  Returns the count (0: none).
 */
int symbol_elf__find_name(const struct symbol_elf *se, const char *name,
			  const struct elf_symbol ***out);

/*
 * Is @name versioned in @se: a symbol "@name@VER" or "@name@@VER" (not a
 * PLT entry)?  Then the name means the default version's symbol, which
 * DWARF's subprogram of that name need not be (glibc's memcpy is
 * memcpy@GLIBC_2.2.5 in DWARF, memcpy@@GLIBC_2.14 an IFUNC).
 */
bool symbol_elf__has_versions(const struct symbol_elf *se, const char *name);
/*
 * May symbol_elf__load(@path) have @name versioned?  false only when the
 * string tables of the file's .symtab and .dynsym hold no "NAME@": a
 * memmem() instead of loading and sorting every symbol (70% of a `-D
 * f%return` on python3.11d).  true when the file can not tell (no .symtab).
 */
bool symbol_elf__may_have_versions(const char *path, const char *name);

/*
 * The functions (elf_symbol__is_function()) whose name matches the glob
 * @pattern (fnmatch), one per address (aliases: the first by name),
 * sorted by address.  Count and *@out as above.
 */
int symbol_elf__find_glob(const struct symbol_elf *se, const char *pattern,
			  const struct elf_symbol ***out);

/*
 * The symbol that holds @addr: addr in [sym->addr, sym->addr + size), or
 * addr == sym->addr for a zero size.  Among aliases, functions first, then
 * global before weak before local, then by name.  NULL when none.
 */
const struct elf_symbol *symbol_elf__find_addr(const struct symbol_elf *se, uint64_t addr);

/*
 * Every symbol at @sym's address ("malloc", "__libc_malloc", ...), @sym
 * included, sorted by name.  Count and *@out as above.
 */
int symbol_elf__aliases(const struct symbol_elf *se, const struct elf_symbol *sym,
			const struct elf_symbol ***out);

/*
 * The file offset of virtual address @vaddr, through the PT_LOAD segment
 * that holds it in its file part.  0, or -ERANGE when no segment does.
 */
int symbol_elf__vaddr_to_offset(const struct symbol_elf *se, uint64_t vaddr, uint64_t *offset);

/* The reverse: the virtual address of file offset @offset (a listed uprobe). */
int symbol_elf__offset_to_vaddr(const struct symbol_elf *se, uint64_t offset, uint64_t *vaddr);

/*
 * Where a probe on a symbol lands, as plain values.  The strings are not
 * owned: they point into the symbol_elf (its path, a symbol's name) or
 * are static ("_text"), so they live as long as the symbol_elf.
 */
struct symbol_elf_place {
	const char *module;   /* the file's path for uprobes, NULL for kprobes */
	const char *realname; /* the symbol holding the place, or NULL */
	const char *symbol;   /* kprobes: SYMBOL of SYMBOL+OFFS; NULL for uprobes */
	uint64_t address;     /* the virtual address of the probe */
	uint64_t offset;      /* kprobes: OFFS; uprobes: the file offset */
	bool retprobe;
};

/*
 * Fill @pl for a uprobe on @sym + @offs, or on @sym's return with
 * @retprobe (then @offs must be 0): module = se->path, realname =
 * sym->name, symbol = NULL, address = vaddr of the probe, offset = its
 * file offset, retprobe.  Returns 0, -ERANGE when @offs is beyond the
 * symbol's size (perf: "Offset N is bigger than the size of FUNC"; offs ==
 * size is accepted, as perf does), -EINVAL for a return probe with an
 * offset, or -ERANGE when the address is not in a loaded segment.  On
 * error @pl is untouched.
 */
int symbol_elf__uprobe_place(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, struct symbol_elf_place *pl);

/*
 * The same for an absolute virtual address (a 0xADDR spec): realname is the
 * symbol holding it, or NULL.  Note: perf 6.1 itself writes 0xADDR
 * unchanged as the file offset ("p:probe_t/abs_401126 /t:0x401126" for a
 * non-PIE); this function converts it, which is right for uprobes.
 */
int symbol_elf__uprobe_place_abs(const struct symbol_elf *se, uint64_t vaddr, bool retprobe,
				 struct symbol_elf_place *pl);

/*
 * Fill @pl for a kprobe on @sym + @offs (se from kallsyms or a vmlinux)
 * the way perf writes it: relative to _text (symbol = "_text", offset =
 * address - _text: the line reads "p:probe/vfs_read _text+7166832",
 * decimal), an entry/offset probe always and a return probe when
 * @ret_on_text (the kernel takes a kretprobe at an offset), else on the
 * symbol (symbol = sym->name, offset = @offs: "r:probe/vfs_read__return
 * vfs_read+0"); without a _text symbol always the latter.  realname =
 * sym->name, address = sym->addr + @offs, module = NULL.  Errors as
 * symbol_elf__uprobe_place().
 */
int symbol_elf__kprobe_place(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, bool ret_on_text,
			     struct symbol_elf_place *pl);

/*
 * The offset of kernel address @addr from _text in *@off: 0, or -ENOENT
 * when @se has no _text at or below @addr.
 */
int symbol_elf__kernel_text_offset(const struct symbol_elf *se, uint64_t addr, uint64_t *off);

/*
 * What symbol_elf__load() loads, for its names only (-F): not sorted, the
 * names read in place in the files, which stay open until
 * symbol_elf__delete().  No lookup may be made in it.  A program's 59,000
 * symbols were sorted and copied for -F, half of its time.
 */
int symbol_elf__load_names(const char *path, struct symbol_elf **out);

/*
 * The names -F lists of @se's symbols and labels: demangled when
 * @demangle, those @filter passes (NULL: all), sorted, into *@out
 * (func_names__release()), with @job's thread (func_names__begin(); NULL:
 * none); their number is returned.
 */
int symbol_elf__func_names(const struct symbol_elf *se, struct func_names_job *job,
			   const struct strfilter *filter, bool demangle, struct func_names *out);

/* Open @path with libelf, refusing a truncated file: 0, *@fd and *@elf, else -errno. */
int symbol_elf__open_elf(const char *path, int *fd, Elf **elf);

/* Is @sym (named @name) of @elf one symbol_elf__load() keeps from its own tables? */
bool symbol_elf__keeps(Elf *elf, const GElf_Sym *sym, const char *name);

#endif
