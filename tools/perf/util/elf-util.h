/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_ELF_UTIL_H
#define PERF_UTIL_ELF_UTIL_H

/*
 * The libelf groundwork every ELF reader shares: opening a file, finding
 * a section by name, walking ELF notes, and turning virtual addresses
 * into file offsets and back through the PT_LOAD segments.
 *
 * Owns: nothing but these mechanics; what a note or a section means is
 * the callers' business (build-id, sdt-note, symbol-elf, probe-finder).
 * May call: libelf, util.  Nothing of perf above it.
 */

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Open the ELF file at @path with libelf (ELF_C_READ_MMAP): *@fd and
 * *@elf on success, and its size in *@size (may be NULL).  Returns 0 or
 * -errno: -ENOENT and open(2)'s others, -EISDIR, -ENOEXEC (not a regular
 * file, or not ELF).  The caller checks what else it needs (truncation)
 * and ends with elf_util__close().
 */
int elf_util__open(const char *path, int *fd, Elf **elf, uint64_t *size);

/* elf_end() and close() what elf_util__open() opened. */
void elf_util__close(int fd, Elf *elf);

/* The e_machine of the ELF file at @path, or the -errno of elf_util__open(). */
int elf_util__machine(const char *path);

/* Is the file of @ehdr in the other byte order than this host's? */
bool elf_util__swapped(const GElf_Ehdr *ehdr);

/*
 * The first section of @elf of @type (SHT_NULL: any) named @name (NULL:
 * any name), its header in @shdr; NULL when there is none (or a section
 * header cannot be read).
 */
Elf_Scn *elf_find_section(Elf *elf, Elf64_Word type, const char *name, GElf_Shdr *shdr);

/*
 * ELF notes in a buffer (a SHT_NOTE section or a PT_NOTE segment): each a
 * 12-byte header (namesz, descsz, type: 32-bit words in the file's byte
 * order), the name, the descriptor; name and descriptor padded to @align
 * (4, or 8 for 8-byte notes) from the start of the note, as the gABI and
 * binutils read them.  The last descriptor's padding may be missing.
 */
struct elf_note {
	uint32_t type;
	uint32_t namesz;
	const unsigned char *name; /* namesz bytes, NUL included when there is one */
	uint32_t descsz;
	const unsigned char *desc;
};

struct elf_note_iter {
	const unsigned char *buf;
	size_t len, pos, align;
	bool swap;
	bool short_header; /* after -EBADMSG: the buffer ends inside a note header */
};

/* Start walking the @len bytes of notes at @buf; @align other than 8 is 4. */
void elf_notes__iter_init(struct elf_note_iter *it, const void *buf, size_t len, bool swap,
			  size_t align);

/*
 * The next note into @note: 1, 0 at the end, or -EBADMSG when a note
 * header does not fit (it->short_header) or a name or descriptor runs
 * past the buffer.  After -EBADMSG the walk is over.
 */
int elf_notes__next(struct elf_note_iter *it, struct elf_note *note);

/* Is @note owned by @owner (its NUL-terminated name, e.g. "GNU")? */
bool elf_note__is(const struct elf_note *note, const char *owner, uint32_t type);

/* A PT_LOAD program header. */
struct elf_load_segment {
	uint64_t vaddr, memsz, offset, filesz;
	bool exec;  /* PF_X */
	bool write; /* PF_W */
};

/*
 * The PT_LOAD segments of @elf, in file order: a new array in *@loads
 * (free it; NULL when there are none) and the count in *@nr.  0, or
 * -EBADMSG when the program headers cannot be read (then nothing).
 */
int elf_loads__read(Elf *elf, struct elf_load_segment **loads, int *nr);

/*
 * The file offset of virtual address @vaddr, through the first of the @nr
 * segments that holds it in its file part.  0, or -ERANGE when none does.
 */
int elf_loads__vaddr_to_offset(const struct elf_load_segment *loads, int nr, uint64_t vaddr,
			       uint64_t *offset);

/* The reverse: the virtual address of file offset @offset.  0 or -ERANGE. */
int elf_loads__offset_to_vaddr(const struct elf_load_segment *loads, int nr, uint64_t offset,
			       uint64_t *vaddr);

#endif
