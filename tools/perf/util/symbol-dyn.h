/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SYMBOL_DYN_H
#define PERF_UTIL_SYMBOL_DYN_H

/*
 * Owns: a file's .dynsym looked up by name through its .gnu.hash.
 * May call: symbol-elf (which symbols count), elf-util, alloc.
 */

#include <stdint.h>

struct elf_symbol;

/*
 * The dynamic symbols of an ELF file, looked up one name at a time through
 * its .gnu.hash without reading the table: a few pages of the file for a
 * name, where symbol_elf__load() reads and sorts every symbol (a cached
 * probe checked on a library or a -rdynamic program, see probe-verify).
 * The file stays open (mapped) until symbol_dyn__close().
 */
struct symbol_dyn;

/*
 * Open @path's .dynsym and .gnu.hash: 0 and *@out, or -errno: those of
 * symbol_elf__load(), -ENODATA when the file has no .dynsym with a
 * .gnu.hash, -EBADMSG when the hash table is malformed.
 */
int symbol_dyn__open(const char *path, struct symbol_dyn **out);

/*
 * A defined function (FUNC or GNU_IFUNC, in an allocated section) named
 * exactly @name in .dynsym that holds @vaddr (symbol_elf__find_addr()'s
 * rule): 0 and *@sym (its name points into the file's mapping), or
 * -ENOENT.  A hidden version (.gnu.version: "NAME@VER", a compat symbol)
 * does not answer, as in symbol_elf__find_name().
 */
int symbol_dyn__find(const struct symbol_dyn *d, const char *name, uint64_t vaddr,
		     struct elf_symbol *sym);

/* Close @d (NULL: nothing). */
void symbol_dyn__close(struct symbol_dyn *d);

#endif
