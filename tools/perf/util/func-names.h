/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_FUNC_NAMES_H
#define PERF_UTIL_FUNC_NAMES_H

/*
 * The names -F shows of a symbol table's names: each as demangle_display()
 * gives it, those a filter passes, sorted by strcmp().
 *
 * Owns: that list, its strings, and the second thread it is made on.
 * May call: demangle, strfilter, strbuf, util, alloc.
 */

#include <stdbool.h>
#include <stddef.h>

struct strfilter;

struct func_names {
	char **names; /* nr, sorted */
	size_t nr;
	char *bufs[2]; /* where they are */
};

/*
 * The names of the @n symbols @syms that @filter passes (NULL: all),
 * demangled when @demangle, sorted, into *@out (func_names__release()).
 * Demangling a program's every name is most of -F's time (56,528 in
 * libjvm): with many names and two CPUs a second thread demangles,
 * filters and sorts every other chunk of them, and the two are merged;
 * each name is printed into one buffer, not a string of its own.
 */
void func_names__show(const char *const *syms, size_t n, const struct strfilter *filter,
		      bool demangle, struct func_names *out);

void func_names__release(struct func_names *fn);

#endif
