// SPDX-License-Identifier: GPL-2.0
/*
 * The return instructions of a function's code (see insn.h), over capstone.
 */
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arch-regs.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/insn.h"

#ifndef CAPSTONE_SONAME
#define CAPSTONE_SONAME "libcapstone.so.4"
#endif

/*
 * capstone's entry points, loaded by the first decode: its tables cost
 * every command some 80,000 relocations at start-up when it is linked.
 */
static struct {
	void *handle;
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*close)(csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	cs_insn *(*malloc)(csh);
	void (*free)(cs_insn *, size_t);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
	cs_err (*regs_access)(csh, const cs_insn *, cs_regs, uint8_t *, cs_regs, uint8_t *);
	const char *(*reg_name)(csh, unsigned int);
} lib;

static int load_library(void)
{
	void *h;

	if (lib.handle)
		return 0;
	h = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		pr_debug("insn: %s\n", dlerror());
		return -ENOSYS;
	}
	*(void **)&lib.open = dlsym(h, "cs_open");
	*(void **)&lib.close = dlsym(h, "cs_close");
	*(void **)&lib.option = dlsym(h, "cs_option");
	*(void **)&lib.malloc = dlsym(h, "cs_malloc");
	*(void **)&lib.free = dlsym(h, "cs_free");
	*(void **)&lib.disasm_iter = dlsym(h, "cs_disasm_iter");
	*(void **)&lib.insn_group = dlsym(h, "cs_insn_group");
	*(void **)&lib.regs_access = dlsym(h, "cs_regs_access");
	*(void **)&lib.reg_name = dlsym(h, "cs_reg_name");
	if (!lib.regs_access || !lib.reg_name)
		pr_debug("insn: %s has no cs_regs_access\n", CAPSTONE_SONAME);
	if (!lib.open || !lib.close || !lib.option || !lib.malloc || !lib.free ||
	    !lib.disasm_iter || !lib.insn_group) {
		pr_debug("insn: %s lacks an entry point\n", CAPSTONE_SONAME);
		dlclose(h);
		memset(&lib, 0, sizeof(lib));
		return -ENOSYS;
	}
	lib.handle = h;
	return 0;
}

const char *insn__machine_name(int e_machine, char *buf, int len)
{
	switch (e_machine) {
	case EM_X86_64:
		return "x86-64";
	case EM_AARCH64:
		return "AArch64";
	case EM_386:
		return "i386";
	case EM_ARM:
		return "ARM";
	case EM_RISCV:
		return "RISC-V";
	case EM_PPC64:
		return "PowerPC64";
	case EM_S390:
		return "s390";
	default:
		snprintf(buf, len, "EM_%d", e_machine);
		return buf;
	}
}

/* The section holding [addr, addr + size) with its bytes in the file. */
static int code_of(Elf *elf, uint64_t addr, uint64_t size, const uint8_t **code)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr + size > sh.sh_addr + sh.sh_size)
			continue;
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size < addr + size - sh.sh_addr)
			return -EBADMSG;
		*code = (const uint8_t *)data->d_buf + (addr - sh.sh_addr);
		return 0;
	}
	return -ENOENT;
}

/* The target of a direct jump, or 0 for an indirect or conditional one. */
static uint64_t direct_jump_target(cs_arch arch, const cs_insn *in)
{
	if (arch == CS_ARCH_X86) {
		const cs_x86 *x = &in->detail->x86;

		if (in->id == X86_INS_JMP && x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
			return x->operands[0].imm;
	} else {
		const cs_arm64 *a = &in->detail->arm64;

		if (in->id == ARM64_INS_B && a->cc == ARM64_CC_INVALID && a->op_count == 1 &&
		    a->operands[0].type == ARM64_OP_IMM)
			return a->operands[0].imm;
	}
	return 0;
}

static void decode(csh h, cs_arch arch, const uint8_t *code, uint64_t addr, uint64_t size,
		   struct insn_returns *out)
{
	cs_insn *in = lib.malloc(h);
	const uint8_t *p = code;
	size_t left = size;
	uint64_t pc = addr;
	int alloc = 0;

	while (left) {
		uint64_t to;

		if (!lib.disasm_iter(h, &p, &left, &pc, in)) {
			pr_debug("insn: no instruction at 0x%" PRIx64 ", one byte skipped\n", pc);
			p++, left--, pc++;
			continue;
		}
		if (lib.insn_group(h, in, CS_GRP_RET)) {
			ALLOC_GROW(out->addr, out->nr + 1, alloc);
			out->addr[out->nr++] = in->address;
			continue;
		}
		to = direct_jump_target(arch, in);
		if (to && (to < addr || to >= addr + size)) {
			pr_debug("insn: 0x%" PRIx64 ": %s %s leaves the function (a tail jump)\n",
				 in->address, in->mnemonic, in->op_str);
			if (!out->tail_jumps++)
				out->first_tail = in->address;
		}
	}
	lib.free(in, 1);
}

/* Open @path and a capstone handle for its machine. */
static int insn_open(const char *path, int *fd, Elf **elf, csh *h, cs_arch *arch,
		     struct insn_returns *out)
{
	GElf_Ehdr eh;
	cs_mode mode;
	int ret;

	ret = elf_util__open(path, fd, elf, NULL);
	if (ret)
		return ret;
	if (!gelf_getehdr(*elf, &eh)) {
		ret = -ENOEXEC;
	} else if (eh.e_machine == EM_X86_64) {
		*arch = CS_ARCH_X86, mode = CS_MODE_64;
		out->arch = "x86_64";
	} else if (eh.e_machine == EM_AARCH64) {
		*arch = CS_ARCH_ARM64, mode = CS_MODE_ARM;
		out->arch = "aarch64";
	} else {
		ret = -EOPNOTSUPP;
	}
	out->e_machine = ret == -ENOEXEC ? 0 : eh.e_machine;
	if (!ret)
		ret = load_library();
	if (!ret && lib.open(*arch, mode, h) != CS_ERR_OK)
		ret = -EIO;
	if (ret)
		elf_util__close(*fd, *elf);
	return ret;
}

int insn__find_returns(const char *path, uint64_t addr, uint64_t size, struct insn_returns *out)
{
	const uint8_t *code;
	cs_arch arch;
	Elf *elf;
	csh h;
	int fd, ret;

	ret = insn_open(path, &fd, &elf, &h, &arch, out);
	if (ret)
		return ret;
	ret = code_of(elf, addr, size, &code);
	if (!ret) {
		lib.option(h, CS_OPT_DETAIL, CS_OPT_ON);
		decode(h, arch, code, addr, size, out);
	}
	lib.close(&h);
	elf_util__close(fd, elf);
	return ret;
}

/*
 * Does an instruction go on to the next one: not a return, not an
 * unconditional jump (direct or through a register)?  Calls, conditional
 * jumps and traps do.
 */
static bool goes_on(csh h, cs_arch arch, const cs_insn *in)
{
	if (lib.insn_group(h, in, CS_GRP_RET) || lib.insn_group(h, in, CS_GRP_IRET))
		return false;
	if (arch == CS_ARCH_X86)
		return in->id != X86_INS_JMP && in->id != X86_INS_LJMP;
	if (in->id == ARM64_INS_B)
		return in->detail->arm64.cc != ARM64_CC_INVALID &&
		       in->detail->arm64.cc != ARM64_CC_AL;
	return in->id != ARM64_INS_BR;
}

/*
 * Decode [@addr, @addr + @size) of @path from @addr up to @at: 1 when an
 * instruction starts at @at (and with @straight, every one before it goes
 * on to the next), 0 when not, or -errno.
 */
static int walk_to(const char *path, uint64_t addr, uint64_t size, uint64_t at, bool straight)
{
	struct insn_returns unused = { 0 };
	const uint8_t *code, *p;
	bool on = true;
	cs_insn *in;
	cs_arch arch;
	size_t left;
	uint64_t pc;
	Elf *elf;
	csh h;
	int fd, ret;

	if (at < addr || at - addr >= size)
		return 0;
	ret = insn_open(path, &fd, &elf, &h, &arch, &unused);
	if (ret)
		return ret;
	ret = code_of(elf, addr, size, &code);
	if (!ret) {
		if (straight)
			lib.option(h, CS_OPT_DETAIL, CS_OPT_ON);
		in = lib.malloc(h);
		p = code, left = size, pc = addr;
		/*
		 * Bytes that do not decode are stepped over, as decode() does
		 * (they do not go on: no straight way through them).
		 */
		while (left && pc < at && on) {
			if (!lib.disasm_iter(h, &p, &left, &pc, in))
				p++, left--, pc++, on = !straight;
			else if (straight)
				on = goes_on(h, arch, in);
		}
		ret = on && pc == at && left && lib.disasm_iter(h, &p, &left, &pc, in);
		lib.free(in, 1);
	}
	lib.close(&h);
	elf_util__close(fd, elf);
	return ret;
}

int insn__starts_at(const char *path, uint64_t addr, uint64_t size, uint64_t at)
{
	return walk_to(path, addr, size, at, false);
}

int insn__falls_through_to(const char *path, uint64_t addr, uint64_t size, uint64_t at)
{
	return walk_to(path, addr, size, at, true);
}

void insn_returns__clear(struct insn_returns *r)
{
	free(r->addr);
	memset(r, 0, sizeof(*r));
}

/* The x86-64 registers a call may change (System V): the caller-saved ones. */
static bool x86_call_clobbers(const char *reg)
{
	static const char *const regs[] = {
		"ax", "cx", "dx", "si", "di", "r8", "r9", "r10", "r11"
	};

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (!strcmp(reg, regs[i]))
			return true;
	return false;
}

/* Does instruction @in change register @reg (a pt_regs name, "di")? */
static bool writes_reg(csh h, const cs_insn *in, const char *reg)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	if (lib.insn_group(h, in, CS_GRP_CALL) && x86_call_clobbers(reg))
		return true;
	if (lib.regs_access(h, in, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return true;
	for (int i = 0; i < nwr; i++) {
		const char *name = lib.reg_name(h, wr[i]);
		const char *pt = name ? arch_regs__from_asm("x86_64", name, strlen(name)) : NULL;

		if (pt && !strcmp(pt, reg))
			return true;
	}
	return false;
}

int insn__reg_unchanged(const char *path, const uint64_t (*ranges)[2], int nranges, uint64_t entry,
			uint64_t at, const char *reg)
{
	struct insn_returns unused = { 0 };
	cs_arch arch;
	Elf *elf;
	csh h;
	int fd, ret, kept = 1;

	ret = insn_open(path, &fd, &elf, &h, &arch, &unused);
	if (ret)
		return ret;
	if (arch != CS_ARCH_X86 || !lib.regs_access) {
		kept = 0;
		goto out;
	}
	lib.option(h, CS_OPT_DETAIL, CS_OPT_ON);
	for (int r = 0; r < nranges && kept; r++) {
		uint64_t lo = ranges[r][0], size = ranges[r][1] - ranges[r][0], pc = lo;
		bool home = entry >= lo && at < lo + size && entry <= at;
		const uint8_t *code, *p;
		size_t left = size;
		cs_insn *in;

		if (code_of(elf, lo, size, &code)) {
			kept = 0;
			break;
		}
		in = lib.malloc(h);
		p = code;
		while (left && kept) {
			const cs_x86 *x;

			if (!lib.disasm_iter(h, &p, &left, &pc, in)) {
				kept = 0; /* bytes that do not decode: no judgement */
				break;
			}
			/* On the way from the entry: nothing may change it. */
			if (home && in->address >= entry && in->address < at &&
			    writes_reg(h, in, reg))
				kept = 0;
			if (!lib.insn_group(h, in, CS_GRP_JUMP))
				continue;
			/* Nor may a jump come back to it from further on, or from anywhere unknown. */
			x = &in->detail->x86;
			if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
				kept = 0;
			else if ((!home || in->address >= at) &&
				 (uint64_t)x->operands[0].imm <= at &&
				 (uint64_t)x->operands[0].imm >= entry)
				kept = 0;
		}
		lib.free(in, 1);
	}
out:
	lib.close(&h);
	elf_util__close(fd, elf);
	return kept;
}
