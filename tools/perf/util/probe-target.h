/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_TARGET_H
#define PERF_UTIL_PROBE_TARGET_H

/*
 * The binary or kernel one perf probe command is about: an executable
 * (-x, uprobes), a kernel module (-m) or the kernel itself (-k vmlinux, or
 * the running kernel through /proc/kallsyms).  A probe_target is set up
 * from a perf_probe_event's target and loads what a stage needs when it
 * first needs it: the symbol table, the segment layout, the build-id, the
 * build-id cache entry, the probe cache, the debuginfo.  Every command
 * that needs DWARF opens it here, through probe_target__open_debuginfo(),
 * so -a, -D, -V, -L and -l find the same debuginfo.
 *
 * Functions that print say so; the others return -errno and leave the
 * message to the caller, who knows the user's words.
 */

#include <stdbool.h>
#include <stdint.h>

#include "util/probe-spec.h"

struct build_id;
struct debuginfo;
struct kbtf;
struct probe_cache;
struct symbol_dyn;
struct symbol_elf;

/* The settings of one perf probe command, from its options. */
struct probe_conf {
	const char *vmlinux; /* -k: resolve kernel symbols in this file */
	int max_probes;	     /* --max-probes: places one spec may resolve to */
	bool force_add;	     /* -f: take numbered names for taken ones */
	bool dry_run;	     /* -n: resolve and check, write nothing */
	bool cache;	     /* --cache: keep what is resolved in the probe cache */
	bool no_inlines;     /* --no-inlines: not the inlined instances */
	const char *source;  /* -s: the directory of the source files */
	const char *symfs;   /* --symfs: the sysroot symbols and debuginfo are read under */
	bool bootconfig;     /* --bootconfig: -D prints bootconfig (kprobes only) */
	int demangle; /* --[no-]demangle: user-space C++/Rust names demangled (an OPT_BOOLEAN) */
	int demangle_kernel; /* --demangle-kernel: kernel names too */
	bool btf;	     /* --btf: kernel probes from BTF, not DWARF */
};

/* Are the names of @uprobes (else kernel) targets shown demangled? */
#define probe_conf_demangle(uprobes) ((uprobes) ? probe_conf.demangle : probe_conf.demangle_kernel)
extern struct probe_conf probe_conf;

#define MAX_PROBES 128

/* The target of one command, loaded once for all its events. */
struct probe_target {
	bool uprobes;
	char *path;		     /* uprobes: the real path of the executable */
	char *module;		     /* kprobes in a module: its name */
	struct symbol_elf *syms;     /* NULL until needed */
	struct symbol_elf *layout;   /* segments only, for DWARF places */
	struct symbol_dyn *dyn;	     /* uprobes: .dynsym by hash, for cached lines' checks */
	int dyn_err;		     /* its open failed (no .gnu.hash) */
	struct kbtf *btf, *btf_base; /* NULL until needed; a module's is split from its base */
	char *btf_path;		     /* the file of btf (or the one that failed) */
	int e_machine;		     /* uprobes: the ELF machine of path (0: not ELF) */
	const char *arch;	     /* its arch_regs name; NULL: the host's (the kernel) */
	bool had_debuginfo;	     /* a debuginfo was opened (perf's words for "not found") */
	bool names_only;	     /* -F: syms for their names only (symbol_elf__load_names()) */
};

/*
 * Set up @t for @pev's target (pev->uprobes, pev->target).  An executable
 * must exist and not be a directory (printed: "Error: target executable
 * ..."); 0 or -errno.
 */
int probe_target__init(struct probe_target *t, const struct perf_probe_event *pev);
/*
 * Is @t a file of another architecture than this host's (an AArch64 file
 * on x86-64: its probes can be shown and cached, not placed here)?  Its
 * machine's name and the host's in *@file and *@host when so.
 */
bool probe_target__foreign(const struct probe_target *t, const char **file, const char **host);

/*
 * The same of @pev's target: 1 (with the names), 0 (not, or no -x), or
 * the -errno of probe_target__init() after its message.
 */
int probe_target__is_foreign(const struct perf_probe_event *pev, const char **file,
			     const char **host);

/* The arch_regs name of the ELF file at @path; NULL when not ELF or unknown. */
const char *probe_target__file_arch(const char *path);

/*
 * A uprobe target's dynamic symbols by name (symbol_dyn), opened on first
 * use and kept; NULL when the file has none (or @t is the kernel).
 */
const struct symbol_dyn *probe_target__dynamic(struct probe_target *t);

/* Free what @t loaded and zero it. */
void probe_target__clear(struct probe_target *t);

/*
 * --symfs DIR: the file a uprobe target's symbols are read from, DIR/PATH
 * (else DIR/usr/lib/debug/PATH.debug or DIR/usr/lib/debug/PATH when only
 * those are there); @path itself without --symfs.  The probes still name
 * @path, the path on the machine they run on.  A new string.
 */
char *probe_target__symbol_file(const char *path);

/* "PATH", "MODULE" or "the kernel", for messages. */
const char *probe_target__name(const struct probe_target *t);

/*
 * Say that @pp's function is nowhere in @t, in perf's words: those of
 * DWARF when a debuginfo was opened, else those of the symbol table.
 */
void probe_target__say_not_found(const struct probe_target *t, const struct perf_probe_point *pp);

/*
 * Load t->syms (the executable's, the -k vmlinux's or /proc/kallsyms);
 * 0, or -errno after "Error: Failed to load symbols from ...".
 */
int probe_target__symbols(struct probe_target *t);

/*
 * perf's spelling of a kernel place @tp that DWARF or BTF found as
 * FUNC+OFF (@tp->address its address, or 0: looked up by @tp->symbol):
 * _text+OFF for an entry of the running kernel (with -k VMLINUX perf keeps
 * FUNC+OFF) and for a return where the kernel takes a kretprobe at an
 * offset (its tracefs README says so), as the symbol table's places are
 * written; the function's name is kept as the realname.  A module's place,
 * and one whose address is not found, stay as they are.  The running
 * kernel's function is looked up in one pass over kallsyms, kept nowhere.
 */
void probe_target__kprobe_on_text(struct probe_target *t, struct probe_trace_point *tp);

/*
 * May @t's symbols hold @name versioned (symbol_elf__may_have_versions()
 * of its symbol file)?  true once they are loaded.
 */
bool probe_target__may_have_versions(struct probe_target *t, const char *name);
/* The same without a message (a question that may go unanswered). */
int probe_target__try_symbols(struct probe_target *t);

/*
 * The segment layout of a uprobe target (to turn addresses into file
 * offsets): the loaded symbols' when there are, else the layout alone.
 * NULL after a message when the file can not be read.
 */
const struct symbol_elf *probe_target__layout(struct probe_target *t);

/*
 * Uprobes: the file offset of a global's virtual address for "@+0xOFF"
 * (@ctx: the target's layout), in the form of probe_finder_opts'
 * global_offset.  0, or -ERANGE without an executable segment.
 */
int probe_target__global_offset(void *ctx, uint64_t vaddr, uint64_t *offset);

/*
 * The name the build-id cache keeps the target under (its path,
 * "[kernel.kallsyms]" or "[MODULE]") in *@name (new string) and its
 * build-id in *@bid.  0 or the -errno of reading the build-id.
 */
int probe_target__cache_id(const struct probe_target *t, char **name, struct build_id *bid);

/*
 * Kernel probes for the running kernel (not a stand-in tracefs) from the
 * -k vmlinux: its build-id must be the running kernel's, else its DWARF
 * places them on another kernel's code.  0 (also when either build-id
 * cannot be read), or -ENOENT (perf's status) after one line.
 */
int probe_target__check_vmlinux(void);

/*
 * Is FUNC of @pp (a uprobe spec needing DWARF) in the symbol table where
 * no unit of @dbg's DWARF is (the C runtime's frame_dummy)?  Then true,
 * after perf's "Failed to find debug information for address OFF" and
 * "Probe point 'SPEC' not found.".
 */
bool probe_target__lacks_dwarf(struct probe_target *t, struct debuginfo *dbg,
			       const struct perf_probe_point *pp);

/*
 * The directory of the build-id cache entry of the target's build-id that
 * holds @file ("probes", "debug"): the one of the target's own path, else
 * the one the .build-id link leads to (a copy of the same build
 * elsewhere).  A new string, or NULL when neither has it.
 */
char *probe_target__cache_entry(const struct probe_target *t, const char *file);

/*
 * The target's probe cache, for reading: 0 with *@pc (kept for the next
 * spec of the same command, not to be closed by the caller), or 1 when
 * there is none or it is corrupt (then it is reported once, as a warning
 * unless --cache, and not used), or -CACHE_FS_REFUSED when it is not
 * trusted (cache-fs.h; reported once as an error: the command fails).
 */
int probe_target__open_cache(const struct probe_target *t, struct probe_cache **pc);

/*
 * The one way to open the target's debuginfo: the DWARF of the file
 * itself or what libdwfl finds for it (.gnu_debuglink,
 * /usr/lib/debug/.build-id, debuginfod when DEBUGINFOD_URLS is set), else
 * the `debug` file of its build-id cache entry (perf buildid-cache
 * --debuginfod, or -a of a binary with separate debuginfo).  With
 * --symfs DIR, first the debug files of the sysroot, as perf 6.1 looks
 * for them: DIR/usr/lib/debug/PATH.debug, DIR/usr/lib/debug/PATH,
 * DIR/<dir of PATH>/.debug/BASE and DIR/usr/lib/debug/.build-id/xx/yyyy.debug
 * (the build-id of PATH); PATH is the -x file or the -k vmlinux.  The -s
 * source directory is applied.  Every file is checked against the
 * target's build-id (libdwfl checks its own finds): a sysroot file of
 * another build is passed over, a cached `debug` of another build is
 * refused with one line naming it and both ids, and -ESTALE returned.
 * 0 with *@dbg, -ENODATA (none anywhere), -EBADMSG (corrupt DWARF),
 * -ESTALE (said) or -ENOENT; otherwise nothing is printed.
 */
int probe_target__open_debuginfo(struct probe_target *t, struct debuginfo **dbg);

/*
 * The kernel target's BTF: the .BTF section of the -k vmlinux (or -k a
 * raw BTF file), else the running kernel's PERF_BTF_DIR/vmlinux
 * (/sys/kernel/btf/vmlinux); for a module, the .BTF of -m PATH.ko or
 * PERF_BTF_DIR/NAME, split from the kernel's.  0 with *@b (owned by @t),
 * or the -errno of kbtf__open() with t->btf_path the file that failed;
 * nothing is printed.
 */
int probe_target__open_btf(struct probe_target *t, const struct kbtf **b);

#endif
