/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_UTIL_H
#define PERF_UTIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/alloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Create @path and its missing parents with @mode; 0 or -errno. */
int mkdir_p(const char *path, mode_t mode);

/* Remove the empty directories from @path up to, not including, @stop. */
void rmdir_parents(const char *path, const char *stop);

/* Remove @path and everything below it; 0 or -errno. */
int rm_rf(const char *path);

/*
 * Copy @from to @to through a temporary file in @to's directory and a
 * rename, so @to is either absent/old or complete.  0 or -errno.
 */
int copyfile_atomic(const char *from, const char *to, mode_t mode);

/* All @len bytes of @data to @fd, through short writes and EINTR; 0 or -errno. */
int write_all(int fd, const void *data, size_t len);

/* Write @len bytes of @data to @path the same way.  0 or -errno. */
int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode);

/*
 * The names of the entries of directory @dir for which @filter (may be NULL)
 * is true, sorted, without "." and "..".  Returns the count or -errno; the
 * list and its strings belong to the caller (lsdir_free()).
 */
typedef bool (*lsdir_filter_t)(const char *dir, const char *name, unsigned char d_type);
int lsdir(const char *dir, lsdir_filter_t filter, char ***names);
void lsdir_free(char **names, int nr);
bool lsdir_no_dot_filter(const char *dir, const char *name, unsigned char d_type);

/* Join @dir and @name with one '/', in a new string. */
char *path_join(const char *dir, const char *name);

/* qsort() comparator for an array of strings (char *), by strcmp(). */
int strcmp_ptr(const void *a, const void *b);

/*
 * Sort the @n strings of @v by strcmp(): the order qsort() with
 * strcmp_ptr() gives (equal strings in any order), at a third of its cost
 * on a program's 50,000 names.
 */
void strings_sort(char **v, size_t n);

/* The same with @scratch of STRINGS_SORT_SCRATCH(@n) bytes for its keys. */
#define STRINGS_SORT_SCRATCH(n) ((n)*16)
void strings_sort_in(char **v, size_t n, void *scratch);
/*
 * The same of strings each followed, past its NUL, by 8 bytes that may be
 * read (what they hold does not matter): their keys read 8 bytes at once.
 */
void strings_sort_padded(char **v, size_t n, void *scratch);

/*
 * *@size bytes (rounded up to 2 MiB, the size given back in *@size) of
 * zeros, in 2 MiB pages where the kernel gives them (MADV_HUGEPAGE): a
 * first touch of a 4 KiB page costs 10-19 us on a VM, of a huge page a
 * little more, for 512 times the bytes.  Untouched, it costs nothing
 * (MAP_NORESERVE).  NULL when it can not be mapped; huge_unmap() frees.
 */
void *huge_map(size_t *size);
void huge_unmap(void *p, size_t size);

/* A thing to sort by an address, then a name, then the order it came in. */
struct addr_name_key {
	uint64_t addr;
	const char *name;
	size_t order;
};

/* Sort the @n keys of @k so (a program's symbols: by address, then name). */
void addr_name_sort(struct addr_name_key *k, size_t n);

#endif
