/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DWARF_AUX_H
#define PERF_UTIL_DWARF_AUX_H

/*
 * Generic helpers over libdw: names, attributes, scopes, CUs, types and
 * locations of DIEs.
 *
 * Rules: no state, nothing of probes; every function works on the libdw
 * handles it is given.  It calls libdw/libelf, arch-regs (register names)
 * and strbuf; the DWARF stages above (probe-finder, probe-finder-show)
 * call it, never the other way.  Arrays it returns are new (the caller
 * frees them); DIEs are copied into the caller's Dwarf_Die.
 */

#include <stdbool.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct strbuf;

/*
 * The fetcharg ("%ax", "%x29") of DWARF register @num of @arch (an
 * arch_regs name; NULL: the host), or NULL.
 */
const char *dwarf_reg_name(const char *arch, unsigned int num);

/*
 * The arch_regs name of the machine of @mod's ELF file ("aarch64" for an
 * arm64 binary read on x86-64); NULL when unknown (then: the host).
 */
const char *dwfl_module_arch(Dwfl_Module *mod);

/* Does the name of @die match @pattern (a name, or a glob with *?[)? */
int die_name_match(Dwarf_Die *die, const char *pattern);

/* Attribute @at of @die (through abstract origins) as unsigned, in *@val. */
bool die_get_udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *val);

/* The type of @die with typedefs and qualifiers peeled off, in *@type. */
bool die_get_real_type(Dwarf_Die *die, Dwarf_Die *type);

/* Was CU @cu built without optimization (its producer has no -O but -O0)? */
bool die_cu_is_unoptimized(Dwarf_Die *cu);

/*
 * The scopes below @from (a CU, a function) holding @addr, innermost
 * first and @from last: namespaces, subprograms, inlined instances and
 * lexical blocks that really contain the address (dwarf_getscopes() goes
 * from an inlined instance into its abstract definition instead of its
 * caller).  Returns the count (>= 1); *@out is a new array.
 */
int die_scopes(Dwarf_Die *from, Dwarf_Addr addr, Dwarf_Die **out);

/* An inlined call: where its code starts, and its DW_AT_call_file. */
struct die_inline_call {
	Dwarf_Addr entry;
	Dwarf_Word file; /* in the CU's file table */
};

/*
 * The inlined instances die_scopes() can reach below @scope (a CU or a
 * function) whose call is on line @line, in DIE order, in a new array
 * *@out.  Returns the count.  One walk, for a line table whose rows would
 * each walk it.
 */
int die_inline_calls_at(Dwarf_Die *scope, int line, struct die_inline_call **out);

/* The innermost DW_TAG_subprogram of @cu holding @addr, in *@func. */
bool die_find_subprogram_at(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *func);

/* The offset of the abstract DIE of a concrete copy @die, else @die's own. */
Dwarf_Off die_origin_offset(Dwarf_Die *die);

/* Does the source path @path name the file @want ("x.c", "dir/x.c")? */
bool source_file_matches(const char *path, const char *want);

/* The file @die is declared in (DWARF 5's file 0 too), NULL when none. */
const char *die_decl_file(Dwarf_Die *die);

/*
 * The definition of the external variable @name, in whichever CU has it
 * (the one an "extern" declaration of another unit stands for).
 */
bool die_find_global_definition(Dwarf *dw, const char *name, Dwarf_Die *var);

/*
 * The path @p of @cu's file table as perf shows it: a relative one (libdw
 * leaves a relative directory so, "sub/../f.c") joined to the CU's
 * DW_AT_comp_dir.  A new string, NULL for NULL.
 */
char *die_cu_full_path(Dwarf_Die *cu, const char *p);

/* Is @die declared in @file (see source_file_matches; NULL: any file)? */
bool die_in_file(Dwarf_Die *die, const char *file);

/*
 * Call @fn for the DIE of each CU of @dw in .debug_info order until it
 * returns non-zero; that value, or 0 after the last CU.
 */
int die_for_each_cu(Dwarf *dw, int (*fn)(Dwarf_Die *cu, void *arg), void *arg);

/*
 * Call @fn for each CU of @dw whose line table has @file, with the path
 * the table gives, until it returns non-zero.  The CUs named after @file
 * are tried first; only when none has it are all walked.  Returns @fn's
 * non-zero value, else the number of CUs found.
 */
int die_for_each_cu_with_file(Dwarf *dw, const char *file,
			      int (*fn)(Dwarf_Die *cu, const char *path, void *arg), void *arg);

/*
 * The CU of @dw whose .debug_aranges cover @addr, in *@cu (read from the
 * section, not through dwarf_addrdie(), which reads every CU header
 * first); dwarf_addrdie() when aranges do not cover it.  @cu or NULL.
 */
Dwarf_Die *die_cu_of_addr(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu);

/* The name of function or inlined instance @func, "" when it has none. */
const char *die_func_name(Dwarf_Die *func);

/*
 * The source-level name of @func, a new string: its linkage name
 * demangled ("shop::Cart::add", "app::server::handle"), else its name
 * inside its namespaces, classes and structures, else its name
 * (die_func_name(); a C or Go function).
 */
char *die_func_qualname(Dwarf_Die *func);

/* The entry of @func in *@addr: its entry pc, low pc, or its first range. */
bool die_func_entry(Dwarf_Die *func, Dwarf_Addr *addr);

/* Is @type (a peeled type) a one-byte integer, as a string is made of? */
bool die_is_char_type(Dwarf_Die *type);

/*
 * Member @name of struct/union/class @type, looking into anonymous members,
 * then into base classes (DW_TAG_inheritance, at their offset), in
 * *@member with its byte offset from the start of @type in *@offset.  A
 * static member (die_member_is_static) is found too, at offset 0.
 */
bool die_find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, long *offset);

/* Is @type (peeled) a struct, union or class? */
bool die_is_struct_type(Dwarf_Die *type);

/* Is @type a C++ reference (DW_TAG_reference_type, rvalue_reference_type)? */
bool die_is_reference_type(Dwarf_Die *type);

/* Is @member (of die_find_member) a static data member, not in the object? */
bool die_member_is_static(Dwarf_Die *member);

/* The definition (DW_AT_specification, a location) of static member @member. */
bool die_find_static_member_definition(Dwarf_Die *member, Dwarf_Die *def);

/* Does the language of @die's CU take "a.b" through a pointer a (Rust, Go)? */
bool die_lang_auto_deref(Dwarf_Die *die);

/* Is @param a result of a Go function (DW_AT_variable_parameter: "~r0")? */
bool die_is_go_result(Dwarf_Die *param);

/*
 * Is @var a C va_list (a typedef va_list, __gnuc_va_list or
 * __builtin_va_list, or gcc's array of struct __va_list_tag)?
 */
bool die_is_va_list(Dwarf_Die *var);

/* Is CU @cu Go's? */
bool die_cu_is_go(Dwarf_Die *cu);

/* The extents of at most @max dimensions of array @type into @counts; their number (>= 1). */
int die_array_dims(Dwarf_Die *type, Dwarf_Word *counts, int max);

/* The size in bytes of one element of type @elem, 0 when unknown. */
long die_elem_size(Dwarf_Die *elem);

/*
 * Append the C type name of the type of variable @die to @sb as perf
 * prints it: "struct req*", "long unsigned int", "(unknown_type)".
 */
void die_type_name(struct strbuf *sb, Dwarf_Die *die);

/* Does location operation @atom name a place (reg, breg, fbreg, addr)? */
bool dwarf_op_is_location(unsigned int atom);

/*
 * Append "\t@<FNAME+[a-b,c-d]>" to @sb: where @var lives, relative to the
 * function entry @entry; a single location holds in all of @scope.
 */
void die_var_range(struct strbuf *sb, Dwarf_Die *var, const char *fname, Dwarf_Addr entry,
		   Dwarf_Die *scope);

/* Does @var live anywhere (a location list entry that is not empty)? */
bool die_has_some_range(Dwarf_Die *var);

/* Is the first entry of @var's location list a place (not a constant)? */
bool die_first_entry_readable(Dwarf_Die *var);

/*
 * The operations of a location expression in block form (DW_FORM_block1
 * in DWARF 4, as Go writes them; libdw takes only exprloc there), for
 * the common operations; into @ops (at most @max).  False when it has
 * others.
 */
bool die_block_ops(Dwarf_Attribute *attr, Dwarf_Op *ops, size_t max, size_t *nops);

#endif
