/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_MINIDEBUGINFO_H
#define PERF_UTIL_MINIDEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decompress the xz stream of a MiniDebugInfo (.gnu_debugdata): @in,
 * @len bytes, into *@out (new, free()) and *@out_len.  0; -EILSEQ when it
 * is not a whole xz stream; -EFBIG when it grows past the limits a real
 * one never reaches (64 times its size plus 1 MiB, 256 MiB in all).
 */
int minidebuginfo__decompress(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);

#endif
