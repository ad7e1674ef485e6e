// SPDX-License-Identifier: GPL-2.0
/*
 * Go return probes (see go-return.h): plain probes on the return
 * instructions of a Go function instead of a uretprobe.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arch-regs.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/go-return.h"
#include "util/insn.h"
#include "util/probe-finder.h"
#include "util/probe-spec.h"
#include "util/symbol-elf.h"

bool go_return__is_go_elf(const char *path)
{
	GElf_Shdr sh;
	bool go = false;
	Elf *elf;
	int fd;

	if (elf_util__open(path, &fd, &elf, NULL))
		return false;
	go = elf_find_section(elf, SHT_NOTE, ".note.go.buildid", &sh) ||
	     elf_find_section(elf, SHT_PROGBITS, ".go.buildinfo", &sh);
	elf_util__close(fd, elf);
	return go;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A deep copy of @from into @to. */
static void copy_tev(const struct probe_trace_event *from, struct probe_trace_event *to)
{
	const struct probe_trace_point *fp = &from->point;

	*to = *from;
	to->event = dup_or_null(from->event);
	to->group = dup_or_null(from->group);
	to->point.realname = dup_or_null(fp->realname);
	to->point.symbol = dup_or_null(fp->symbol);
	to->point.module = dup_or_null(fp->module);
	to->args = xzalloc(sizeof(*to->args) * (from->nargs ? from->nargs : 1));
	for (int i = 0; i < from->nargs; i++) {
		const struct probe_trace_arg *fa = &from->args[i];
		struct probe_trace_arg_ref **tail = &to->args[i].ref;

		to->args[i].name = dup_or_null(fa->name);
		to->args[i].value = dup_or_null(fa->value);
		to->args[i].type = dup_or_null(fa->type);
		for (const struct probe_trace_arg_ref *r = fa->ref; r; r = r->next) {
			*tail = xzalloc(sizeof(**tail));
			**tail = *r;
			(*tail)->next = NULL;
			tail = &(*tail)->next;
		}
	}
}

/* $retval as the first result register of @arch, typed @type unless given one. */
static int retval_to_register(struct probe_trace_event *tev, const char *arch, const char *type)
{
	const char *reg = arch_regs__dwarf_fetcharg(arch, 0); /* RAX, X0 */

	for (int i = 0; i < tev->nargs; i++) {
		struct probe_trace_arg *ta = &tev->args[i];

		if (!ta->value || strcmp(ta->value, "$retval"))
			continue;
		if (!reg)
			return -EOPNOTSUPP;
		free(ta->value);
		ta->value = xstrdup(reg);
		if (!ta->type && type)
			ta->type = xstrdup(type);
	}
	return 0;
}

/* The plain probes of one Go function's returns, appended to @out. */
static int expand_one(const struct symbol_elf *syms, const struct probe_trace_event *tev,
		      const char *type, struct probe_trace_event **out, int *nout, int *alloc)
{
	const struct elf_symbol *sym = NULL;
	const char *name = tev->point.realname ? tev->point.realname : "the function";
	struct insn_returns r = { 0 };
	char mbuf[16];
	int ret;

	if (syms)
		sym = symbol_elf__find_addr(syms, tev->point.address);
	if (!sym || !sym->size) {
		pr_err("Error: no symbol with a size holds %s at 0x%" PRIx64
		       " in %s: its return instructions can not be found\n",
		       name, tev->point.address, tev->point.module);
		return -ENOENT;
	}
	ret = insn__find_returns(syms->path, sym->addr, sym->size, &r);
	if (ret == -EOPNOTSUPP) {
		pr_err("Error: %s%%return: %s is Go code for %s, whose return instructions can not be decoded (x86-64 and AArch64 only), and a uretprobe would crash the Go program\n",
		       name, syms->path, insn__machine_name(r.e_machine, mbuf, sizeof(mbuf)));
	} else if (ret) {
		pr_err("Error: %s%%return: the code of %s (0x%" PRIx64 ", %" PRIu64
		       " bytes) can not be read from %s: %s\n",
		       name, sym->name, sym->addr, sym->size, syms->path, strerror(-ret));
	} else if (!r.nr) {
		if (r.tail_jumps)
			pr_err("Error: %s%%return: %s has no return instruction, only %d tail jump(s) out of it (the first at 0x%" PRIx64
			       "): probe the function it jumps to\n",
			       name, sym->name, r.tail_jumps, r.first_tail);
		else
			pr_err("Error: %s%%return: %s has no return instruction: it never returns\n",
			       name, sym->name);
		ret = -ENOENT;
	}
	for (int i = 0; !ret && i < r.nr; i++) {
		uint64_t off;

		ret = symbol_elf__vaddr_to_offset(syms, r.addr[i], &off);
		if (ret) {
			pr_err("Error: address 0x%" PRIx64 " is not in a loaded segment of %s\n",
			       r.addr[i], syms->path);
			break;
		}
		ALLOC_GROW(*out, *nout + 1, *alloc);
		copy_tev(tev, &(*out)[*nout]);
		(*out)[*nout].point.address = r.addr[i];
		(*out)[*nout].point.offset = off;
		(*out)[*nout].point.retprobe = false;
		ret = retval_to_register(&(*out)[(*nout)++], r.arch, type);
		if (ret)
			pr_err("Error: %s%%return: no first result register known for %s\n", name,
			       r.arch);
	}
	if (!ret)
		pr_debug("%s%%return: %d return instruction(s), %d tail jump(s) not probed\n", name,
			 r.nr, r.tail_jumps);
	insn_returns__clear(&r);
	return ret;
}

bool go_return__any(struct debuginfo *dbg, const struct probe_trace_event *tevs, int ntevs)
{
	for (int i = 0; i < ntevs; i++) {
		char *type = NULL;
		bool go = tevs[i].point.retprobe &&
			  debuginfo__go_function(dbg, tevs[i].point.address, &type) > 0;

		free(type);
		if (go)
			return true;
	}
	return false;
}

int go_return__expand(struct debuginfo *dbg, const struct symbol_elf *syms, int max,
		      struct probe_trace_event **tevs, int *ntevs)
{
	struct probe_trace_event *out = NULL;
	int nout = 0, alloc = 0, ret = 0;

	for (int i = 0; i < *ntevs && !ret; i++) {
		struct probe_trace_event *tev = &(*tevs)[i];
		char *type = NULL;

		if (!tev->point.retprobe ||
		    (dbg && debuginfo__go_function(dbg, tev->point.address, &type) <= 0)) {
			/* Not Go (C in a cgo program): the kernel's return probe. */
			ALLOC_GROW(out, nout + 1, alloc);
			copy_tev(tev, &out[nout++]);
			continue;
		}
		ret = expand_one(syms, tev, type, &out, &nout, &alloc);
		free(type);
	}
	if (!ret && nout > max) {
		pr_err("Error: Too many (%d) probe points found for the returns; the limit is %d (--max-probes).\n",
		       nout, max);
		ret = -E2BIG;
	}
	if (ret) {
		for (int i = 0; i < nout; i++)
			clear_probe_trace_event(&out[i]);
		free(out);
		return ret;
	}
	for (int i = 0; i < *ntevs; i++)
		clear_probe_trace_event(&(*tevs)[i]);
	free(*tevs);
	*tevs = out;
	*ntevs = nout;
	return 0;
}
