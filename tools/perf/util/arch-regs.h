/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_ARCH_REGS_H
#define PERF_UTIL_ARCH_REGS_H

#include <stdbool.h>

/*
 * The register names k/uprobe fetchargs accept ("%di" is written "di"
 * here), per architecture.  The kernel resolves them with
 * regs_query_register_offset(), so only the names of struct pt_regs are
 * valid: on x86-64 "eax" or "al" are rejected by the kernel ("Invalid
 * register name"), so they are not listed.
 */

/* The architecture this tool was built for, e.g. "x86_64". */
const char *arch_regs__host_arch(void);

/*
 * Is @name (without the '%') a register of @arch?  @arch NULL means the
 * host.  An unknown architecture accepts any name of [a-z0-9_] characters:
 * the kernel is then the judge.
 */
bool arch_regs__is_valid(const char *arch, const char *name);

/* The NULL-terminated register names of @arch (NULL: host), or NULL. */
const char *const *arch_regs__names(const char *arch);

#endif
