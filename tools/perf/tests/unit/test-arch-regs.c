// SPDX-License-Identifier: GPL-2.0
/*
 * The one register table: pt_regs names for fetchargs, DWARF numbers for
 * the finder, assembler names (all widths) for SDT operands.
 */
#include <elf.h>
#include <string.h>

#include "util/arch-regs.h"
#include "unit-test.h"

static void test_dwarf_numbers_name_the_pt_regs_registers(void)
{
	static const char *const x86_64[] = {
		"%ax", "%dx", "%cx",  "%bx",  "%si",  "%di",  "%bp",  "%sp",
		"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15",
	};

	for (unsigned int i = 0; i < sizeof(x86_64) / sizeof(x86_64[0]); i++)
		CHECK_STR(arch_regs__dwarf_fetcharg("x86_64", i), x86_64[i]);
	/* 16 is the return address column, not a register perf reads. */
	CHECK(arch_regs__dwarf_fetcharg("x86_64", 16) == NULL);
	CHECK(arch_regs__dwarf_fetcharg("x86_64", 1000) == NULL);
	CHECK_STR(arch_regs__dwarf_fetcharg("i386", 1), "%cx");
	CHECK_STR(arch_regs__dwarf_fetcharg("i386", 4), "%sp");
	CHECK_STR(arch_regs__dwarf_fetcharg("aarch64", 30), "%x30");
	CHECK_STR(arch_regs__dwarf_fetcharg("aarch64", 31), "%sp");
	CHECK(arch_regs__dwarf_fetcharg("mips", 0) == NULL);
}

static const char *asm_reg(const char *name)
{
	return arch_regs__from_asm("x86_64", name, strlen(name));
}

static void test_assembler_names_of_every_width_give_the_pt_regs_name(void)
{
	CHECK_STR(asm_reg("rax"), "ax");
	CHECK_STR(asm_reg("eax"), "ax");
	CHECK_STR(asm_reg("ax"), "ax");
	CHECK_STR(asm_reg("al"), "ax");
	CHECK_STR(asm_reg("ah"), "ax");
	CHECK_STR(asm_reg("dil"), "di");
	CHECK_STR(asm_reg("spl"), "sp");
	CHECK_STR(asm_reg("r8d"), "r8");
	CHECK_STR(asm_reg("r15b"), "r15");
	/* A prefix finds the first in table order, as perf's converter does. */
	CHECK_STR(asm_reg("es"), "si");
	CHECK_STR(asm_reg("r1"), "r10");
	CHECK_STR(asm_reg("eb"), "bx");
	/* Registers without assembler names are kept as written by the caller. */
	CHECK(asm_reg("rip") == NULL);
	CHECK(asm_reg("xmm0") == NULL);
}

static void test_the_table_lists_the_pt_regs_names(void)
{
	const struct arch_reg *r = arch_regs__names("x86_64");
	int n = 0;

	for (; r && r->fetcharg; r++, n++)
		CHECK_INT(r->fetcharg[0], ==, '%');
	CHECK_INT(n, ==, 21);
	CHECK(arch_regs__is_valid("x86_64", "orig_ax"));
	CHECK(arch_regs__is_valid("x86_64", "flags"));
	CHECK(!arch_regs__is_valid("x86_64", "eax"));
	CHECK(!arch_regs__is_valid("x86_64", "%ax"));
	CHECK(arch_regs__names(NULL) == arch_regs__names(arch_regs__host_arch()));
}

static void test_elf_machines_and_other_architectures(void)
{
	CHECK_STR(arch_regs__elf_arch(EM_X86_64), "x86_64");
	CHECK_STR(arch_regs__elf_arch(EM_386), "i386");
	CHECK_STR(arch_regs__elf_arch(EM_AARCH64), "aarch64");
	CHECK_STR(arch_regs__elf_arch(EM_RISCV), "riscv64");
	CHECK(arch_regs__elf_arch(EM_PPC64) == NULL);
	CHECK_STR(arch_regs__dwarf_fetcharg("aarch64", 29), "%x29");
	CHECK_STR(arch_regs__dwarf_fetcharg("riscv64", 2), "%sp");
	CHECK_STR(arch_regs__dwarf_fetcharg("riscv64", 8), "%s0");
	CHECK_STR(arch_regs__dwarf_fetcharg("riscv64", 10), "%a0");
	CHECK(arch_regs__dwarf_fetcharg("riscv64", 0) == NULL);
	CHECK(arch_regs__is_valid("riscv64", "epc"));
	CHECK(!arch_regs__is_valid("riscv64", "x10"));
}

TESTS(TEST(test_dwarf_numbers_name_the_pt_regs_registers),
      TEST(test_elf_machines_and_other_architectures),
      TEST(test_assembler_names_of_every_width_give_the_pt_regs_name),
      TEST(test_the_table_lists_the_pt_regs_names));
