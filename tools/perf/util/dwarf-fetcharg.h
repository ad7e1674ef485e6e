/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DWARF_FETCHARG_H
#define PERF_UTIL_DWARF_FETCHARG_H

/*
 * One variable of the DWARF at one address into one fetcharg: its
 * location expression (per kind of DW_OP), the frame base, the member
 * and array steps of "a->b.c[2]", bitfields and the final type.
 *
 * Rules: it owns struct arg_loc (a value being built) and the fetcharg
 * spelling of a location; it does not find variables or places (the
 * finder does).  It calls dwarf-aux, libdw/libdwfl (CFI), probe-spec
 * (the argument and fetcharg types) and insn (does a register still hold
 * its entry value, for DW_OP_entry_value); only probe-finder calls it.  The
 * parts are exposed for the unit tests (tests/unit/test-dwarf-fetcharg.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct perf_probe_arg;
struct probe_trace_arg;
struct probe_trace_arg_ref;

/* Where a variable is converted: the place and what the output needs. */
struct fetcharg_ctx {
	Dwfl_Module *mod; /* its CFI gives the CFA */
	Dwarf_Addr addr;  /* the place */
	Dwarf_Die *func;  /* the subprogram holding addr (frame base, messages) */
	/* The file offset of a global's address (uprobes); NULL: "@SYM+OFF". */
	int (*global_offset)(void *ctx, uint64_t vaddr, uint64_t *offset);
	void *ctx;
};

/*
 * The frame base, as REG+OFF, asked for by DW_OP_fbreg: 0 or -errno.
 * @arg is the caller's.
 */
typedef int (*frame_base_fn)(void *arg, const char **reg, long *off);

/* A value being built: REG or a global, then dereferences. */
struct arg_loc {
	const char *arch; /* the register table (arch_regs name; NULL: the host) */
	const char *reg;  /* register fetcharg ("%di"), or NULL for a global */
	bool global;	  /* the memory at global_addr + global_off */
	Dwarf_Addr global_addr;
	long global_off;
	const char *global_name;
	char *constant;			  /* "\\N" of a DW_OP_lit/const value */
	int mask_bytes;			  /* the value read is masked to so many bytes */
	struct probe_trace_arg_ref *refs; /* innermost first */
	/*
	 * A composite location (DW_OP_piece: a Go or Rust struct in
	 * registers): its operations, and the byte offset into the value the
	 * member steps selected so far; arg_loc__settle() picks the piece.
	 */
	const Dwarf_Op *pieces;
	size_t npieces;
	long piece_off;
	/*
	 * The value is a part of the register, from this byte of it (a
	 * member of a small struct passed in a register): read as the
	 * bitfield b<BITS>@<8 * reg_off>/<register size>.
	 */
	long reg_off;
	frame_base_fn fb;
	void *fb_arg;
	/*
	 * Where the expression comes from, for the operations that name
	 * other DWARF (DW_OP_convert's type, DW_OP_entry_value's block):
	 * NULL for operations made by hand (the unit tests).
	 */
	const struct fetcharg_ctx *ctx;
	Dwarf_Attribute attr;
	/* DW_OP_entry_value of this register, which no longer holds it here. */
	const char *entry_gone;
};

/*
 * Turn a composite @loc into the piece holding its piece_off: 0, -ENOENT
 * (that piece is optimized out), -ENOTSUP (a form we can not fetch).  A
 * part inside a register piece sets reg_off.  A plain @loc is left as it is.
 */
int arg_loc__settle(struct arg_loc *loc);

/* Add a dereference at @offset outside the ones of @loc. */
void arg_loc__push(struct arg_loc *loc, long offset);

/*
 * Step @off bytes into a value of @size bytes held whole in a register
 * (no dereference yet): 0, or -ENOTSUP when @loc is no register or the
 * value does not fit in one.
 */
int arg_loc__reg_part(struct arg_loc *loc, long off, long size);

/* The size of @loc's registers in bits (64, 32 for i386). */
int arg_loc__reg_bits(const struct arg_loc *loc);

/* Free what @loc holds (constant, refs); the rest is left. */
void arg_loc__clear(struct arg_loc *loc);

/*
 * Add @off to the memory @loc refers to: 0, or -ENOTSUP on a register (see
 * arg_loc__reg_part() for a part of one).
 */
int arg_loc__add_offset(struct arg_loc *loc, long off);

/*
 * The parts of the location interpreter: each takes the operations of one
 * location expression and fills @loc (zeroed by the caller).  0 done,
 * -ENOTSUP a form it knows but can not fetch, 1 not its form.
 */

/* "bregN 0; litM/constM MASK; and; stack_value": the register, read narrow. */
int loc_from_masked_reg(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc);

/*
 * "X; stack_value": a constant ("\\N" in loc->constant), "bregN 0" (the
 * register), maybe narrowed by DW_OP_convert (read as wide as the type
 * then), or "entry_value(regN)": the register, where it still holds its
 * value of the function's entry (else -ENOTSUP and loc->entry_gone).
 */
int loc_from_stack_value(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc);

/* "bregN OFF; deref; [MASK; and;] stack_value": the memory at REG+OFF. */
int loc_from_deref_value(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc);

/*
 * "addr A", "fbreg N", "bregN OFF", "regN"/"regx N", each maybe with
 * "plus_uconst K": a global named @global_name, memory at the frame base
 * (from @fb, called only then) or a register's, a register.
 */
int loc_from_place(const Dwarf_Op *ops, size_t nops, const char *global_name, frame_base_fn fb,
		   void *fb_arg, struct arg_loc *loc);

/* The whole interpreter: the parts above in order.  0 or -ENOTSUP/-errno of @fb. */
int loc_from_ops(const Dwarf_Op *ops, size_t nops, const char *global_name, frame_base_fn fb,
		 void *fb_arg, struct arg_loc *loc);

/*
 * The frame base from the operations of DW_AT_frame_base: a register of
 * @arch (NULL: the host), REG+OFF, or the CFA (from @cfa).  0, -ENOENT (none), -ENOTSUP.
 */
int frame_base_from_ops(const char *arch, const Dwarf_Op *ops, size_t nops, frame_base_fn cfa,
			void *cfa_arg, const char **reg, long *off);

/*
 * "[N]" applied to @type (an array or a pointer) at @loc; *@dim counts
 * the dimensions of a multi-dimensional array indexed so far.  *@type
 * becomes the element once all are.  0, or -EINVAL/-ENOTSUP after one
 * message naming @prev (the expression so far).
 */
int field_array_step(struct arg_loc *loc, Dwarf_Die *type, long index, int *dim, const char *prev);

/*
 * ".NAME" (@ref false) or "->NAME" applied to @type at @loc: the member
 * in *@member, its type in *@type.  0, or -EINVAL/-ENOTSUP after one
 * message.
 */
int field_member_step(struct arg_loc *loc, Dwarf_Die *type, const char *name, bool ref,
		      const char *prev, Dwarf_Die *member);

/*
 * The fetch type "bBITS@OFF/SIZE" of bitfield @member of type @mtype (a
 * new string; DWARF 5 moves @loc to the storage unit), NULL when @member
 * is not a bitfield.
 */
char *member_bitfield_type(struct arg_loc *loc, Dwarf_Die *member, Dwarf_Die *mtype);

/*
 * The fetch type of a value of @type read as @pa asks: its :TYPE (for
 * "string" @type must be a pointer to or array of char, a pointer gets
 * one more dereference), *@bitfield (taken), else the basic type of
 * @type.  0 and a new *@out, or -EINVAL after one message.
 */
int fetcharg_final_type(const struct perf_probe_arg *pa, struct arg_loc *loc, Dwarf_Die *type,
			char **bitfield, char **out);

/* The fetcharg type perf gives a value of @type ("s32", "x64"), NULL when none. */
char *fetcharg_basic_type(Dwarf_Die *type);

/*
 * The location of variable @var at @c's place into @loc: -ENOENT when it
 * has none there (optimized out), -ENOTSUP for an expression we can not
 * turn into a fetcharg.
 */
int fetcharg__location(const struct fetcharg_ctx *c, Dwarf_Die *var, struct arg_loc *loc);

/*
 * Convert variable @var (a DIE) for argument @pa into @ta (name, value,
 * refs, type; new strings).  0, or -errno after one message.
 */
int fetcharg__convert(const struct fetcharg_ctx *c, const struct perf_probe_arg *pa, Dwarf_Die *var,
		      struct probe_trace_arg *ta);

/*
 * A variable of $vars/$params into @ta, silently: true when it lives
 * somewhere here (not a constant) and converts.
 */
bool fetcharg__plain_var(const struct fetcharg_ctx *c, Dwarf_Die *var, struct probe_trace_arg *ta);

#endif
