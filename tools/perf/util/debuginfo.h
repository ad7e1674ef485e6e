/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DEBUGINFO_H
#define PERF_UTIL_DEBUGINFO_H

/*
 * The open DWARF of one ELF file, through libdwfl.
 *
 * Rules: this module owns struct debuginfo (the Dwfl session, its one
 * module, the -s source directory) and how a debuginfo file is found; it
 * holds no state outside the struct.  It calls libdw/libdwfl, and for
 * source files the debuginfod client; it knows nothing of probes.  The
 * DWARF stages (dwarf-aux, probe-finder, probe-finder-show) reach the
 * libdw handles through the accessors below.
 */

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "util/strbuf.h"

/* The open debuginfo of one file. */
struct debuginfo;

/*
 * Open the DWARF of the ELF file @path: in the file itself, through
 * .gnu_debuglink or /usr/lib/debug/.build-id (libdwfl's standard search).
 * 0 and a new *@out, -ENOENT (no file), -ENODATA (no DWARF found) or
 * -EBADMSG (DWARF that libdw can not read).  Nothing is printed.
 */
int debuginfo__new(const char *path, struct debuginfo **out);

/*
 * The same, with @debug_file (e.g. the `debug` of a build-id cache entry)
 * as the DWARF of @path when @path has none of its own; the code, the
 * symbols and the CFI still come from @path.  @debug_file is copied.
 */
int debuginfo__new_with(const char *path, const char *debug_file, struct debuginfo **out);

/*
 * Either of the above (@debug_file may be NULL).  Every debuginfo file
 * found for @path (@debug_file, .gnu_debuglink, /usr/lib/debug,
 * debuginfod) must carry @path's build-id: one of another build is never
 * used, and when no other serves, -ESTALE is returned with "FILE has
 * build-id X, not Y" appended to @why (may be NULL).
 */
int debuginfo__open(const char *path, const char *debug_file, struct debuginfo **out,
		    struct strbuf *why);

/* Close @dbg (NULL is fine) and free it. */
void debuginfo__delete(struct debuginfo *dbg);

/*
 * @ret, unless a compressed section inflated lazily turned out corrupt
 * (truncated, not deflate, shorter than it claims) in what was read so
 * far: what libdw read there were zeros, so nothing found may be
 * trusted; then said in one line (once) and -EBADMSG.  When @ret is an
 * error, the streams are first read whole once (damage that decoded to
 * garbage before it could be told is found so: a failure, not a wrong
 * answer, is what it gave).
 */
int debuginfo__check(struct debuginfo *dbg, int ret);

/*
 * -s DIR: read source files (lazy patterns, -L) under @dir: DIR/PATH, or
 * DIR with leading components of PATH dropped.  NULL: as DWARF names them.
 * @dir is copied.
 */
void debuginfo__set_source_dir(struct debuginfo *dbg, const char *dir);

/* The libdw handle of the DWARF; owned by @dbg. */
Dwarf *debuginfo__dwarf(struct debuginfo *dbg);

/* The libdwfl module (the ELF file: symbols, CFI, build-id); owned by @dbg. */
Dwfl_Module *debuginfo__module(struct debuginfo *dbg);

/*
 * The file the DWARF was read from: the separate debuginfo file libdwfl
 * (or the preferred @debug_file) gave, else the ELF file itself.  Owned
 * by @dbg.
 */
const char *debuginfo__dwarf_file(struct debuginfo *dbg);

/*
 * For a relocatable file (a kernel module's .ko): the function symbol
 * holding @addr, an address of its DWARF, in *@name (owned by @dbg) and
 * @addr's offset into it in *@off, by libdwfl, which lays out the sections
 * as the DWARF addresses them (the symbols' own values are section
 * offsets).  0; -EINVAL when the file is not relocatable; -ENOENT.
 */
int debuginfo__rel_addr_symbol(struct debuginfo *dbg, uint64_t addr, const char **name,
			       uint64_t *off);

/*
 * The path to read the source file @file (as CU @cu names it) from: under
 * the CU's comp_dir when relative; with -s DIR the first of DIR/PATH and
 * DIR with leading components dropped that exists; when the file is not
 * here, what the debuginfod servers give for the build-id.  A new string
 * (NULL when @file is NULL); it may name a file that does not exist.
 */
char *debuginfo__source_path(struct debuginfo *dbg, Dwarf_Die *cu, const char *file);

#endif
