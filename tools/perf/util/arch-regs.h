/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_ARCH_REGS_H
#define PERF_UTIL_ARCH_REGS_H

/*
 * The one register table of the tool, per architecture.  Each register
 * has its fetcharg name (the name of struct pt_regs that the kernel's
 * regs_query_register_offset() knows, written "%ax"), its DWARF register
 * number, and the assembler names that denote it (all widths: "rax",
 * "eax", "ax", "al", "ah").  Only pt_regs names are valid in a fetcharg:
 * on x86-64 "eax" or "al" are rejected by the kernel ("Invalid register
 * name"), so they are aliases here, not registers.
 *
 * Rules: this module owns the tables and nothing else; it calls only libc.
 * Everyone who needs a register name (probe-spec's fetcharg check, the
 * DWARF finder, the SDT argument converter) asks here.
 */

#include <stdbool.h>
#include <stddef.h>

/* One register of an architecture. */
struct arch_reg {
	const char *fetcharg;	  /* "%ax": '%' then the pt_regs name */
	int dwarf;		  /* the DWARF register number, -1: none */
	const char *asm_names[6]; /* assembler names, NULL-terminated */
};

/*
 * The architecture of ELF machine @e_machine ("x86_64" for EM_X86_64,
 * "i386", "aarch64", "riscv64"), or NULL for a machine without a table.
 */
const char *arch_regs__elf_arch(unsigned int e_machine);

/* The architecture this tool was built for, e.g. "x86_64". */
const char *arch_regs__host_arch(void);

/*
 * The register table of @arch (NULL: the host), ended by an entry whose
 * fetcharg is NULL; NULL for an architecture without a table.  Static.
 */
const struct arch_reg *arch_regs__names(const char *arch);

/*
 * Is @name (without the '%') a pt_regs register of @arch?  @arch NULL
 * means the host.  An unknown architecture accepts any name of [a-z0-9_]
 * characters: the kernel is then the judge.
 */
bool arch_regs__is_valid(const char *arch, const char *name);

/*
 * The fetcharg ("%ax") of DWARF register @num of @arch (NULL: the host),
 * or NULL when the table has none.  Static.
 */
const char *arch_regs__dwarf_fetcharg(const char *arch, unsigned int num);

/*
 * The pt_regs name ("ax", no '%') of the first register of @arch (NULL:
 * the host) having an assembler name that starts with the @len bytes of
 * @name: "eax" and "al" give "ax", and as perf's SDT converter does, a
 * prefix finds the first in table order ("es" is "esi", "r1" is "r10").
 * NULL when none.  Static.
 */
const char *arch_regs__from_asm(const char *arch, const char *name, size_t len);

#endif
