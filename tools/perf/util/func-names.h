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
#include <stdio.h>

struct strfilter;

struct func_names {
	char **names; /* nr, sorted */
	size_t nr;
	struct {
		void *p;
		size_t size; /* huge_map()'s; 0: malloc()'s */
	} maps[2];	     /* where they and their text are */
};

/* A second thread for func_names__show(), started early. */
struct func_names_job;

/*
 * Start the second thread now, with two CPUs and @demangle, so that it is
 * up when the names are loaded: a job (func_names__show() or
 * func_names__cancel() ends it) or NULL.
 */
struct func_names_job *func_names__begin(bool demangle);
void func_names__cancel(struct func_names_job *job);

/*
 * The names of the @n symbols @syms that @filter passes (NULL: all),
 * demangled when @demangle, sorted, into *@out (func_names__release()).
 * Demangling a program's every name is most of -F's time (56,528 in
 * libjvm): with many names, @job (NULL: none; ended here) demangles,
 * filters and sorts every other chunk of them, and the two are merged;
 * the names are printed into 2 MiB pages (huge_map()), not a string each.
 */
void func_names__show(struct func_names_job *job, const char *const *syms, size_t n,
		      const struct strfilter *filter, bool demangle, struct func_names *out);

/*
 * @fn's names to @f, a line each, gathered 64 KiB at a time: two calls
 * to stdio per name took twice as long (2.6 ms of libjvm's -F).
 */
void func_names__print(const struct func_names *fn, FILE *f);

void func_names__release(struct func_names *fn);

#endif
