/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SDT_ARG_H
#define PERF_UTIL_SDT_ARG_H

/*
 * SDT marker arguments (x86 assembler operands with a size, "-4@%edi",
 * "8@-16(%rbp)") into uprobe fetchargs ("%di:s32", "-16(%bp):u64"),
 * written exactly as perf 6.1 writes them in the probe cache.
 *
 * Rules: it owns the operand grammar and the fetcharg spelling; register
 * names come from arch-regs (the table of the file's machine: the x86-64
 * one for x86 files, whatever the host).  It
 * calls arch-regs, strbuf and sdt-note (the decoded note); probe-file
 * calls it.
 */

#include "util/strbuf.h"

struct sdt_note;

/*
 * Convert one argument word "[SIZE@]OP".  SIZE is a decimal number,
 * negative for a signed value: 1, 2, 4 or 8 (bytes) give the type
 * s8..s64/u8..u64, other sizes up to 8 in magnitude give no type, and a
 * larger one is an error.  OP must have the form
 *
 *	[+|-][DIGITS][(]%REG[)]		REG: [a-z][a-z0-9]{1,4}
 *
 * where REG is renamed to the kernel's 64-bit name by
 * arch_regs__from_asm() (eax, ax, al, ah -> ax; r8d, r8w, r8b -> r8 ...;
 * a name the table lacks is kept), and a memory operand is written with
 * an explicit sign ("(%rax)" -> "+0(%ax)").  Other forms (constants
 * "$5", rip-relative "foo(%rip)", hexadecimal displacements,
 * "(%rax,%rbx,8)", symbols) cannot be fetched by a uprobe: they are
 * skipped.
 *
 * Returns 1 with the fetcharg ("%di:s32", without a name) appended to
 * @out, 0 when @arg is skipped (nothing appended), or -EINVAL for a size
 * larger than 8 bytes.
 */
int sdt_arg__to_fetcharg(const char *arg, struct strbuf *out);

/*
 * The same for the assembler of @arch (an arch_regs name; NULL: x86):
 * "aarch64" takes "x0", "w3", "sp", "[x29]", "[sp, 16]", "[x1, #-8]"
 * (x0 and w0 are "%x0", memory "+16(%sp)"); "riscv64" takes "a0", "x10",
 * "8(sp)", "-4(s0)".  Other forms, and every operand of an architecture
 * without a table, are skipped (0).
 */
int sdt_arg__to_fetcharg_arch(const char *arch, const char *arg, struct strbuf *out);

/*
 * The fetchargs of a whole argument string: " arg1=FETCHARG" for each
 * whitespace-separated word that converts, numbered by the word's
 * position (a skipped word leaves a gap: "arg2=%ax:u64").  Skipped words
 * are reported with pr_debug.  0, or -EINVAL (nothing is appended) with
 * the offending word in *@bad (may be NULL; a new string).
 */
int sdt_args__synthesize(const char *args, struct strbuf *out, char **bad);
/* The same for the assembler of @arch (see sdt_arg__to_fetcharg_arch()). */
int sdt_args__synthesize_arch(const char *arch, const char *args, struct strbuf *out, char **bad);

/*
 * The uprobe_events line of a marker of the file @path:
 * "p:sdt_PROVIDER/NAME PATH:0xOFFSET[(0xSEMAPHORE)] arg1=... ...",
 * its operands read in the syntax of note->arch.
 * 0 or -EINVAL as above.
 */
int sdt_note__synthesize(const struct sdt_note *note, const char *path, struct strbuf *out,
			 char **bad);

#endif
