// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <string.h>

#include "util/arch-regs.h"

/* struct pt_regs names, as regs_query_register_offset() knows them. */
static const char *const x86_64_regs[] = {
	"ax",  "bx",  "cx",  "dx",  "si",  "di", "bp",	  "sp", "r8", "r9",	 "r10",
	"r11", "r12", "r13", "r14", "r15", "ip", "flags", "cs", "ss", "orig_ax", NULL,
};

static const char *const i386_regs[] = {
	"ax",	 "bx", "cx", "dx", "si", "di", "bp", "sp",	"ip",
	"flags", "cs", "ss", "ds", "es", "fs", "gs", "orig_ax", NULL,
};

static const char *const arm64_regs[] = {
	"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",	 "x7",	"x8",  "x9",	 "x10", "x11",
	"x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",	 "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",	"pc",  "pstate", NULL,
};

static const struct arch_regs {
	const char *arch;
	const char *const *names;
} arch_regs_table[] = {
	{ "x86_64", x86_64_regs },
	{ "i386", i386_regs },
	{ "aarch64", arm64_regs },
};

const char *arch_regs__host_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#elif defined(__aarch64__)
	return "aarch64";
#else
	return "unknown";
#endif
}

const char *const *arch_regs__names(const char *arch)
{
	if (!arch)
		arch = arch_regs__host_arch();
	for (size_t i = 0; i < sizeof(arch_regs_table) / sizeof(arch_regs_table[0]); i++)
		if (!strcmp(arch_regs_table[i].arch, arch))
			return arch_regs_table[i].names;
	return NULL;
}

bool arch_regs__is_valid(const char *arch, const char *name)
{
	const char *const *names = arch_regs__names(arch);

	if (!name || !*name)
		return false;
	if (!names) {
		for (const char *p = name; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_')
				return false;
		return true;
	}
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}
