/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_STRFILTER_H
#define PERF_UTIL_STRFILTER_H

#include <stdbool.h>

/*
 * A filter of names, as perf probe's --filter and -F take it: glob patterns
 * (fnmatch) combined with "!" (not), "&" (and), "|" (or) and parentheses.
 * "&" binds tighter than "|"; blanks around words and operators are ignored.
 *
 *	"!_* & !*@plt"		names not starting with '_' nor ending in @plt
 *	"(w*|m*) & !main"	names starting with w or m, except main
 */
struct strfilter;

/*
 * Parse @rules into a new filter (free with strfilter__delete()).  Returns
 * NULL on a syntax error (empty rule, unbalanced parenthesis, dangling
 * operator) and, when @err is not NULL, points *@err at the offending
 * character of @rules.
 */
struct strfilter *strfilter__new(const char *rules, const char **err);
void strfilter__delete(struct strfilter *filter);

/* Does @name pass @filter?  A NULL filter passes everything. */
bool strfilter__compare(const struct strfilter *filter, const char *name);

/* The default filter of `perf probe -F`. */
#define STRFILTER_DEFAULT_FUNCS "!_* & !*@plt"

/*
 * "[GROUP:]EVENT" glob matching, the one rule of -l, -d, perf list and
 * cached %GROUP:EVENT specs.  probe_event_match(): does GROUP:EVENT match
 * @group_glob (NULL: any group) and @event_glob (fnmatch, whole names)?
 * probe_event_match_filter(): the same with the two globs in one
 * "[GROUP:]EVENT" @filter; NULL or "" matches everything.  Like perf,
 * "GROUP/EVENT" has no group part: the '/' is part of the event glob.
 */
bool probe_event_match(const char *group_glob, const char *event_glob, const char *group,
		       const char *event);
bool probe_event_match_filter(const char *filter, const char *group, const char *event);

#endif
