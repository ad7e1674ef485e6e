// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of turning a DWARF variable into a fetcharg, one by one: the
 * location interpreter per DW_OP form and the frame base on hand-built
 * Dwarf_Op arrays; the member, array, bitfield and final-type steps, and
 * the dwarf-aux type helpers under them, on the types of this very test
 * program (built with -g: its DWARF is read from /proc/self/exe).
 */
#include <dwarf.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/debuginfo.h"
#include "util/dwarf-aux.h"
#include "util/dwarf-fetcharg.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "unit-test.h"

/* ---- the types the steps walk ------------------------------------------ */

struct fa_inner {
	int x;
	int y;
};

struct fa_bits {
	unsigned int a : 3;
	unsigned int b : 5;
	int c;
};

struct fa_outer {
	long first;
	struct fa_inner in;
	struct fa_inner *ptr;
	int arr[2][3];
	char name[8];
	const char *str;
	struct fa_bits bits;
	union {
		int u1;
		long u2;
	};
	unsigned int count;
};

__attribute__((used)) struct fa_outer fa_global;

static struct debuginfo *dbg;

struct find_var {
	const char *name;
	Dwarf_Die var;
	bool found;
};

static int find_var_in_cu(Dwarf_Die *cu, void *arg)
{
	struct find_var *w = arg;
	Dwarf_Die child;

	if (!source_file_matches(dwarf_diename(cu), "test-dwarf-fetcharg.c") ||
	    dwarf_child(cu, &child))
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_variable && die_name_match(&child, w->name)) {
			w->var = child;
			w->found = true;
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The type of fa_global (struct fa_outer) from this program's DWARF. */
static bool outer_type(Dwarf_Die *type)
{
	struct find_var w = { .name = "fa_global" };

	if (!dbg && debuginfo__new("/proc/self/exe", &dbg))
		return false;
	die_for_each_cu(debuginfo__dwarf(dbg), find_var_in_cu, &w);
	return w.found && die_get_real_type(&w.var, type) &&
	       dwarf_tag(type) == DW_TAG_structure_type;
}

/* A location in memory: +0(%di), as a struct pointed to by %di. */
static void memory_loc(struct arg_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->reg = "%di";
	arg_loc__push(loc, 0);
}

/* The offsets of @loc's refs, innermost first, e.g. "0,8". */
static char *refs_of(struct arg_loc *loc)
{
	struct strbuf sb = STRBUF_INIT;

	for (struct probe_trace_arg_ref *r = loc->refs; r; r = r->next)
		strbuf_addf(&sb, "%s%ld", sb.len ? "," : "", r->offset);
	return strbuf_detach(&sb, NULL);
}

#define CHECK_REFS(loc, want)            \
	do {                             \
		char *_r = refs_of(loc); \
		CHECK_STR(_r, want);     \
		free(_r);                \
	} while (0)

/* ---- the location interpreter --------------------------------------------- */

#define OP(a)               \
	{                   \
		.atom = (a) \
	}
#define OPN(a, n)                          \
	{                                  \
		.atom = (a), .number = (n) \
	}
#define NOPS(ops) (sizeof(ops) / sizeof(ops[0]))

static int fb_calls;

static int stub_frame_base(void *arg, const char **reg, long *off)
{
	fb_calls++;
	if (arg)
		return *(int *)arg;
	*reg = "%sp";
	*off = 8;
	return 0;
}

static void test_a_masked_register_is_the_register_read_narrow(void)
{
	Dwarf_Op ops[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_const1u, 0xff), OP(DW_OP_and),
			   OP(DW_OP_stack_value) };
	Dwarf_Op wide[] = { OPN(DW_OP_breg0, 0), OPN(DW_OP_const2u, 0xffff), OP(DW_OP_and),
			    OP(DW_OP_stack_value) };
	Dwarf_Op odd[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_const1u, 0x7f), OP(DW_OP_and),
			   OP(DW_OP_stack_value) };
	Dwarf_Op noreg[] = { OPN(DW_OP_breg20, 0), OPN(DW_OP_const1u, 0xff), OP(DW_OP_and),
			     OP(DW_OP_stack_value) };
	struct arg_loc loc = { 0 };

	CHECK_INT(loc_from_masked_reg(ops, NOPS(ops), &loc), ==, 0);
	CHECK_STR(loc.reg, "%di");
	CHECK_INT(loc.mask_bytes, ==, 1);
	CHECK(!loc.refs);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_masked_reg(wide, NOPS(wide), &loc), ==, 0);
	CHECK_STR(loc.reg, "%ax");
	CHECK_INT(loc.mask_bytes, ==, 2);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_masked_reg(odd, NOPS(odd), &loc), ==, 1);
	CHECK_INT(loc_from_masked_reg(ops, 3, &loc), ==, 1);
	CHECK_INT(loc_from_masked_reg(noreg, NOPS(noreg), &loc), ==, -ENOTSUP);
}

static void test_a_stack_value_is_a_constant_or_a_register(void)
{
	Dwarf_Op lit[] = { OP(DW_OP_lit3), OP(DW_OP_stack_value) };
	Dwarf_Op neg[] = { OPN(DW_OP_consts, (Dwarf_Word)-5), OP(DW_OP_stack_value) };
	Dwarf_Op big[] = { OPN(DW_OP_constu, 300), OP(DW_OP_stack_value) };
	Dwarf_Op reg[] = { OPN(DW_OP_breg3, 0), OP(DW_OP_stack_value) };
	Dwarf_Op sum[] = { OPN(DW_OP_breg3, 8), OP(DW_OP_stack_value) };
	Dwarf_Op not [] = { OP(DW_OP_lit3), OP(DW_OP_deref) };
	struct arg_loc loc = { 0 };

	CHECK_INT(loc_from_stack_value(lit, NOPS(lit), &loc), ==, 0);
	CHECK_STR(loc.constant, "\\3");
	arg_loc__clear(&loc);
	CHECK_INT(loc_from_stack_value(neg, NOPS(neg), &loc), ==, 0);
	CHECK_STR(loc.constant, "\\-5");
	arg_loc__clear(&loc);
	CHECK_INT(loc_from_stack_value(big, NOPS(big), &loc), ==, 0);
	CHECK_STR(loc.constant, "\\300");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_stack_value(reg, NOPS(reg), &loc), ==, 0);
	CHECK_STR(loc.reg, "%bx");
	CHECK(!loc.constant);
	memset(&loc, 0, sizeof(loc));
	/* REG+8 is a computed value: no fetcharg reads it. */
	CHECK_INT(loc_from_stack_value(sum, NOPS(sum), &loc), ==, -ENOTSUP);
	CHECK_INT(loc_from_stack_value(not, NOPS(not ), &loc), ==, 1);
}

static void test_a_loaded_value_is_the_memory_it_was_loaded_from(void)
{
	Dwarf_Op ops[] = { OPN(DW_OP_breg7, 16), OP(DW_OP_deref), OP(DW_OP_stack_value) };
	Dwarf_Op masked[] = { OPN(DW_OP_breg7, 16), OP(DW_OP_deref), OPN(DW_OP_const2u, 0xffff),
			      OP(DW_OP_and), OP(DW_OP_stack_value) };
	Dwarf_Op four[] = { OPN(DW_OP_breg7, 16), OP(DW_OP_deref), OP(DW_OP_lit1),
			    OP(DW_OP_stack_value) };
	struct arg_loc loc = { 0 };

	CHECK_INT(loc_from_deref_value(ops, NOPS(ops), &loc), ==, 0);
	CHECK_STR(loc.reg, "%sp");
	CHECK_INT(loc.mask_bytes, ==, 0);
	CHECK_REFS(&loc, "16");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_deref_value(masked, NOPS(masked), &loc), ==, 0);
	CHECK_INT(loc.mask_bytes, ==, 2);
	CHECK_REFS(&loc, "16");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_deref_value(four, NOPS(four), &loc), ==, -ENOTSUP);
	CHECK_INT(loc_from_deref_value(ops, 2, &loc), ==, 1);
}

static void test_places_are_globals_frame_slots_and_registers(void)
{
	Dwarf_Op addr[] = { OPN(DW_OP_addr, 0x1000), OPN(DW_OP_plus_uconst, 8) };
	Dwarf_Op fbreg[] = { OPN(DW_OP_fbreg, (Dwarf_Word)-20) };
	Dwarf_Op breg[] = { OPN(DW_OP_breg6, (Dwarf_Word)-8) };
	Dwarf_Op reg[] = { OP(DW_OP_reg3) };
	Dwarf_Op regx[] = { OPN(DW_OP_regx, 14) };
	Dwarf_Op regplus[] = { OP(DW_OP_reg0), OPN(DW_OP_plus_uconst, 4) };
	Dwarf_Op piece[] = { OPN(DW_OP_piece, 4) };
	struct arg_loc loc = { 0 };
	int enoent = -ENOENT;

	CHECK_INT(loc_from_place(addr, NOPS(addr), "counter", stub_frame_base, NULL, &loc), ==, 0);
	CHECK(loc.global && loc.global_addr == 0x1000 && loc.global_off == 8);
	CHECK_STR(loc.global_name, "counter");
	memset(&loc, 0, sizeof(loc));
	fb_calls = 0;
	CHECK_INT(loc_from_place(fbreg, 1, NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_INT(fb_calls, ==, 1);
	CHECK_STR(loc.reg, "%sp");
	CHECK_REFS(&loc, "-12");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	/* The frame base's error is the variable's. */
	CHECK_INT(loc_from_place(fbreg, 1, NULL, stub_frame_base, &enoent, &loc), ==, -ENOENT);
	CHECK_INT(loc_from_place(breg, 1, NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.reg, "%bp");
	CHECK_REFS(&loc, "-8");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	fb_calls = 0;
	CHECK_INT(loc_from_place(reg, 1, NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.reg, "%bx");
	CHECK(!loc.refs);
	CHECK_INT(fb_calls, ==, 0);
	CHECK_INT(loc_from_place(regx, 1, NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.reg, "%r14");
	CHECK_INT(loc_from_place(regplus, 2, NULL, stub_frame_base, NULL, &loc), ==, -ENOTSUP);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_place(piece, 1, NULL, stub_frame_base, NULL, &loc), ==, 1);
	CHECK_INT(loc_from_ops(piece, 1, NULL, stub_frame_base, NULL, &loc), ==, -ENOTSUP);
}

static void pieces_loc(struct arg_loc *loc, const Dwarf_Op *ops, size_t nops, long off)
{
	memset(loc, 0, sizeof(*loc));
	loc->pieces = ops;
	loc->npieces = nops;
	loc->piece_off = off;
	loc->fb = stub_frame_base;
}

static void test_a_composite_value_settles_on_the_piece_of_its_member(void)
{
	/* A Go string in registers: str in %ax, len in %bx. */
	Dwarf_Op regs[] = { OP(DW_OP_reg0), OPN(DW_OP_piece, 8), OP(DW_OP_reg3),
			    OPN(DW_OP_piece, 8) };
	/* A Rust &str whose pointer is gone: an empty first piece. */
	Dwarf_Op gone[] = { OPN(DW_OP_piece, 8), OP(DW_OP_reg5), OPN(DW_OP_piece, 8) };
	/* A struct on the stack in one piece. */
	Dwarf_Op mem[] = { OPN(DW_OP_breg7, 16), OPN(DW_OP_piece, 16) };
	struct arg_loc loc;

	pieces_loc(&loc, regs, NOPS(regs), 0);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_STR(loc.reg, "%ax");
	CHECK(!loc.refs && !loc.pieces);
	pieces_loc(&loc, regs, NOPS(regs), 8);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_STR(loc.reg, "%bx");
	/* The middle of a register: its bits from that byte. */
	pieces_loc(&loc, regs, NOPS(regs), 4);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_STR(loc.reg, "%ax");
	CHECK_INT(loc.reg_off, ==, 4);
	pieces_loc(&loc, regs, NOPS(regs), 16);
	CHECK_INT(arg_loc__settle(&loc), ==, -ENOENT);
	pieces_loc(&loc, gone, NOPS(gone), 0);
	CHECK_INT(arg_loc__settle(&loc), ==, -ENOENT);
	pieces_loc(&loc, gone, NOPS(gone), 8);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_STR(loc.reg, "%di");
	pieces_loc(&loc, mem, NOPS(mem), 8);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_STR(loc.reg, "%sp");
	CHECK_REFS(&loc, "24");
	arg_loc__clear(&loc);
	/* A plain location is left as it is. */
	memory_loc(&loc);
	CHECK_INT(arg_loc__settle(&loc), ==, 0);
	CHECK_REFS(&loc, "0");
	arg_loc__clear(&loc);
}

static void test_a_part_of_a_register_stays_inside_it(void)
{
	struct arg_loc loc = { 0 };

	loc.reg = "%di";
	CHECK_INT(arg_loc__reg_bits(&loc), ==, 64);
	CHECK_INT(arg_loc__reg_part(&loc, 4, 4), ==, 0);
	CHECK_INT(loc.reg_off, ==, 4);
	/* Past its 64 bits, or a negative offset: no part of it. */
	CHECK_INT(arg_loc__reg_part(&loc, 2, 4), ==, -ENOTSUP);
	CHECK_INT(arg_loc__reg_part(&loc, -1, 1), ==, -ENOTSUP);
	CHECK_INT(loc.reg_off, ==, 4);
	loc.arch = "i386";
	loc.reg_off = 0;
	CHECK_INT(arg_loc__reg_bits(&loc), ==, 32);
	CHECK_INT(arg_loc__reg_part(&loc, 4, 4), ==, -ENOTSUP);
	/* Memory is offset, not split. */
	memory_loc(&loc);
	CHECK_INT(arg_loc__reg_part(&loc, 4, 4), ==, -ENOTSUP);
	arg_loc__clear(&loc);
}

static void test_converted_and_entry_values_need_their_dwarf(void)
{
	/* DW_OP_convert to the generic type: the register as it is. */
	Dwarf_Op generic[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_convert, 0), OP(DW_OP_stack_value) };
	/* A base type by its DIE, or an entry value: not without the DWARF. */
	Dwarf_Op typed[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_convert, 0x2b), OP(DW_OP_stack_value) };
	Dwarf_Op shifted[] = { OPN(DW_OP_breg14, 0), OP(DW_OP_lit16), OP(DW_OP_shr),
			       OPN(DW_OP_convert, 0), OP(DW_OP_stack_value) };
	Dwarf_Op entry[] = { OPN(DW_OP_entry_value, 1), OP(DW_OP_stack_value) };
	Dwarf_Op plus[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_lit1, 0), OP(DW_OP_plus),
			    OP(DW_OP_stack_value) };
	struct arg_loc loc = { 0 };

	CHECK_INT(loc_from_stack_value(generic, NOPS(generic), &loc), ==, 0);
	CHECK(!strcmp(loc.reg, "%di") && !loc.mask_bytes);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_stack_value(typed, NOPS(typed), &loc), ==, -ENOTSUP);
	memset(&loc, 0, sizeof(loc));
	/* Shifted but as wide as the register: no narrower part to read. */
	CHECK_INT(loc_from_stack_value(shifted, NOPS(shifted), &loc), ==, -ENOTSUP);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_stack_value(entry, NOPS(entry), &loc), ==, -ENOTSUP);
	CHECK(!loc.entry_gone);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_stack_value(plus, NOPS(plus), &loc), ==, 1);
}

static void test_the_interpreter_tries_the_forms_in_order(void)
{
	Dwarf_Op masked[] = { OPN(DW_OP_breg5, 0), OPN(DW_OP_const4u, 0xffffffff), OP(DW_OP_and),
			      OP(DW_OP_stack_value) };
	Dwarf_Op lit[] = { OP(DW_OP_lit0), OP(DW_OP_stack_value) };
	Dwarf_Op deref[] = { OPN(DW_OP_breg4, 0), OP(DW_OP_deref), OP(DW_OP_stack_value) };
	Dwarf_Op reg[] = { OP(DW_OP_reg9) };
	struct arg_loc loc = { 0 };

	CHECK_INT(loc_from_ops(masked, NOPS(masked), NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK(loc.mask_bytes == 4 && !strcmp(loc.reg, "%di"));
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_ops(lit, NOPS(lit), NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.constant, "\\0");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_ops(deref, NOPS(deref), NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.reg, "%si");
	CHECK_REFS(&loc, "0");
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	CHECK_INT(loc_from_ops(reg, 1, NULL, stub_frame_base, NULL, &loc), ==, 0);
	CHECK_STR(loc.reg, "%r9");
}

static void test_the_frame_base_is_a_register_an_offset_or_the_cfa(void)
{
	Dwarf_Op cfa[] = { OP(DW_OP_call_frame_cfa) };
	Dwarf_Op breg[] = { OPN(DW_OP_breg7, 8) };
	Dwarf_Op reg[] = { OP(DW_OP_reg6) };
	Dwarf_Op noreg[] = { OP(DW_OP_reg17) };
	Dwarf_Op lit[] = { OP(DW_OP_lit0) };
	const char *r = NULL;
	long off = -1;

	fb_calls = 0;
	CHECK_INT(frame_base_from_ops(NULL, cfa, 1, stub_frame_base, NULL, &r, &off), ==, 0);
	CHECK_INT(fb_calls, ==, 1);
	CHECK(r && !strcmp(r, "%sp") && off == 8);
	r = NULL;
	CHECK_INT(frame_base_from_ops(NULL, breg, 1, stub_frame_base, NULL, &r, &off), ==, 0);
	CHECK(r && !strcmp(r, "%sp") && off == 8);
	CHECK_INT(frame_base_from_ops(NULL, reg, 1, stub_frame_base, NULL, &r, &off), ==, 0);
	CHECK(r && !strcmp(r, "%bp") && off == 0);
	CHECK_INT(frame_base_from_ops(NULL, noreg, 1, stub_frame_base, NULL, &r, &off), ==,
		  -ENOTSUP);
	CHECK_INT(frame_base_from_ops(NULL, lit, 1, stub_frame_base, NULL, &r, &off), ==, -ENOTSUP);
	CHECK_INT(frame_base_from_ops(NULL, lit, 0, stub_frame_base, NULL, &r, &off), ==, -ENOENT);
}

static void test_an_offset_moves_the_outermost_reference(void)
{
	struct arg_loc loc = { .reg = "%di" };

	CHECK_INT(arg_loc__add_offset(&loc, 4), ==, -ENOTSUP);
	arg_loc__push(&loc, 8);
	arg_loc__push(&loc, 0);
	CHECK_INT(arg_loc__add_offset(&loc, 4), ==, 0);
	CHECK_REFS(&loc, "8,4");
	arg_loc__clear(&loc);
	CHECK(!loc.refs);
	memset(&loc, 0, sizeof(loc));
	loc.global = true;
	CHECK_INT(arg_loc__add_offset(&loc, 12), ==, 0);
	CHECK_INT(loc.global_off, ==, 12);
}

/* ---- the type steps ---------------------------------------------------------- */

static void test_dwarf_aux_reads_members_arrays_and_type_names(void)
{
	Dwarf_Die outer, member, type;
	Dwarf_Word counts[8];
	struct strbuf sb = STRBUF_INIT;
	long off = -1;

	CHECK(outer_type(&outer));
	if (!dbg)
		return;
	CHECK(die_find_member(&outer, "in", &member, &off));
	CHECK_INT(off, ==, offsetof(struct fa_outer, in));
	/* A member of an anonymous union is the outer struct's. */
	CHECK(die_find_member(&outer, "u2", &member, &off));
	CHECK_INT(off, ==, offsetof(struct fa_outer, u2));
	CHECK(!die_find_member(&outer, "nosuch", &member, &off));
	CHECK(die_find_member(&outer, "arr", &member, &off) && die_get_real_type(&member, &type));
	CHECK_INT(die_array_dims(&type, counts, 8), ==, 2);
	CHECK(counts[0] == 2 && counts[1] == 3);
	CHECK(die_find_member(&outer, "ptr", &member, &off));
	die_type_name(&sb, &member);
	CHECK_STR(sb.buf, "struct fa_inner*");
	strbuf_setlen(&sb, 0);
	CHECK(die_find_member(&outer, "count", &member, &off));
	die_type_name(&sb, &member);
	CHECK_STR(sb.buf, "unsigned int");
	strbuf_release(&sb);
	CHECK(die_find_member(&outer, "name", &member, &off) && die_get_real_type(&member, &type));
	CHECK(die_get_real_type(&type, &type) && die_is_char_type(&type));
	CHECK_INT(die_elem_size(&type), ==, 1);
}

static void test_member_steps_add_offsets_and_dereferences(void)
{
	Dwarf_Die type, member;
	struct arg_loc loc;

	if (!outer_type(&type))
		return;
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "in", false, "v", &member), ==, 0);
	CHECK_INT(field_member_step(&loc, &type, "y", false, "in", &member), ==, 0);
	CHECK_REFS(&loc, "12"); /* first (8) + y (4) */
	arg_loc__clear(&loc);

	outer_type(&type);
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "ptr", false, "v", &member), ==, 0);
	CHECK_INT(dwarf_tag(&type), ==, DW_TAG_pointer_type);
	CHECK_INT(field_member_step(&loc, &type, "y", true, "ptr", &member), ==, 0);
	CHECK_REFS(&loc, "16,4");
	arg_loc__clear(&loc);

	/* The errors, each after its one message. */
	outer_type(&type);
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "in", true, "v", &member), ==, -EINVAL);
	CHECK_INT(field_member_step(&loc, &type, "nosuch", false, "v", &member), ==, -EINVAL);
	CHECK_INT(field_member_step(&loc, &type, "ptr", false, "v", &member), ==, 0);
	CHECK_INT(field_member_step(&loc, &type, "x", false, "ptr", &member), ==, -EINVAL);
	arg_loc__clear(&loc);
	outer_type(&type);
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di"; /* a struct in a register */
	CHECK_INT(field_member_step(&loc, &type, "in", false, "v", &member), ==, -ENOTSUP);
	/* A struct of one register (struct fa_inner, 8 bytes): its members are parts of it. */
	outer_type(&type);
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "in", false, "v", &member), ==, 0);
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di";
	Dwarf_Die inner = type;
	CHECK_INT(field_member_step(&loc, &type, "x", false, "in", &member), ==, 0);
	CHECK_STR(loc.reg, "%di");
	CHECK(!loc.refs);
	type = inner;
	CHECK_INT(field_member_step(&loc, &type, "y", false, "in", &member), ==, 0);
	CHECK_STR(loc.reg, "%di");
	CHECK_INT(loc.reg_off, ==, 4);
	/* A pointer that is a part of a register, or masked, is not followed. */
	outer_type(&type);
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "ptr", false, "v", &member), ==, 0);
	arg_loc__clear(&loc);
	Dwarf_Die ptr = type;
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di";
	loc.mask_bytes = 4;
	CHECK_INT(field_member_step(&loc, &type, "x", true, "ptr", &member), ==, -ENOTSUP);
	type = ptr;
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di";
	loc.reg_off = 4;
	CHECK_INT(field_member_step(&loc, &type, "x", true, "ptr", &member), ==, -ENOTSUP);
	arg_loc__clear(&loc);
}

static void test_array_steps_index_every_dimension(void)
{
	Dwarf_Die type, member;
	struct arg_loc loc;
	int dim = 0;

	if (!outer_type(&type))
		return;
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "arr", false, "v", &member), ==, 0);
	CHECK_INT(field_array_step(&loc, &type, 1, &dim, "arr"), ==, 0);
	CHECK_INT(dim, ==, 1);
	CHECK_INT(dwarf_tag(&type), ==, DW_TAG_array_type); /* arr[1] is an int[3] */
	CHECK_INT(field_array_step(&loc, &type, 2, &dim, "arr"), ==, 0);
	CHECK_INT(dim, ==, 0);
	CHECK_INT(dwarf_tag(&type), ==, DW_TAG_base_type);
	/* 24 (arr) + 1 * 12 + 2 * 4 */
	CHECK_REFS(&loc, "44");
	CHECK_INT(field_array_step(&loc, &type, 0, &dim, "arr"), ==, -EINVAL);
	arg_loc__clear(&loc);

	outer_type(&type);
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "str", false, "v", &member), ==, 0);
	CHECK_INT(field_array_step(&loc, &type, 3, &dim, "str"), ==, 0);
	CHECK_REFS(&loc, "56,3");
	arg_loc__clear(&loc);

	outer_type(&type);
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di";
	die_find_member(&type, "arr", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	CHECK_INT(field_array_step(&loc, &type, 1, &dim, "arr"), ==, -ENOTSUP);
}

static void test_bitfields_are_typed_from_their_storage_unit(void)
{
	Dwarf_Die type, member;
	struct arg_loc loc;
	char *t;

	if (!outer_type(&type))
		return;
	memory_loc(&loc);
	CHECK_INT(field_member_step(&loc, &type, "bits", false, "v", &member), ==, 0);
	CHECK_INT(field_member_step(&loc, &type, "b", false, "bits", &member), ==, 0);
	t = member_bitfield_type(&loc, &member, &type);
	CHECK_STR(t, "b5@3/32");
	free(t);
	CHECK_REFS(&loc, "64");
	arg_loc__clear(&loc);

	outer_type(&type);
	memory_loc(&loc);
	field_member_step(&loc, &type, "bits", false, "v", &member);
	field_member_step(&loc, &type, "c", false, "bits", &member);
	CHECK(member_bitfield_type(&loc, &member, &type) == NULL);
	CHECK_REFS(&loc, "68");
	arg_loc__clear(&loc);
}

static void test_the_final_type_checks_strings_and_takes_bitfields(void)
{
	struct perf_probe_arg pa = { .var = "v" };
	Dwarf_Die outer, type, member;
	struct arg_loc loc;
	char *bitfield = NULL, *out = NULL;

	if (!outer_type(&outer))
		return;
	/* A char array in memory is the string itself. */
	pa.type = "string";
	memory_loc(&loc);
	type = outer;
	field_member_step(&loc, &type, "name", false, "v", &member);
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, 0);
	CHECK_STR(out, "string");
	CHECK_REFS(&loc, "48");
	free(out);
	out = NULL;
	arg_loc__clear(&loc);
	/* A char pointer is read once more. */
	memory_loc(&loc);
	type = outer;
	field_member_step(&loc, &type, "str", false, "v", &member);
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, 0);
	CHECK_REFS(&loc, "56,0");
	free(out);
	out = NULL;
	arg_loc__clear(&loc);
	/* Not chars, or a char array in a register: no string. */
	memory_loc(&loc);
	type = outer;
	field_member_step(&loc, &type, "count", false, "v", &member);
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, -EINVAL);
	arg_loc__clear(&loc);
	memset(&loc, 0, sizeof(loc));
	loc.reg = "%di";
	die_find_member(&outer, "name", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, -EINVAL);
	CHECK(out == NULL);

	/* A :TYPE as written; else the bitfield; else the basic type. */
	pa.type = "u8";
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, 0);
	CHECK_STR(out, "u8");
	free(out);
	pa.type = NULL;
	bitfield = strdup("b5@3/32");
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, 0);
	CHECK_STR(out, "b5@3/32");
	CHECK(bitfield == NULL);
	free(out);
	die_find_member(&outer, "first", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	CHECK_INT(fetcharg_final_type(&pa, &loc, &type, &bitfield, &out), ==, 0);
	CHECK_STR(out, "s64");
	free(out);
	die_find_member(&outer, "count", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	out = fetcharg_basic_type(&type);
	CHECK_STR(out, "x32");
	free(out);
	die_find_member(&outer, "in", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	out = fetcharg_basic_type(&type);
	CHECK_STR(out, "x64");
	free(out);
	die_find_member(&outer, "arr", &member, &(long){ 0 });
	die_get_real_type(&member, &type);
	CHECK(fetcharg_basic_type(&type) == NULL);
}

static void test_closing_the_debuginfo_frees_it(void)
{
	debuginfo__delete(dbg);
	dbg = NULL;
}

TESTS(TEST(test_a_masked_register_is_the_register_read_narrow),
      TEST(test_a_stack_value_is_a_constant_or_a_register),
      TEST(test_a_loaded_value_is_the_memory_it_was_loaded_from),
      TEST(test_places_are_globals_frame_slots_and_registers),
      TEST(test_a_composite_value_settles_on_the_piece_of_its_member),
      TEST(test_a_part_of_a_register_stays_inside_it),
      TEST(test_converted_and_entry_values_need_their_dwarf),
      TEST(test_the_interpreter_tries_the_forms_in_order),
      TEST(test_the_frame_base_is_a_register_an_offset_or_the_cfa),
      TEST(test_an_offset_moves_the_outermost_reference),
      TEST(test_dwarf_aux_reads_members_arrays_and_type_names),
      TEST(test_member_steps_add_offsets_and_dereferences),
      TEST(test_array_steps_index_every_dimension),
      TEST(test_bitfields_are_typed_from_their_storage_unit),
      TEST(test_the_final_type_checks_strings_and_takes_bitfields),
      TEST(test_closing_the_debuginfo_frees_it));
