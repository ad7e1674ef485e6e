// SPDX-License-Identifier: GPL-2.0
/* The register tables (see arch-regs.h). */
#include <ctype.h>
#include <elf.h>
#include <string.h>

#include "util/arch-regs.h"

#define ASM(...)                  \
	{                         \
		__VA_ARGS__, NULL \
	}

/*
 * In struct pt_regs order.  The assembler names are looked up as prefixes
 * in this order (see arch_regs__from_asm()), so it matters too.
 */
static const struct arch_reg x86_64_regs[] = {
	{ "%ax", 0, ASM("rax", "eax", "ax", "al", "ah") },
	{ "%bx", 3, ASM("rbx", "ebx", "bx", "bl", "bh") },
	{ "%cx", 2, ASM("rcx", "ecx", "cx", "cl", "ch") },
	{ "%dx", 1, ASM("rdx", "edx", "dx", "dl", "dh") },
	{ "%si", 4, ASM("rsi", "esi", "si", "sil") },
	{ "%di", 5, ASM("rdi", "edi", "di", "dil") },
	{ "%bp", 6, ASM("rbp", "ebp", "bp", "bpl") },
	{ "%sp", 7, ASM("rsp", "esp", "sp", "spl") },
	{ "%r8", 8, ASM("r8", "r8d", "r8w", "r8b") },
	{ "%r9", 9, ASM("r9", "r9d", "r9w", "r9b") },
	{ "%r10", 10, ASM("r10", "r10d", "r10w", "r10b") },
	{ "%r11", 11, ASM("r11", "r11d", "r11w", "r11b") },
	{ "%r12", 12, ASM("r12", "r12d", "r12w", "r12b") },
	{ "%r13", 13, ASM("r13", "r13d", "r13w", "r13b") },
	{ "%r14", 14, ASM("r14", "r14d", "r14w", "r14b") },
	{ "%r15", 15, ASM("r15", "r15d", "r15w", "r15b") },
	/* No assembler names: SDT operands on these are kept as written. */
	{ "%ip", -1, ASM(NULL) },
	{ "%flags", -1, ASM(NULL) },
	{ "%cs", -1, ASM(NULL) },
	{ "%ss", -1, ASM(NULL) },
	{ "%orig_ax", -1, ASM(NULL) },
	{ NULL, -1, ASM(NULL) },
};

static const struct arch_reg i386_regs[] = {
	{ "%ax", 0, ASM("eax", "ax", "al", "ah") },
	{ "%bx", 3, ASM("ebx", "bx", "bl", "bh") },
	{ "%cx", 1, ASM("ecx", "cx", "cl", "ch") },
	{ "%dx", 2, ASM("edx", "dx", "dl", "dh") },
	{ "%si", 6, ASM("esi", "si") },
	{ "%di", 7, ASM("edi", "di") },
	{ "%bp", 5, ASM("ebp", "bp") },
	{ "%sp", 4, ASM("esp", "sp") },
	{ "%ip", -1, ASM("eip") },
	{ "%flags", -1, ASM(NULL) },
	{ "%cs", -1, ASM("cs") },
	{ "%ss", -1, ASM("ss") },
	{ "%ds", -1, ASM("ds") },
	{ "%es", -1, ASM("es") },
	{ "%fs", -1, ASM("fs") },
	{ "%gs", -1, ASM("gs") },
	{ "%orig_ax", -1, ASM(NULL) },
	{ NULL, -1, ASM(NULL) },
};

#define X(n)                                    \
	{                                       \
		"%x" #n, n, ASM("x" #n, "w" #n) \
	}
static const struct arch_reg arm64_regs[] = {
	X(0),
	X(1),
	X(2),
	X(3),
	X(4),
	X(5),
	X(6),
	X(7),
	X(8),
	X(9),
	X(10),
	X(11),
	X(12),
	X(13),
	X(14),
	X(15),
	X(16),
	X(17),
	X(18),
	X(19),
	X(20),
	X(21),
	X(22),
	X(23),
	X(24),
	X(25),
	X(26),
	X(27),
	X(28),
	X(29),
	X(30),
	{ "%sp", 31, ASM("sp") },
	{ "%pc", -1, ASM(NULL) },
	{ "%pstate", -1, ASM(NULL) },
	{ NULL, -1, ASM(NULL) },
};
#undef X

/* struct pt_regs of riscv: epc, then x1..x31 by their ABI names. */
#define R(name, n)                               \
	{                                        \
		"%" #name, n, ASM(#name, "x" #n) \
	}
static const struct arch_reg riscv64_regs[] = {
	{ "%epc", -1, ASM(NULL) },
	R(ra, 1),
	R(sp, 2),
	R(gp, 3),
	R(tp, 4),
	R(t0, 5),
	R(t1, 6),
	R(t2, 7),
	R(s0, 8),
	R(s1, 9),
	R(a0, 10),
	R(a1, 11),
	R(a2, 12),
	R(a3, 13),
	R(a4, 14),
	R(a5, 15),
	R(a6, 16),
	R(a7, 17),
	R(s2, 18),
	R(s3, 19),
	R(s4, 20),
	R(s5, 21),
	R(s6, 22),
	R(s7, 23),
	R(s8, 24),
	R(s9, 25),
	R(s10, 26),
	R(s11, 27),
	R(t3, 28),
	R(t4, 29),
	R(t5, 30),
	R(t6, 31),
	{ "%status", -1, ASM(NULL) },
	{ "%badaddr", -1, ASM(NULL) },
	{ "%cause", -1, ASM(NULL) },
	{ "%orig_a0", -1, ASM(NULL) },
	{ NULL, -1, ASM(NULL) },
};
#undef R

static const struct arch_regs {
	const char *arch;
	const struct arch_reg *regs;
} arch_regs_table[] = {
	{ "x86_64", x86_64_regs },
	{ "i386", i386_regs },
	{ "aarch64", arm64_regs },
	{ "riscv64", riscv64_regs },
};

const char *arch_regs__elf_arch(unsigned int e_machine)
{
	switch (e_machine) {
	case EM_X86_64:
		return "x86_64";
	case EM_386:
		return "i386";
	case EM_AARCH64:
		return "aarch64";
	case EM_RISCV:
		return "riscv64";
	default:
		return NULL;
	}
}

const char *arch_regs__host_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#else
	return "unknown";
#endif
}

const struct arch_reg *arch_regs__names(const char *arch)
{
	if (!arch)
		arch = arch_regs__host_arch();
	for (size_t i = 0; i < sizeof(arch_regs_table) / sizeof(arch_regs_table[0]); i++)
		if (!strcmp(arch_regs_table[i].arch, arch))
			return arch_regs_table[i].regs;
	return NULL;
}

bool arch_regs__is_valid(const char *arch, const char *name)
{
	const struct arch_reg *r = arch_regs__names(arch);

	if (!name || !*name)
		return false;
	if (!r) {
		for (const char *p = name; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_')
				return false;
		return true;
	}
	for (; r->fetcharg; r++)
		if (!strcmp(r->fetcharg + 1, name))
			return true;
	return false;
}

const char *arch_regs__dwarf_fetcharg(const char *arch, unsigned int num)
{
	const struct arch_reg *r = arch_regs__names(arch);

	for (; r && r->fetcharg; r++)
		if (r->dwarf >= 0 && (unsigned int)r->dwarf == num)
			return r->fetcharg;
	return NULL;
}

const char *arch_regs__from_asm(const char *arch, const char *name, size_t len)
{
	const struct arch_reg *r = arch_regs__names(arch);

	for (; r && r->fetcharg; r++)
		for (const char *const *a = r->asm_names; *a; a++)
			if (!strncmp(*a, name, len))
				return r->fetcharg + 1;
	return NULL;
}
