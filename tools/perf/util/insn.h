/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_INSN_H
#define PERF_UTIL_INSN_H

/*
 * The return instructions of a function's code: the bytes of
 * [addr, addr + size) read from an ELF file and decoded by capstone (no
 * decoder of our own).  Used to place plain probes where a function
 * returns when a return probe (a uretprobe, which rewrites the return
 * address on the stack) must not be used: Go moves goroutine stacks.
 *
 * Owns: reading a function's code from its file and telling its returns,
 * tail jumps and other instructions apart, where its instructions start,
 * and whether a register is left alone up to an address, or the code runs
 * straight from a function's entry to an address.  Knows no probe types.
 * May call: elf-util (open, sections), arch-regs (capstone's register
 * names), alloc, debug.
 */

#include <stdint.h>

/* What the code of one function holds. */
struct insn_returns {
	uint64_t *addr;	     /* virtual addresses of the return instructions */
	int nr;		     /* their count */
	int tail_jumps;	     /* direct jumps to an address outside the function */
	uint64_t first_tail; /* the first of those, or 0 */
	const char *arch;    /* arch-regs' name of the file's machine ("x86_64") */
	int e_machine;	     /* the file's ELF machine */
};

/*
 * Decode [@addr, @addr + @size) of the ELF file @path (the range must lie in
 * one section with file contents) into @out (zeroed by the caller).  A
 * return is x86-64 RET/RET imm16 (not IRET) or AArch64 RET; a tail jump an
 * unconditional direct JMP/B whose target is outside the range.  Bytes
 * that do not decode are stepped over one at a time (pr_debug).
 * 0, or -errno: -ENOENT no section holds the range, -EOPNOTSUPP a machine
 * other than x86-64 and AArch64, -ENOEXEC not ELF, -EIO capstone failed.
 * Nothing is printed at the default verbosity.  insn_returns__clear()
 * frees @out.
 */
int insn__find_returns(const char *path, uint64_t addr, uint64_t size, struct insn_returns *out);

void insn_returns__clear(struct insn_returns *r);

/*
 * Does an instruction start at @at, decoding [@addr, @addr + @size) of the
 * ELF file @path from @addr (a function's code from its symbol)?  1 yes,
 * 0 no (inside an instruction, in bytes that do not decode, or outside
 * the range), or -errno as insn__find_returns().
 */
int insn__starts_at(const char *path, uint64_t addr, uint64_t size, uint64_t at);

/*
 * The same, and is @at reached from @addr straight: does every instruction
 * before it go on to the next (no return, no unconditional jump; calls and
 * conditional jumps do)?  A function's prologue is such a run.  1, 0 or
 * -errno as insn__starts_at().
 */
int insn__falls_through_to(const char *path, uint64_t addr, uint64_t size, uint64_t at);

/*
 * Does register @reg (a pt_regs name: "di") of a function entered at
 * @entry still hold its entry value at @at?  The code of the function is
 * @nranges ranges [lo, hi) of the ELF file @path, one holding @entry and
 * @at.  1 when no instruction from @entry up to @at changes it (a call
 * changes the caller-saved registers) and no jump leads back to @at or
 * before from @at on, from another range, or from a target not known
 * (an indirect jump); 0 otherwise, also for a machine other than x86-64;
 * or -errno as insn__find_returns().
 */
int insn__reg_unchanged(const char *path, const uint64_t (*ranges)[2], int nranges, uint64_t entry,
			uint64_t at, const char *reg);

/* The name of ELF machine @e_machine for messages ("x86-64", "AArch64", "EM_42"). */
const char *insn__machine_name(int e_machine, char *buf, int len);

#endif
