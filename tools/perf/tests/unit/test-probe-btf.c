// SPDX-License-Identifier: GPL-2.0
/* The x86-64 calling convention of probes from BTF (util/probe-btf.c). */
#include "tests/unit/unit-test.h"
#include "util/probe-btf.h"

static const struct btf_abi_param LONG = { 8, false, false };

static void test_six_registers_then_the_stack_above_the_return_address(void)
{
	struct btf_abi_param in[8];
	struct btf_abi_slot out[8];

	for (int i = 0; i < 8; i++)
		in[i] = LONG;
	in[2].size = 4; /* an int takes a whole register */
	btf_abi_x86_64(in, 8, out);
	for (int i = 0; i < 6; i++) {
		CHECK_INT(out[i].where, ==, BTF_ABI_REG);
		CHECK_INT(out[i].reg, ==, i);
	}
	CHECK_INT(out[6].where, ==, BTF_ABI_STACK);
	CHECK_INT(out[6].stack_off, ==, 8);
	CHECK_INT(out[7].where, ==, BTF_ABI_STACK);
	CHECK_INT(out[7].stack_off, ==, 16);
}

static void test_a_16_byte_struct_takes_two_registers(void)
{
	struct btf_abi_param in[2] = { { 16, true, false }, LONG };
	struct btf_abi_slot out[2];

	btf_abi_x86_64(in, 2, out);
	CHECK_INT(out[0].where, ==, BTF_ABI_REG2);
	CHECK_INT(out[0].reg, ==, 0);
	CHECK_INT(out[1].where, ==, BTF_ABI_REG);
	CHECK_INT(out[1].reg, ==, 2);
}

static void test_a_big_struct_goes_to_memory_and_leaves_the_registers(void)
{
	struct btf_abi_param in[3] = { { 24, true, false }, LONG, { 12, true, false } };
	struct btf_abi_slot out[3];

	btf_abi_x86_64(in, 3, out);
	CHECK_INT(out[0].where, ==, BTF_ABI_STACK);
	CHECK_INT(out[0].stack_off, ==, 8);
	CHECK_INT(out[1].where, ==, BTF_ABI_REG);
	CHECK_INT(out[1].reg, ==, 0);
	CHECK_INT(out[2].where, ==, BTF_ABI_REG2);
	CHECK_INT(out[2].reg, ==, 1);
}

static void test_two_words_with_one_register_left_go_to_the_stack(void)
{
	struct btf_abi_param in[7];
	struct btf_abi_slot out[7];

	for (int i = 0; i < 7; i++)
		in[i] = LONG;
	in[5] = (struct btf_abi_param){ 16, true, false };
	btf_abi_x86_64(in, 7, out);
	CHECK_INT(out[5].where, ==, BTF_ABI_STACK);
	CHECK_INT(out[5].stack_off, ==, 8);
	/* the last register is still free for what follows */
	CHECK_INT(out[6].where, ==, BTF_ABI_REG);
	CHECK_INT(out[6].reg, ==, 5);
}

static void test_floating_point_takes_no_integer_register(void)
{
	struct btf_abi_param in[2] = { { 8, false, true }, LONG };
	struct btf_abi_slot out[2];

	btf_abi_x86_64(in, 2, out);
	CHECK_INT(out[0].where, ==, BTF_ABI_SSE);
	CHECK_INT(out[1].where, ==, BTF_ABI_REG);
	CHECK_INT(out[1].reg, ==, 0);
}

static void test_register_names_are_the_pt_regs_ones(void)
{
	CHECK_STR(btf_abi_reg_name(0), "%di");
	CHECK_STR(btf_abi_reg_name(1), "%si");
	CHECK_STR(btf_abi_reg_name(2), "%dx");
	CHECK_STR(btf_abi_reg_name(3), "%cx");
	CHECK_STR(btf_abi_reg_name(4), "%r8");
	CHECK_STR(btf_abi_reg_name(5), "%r9");
	CHECK_STR(btf_abi_reg_name(-1), "%sp");
	CHECK(btf_abi_reg_name(6) == NULL);
}

TESTS(TEST(test_six_registers_then_the_stack_above_the_return_address),
      TEST(test_a_16_byte_struct_takes_two_registers),
      TEST(test_a_big_struct_goes_to_memory_and_leaves_the_registers),
      TEST(test_two_words_with_one_register_left_go_to_the_stack),
      TEST(test_floating_point_takes_no_integer_register),
      TEST(test_register_names_are_the_pt_regs_ones));
