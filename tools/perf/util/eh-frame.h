/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_EH_FRAME_H
#define PERF_UTIL_EH_FRAME_H

/*
 * The call frame information of an ELF file (.eh_frame, and its sorted
 * index .eh_frame_hdr): what strip keeps of every function, its range,
 * without a name.  One frame description (FDE) covers one function (or
 * one part of it, a .cold split); its range runs from the function's
 * first byte to its last.  The records are read by hand, every length,
 * pointer and encoding checked against the section: libdw answers only
 * with the range of one row of a description, not the description's.
 *
 * Owns: finding the frame description that holds an address.
 * May call: elf-util (open, sections).
 */

#include <libelf.h>
#include <stdint.h>

/*
 * The range [*@start, *@end) of the frame description of @elf holding
 * @vaddr: by binary search of .eh_frame_hdr's table, else a walk of
 * .eh_frame.  0, -ENOENT when none holds it (or the file has no
 * .eh_frame), -EBADMSG when the records are malformed on the way.
 */
int eh_frame__range_elf(Elf *elf, uint64_t vaddr, uint64_t *start, uint64_t *end);

/* The same of the ELF file at @path; also elf_util__open()'s -errno. */
int eh_frame__range(const char *path, uint64_t vaddr, uint64_t *start, uint64_t *end);

#endif
