// SPDX-License-Identifier: GPL-2.0
/* One DWARF variable into one fetcharg (see dwarf-fetcharg.h). */
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/debug.h"
#include "util/dwarf-aux.h"
#include "util/dwarf-fetcharg.h"
#include "util/insn.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/util.h"

void arg_loc__push(struct arg_loc *loc, long offset)
{
	struct probe_trace_arg_ref *r = xzalloc(sizeof(*r)), **p = &loc->refs;

	r->offset = offset;
	while (*p)
		p = &(*p)->next;
	*p = r;
}

static struct probe_trace_arg_ref *arg_loc__outer(struct arg_loc *loc)
{
	struct probe_trace_arg_ref *r = loc->refs;

	while (r && r->next)
		r = r->next;
	return r;
}

void arg_loc__clear(struct arg_loc *loc)
{
	free(loc->constant);
	loc->constant = NULL;
	while (loc->refs) {
		struct probe_trace_arg_ref *n = loc->refs->next;

		free(loc->refs);
		loc->refs = n;
	}
}

int arg_loc__add_offset(struct arg_loc *loc, long off)
{
	struct probe_trace_arg_ref *r = arg_loc__outer(loc);

	if (r)
		r->offset += off;
	else if (loc->global)
		loc->global_off += off;
	else
		return -ENOTSUP;
	return 0;
}

int arg_loc__reg_bits(const struct arg_loc *loc)
{
	return loc->arch && !strcmp(loc->arch, "i386") ? 32 : 64;
}

int arg_loc__reg_part(struct arg_loc *loc, long off, long size)
{
	if (!loc->reg || loc->refs || loc->global || loc->constant || off < 0 || size <= 0 ||
	    (loc->reg_off + off + size) * 8 > arg_loc__reg_bits(loc))
		return -ENOTSUP;
	loc->reg_off += off;
	return 0;
}

/* DW_OP_breg<N>/bregx as a register and offset. */
static bool op_breg(const char *arch, const Dwarf_Op *op, const char **reg, long *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = dwarf_reg_name(arch, op->atom - DW_OP_breg0);
		*off = (long)op->number;
	} else if (op->atom == DW_OP_bregx) {
		*reg = dwarf_reg_name(arch, (unsigned int)op->number);
		*off = (long)op->number2;
	} else {
		return false;
	}
	return *reg != NULL;
}

int loc_from_masked_reg(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc)
{
	if (nops != 4 || ops[0].atom < DW_OP_breg0 || ops[0].atom > DW_OP_breg31 || ops[0].number ||
	    ops[2].atom != DW_OP_and || ops[3].atom != DW_OP_stack_value ||
	    (ops[1].number != 0xff && ops[1].number != 0xffff && ops[1].number != 0xffffffff))
		return 1;
	/*
	 * A register masked to its low bytes: the register, read as wide as
	 * the type.  (perf 6.1 reads the memory it points to.)
	 */
	loc->mask_bytes = ops[1].number == 0xff ? 1 : ops[1].number == 0xffff ? 2 : 4;
	loc->reg = dwarf_reg_name(loc->arch, ops[0].atom - DW_OP_breg0);
	return loc->reg ? 0 : -ENOTSUP;
}

/*
 * The register of "DW_OP_entry_value(regN)" when it still holds its value
 * of the entry of the function at the place: at the entry itself, or when
 * nothing on the way there changes it (insn.c reads the code).
 */
static int entry_value_reg(struct arg_loc *loc, const Dwarf_Op *op, const char **reg)
{
	const struct fetcharg_ctx *c = loc->ctx;
	Dwarf_Attribute block;
	Dwarf_Op *sub;
	size_t nsub;
	Dwarf_Addr entry, base, lo, hi;
	uint64_t ranges[16][2];
	const char *path = NULL;
	ptrdiff_t off = 0;
	int n = 0;

	if (!c || dwarf_getlocation_attr(&loc->attr, op, &block) ||
	    dwarf_getlocation(&block, &sub, &nsub) || nsub != 1)
		return -ENOTSUP;
	if (sub[0].atom >= DW_OP_reg0 && sub[0].atom <= DW_OP_reg31)
		*reg = dwarf_reg_name(loc->arch, sub[0].atom - DW_OP_reg0);
	else if (sub[0].atom == DW_OP_regx)
		*reg = dwarf_reg_name(loc->arch, (unsigned int)sub[0].number);
	else
		return -ENOTSUP;
	if (!*reg || !c->func || !die_func_entry(c->func, &entry))
		return -ENOTSUP;
	if (c->addr == entry)
		return 0;
	while (n < 16 && (off = dwarf_ranges(c->func, off, &base, &lo, &hi)) > 0) {
		ranges[n][0] = lo;
		ranges[n++][1] = hi;
	}
	if (off > 0 || !n || !dwfl_module_getelf(c->mod, &base))
		return -ENOTSUP;
	dwfl_module_info(c->mod, NULL, NULL, NULL, NULL, NULL, &path, NULL);
	if (path && insn__reg_unchanged(path, (const uint64_t(*)[2])ranges, n, entry, c->addr,
					*reg + 1) == 1)
		return 0;
	loc->entry_gone = *reg;
	return -ENOTSUP;
}

/* The narrowest DW_OP_convert of ops[0..nops): its bytes, 8 for none. */
static int convert_bytes(struct arg_loc *loc, const Dwarf_Op *ops, size_t nops)
{
	int bytes = 8;

	for (size_t i = 0; i < nops; i++) {
		Dwarf_Die t;
		int size = 8;

		if (ops[i].atom != DW_OP_convert && ops[i].atom != DW_OP_GNU_convert)
			return -1;
		if (ops[i].number && (!loc->ctx || dwarf_getlocation_die(&loc->attr, &ops[i], &t) ||
				      (size = dwarf_bytesize(&t)) <= 0))
			return -1;
		if (size < bytes)
			bytes = size;
	}
	return bytes;
}

int loc_from_stack_value(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc)
{
	/* A value, not a place: a constant, or a register as it is. */
	uint8_t op;
	struct strbuf sb = STRBUF_INIT;

	if (nops < 2 || ops[nops - 1].atom != DW_OP_stack_value)
		return 1;
	op = ops[0].atom;
	if (nops > 2) {
		/*
		 * A register narrowed by DW_OP_convert (clang), maybe shifted
		 * right by whole bytes first: the part of it from that byte.
		 */
		size_t first = 1;
		long shift = 0;
		int bytes;

		if (nops > 4 && ops[2].atom == DW_OP_shr &&
		    ((ops[1].atom >= DW_OP_lit0 && ops[1].atom <= DW_OP_lit31) ||
		     ops[1].atom == DW_OP_constu || ops[1].atom == DW_OP_const1u)) {
			shift = ops[1].atom == DW_OP_constu || ops[1].atom == DW_OP_const1u
					? (long)ops[1].number
					: ops[1].atom - DW_OP_lit0;
			first = 3;
		}
		for (size_t i = first; i < nops - 1; i++)
			if (ops[i].atom != DW_OP_convert && ops[i].atom != DW_OP_GNU_convert)
				return 1; /* not this form: a load, a computation */
		bytes = convert_bytes(loc, ops + first, nops - first - 1);
		if (bytes < 0 || op < DW_OP_breg0 || op > DW_OP_breg31 || ops[0].number ||
		    shift % 8 || shift >= 64 || (first == 3 && bytes == 8))
			return -ENOTSUP;
		loc->reg = dwarf_reg_name(loc->arch, op - DW_OP_breg0);
		loc->reg_off = shift / 8;
		if (bytes < 8)
			loc->mask_bytes = (int)loc->reg_off + bytes;
		return loc->reg ? 0 : -ENOTSUP;
	}
	if (op == DW_OP_entry_value || op == DW_OP_GNU_entry_value)
		return entry_value_reg(loc, &ops[0], &loc->reg);
	if (op >= DW_OP_lit0 && op <= DW_OP_lit31)
		strbuf_addf(&sb, "\\%d", op - DW_OP_lit0);
	else if (op == DW_OP_const1s || op == DW_OP_const2s || op == DW_OP_const4s ||
		 op == DW_OP_const8s || op == DW_OP_consts)
		strbuf_addf(&sb, "\\%" PRId64, (int64_t)ops[0].number);
	else if (op == DW_OP_const1u || op == DW_OP_const2u || op == DW_OP_const4u ||
		 op == DW_OP_const8u || op == DW_OP_constu)
		strbuf_addf(&sb, "\\%" PRIu64, (uint64_t)ops[0].number);
	else if (op >= DW_OP_breg0 && op <= DW_OP_breg31 && ops[0].number == 0 &&
		 dwarf_reg_name(loc->arch, op - DW_OP_breg0))
		loc->reg = dwarf_reg_name(loc->arch, op - DW_OP_breg0);
	if (!sb.len)
		return loc->reg ? 0 : -ENOTSUP;
	loc->constant = strbuf_detach(&sb, NULL);
	return 0;
}

int loc_from_deref_value(const Dwarf_Op *ops, size_t nops, struct arg_loc *loc)
{
	if (nops < 3 || ops[0].atom < DW_OP_breg0 || ops[0].atom > DW_OP_breg31 ||
	    ops[1].atom != DW_OP_deref || ops[nops - 1].atom != DW_OP_stack_value)
		return 1;
	/*
	 * The value loaded from REG+OFF, maybe masked (a short passed in
	 * pt_regs): the memory at REG+OFF, read as wide as the type, when the
	 * mask keeps at least that much.
	 */
	if (nops == 5 && ops[3].atom == DW_OP_and &&
	    (ops[2].number == 0xff || ops[2].number == 0xffff || ops[2].number == 0xffffffff))
		loc->mask_bytes = ops[2].number == 0xff ? 1 : ops[2].number == 0xffff ? 2 : 4;
	else if (nops != 3)
		return -ENOTSUP;
	loc->reg = dwarf_reg_name(loc->arch, ops[0].atom - DW_OP_breg0);
	if (!loc->reg)
		return -ENOTSUP;
	arg_loc__push(loc, (long)ops[0].number);
	return 0;
}

int loc_from_place(const Dwarf_Op *ops, size_t nops, const char *global_name, frame_base_fn fb,
		   void *fb_arg, struct arg_loc *loc)
{
	long extra;
	uint8_t op;

	if (nops != 1 && (nops != 2 || ops[1].atom != DW_OP_plus_uconst))
		return 1;
	extra = nops == 2 ? (long)ops[1].number : 0;
	op = ops[0].atom;
	if (op == DW_OP_addr) {
		loc->global = true;
		loc->global_addr = ops[0].number;
		loc->global_off = extra;
		loc->global_name = global_name;
		return 0;
	}
	if (op == DW_OP_fbreg) {
		const char *reg;
		long off;
		int ret = fb(fb_arg, &reg, &off);

		if (ret)
			return ret;
		loc->reg = reg;
		arg_loc__push(loc, off + (long)ops[0].number + extra);
		return 0;
	}
	if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
		loc->reg = dwarf_reg_name(loc->arch, op - DW_OP_breg0);
		if (!loc->reg)
			return -ENOTSUP;
		arg_loc__push(loc, (long)ops[0].number + extra);
		return 0;
	}
	if ((op >= DW_OP_reg0 && op <= DW_OP_reg31) || op == DW_OP_regx) {
		loc->reg = dwarf_reg_name(loc->arch, op == DW_OP_regx
							     ? (unsigned int)ops[0].number
							     : (unsigned int)(op - DW_OP_reg0));
		return loc->reg && !extra ? 0 : -ENOTSUP;
	}
	return 1;
}

int loc_from_ops(const Dwarf_Op *ops, size_t nops, const char *global_name, frame_base_fn fb,
		 void *fb_arg, struct arg_loc *loc)
{
	int ret = loc_from_masked_reg(ops, nops, loc);

	if (ret == 1)
		ret = loc_from_stack_value(ops, nops, loc);
	if (ret == 1)
		ret = loc_from_deref_value(ops, nops, loc);
	if (ret == 1)
		ret = loc_from_place(ops, nops, global_name, fb, fb_arg, loc);
	return ret == 1 ? -ENOTSUP : ret;
}

int arg_loc__settle(struct arg_loc *loc)
{
	const Dwarf_Op *ops = loc->pieces;
	size_t nops = loc->npieces, start = 0;
	long at = 0, want = loc->piece_off;
	int ret;

	if (!ops)
		return 0;
	loc->pieces = NULL;
	for (size_t i = 0; i < nops; i++) {
		long size, within = want - at;

		if (ops[i].atom != DW_OP_piece)
			continue;
		size = (long)ops[i].number;
		if (within < 0 || within >= size) {
			at += size;
			start = i + 1;
			continue;
		}
		if (i == start)
			return -ENOENT; /* an empty piece: that part is gone */
		ret = loc_from_ops(ops + start, i - start, NULL, loc->fb, loc->fb_arg, loc);
		if (ret)
			return ret;
		if (!within)
			return 0;
		/* A part inside the piece: in memory, or bits of the register. */
		if (loc->refs || loc->global)
			return arg_loc__add_offset(loc, within);
		return arg_loc__reg_part(loc, within, 1);
	}
	return -ENOENT;
}

int frame_base_from_ops(const char *arch, const Dwarf_Op *ops, size_t nops, frame_base_fn cfa,
			void *cfa_arg, const char **reg, long *off)
{
	if (nops < 1)
		return -ENOENT;
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa(cfa_arg, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = dwarf_reg_name(arch, ops[0].atom - DW_OP_breg0);
		*off = (long)ops[0].number;
		return *reg ? 0 : -ENOTSUP;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = dwarf_reg_name(arch, ops[0].atom - DW_OP_reg0);
		*off = 0;
		return *reg ? 0 : -ENOTSUP;
	}
	return -ENOTSUP;
}

/* The CFA at the place as REG+OFF, from the CFI of the module. */
static int place_cfa(void *arg, const char **reg, long *off)
{
	const struct fetcharg_ctx *c = arg;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi[2] = { dwfl_module_eh_cfi(c->mod, &bias),
			      dwfl_module_dwarf_cfi(c->mod, &bias) };

	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame;
		Dwarf_Op *cops;
		size_t ncops;
		int ok;

		/* libdw's CFI takes the addresses of the file, unbiased. */
		if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], c->addr, &frame))
			continue;
		ok = !dwarf_frame_cfa(frame, &cops, &ncops) && ncops == 1 &&
		     op_breg(dwfl_module_arch(c->mod), &cops[0], reg, off);
		free(frame);
		if (ok)
			return 0;
	}
	return -ENOENT;
}

/* The frame base of the place's function as REG+OFF (CFA through CFI). */
static int place_frame_base(void *arg, const char **reg, long *off)
{
	const struct fetcharg_ctx *c = arg;
	Dwarf_Attribute attr;
	Dwarf_Op *ops, block[8];
	size_t nops;

	if (!dwarf_attr(c->func, DW_AT_frame_base, &attr))
		return -ENOENT;
	if (dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1) != 1) {
		/* Go's DWARF 4 block form, which libdw does not take. */
		if (!die_block_ops(&attr, block, sizeof(block) / sizeof(block[0]), &nops))
			return -ENOENT;
		ops = block;
	}
	return frame_base_from_ops(dwfl_module_arch(c->mod), ops, nops, place_cfa, arg, reg, off);
}

/* For telling forms apart only: any frame base will do. */
static int place_frame_base_probe(void *arg, const char **reg, long *off)
{
	*reg = "%sp";
	*off = 0;
	return 0;
}

/*
 * DW_OP_addrx (DWARF 5, clang) and DW_OP_GNU_addr_index name the address
 * by its index in .debug_addr: into @copy as the DW_OP_addr it stands for.
 * False when @ops has none (or more than @copy holds: left as it is).
 */
static bool resolve_addrx(Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t nops, Dwarf_Op *copy,
			  size_t max)
{
	bool any = false;

	if (nops > max)
		return false;
	for (size_t i = 0; i < nops; i++) {
		Dwarf_Attribute res;
		Dwarf_Addr a;

		copy[i] = ops[i];
		if (ops[i].atom != DW_OP_addrx && ops[i].atom != DW_OP_GNU_addr_index)
			continue;
		if (dwarf_getlocation_attr(attr, &ops[i], &res) || dwarf_formaddr(&res, &a))
			return false;
		copy[i].atom = DW_OP_addr;
		copy[i].number = a;
		any = true;
	}
	return any;
}

/*
 * A variable with no location but DW_AT_const_value (clang's inlined
 * copies, Rust): the value itself.  Integers only; -ENOENT without one.
 */
static int const_value(Dwarf_Die *var, struct arg_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	Dwarf_Word enc = 0, u;
	Dwarf_Sword sv;
	struct strbuf sb = STRBUF_INIT;
	bool is_signed;

	if (!dwarf_attr(var, DW_AT_const_value, &attr))
		return -ENOENT;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_implicit_const:
		break;
	default:
		return -ENOTSUP; /* a block: a struct or a string */
	}
	if (die_get_real_type(var, &type) && dwarf_tag(&type) == DW_TAG_base_type)
		die_get_udata(&type, DW_AT_encoding, &enc);
	is_signed = dwarf_whatform(&attr) == DW_FORM_sdata || enc == DW_ATE_signed ||
		    enc == DW_ATE_signed_char;
	if (is_signed && !dwarf_formsdata(&attr, &sv)) {
		/* data1..8 of a signed type: the value as wide as the type */
		int size = dwarf_bytesize(&type);

		if (dwarf_whatform(&attr) != DW_FORM_sdata && size > 0 && size < 8)
			sv = (Dwarf_Sword)((uint64_t)sv << (64 - size * 8)) >> (64 - size * 8);
		strbuf_addf(&sb, "\\%" PRId64, (int64_t)sv);
	} else if (!dwarf_formudata(&attr, &u)) {
		strbuf_addf(&sb, "\\%" PRIu64, (uint64_t)u);
	} else {
		return -ENOTSUP;
	}
	loc->constant = strbuf_detach(&sb, NULL);
	return 0;
}

int fetcharg__location(const struct fetcharg_ctx *c, Dwarf_Die *var, struct arg_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops, copy[8], block[8];
	size_t nops;
	int n;

	memset(loc, 0, sizeof(*loc));
	loc->arch = dwfl_module_arch(c->mod);
	if (!dwarf_attr(var, DW_AT_location, &attr))
		return const_value(var, loc);
	loc->ctx = c;
	loc->attr = attr;
	n = dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1);
	if (n < 0 && die_block_ops(&attr, block, sizeof(block) / sizeof(block[0]), &nops)) {
		/* Go's DWARF 4 block form: one expression for the whole scope. */
		ops = block;
		n = 1;
	}
	if (n <= 0 || nops == 0)
		return -ENOENT;
	if (resolve_addrx(&attr, ops, nops, copy, sizeof(copy) / sizeof(copy[0])))
		ops = copy;
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		/* Go -N: the variable is stored at the CFA itself. */
		const char *reg;
		long off;

		if (place_cfa((void *)c, &reg, &off))
			return -ENOTSUP;
		loc->reg = reg;
		arg_loc__push(loc, off);
		return 0;
	}
	/* (pieces are kept by reference: libdw's own operations only) */
	for (size_t i = 0; i < nops && ops != copy && ops != block; i++) {
		if (ops[i].atom != DW_OP_piece)
			continue;
		/* Pieces: the one to read is known once the members are walked. */
		loc->pieces = ops;
		loc->npieces = nops;
		loc->fb = place_frame_base;
		loc->fb_arg = (void *)c;
		return 0;
	}
	return loc_from_ops(ops, nops, dwarf_diename(var), place_frame_base, (void *)c, loc);
}

static const char *type_name_for_msg(Dwarf_Die *type)
{
	const char *n = dwarf_diename(type);

	return n ? n : "(unnamed)";
}

char *fetcharg_basic_type(Dwarf_Die *type)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Word enc = 0;
	int size, tag = dwarf_tag(type);

	if (die_is_struct_type(type)) {
		/* perf reads a struct as its first bits, at most 64. */
		size = dwarf_bytesize(type);
		if (size <= 0)
			return NULL;
		if (size > 8) {
			pr_warning("%s exceeds max-bitwidth. Cut down to 64 bits.\n",
				   type_name_for_msg(type));
			size = 8;
		}
		strbuf_addf(&sb, "x%d", size * 8);
		return strbuf_detach(&sb, NULL);
	}
	if (tag != DW_TAG_base_type && tag != DW_TAG_pointer_type &&
	    tag != DW_TAG_enumeration_type && !die_is_reference_type(type))
		return NULL;
	size = dwarf_bytesize(type);
	if (size <= 0)
		size = tag == DW_TAG_enumeration_type ? 4 : 8;
	if (tag == DW_TAG_base_type)
		die_get_udata(type, DW_AT_encoding, &enc);
	strbuf_addf(&sb, "%c%d", enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' : 'x',
		    size * 8);
	return strbuf_detach(&sb, NULL);
}

int field_array_step(struct arg_loc *loc, Dwarf_Die *type, long index, int *dim, const char *prev)
{
	int tag = dwarf_tag(type);
	Dwarf_Die elem;

	if (tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) {
		pr_err("%s is not an array nor a pointer.\n", prev);
		return -EINVAL;
	}
	if (!die_get_real_type(type, &elem)) {
		pr_err("%s has an element of unknown type.\n", prev);
		return -EINVAL;
	}
	if (tag == DW_TAG_array_type) {
		Dwarf_Word counts[8];
		int ndims = die_array_dims(type, counts, 8);
		long stride = die_elem_size(&elem);

		/* int a[2][3]: a[1] is the int[3] at +12. */
		for (int d = *dim + 1; d < ndims; d++)
			stride *= (long)counts[d];
		if (arg_loc__add_offset(loc, index * stride)) {
			pr_err("An array on a register is not supported (%s).\n", prev);
			return -ENOTSUP;
		}
		if (*dim + 1 < ndims) {
			++*dim;
			return 0;
		}
		*dim = 0;
	} else {
		Dwarf_Word agg = 0;
		int esize = dwarf_bytesize(&elem);

		if (esize <= 0)
			esize = dwarf_aggregate_size(&elem, &agg) ? 0 : (int)agg;
		arg_loc__push(loc, index * esize);
	}
	*type = elem;
	return 0;
}

/* Offset a value by @off bytes: into its pieces, or the memory it is in. */
static int loc_add_member_offset(struct arg_loc *loc, long off)
{
	if (loc->pieces) {
		loc->piece_off += off;
		return 0;
	}
	return arg_loc__add_offset(loc, off);
}

/* Follow the pointer or reference @loc holds: one more dereference. */
static int loc_deref(struct arg_loc *loc)
{
	int ret = arg_loc__settle(loc);

	if (ret)
		return ret;
	if (loc->reg_off || loc->mask_bytes)
		return -EDOM; /* a fetcharg dereferences a whole register only */
	arg_loc__push(loc, 0);
	return 0;
}

int field_member_step(struct arg_loc *loc, Dwarf_Die *type, const char *name, bool ref,
		      const char *prev, Dwarf_Die *member)
{
	int tag = dwarf_tag(type);
	Dwarf_Die mtype;
	long off;
	int ret;

	if (tag == DW_TAG_pointer_type || die_is_reference_type(type)) {
		Dwarf_Die target;

		/*
		 * A C++ reference is followed by "." (and "->", as perf users
		 * write it); Rust and Go follow pointers with "." too.
		 */
		if (!ref && tag == DW_TAG_pointer_type && !die_lang_auto_deref(type)) {
			pr_err("Semantic error: %s must be referred by '->'\n", name);
			return -EINVAL;
		}
		if (!die_get_real_type(type, &target)) {
			pr_err("%s is not a data structure nor a union.\n", prev);
			return -EINVAL;
		}
		*type = target;
		if (!die_is_struct_type(type)) {
			pr_err("%s is not a data structure nor a union.\n", prev);
			return -EINVAL;
		}
		ret = loc_deref(loc);
		if (ret == -EDOM) {
			pr_err("%s is a part of a register here, which a fetcharg can not dereference.\n",
			       prev);
			return -ENOTSUP;
		}
		if (ret) {
			pr_err("%s is not available here (a part of it is optimized out).\n", prev);
			return ret;
		}
	} else if (die_is_struct_type(type)) {
		if (ref) {
			pr_err("Semantic error: %s is not a pointer.\n", prev);
			return -EINVAL;
		}
	} else {
		pr_err("%s is not a data structure nor a union.\n", prev);
		return -EINVAL;
	}
	if (!die_find_member(type, name, member, &off)) {
		pr_err("%s(type:%s) has no member %s.\n", prev, type_name_for_msg(type), name);
		return -EINVAL;
	}
	if (!die_get_real_type(member, &mtype)) {
		pr_err("%s has no type.\n", name);
		return -EINVAL;
	}
	/* A static member is not in the object: the caller takes its definition. */
	/*
	 * A struct held in a register (passed by value, a Rust closure's
	 * environment): its members are parts of that register.
	 */
	if (!die_member_is_static(member) && loc_add_member_offset(loc, off) &&
	    arg_loc__reg_part(loc, off, die_elem_size(&mtype))) {
		pr_err("%s is in a register, and %s does not fit in it at +%ld.\n", prev, name,
		       off);
		return -ENOTSUP;
	}
	*type = mtype;
	return 0;
}

char *member_bitfield_type(struct arg_loc *loc, Dwarf_Die *member, Dwarf_Die *mtype)
{
	Dwarf_Word bits = 0, boff = 0, bsize;
	int size = dwarf_bytesize(mtype);
	struct strbuf sb = STRBUF_INIT;
	long unit;

	if (!dwarf_hasattr(member, DW_AT_bit_size))
		return NULL;
	die_get_udata(member, DW_AT_bit_size, &bits);
	if (size <= 0)
		size = 4;
	bsize = (Dwarf_Word)size * 8;
	if (die_get_udata(member, DW_AT_data_bit_offset, &boff)) {
		/* DWARF 5: bits from the start of the struct. */
		unit = (long)(boff / bsize) * size;
		/* Relative to the struct holding it: off is that one's. */
		if (arg_loc__add_offset(loc, unit))
			arg_loc__reg_part(loc, unit, size);
		boff -= (Dwarf_Word)unit * 8;
	} else {
		Dwarf_Word be = 0;

		/* DWARF 4 counts from the storage unit's top bit. */
		die_get_udata(member, DW_AT_bit_offset, &be);
		boff = bsize - be - bits;
	}
	strbuf_addf(&sb, "b%" PRIu64 "@%" PRIu64 "/%" PRIu64, (uint64_t)bits, (uint64_t)boff,
		    (uint64_t)bsize);
	return strbuf_detach(&sb, NULL);
}

/*
 * Walk the member chain of @pa from @loc/@type.  The bitfield of the last
 * member goes to *@bitfield.  -EINVAL after one message.
 */
static int walk_fields(const struct fetcharg_ctx *c, const struct perf_probe_arg *pa,
		       struct arg_loc *loc, Dwarf_Die *type, char **bitfield)
{
	const char *prev = pa->var;
	int dim = 0; /* dimensions of a multi-dimensional array indexed so far */

	for (const struct perf_probe_arg_field *f = pa->field; f; f = f->next) {
		Dwarf_Die member;
		int ret;

		if (f->name[0] == '[') {
			ret = arg_loc__settle(loc);
			if (ret) {
				pr_err("%s is not available here (a part of it is optimized out).\n",
				       prev);
				return ret;
			}
			ret = field_array_step(loc, type, f->index, &dim, prev);
			if (ret)
				return ret;
			continue;
		}
		ret = field_member_step(loc, type, f->name, f->ref, prev, &member);
		if (ret)
			return ret;
		if (die_member_is_static(&member)) {
			/* C++ "this->count" of a static member: the global it is. */
			Dwarf_Die def;

			arg_loc__clear(loc);
			if (!die_find_static_member_definition(&member, &def) ||
			    fetcharg__location(c, &def, loc)) {
				pr_err("The static member %s has no definition here.\n", f->name);
				return -ENOENT;
			}
			if (!loc->global_name)
				loc->global_name = f->name;
		}
		free(*bitfield);
		*bitfield = member_bitfield_type(loc, &member, type);
		prev = f->name;
	}
	return 0;
}

/*
 * The pointer to the characters of a string object of @type (a struct):
 * libstdc++'s std::string (_M_dataplus._M_p), Rust's &str (data_ptr), Go's
 * string (str).  Its offset in the object in *@off and its type in *@ptr,
 * all from the DWARF; false when @type is none of them.
 */
static bool string_object_pointer(Dwarf_Die *type, long *off, Dwarf_Die *ptr)
{
	static const char *const paths[][2] = {
		{ "_M_dataplus", "_M_p" }, /* C++, libstdc++ */
		{ "data_ptr", NULL },	   /* Rust &str */
		{ "str", NULL },	   /* Go string */
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		Dwarf_Die t = *type, m, elem;
		long total = 0, o;
		bool ok = true;

		for (int j = 0; j < 2 && paths[i][j] && ok; j++) {
			ok = die_is_struct_type(&t) && die_find_member(&t, paths[i][j], &m, &o) &&
			     !die_member_is_static(&m) && die_get_real_type(&m, &t);
			total += o;
		}
		if (ok && dwarf_tag(&t) == DW_TAG_pointer_type && die_get_real_type(&t, &elem) &&
		    die_is_char_type(&elem)) {
			*off = total;
			*ptr = t;
			return true;
		}
	}
	return false;
}

/* A string of @type at @loc: through a reference, a string object, a pointer. */
static int string_fetch(const struct perf_probe_arg *pa, struct arg_loc *loc, Dwarf_Die *type)
{
	Dwarf_Die elem, ptr;
	long off;
	int tag = dwarf_tag(type), ret = 0;

	if (die_is_reference_type(type) && die_get_real_type(type, &elem) &&
	    die_is_struct_type(&elem)) {
		/* const std::string &s */
		ret = loc_deref(loc);
		*type = elem;
		tag = dwarf_tag(type);
	}
	if (!ret && die_is_struct_type(type) && string_object_pointer(type, &off, &ptr)) {
		ret = loc_add_member_offset(loc, off);
		if (ret) {
			pr_err("Failed to cast into string: %s is on a register.\n", pa->var);
			return -EINVAL;
		}
		*type = ptr;
		tag = DW_TAG_pointer_type;
	}
	if (!ret)
		ret = arg_loc__settle(loc);
	if (ret) {
		pr_err("Failed to cast into string: %s is not available here (optimized out).\n",
		       pa->var);
		return ret == -ENOENT ? -ENOENT : -EINVAL;
	}
	if (die_is_struct_type(type) && dwarf_hasattr(type, DW_AT_declaration)) {
		/* clang -O0 leaves std::string to libstdc++'s own debuginfo. */
		pr_err("Failed to cast into string: %s is a %s whose layout the DWARF does not give (only declared).\n",
		       pa->var, type_name_for_msg(type));
		return -EINVAL;
	}
	if ((tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) ||
	    !die_get_real_type(type, &elem) || !die_is_char_type(&elem)) {
		pr_err("Failed to cast into string: %s is not a pointer nor array of char.\n",
		       pa->var);
		return -EINVAL;
	}
	if (tag == DW_TAG_pointer_type) {
		arg_loc__push(loc, 0);
	} else if (!loc->refs && !loc->global) {
		pr_err("Failed to cast into string: %s is on a register.\n", pa->var);
		return -EINVAL;
	}
	return 0;
}

int fetcharg_final_type(const struct perf_probe_arg *pa, struct arg_loc *loc, Dwarf_Die *type,
			char **bitfield, char **out)
{
	int ret;

	if (pa->type && (!strcmp(pa->type, "string") || !strcmp(pa->type, "ustring"))) {
		/* A user-space string is read the same way: through the pointer. */
		ret = string_fetch(pa, loc, type);
		if (!ret && (loc->reg_off || loc->mask_bytes)) {
			/* The pointer would be a part of a register or of a value. */
			pr_err("Failed to cast into string: %s is a part of a register here.\n",
			       pa->var);
			ret = -EINVAL;
		}
		if (ret)
			return ret;
		*out = xstrdup(pa->type);
		return 0;
	}
	ret = arg_loc__settle(loc);
	if (ret) {
		pr_err("%s is not available here (a part of it is optimized out).\n", pa->var);
		return ret;
	}
	if (loc->mask_bytes &&
	    (dwarf_bytesize(type) <= 0 || loc->reg_off + dwarf_bytesize(type) > loc->mask_bytes)) {
		/* Only the low bytes of the register are the value. */
		pr_err("Sorry, we don't support this variable location yet.\n");
		return -ENOTSUP;
	}
	if (loc->reg_off) {
		/* Bits of a register: the bitfield the kernel reads them by. */
		unsigned int w = (unsigned int)die_elem_size(type) * 8, o = 0, sz;

		if (pa->type) {
			struct strbuf expr = STRBUF_INIT;

			strbuf_addstr(&expr, pa->var);
			for (const struct perf_probe_arg_field *f = pa->field; f; f = f->next)
				strbuf_addf(&expr, "%s%s",
					    f->name[0] == '[' ? ""
					    : f->ref	      ? "->"
							      : ".",
					    f->name);
			pr_err("%s is bits %ld-%ld of %s here: read as a bitfield, not as :%s.\n",
			       expr.buf, loc->reg_off * 8, loc->reg_off * 8 + w - 1, loc->reg,
			       pa->type);
			strbuf_release(&expr);
			return -EINVAL;
		}
		if (*bitfield && sscanf(*bitfield, "b%u@%u/%u", &w, &o, &sz) != 3)
			return -ENOTSUP;
		if (asprintf(out, "b%u@%u/%d", w, o + (unsigned int)loc->reg_off * 8,
			     arg_loc__reg_bits(loc)) < 0)
			return -ENOMEM;
		return 0;
	}
	if (pa->type) {
		*out = xstrdup(pa->type);
	} else if (*bitfield) {
		*out = *bitfield;
		*bitfield = NULL;
	} else {
		*out = fetcharg_basic_type(type);
	}
	return 0;
}

/* Turn @loc into the value and refs of @ta (they move). */
static int loc_to_trace_arg(const struct fetcharg_ctx *c, struct arg_loc *loc,
			    struct probe_trace_arg *ta)
{
	struct strbuf sb = STRBUF_INIT;

	if (loc->global) {
		uint64_t foff;

		if (c->global_offset) {
			if (c->global_offset(c->ctx, loc->global_addr + (uint64_t)loc->global_off,
					     &foff)) {
				pr_err("The address of %s is not in the file.\n", loc->global_name);
				return -ERANGE;
			}
			strbuf_addf(&sb, "@+0x%" PRIx64, foff);
		} else {
			strbuf_addf(&sb, "@%s%+ld", loc->global_name, loc->global_off);
		}
		ta->value = strbuf_detach(&sb, NULL);
	} else if (loc->constant) {
		ta->value = loc->constant;
		loc->constant = NULL;
	} else {
		ta->value = xstrdup(loc->reg);
	}
	ta->ref = loc->refs;
	loc->refs = NULL;
	return 0;
}

/* perf's words for a variable with no location here, and where it does live. */
static void optimized_out_message(const struct fetcharg_ctx *c, const char *name, Dwarf_Die *var)
{
	struct strbuf where = STRBUF_INIT;
	Dwarf_Addr entry = 0;

	pr_err("Failed to find the location of the '%s' variable at this address.\n", name);
	if (die_has_some_range(var)) {
		die_func_entry(c->func, &entry);
		die_var_range(&where, var, die_func_name(c->func), entry, c->func);
		pr_err(" It lives only at %s.\n", where.buf + 1); /* no tab */
	} else {
		pr_err(" Perhaps it has been optimized out.\n");
	}
	pr_err(" Use -V with the --range option to show '%s' location range.\n", name);
	strbuf_release(&where);
}

/*
 * perf's "we don't support this variable location", in one line with what
 * the location is here (a value computed from registers, which no
 * fetcharg computes) and where in the function @var is in a form we
 * fetch, so that the user can probe there.
 */
static void fetchable_elsewhere(const struct fetcharg_ctx *c, const char *name, Dwarf_Die *var)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end, entry = 0;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;

	if (!dwarf_attr(var, DW_AT_location, &attr) || !die_func_entry(c->func, &entry)) {
		pr_err("Sorry, we don't support this variable location yet.\n");
		return;
	}
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &nops)) > 0) {
		struct arg_loc loc = { 0 };

		loc.arch = dwfl_module_arch(c->mod);
		if (start >= end || start < entry || !nops ||
		    loc_from_ops(ops, nops, "", place_frame_base_probe, (void *)c, &loc)) {
			arg_loc__clear(&loc);
			continue;
		}
		arg_loc__clear(&loc);
		strbuf_addf(&sb, "%s%" PRIu64 "-%" PRIu64, sb.len ? "," : "",
			    (uint64_t)(start - entry), (uint64_t)(end - entry));
	}
	if (sb.len)
		pr_err("Sorry, we don't support this variable location yet: '%s' is computed here in a way no fetcharg can; it can be fetched at @<%s+[%s]>.\n",
		       name, die_func_name(c->func), sb.buf);
	else
		pr_err("Sorry, we don't support this variable location yet: '%s' is computed in a way no fetcharg can, everywhere in %s.\n",
		       name, die_func_name(c->func));
	strbuf_release(&sb);
}

int fetcharg__convert(const struct fetcharg_ctx *c, const struct perf_probe_arg *pa, Dwarf_Die *var,
		      struct probe_trace_arg *ta)
{
	struct arg_loc loc = { 0 };
	Dwarf_Die type;
	char *bitfield = NULL;
	int ret;

	ret = fetcharg__location(c, var, &loc);
	if (ret == -ENOENT) {
		optimized_out_message(c, pa->var, var);
		return ret;
	}
	if (ret && loc.entry_gone) {
		Dwarf_Addr entry = 0;

		die_func_entry(c->func, &entry);
		pr_err("%s is the value %s had at the entry of %s, which %s may no longer hold here: probe at 0x%" PRIx64
		       " (%s) for it.\n",
		       pa->var, loc.entry_gone, die_func_name(c->func), loc.entry_gone,
		       (uint64_t)entry, die_func_name(c->func));
		arg_loc__clear(&loc);
		return ret;
	}
	if (ret) {
		fetchable_elsewhere(c, pa->var, var);
		arg_loc__clear(&loc);
		return ret;
	}
	if (!die_get_real_type(var, &type)) {
		pr_err("Failed to get the type of %s.\n", pa->var);
		arg_loc__clear(&loc);
		return -EINVAL;
	}
	ret = walk_fields(c, pa, &loc, &type, &bitfield);
	if (ret)
		goto out;
	ret = fetcharg_final_type(pa, &loc, &type, &bitfield, &ta->type);
	if (ret)
		goto out;
	ret = loc_to_trace_arg(c, &loc, ta);
	if (!ret)
		ta->name = pa->name ? xstrdup(pa->name) : perf_probe_arg_default_name(pa);
out:
	free(bitfield);
	arg_loc__clear(&loc);
	return ret;
}

bool fetcharg__plain_var(const struct fetcharg_ctx *c, Dwarf_Die *var, struct probe_trace_arg *ta)
{
	struct perf_probe_arg pa = { 0 };
	struct arg_loc loc = { 0 };
	const char *name = dwarf_diename(var);
	Dwarf_Die type;

	/* perf lists only variables that live somewhere, not constants. */
	if (!name || fetcharg__location(c, var, &loc) || loc.constant) {
		arg_loc__clear(&loc);
		return false;
	}
	arg_loc__clear(&loc);
	if (!die_get_real_type(var, &type))
		return false;
	pa.var = (char *)name;
	return !fetcharg__convert(c, &pa, var, ta);
}
