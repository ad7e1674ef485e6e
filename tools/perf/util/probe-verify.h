/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_VERIFY_H
#define PERF_UTIL_PROBE_VERIFY_H

/*
 * Cached lines are checked before they are placed.  A probes file is
 * data anybody who can write the build-id cache (or ship a bundle) chose:
 * each of an entry's lines must be what resolving the entry's own header
 * on this file could have given, else the entry is refused with the
 * file's path and the line's number, and nothing of the command is
 * placed.  For a '#' entry (a perf probe spec) of a user-space file:
 *
 *   - the line names the target file, the path the entry was cached for,
 *     or a path that is not here or holds the same build (a copy, the
 *     build host's path), and is a uprobe;
 *   - it defines the event resolving the spec names: the spec's GROUP,
 *     else the default group of that file or of the target ("probe" for
 *     the kernel); the spec's EVENT, else perf's name from FUNC or 0xADDR,
 *     from the function a glob matched, or for a source line or lazy
 *     pattern (named after a function only DWARF knows) any; "__return"
 *     after it for %return, maybe made unique ("_N", perf probe -f);
 *   - "r:" exactly when the spec has %return (a Go %return is plain
 *     probes on the function's return instructions: "p:" there only);
 *   - the address lies in an executable PT_LOAD segment, at the start of
 *     an instruction (capstone, decoded from the function's first byte),
 *     inside the function of the spec: FUNC by its name in the symbol
 *     table (.symtab, a separate debug file's, the MiniDebugInfo's, or
 *     .dynsym; FUNC:LINE, FUNC+OFF, FUNC%return and FUNC;PTN name FUNC);
 *     SRC:LINE and SRC;PTN any function; 0xADDR is that address;
 *   - where the kind puts it in that function: FUNC (and a glob) at its
 *     entry, or past it through code that runs straight there (no
 *     return, no unconditional jump before it: a prologue) when the spec
 *     reads an argument through DWARF; FUNC+OFF at entry + OFF;
 *     FUNC%return's r: at the entry (a Go %return's p: at a return);
 *     FUNC:LINE and the patterns anywhere in it;
 *   - a FUNC a whole table (.symtab, debug file, MiniDebugInfo) lacks is
 *     inlined everywhere: any function holds its lines.  A file with
 *     .dynsym alone (strip -s, --strip-unneeded, eu-strip, a debuglink
 *     to an absent file) names few: its frame description (.eh_frame,
 *     eh-frame.h) holding the address stands for a FUNC .dynsym lacks,
 *     and for the function of a source line, with the rules above; a
 *     line in an exported function of another name is no FUNC, FUNC+OFF
 *     or FUNC%return of the spec (what remains unchecked there: which
 *     unnamed function's entry a FUNC line is at);
 *   - no semaphore "(ref_ctr_offset)";
 *   - the arguments are the spec's: as many, each with the name perf
 *     gives it (NAME=, the last member, VAR[_TYPE], none for raw ones);
 *     a spec with $vars, $params or $args takes any names.
 * A '%' entry (an SDT marker) must hold only lines the file's own
 * .note.stapsdt gives for that PROVIDER:NAME: the same address, the same
 * semaphore (which must lie in a writable segment) and the same
 * arguments.  A kernel entry's line names the function of the spec
 * (glob allowed) and, when its size is known (a -k vmlinux), an offset
 * inside it.  Instructions are decoded on x86-64 and AArch64; other
 * machines get every other check.
 *
 * A place DWARF gave is checked against the file's own code the same way
 * (probe_verify__code_address()): the debuginfo it came from may be of
 * another build whatever its build-id note says.
 *
 * Owns: those checks, their one wording, and the "(on ...)" text of an
 * added event, which for a cached event is derived from the placed line.
 * May call: probe-cache (the entries, SDT lines), build-id, symbol-elf,
 * eh-frame, sdt-note, insn, elf-util, target-ns, probe-trace, probe-spec,
 * demangle, strbuf, debug.
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/build-id.h"
#include "util/symbol-elf.h"

struct probe_cache;
struct probe_cache_entry;
struct probe_trace_event;
struct perf_probe_event;
struct strbuf;
struct symbol_dyn;

/* What the lines of entries are checked against. */
struct probe_verifier {
	const char *path;  /* the file the lines are placed on; the kernel: a -k vmlinux or NULL */
	const char *owner; /* the path the entry was cached for, or NULL */
	bool uprobes;	   /* a user-space file, not the kernel */
	struct symbol_elf *se; /* @path's symbols: borrowed when given, else loaded on use */
	bool own_se;
	bool se_layout_only; /* se is only the segments (an SDT semaphore's check) */
	/*
	 * What the caller keeps of @path between entries: its dynamic
	 * symbols by name (a function found there needs no table), and the
	 * whole table when a check needs it (0 or -errno; NULL: loaded here).
	 */
	const struct symbol_dyn *dyn;
	int (*symbols)(void *ctx, struct symbol_elf **se);
	void *ctx;
	struct elf_symbol dyn_sym; /* the function symbol_dyn__find() gave */
	struct probe_cache *sdt;   /* @path's own SDT entries, read on first use */
	int sdt_err;
	struct build_id bid; /* @path's, read on first use (bid_read: 1 read, -1 failed) */
	int bid_read;
	int machine; /* @path's e_machine, read on first use (0: not yet, < 0: failed) */
};

/*
 * Check the lines of @e against @v (set up by the caller, zeroed first).
 * 0, or -EBADMSG with the 1-based line number in *@bad_line (0: the
 * header, when the entry was not read from a file) and "reason" in @why,
 * e.g. "address 0x1145 is not an instruction start in handle".
 */
int probe_verifier__check(struct probe_verifier *v, const struct probe_cache_entry *e,
			  int *bad_line, struct strbuf *why);

/* Free what @v loaded (not a borrowed se). */
void probe_verifier__clear(struct probe_verifier *v);

/*
 * What a caller keeps of the file its entries are placed on (probe-event's
 * target), lent to each check; every member may be NULL.
 */
struct probe_verify_source {
	struct symbol_elf *se; /* its symbols, or with layout_only its segments */
	bool layout_only;
	const struct symbol_dyn *dyn;			   /* its dynamic symbols by name */
	int (*symbols)(void *ctx, struct symbol_elf **se); /* the whole table, kept */
	void *ctx;
};

/*
 * The entry @e of the probes file @pc_path, before its lines are placed
 * on @path (uprobes) or the kernel (-k @path or NULL), with what @src lends
 * of @path (NULL: all loaded here): 0, or -EBADMSG after
 * "perf: refusing cached probe PATH:LINE: reason".  A cache of no file
 * (@pc_path NULL: the target's own SDT notes) is not checked.
 */
int probe_verify__cache_entry(const char *pc_path, const struct probe_cache_entry *e,
			      const char *path, bool uprobes,
			      const struct probe_verify_source *src);

/*
 * The probes text @probes (@len bytes) of the file @name with build-id
 * @bid, as a bundle brings it: every entry checked against @name when the
 * file is here with that build-id (the kernel's, "[kernel.kallsyms]",
 * against the running kernel); a file that is not here is checked when
 * its lines are used.  0, or -EBADMSG with "line N: reason" in @why.
 */
int probe_verify__probes_text(const char *name, const struct build_id *bid, const char *probes,
			      size_t len, struct strbuf *why);

/*
 * A uprobe place another stage computed for the file @path, with what
 * @src lends of it (its segments in src->se, its whole symbol table
 * through src->symbols): DWARF's, whose debuginfo may be of another build
 * whatever its build-id note says.  @vaddr must lie in an executable
 * segment, at an instruction start of the code holding it by @path's own
 * call frame information, else by its symbols (@func: the name to say
 * when not by a symbol, maybe NULL).  0, or -EBADMSG with the reason in @why, e.g.
 * "0x1151 is not an instruction start in handle of /bin/app".
 */
int probe_verify__code_address(const char *path, const struct probe_verify_source *src,
			       uint64_t vaddr, const char *func, struct strbuf *why);

/*
 * The build-id cache's name of the file whose probes file is @pc_path
 * (ROOT/NAME/BID/probes gives NAME), or NULL.  A new string.
 */
char *probe_verify__cache_owner(const char *pc_path);

/*
 * The "(on POINT in FILE with ARGS)" parts of an added event as perf shows
 * them: *@point "FUNC[+OFF][:RLN][%return][@SRC]", "@SRC[:ALN]" or
 * "%EVENT", and *@args the arguments ("len=r->len seq"), new strings.
 * For a cached event (tev->cached) FUNC is the function the placed
 * address lies in and +OFF its offset there (the spec's FUNC alone, or
 * with :RLN, as perf shows it when that function is one the spec names;
 * FUNC+OFF of where the line is when not, e.g. a function the spec's was
 * inlined in), and the arguments are the
 * spec's only when the line has them (as many, the same names), else the
 * line's own.  @demangle: C++ and Rust names by their source names.
 */
void probe_verify__describe(const struct probe_trace_event *tev, const struct perf_probe_event *pev,
			    bool demangle, char **point, char **args);

#endif
