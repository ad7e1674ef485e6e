/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DEBUG_H
#define PERF_UTIL_DEBUG_H

/* Messages to stderr.  pr_err prints unless quiet is 2; pr_warning and
 * pr_info unless -q (quiet 1); pr_debug only with -v (verbose >= 1),
 * pr_debug2 with -vv.  perf probe -q sets quiet to 2 once its options and
 * specs have parsed: nothing at all is printed then, errors included, as
 * perf. */
extern int verbose;
extern int quiet;

int eprintf(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pr_err(fmt, ...) eprintf(-1, fmt, ##__VA_ARGS__)
#define pr_warning(fmt, ...) eprintf(0, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) eprintf(0, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) eprintf(1, fmt, ##__VA_ARGS__)
#define pr_debug2(fmt, ...) eprintf(2, fmt, ##__VA_ARGS__)

#endif
