/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_ALLOC_H
#define PERF_UTIL_ALLOC_H

/*
 * The bottom of the house: allocation that never fails, and the one way
 * to grow an array.  It includes nothing of the project, so every file
 * may use it (util.h includes it for its callers).
 */

#include <stddef.h>

/*
 * Allocation that never fails: malloc/calloc/realloc/strdup/strndup that
 * print "fatal: out of memory" and abort instead of returning NULL.
 * xrealloc(p, 0) keeps a valid (1-byte) block, so p is never NULL after it.
 */
void *xmalloc(size_t n);
void *xzalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* The next capacity of a growing array: 3/2 of @alloc plus 16. */
#define alloc_nr(alloc) (((alloc) + 16) * 3 / 2)

/*
 * The one way to grow an array, as git's ALLOC_GROW: make room in @x for
 * at least @nr elements; @alloc is the capacity, updated.  @x may start
 * NULL with @alloc 0.  Elements past the old capacity are not zeroed.
 *
 *	ALLOC_GROW(v, nr + 1, alloc);
 *	v[nr++] = item;
 */
#define ALLOC_GROW(x, nr, alloc)                                             \
	do {                                                                 \
		if ((size_t)(nr) > (size_t)(alloc)) {                        \
			if ((size_t)alloc_nr(alloc) < (size_t)(nr))          \
				(alloc) = (nr);                              \
			else                                                 \
				(alloc) = alloc_nr(alloc);                   \
			(x) = xrealloc((x), sizeof(*(x)) * (size_t)(alloc)); \
		}                                                            \
	} while (0)

#endif
