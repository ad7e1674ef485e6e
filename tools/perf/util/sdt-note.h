/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_SDT_NOTE_H
#define PERF_UTIL_SDT_NOTE_H

/*
 * SDT markers (<sys/sdt.h>, dtrace -G): the NT_STAPSDT notes of the
 * .note.stapsdt section, one per marker.  Each note's descriptor holds
 * three addresses of the file's word size (4 bytes in ELFCLASS32, 8 in
 * ELFCLASS64), in the file's byte order: the marker's pc, the link-time
 * address of .stapsdt.base, and the semaphore (0: none); then the NUL
 * terminated provider, name and argument strings ("-4@%edi 8@-16(%rbp)").
 */

/*
 * Owns: decoding those notes and placing them in the file (prelink
 * adjustment, file offsets).  Turning a marker into a probe is sdt-arg's
 * and probe-cache's business.
 * May call: elf-util (open, sections, notes, PT_LOAD conversions),
 * arch-regs (the name of the file's machine), util, debug.
 */

#include <stdbool.h>
#include <stdint.h>

#define NT_STAPSDT 3

struct sdt_note {
	char *provider;
	char *name;
	char *args;	     /* the argument string, maybe empty */
	uint64_t pc;	     /* virtual address of the marker, .stapsdt.base adjusted */
	uint64_t semaphore;  /* virtual address of the semaphore, adjusted, or 0 */
	uint64_t base;	     /* the .stapsdt.base address the note recorded */
	uint64_t offset;     /* file offset of pc */
	uint64_t sem_offset; /* file offset of the semaphore, or 0 */
	/*
	 * The file's machine as an arch_regs name ("x86_64", "aarch64"), the
	 * syntax of args; "" for a machine without a table, NULL: x86.
	 */
	const char *arch;
};

/*
 * The markers of the ELF file at @path, in note order.
 *
 * When the file has a .stapsdt.base section whose address differs from
 * the base a note recorded (the file was prelinked or otherwise moved
 * after linking), pc and semaphore are moved by the difference.  Both
 * are then turned into file offsets through the PT_LOAD segment holding
 * them in its file part (for a semaphore, as the kernel's ref_ctr_offset
 * wants).
 *
 * A note whose pc or semaphore lies in no segment is left out with a
 * warning naming it; notes of other owners or types are ignored.
 * Returns the count (0: no markers, or no .note.stapsdt at all) with a
 * new array in *@notes (sdt_notes__free()), or -errno: -ENOENT, -EISDIR,
 * -ENOEXEC (not ELF), -EBADMSG (a truncated note section, a note running
 * past it, or a descriptor without its three strings: then *@why, when
 * not NULL, is set to a static reason).  Nothing is returned on error.
 */
int sdt_notes__read(const char *path, struct sdt_note **notes, const char **why);

/*
 * The same over a buffer holding the contents of a .note.stapsdt section
 * (used by the tests): @elf64 gives the address size, @swap says the
 * notes are in the other byte order, @align the padding (4 or 8).  No
 * adjustment and no offsets (offset = pc, sem_offset = semaphore).
 */
int sdt_notes__parse(const void *buf, size_t len, bool elf64, bool swap, size_t align,
		     struct sdt_note **notes, const char **why);

/* Free @nr notes and the array. */
void sdt_notes__free(struct sdt_note *notes, int nr);

#endif
