// SPDX-License-Identifier: GPL-2.0
/*
 * The return instructions of a function's code (see insn.h), over capstone.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/insn.h"

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
	cs_insn *in = cs_malloc(h);
	const uint8_t *p = code;
	size_t left = size;
	uint64_t pc = addr;
	int alloc = 0;

	while (left) {
		uint64_t to;

		if (!cs_disasm_iter(h, &p, &left, &pc, in)) {
			pr_debug("insn: no instruction at 0x%" PRIx64 ", one byte skipped\n", pc);
			p++, left--, pc++;
			continue;
		}
		if (cs_insn_group(h, in, CS_GRP_RET)) {
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
	cs_free(in, 1);
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
	if (!ret && cs_open(*arch, mode, h) != CS_ERR_OK)
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
		cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
		decode(h, arch, code, addr, size, out);
	}
	cs_close(&h);
	elf_util__close(fd, elf);
	return ret;
}

int insn__starts_at(const char *path, uint64_t addr, uint64_t size, uint64_t at)
{
	struct insn_returns unused = { 0 };
	const uint8_t *code, *p;
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
		in = cs_malloc(h);
		p = code, left = size, pc = addr;
		/* Bytes that do not decode are stepped over, as decode() does. */
		while (left && pc < at) {
			if (!cs_disasm_iter(h, &p, &left, &pc, in))
				p++, left--, pc++;
		}
		ret = pc == at && left && cs_disasm_iter(h, &p, &left, &pc, in);
		cs_free(in, 1);
	}
	cs_close(&h);
	elf_util__close(fd, elf);
	return ret;
}

void insn_returns__clear(struct insn_returns *r)
{
	free(r->addr);
	memset(r, 0, sizeof(*r));
}
