// SPDX-License-Identifier: GPL-2.0
/*
 * insn: the returns and tail jumps of a function of this very program, and
 * where a register of one still holds its entry value.
 */
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit-test.h"
#include "util/insn.h"

#if defined(__x86_64__)
/*
 * A function with three returns (RET, RET imm16 and a RET after code
 * that does not return), a conditional jump and a jump inside it, and
 * one tail jump out of it to insn_fixture_out; the jumps as bytes, so
 * that the assembler keeps their sizes.
 */
__asm__(".text\n"
	".globl insn_fixture\n"
	".type insn_fixture, @function\n"
	"insn_fixture:\n"
	"	test %edi, %edi\n" /* +0: 2 bytes */
	"	.byte 0x74, 1\n"   /* +2: je +1, 2 */
	"	ret\n"		   /* +4: the first return */
	"	cmp $1, %edi\n"	   /* +5: 3 */
	"	.byte 0x75, 5\n"   /* +8: jne +5, 2 */
	"	.byte 0xe9\n"	   /* +10: 5, a tail jump */
	"	.long insn_fixture_out - . - 4\n"
	"	cmp $2, %edi\n"	 /* +15: 3 */
	"	.byte 0x75, 3\n" /* +18: jne +3, 2 */
	"	ret $8\n"	 /* +20: 3, the second */
	"	.byte 0xeb, 0\n" /* +23: jmp +0, 2, inside */
	"	ud2\n"		 /* +25: 2 */
	"	ret\n"		 /* +27: the third */
	".size insn_fixture, . - insn_fixture\n"
	"insn_fixture_out:\n"
	"	ret\n");
void insn_fixture(void);

/*
 * A loop and a call: which registers hold their entry values where
 * (insn__reg_unchanged).
 */
__asm__(".text\n"
	".globl insn_regs_fixture\n"
	".type insn_regs_fixture, @function\n"
	"insn_regs_fixture:\n"
	"	mov %rdi, %rax\n"   /* +0: 3 bytes */
	"	xor %ecx, %ecx\n"   /* +3: 2 */
	"	inc %rcx\n"	    /* +5: 3, the loop */
	"	cmp %rcx, %rsi\n"   /* +8: 3 */
	"	.byte 0x75, 0xf8\n" /* +11: jne +5, 2 */
	"	.byte 0xe8\n"	    /* +13: call, 5 */
	"	.long insn_fixture_out - . - 4\n"
	"	mov %rax, %rdi\n" /* +18: 3 */
	"	ret\n"		  /* +21 */
	".size insn_regs_fixture, . - insn_regs_fixture\n");
void insn_regs_fixture(void);

static int first_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

static void test_returns_and_tail_jumps_of_a_function(void)
{
	struct insn_returns r = { 0 };
	uintptr_t bias = 0;
	uint64_t addr;

	dl_iterate_phdr(first_bias, &bias);
	addr = (uintptr_t)insn_fixture - bias;
	CHECK_INT(insn__find_returns("/proc/self/exe", addr, 28, &r), ==, 0);
	CHECK_INT(r.nr, ==, 3);
	if (r.nr == 3) {
		CHECK_INT(r.addr[0] - addr, ==, 4);
		CHECK_INT(r.addr[1] - addr, ==, 20);
		CHECK_INT(r.addr[2] - addr, ==, 27);
	}
	CHECK_INT(r.tail_jumps, ==, 1);
	CHECK_INT(r.first_tail - addr, ==, 10);
	CHECK_STR(r.arch, "x86_64");
	CHECK_INT(r.e_machine, ==, EM_X86_64);
	insn_returns__clear(&r);

	/* The function without its last byte: two returns. */
	CHECK_INT(insn__find_returns("/proc/self/exe", addr, 27, &r), ==, 0);
	CHECK_INT(r.nr, ==, 2);
	insn_returns__clear(&r);
}

static void test_a_register_is_unchanged_until_written_or_looped_back_to(void)
{
	uintptr_t bias = 0;
	uint64_t addr, r[1][2];
	const char *exe = "/proc/self/exe";

	dl_iterate_phdr(first_bias, &bias);
	addr = (uintptr_t)insn_regs_fixture - bias;
	r[0][0] = addr;
	r[0][1] = addr + 22;
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr, "ax"), ==, 1);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 3, "di"), ==, 1);
	/* Written (eax of rax, ecx of rcx). */
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 3, "ax"), ==, 0);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 5, "cx"), ==, 0);
	/* The loop comes back to +5 from +11: after a round, who knows. */
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 5, "di"), ==, 0);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 8, "si"), ==, 0);
	/* After the loop: the call changes the caller-saved registers only. */
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 18, "di"), ==, 0);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 18, "si"), ==, 0);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 18, "bx"), ==, 1);
	CHECK_INT(insn__reg_unchanged(exe, r, 1, addr, addr + 18, "r12"), ==, 1);
}

/* A prologue's run: every instruction before goes on to the next. */
static void test_code_that_runs_straight_to_an_address(void)
{
	const char *exe = "/proc/self/exe";
	uintptr_t bias = 0;
	uint64_t addr;

	dl_iterate_phdr(first_bias, &bias);
	addr = (uintptr_t)insn_fixture - bias;
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr), ==, 1);
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr + 2), ==, 1);
	/* past the conditional je: it goes on too */
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr + 4), ==, 1);
	/* past the first ret: an instruction starts, not reached straight */
	CHECK_INT(insn__starts_at(exe, addr, 28, addr + 5), ==, 1);
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr + 5), ==, 0);
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr + 3), ==, 0);
	CHECK_INT(insn__falls_through_to(exe, addr, 28, addr + 28), ==, 0);
	CHECK_INT(insn__falls_through_to("/nonexistent/file", addr, 28, addr + 2), ==, -ENOENT);
}
#endif

static void test_what_can_not_be_decoded(void)
{
	struct insn_returns r = { 0 };
	char buf[16];

	CHECK_INT(insn__find_returns("/nonexistent/file", 0x1000, 4, &r), ==, -ENOENT);
	CHECK_INT(insn__find_returns("/proc/self/cmdline", 0x1000, 4, &r), ==, -ENOEXEC);
	/* No section holds address 0. */
	CHECK_INT(insn__find_returns("/proc/self/exe", 0, 4, &r), ==, -ENOENT);
	insn_returns__clear(&r);
	CHECK_STR(insn__machine_name(EM_X86_64, buf, sizeof(buf)), "x86-64");
	CHECK_STR(insn__machine_name(EM_AARCH64, buf, sizeof(buf)), "AArch64");
	CHECK_STR(insn__machine_name(4242, buf, sizeof(buf)), "EM_4242");
}

TESTS(
#if defined(__x86_64__)
	TEST(test_returns_and_tail_jumps_of_a_function),
	TEST(test_a_register_is_unchanged_until_written_or_looped_back_to),
	TEST(test_code_that_runs_straight_to_an_address),
#endif
	TEST(test_what_can_not_be_decoded));
