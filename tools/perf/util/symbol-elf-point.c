// SPDX-License-Identifier: GPL-2.0
/*
 * symbol-elf's places as probe_trace_points (see symbol-elf.h): the one
 * file of symbol-elf that knows the probe types, so that symbol-elf.c
 * stays independent of them.
 */
#include "util/probe-spec.h"
#include "util/symbol-elf.h"
#include "util/util.h"

/* @tp from @pl, the strings copied. */
static void point_from_place(struct probe_trace_point *tp, const struct symbol_elf_place *pl)
{
	tp->module = pl->module ? xstrdup(pl->module) : NULL;
	tp->realname = pl->realname ? xstrdup(pl->realname) : NULL;
	tp->symbol = pl->symbol ? xstrdup(pl->symbol) : NULL;
	tp->address = pl->address;
	tp->offset = pl->offset;
	tp->retprobe = pl->retprobe;
}

int symbol_elf__uprobe_point(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, struct probe_trace_point *tp)
{
	struct symbol_elf_place pl;
	int ret = symbol_elf__uprobe_place(se, sym, offs, retprobe, &pl);

	if (!ret)
		point_from_place(tp, &pl);
	return ret;
}

int symbol_elf__uprobe_point_abs(const struct symbol_elf *se, uint64_t vaddr, bool retprobe,
				 struct probe_trace_point *tp)
{
	struct symbol_elf_place pl;
	int ret = symbol_elf__uprobe_place_abs(se, vaddr, retprobe, &pl);

	if (!ret)
		point_from_place(tp, &pl);
	return ret;
}

int symbol_elf__kprobe_point(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, struct probe_trace_point *tp)
{
	struct symbol_elf_place pl;
	int ret = symbol_elf__kprobe_place(se, sym, offs, retprobe, &pl);

	if (!ret)
		point_from_place(tp, &pl);
	return ret;
}
