/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_TESTS_FUZZ_H
#define PERF_TESTS_FUZZ_H

/*
 * What the libFuzzer targets share.  Each fuzz-NAME.c defines
 * LLVMFuzzerTestOneInput() for one parser; `make fuzz` builds them with
 * clang -fsanitize=fuzzer,address,undefined and runs each on its seed corpus
 * in corpus/NAME/.  A target calls abort() when a property it checks (a
 * round trip, say) does not hold, so libFuzzer keeps the input as a crash.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @data as a new NUL-terminated string (it may hold NULs of its own). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * @data in a new memory file (memfd), for the readers that take a path:
 * its descriptor (close it when done), its path "/proc/self/fd/N" in @path.
 */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char path[static 32])
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	return fd;
}

/* Report a broken property with both texts, then crash. */
static inline void fuzz_mismatch(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "%s:\n  first:  '%s'\n  second: '%s'\n", what, a, b);
	abort();
}

#endif
