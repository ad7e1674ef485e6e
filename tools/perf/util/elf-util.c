// SPDX-License-Identifier: GPL-2.0
/* libelf groundwork: open, sections by name, notes, vaddr <-> offset (see elf-util.h). */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/elf-util.h"
#include "util/util.h"

int elf_util__open(const char *path, int *fd, Elf **elf, uint64_t *size)
{
	struct stat st;
	int ret;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	if (fstat(*fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOEXEC;
		goto out_close;
	}
	elf_version(EV_CURRENT);
	*elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		elf_end(*elf);
		ret = -ENOEXEC;
		goto out_close;
	}
	if (size)
		*size = st.st_size;
	return 0;
out_close:
	close(*fd);
	return ret;
}

void elf_util__close(int fd, Elf *elf)
{
	elf_end(elf);
	close(fd);
}

/*
 * Read from the identification bytes and e_machine alone: a target's
 * machine is asked for several times by one command (the target, each
 * cached entry checked), and libelf's elf_begin() of the whole file for
 * two bytes was a fifth of a cached add's own instructions.
 */
int elf_util__machine(const char *path)
{
	unsigned char h[EI_NIDENT + 4];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOEXEC;
	} else {
		n = pread(fd, h, sizeof(h), 0);
		if (n < 0)
			ret = -errno;
		else if ((size_t)n < sizeof(h) || memcmp(h, ELFMAG, SELFMAG) ||
			 (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
			 (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
			ret = -ENOEXEC;
		else /* e_machine follows e_ident and the 2-byte e_type */
			ret = h[EI_DATA] == ELFDATA2LSB ? h[EI_NIDENT + 2] | h[EI_NIDENT + 3] << 8
							: h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3];
	}
	close(fd);
	return ret;
}

bool elf_util__swapped(const GElf_Ehdr *ehdr)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return ehdr->e_ident[EI_DATA] != ELFDATA2LSB;
#else
	return ehdr->e_ident[EI_DATA] != ELFDATA2MSB;
#endif
}

Elf_Scn *elf_find_section(Elf *elf, Elf64_Word type, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *sname;

		if (!gelf_getshdr(scn, shdr))
			return NULL;
		if (type != SHT_NULL && shdr->sh_type != type)
			continue;
		sname = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (!name || (sname && !strcmp(sname, name)))
			return scn;
	}
	return NULL;
}

static uint32_t note_word(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

void elf_notes__iter_init(struct elf_note_iter *it, const void *buf, size_t len, bool swap,
			  size_t align)
{
	it->buf = buf;
	it->len = len;
	it->pos = 0;
	it->align = align == 8 ? 8 : 4;
	it->swap = swap;
	it->short_header = false;
}

int elf_notes__next(struct elf_note_iter *it, struct elf_note *note)
{
	const unsigned char *p;
	size_t left;
	uint64_t desc_off, next;

	/* An empty section may have no buffer at all: nothing to walk. */
	if (!it->buf || it->pos >= it->len)
		return 0;
	p = (const unsigned char *)it->buf + it->pos;
	left = it->len - it->pos;
	if (left < 12) {
		it->short_header = true;
		it->pos = it->len;
		return -EBADMSG;
	}
	note->namesz = note_word(p, it->swap);
	note->descsz = note_word(p + 4, it->swap);
	note->type = note_word(p + 8, it->swap);
	/* Compare without overflow: the sizes come from the file. */
	desc_off = (12 + (uint64_t)note->namesz + it->align - 1) & ~(uint64_t)(it->align - 1);
	if (desc_off > left || note->descsz > left - desc_off) {
		it->pos = it->len;
		return -EBADMSG;
	}
	note->name = p + 12;
	note->desc = p + desc_off;
	next = (desc_off + note->descsz + it->align - 1) & ~(uint64_t)(it->align - 1);
	it->pos += next < left ? next : left;
	return 1;
}

bool elf_note__is(const struct elf_note *note, const char *owner, uint32_t type)
{
	size_t n = strlen(owner) + 1;

	return note->type == type && note->namesz == n && !memcmp(note->name, owner, n);
}

int elf_loads__read(Elf *elf, struct elf_load_segment **loads, int *nr)
{
	struct elf_load_segment *v;
	size_t phnum;
	int n = 0;

	*loads = NULL;
	*nr = 0;
	if (elf_getphdrnum(elf, &phnum) < 0)
		return -EBADMSG;
	v = phnum ? xzalloc(phnum * sizeof(*v)) : NULL;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph)) {
			free(v);
			return -EBADMSG;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		v[n++] = (struct elf_load_segment){
			.vaddr = ph.p_vaddr,
			.memsz = ph.p_memsz,
			.offset = ph.p_offset,
			.filesz = ph.p_filesz,
			.exec = ph.p_flags & PF_X,
			.write = ph.p_flags & PF_W,
		};
	}
	*loads = v;
	*nr = n;
	return 0;
}

int elf_loads__vaddr_to_offset(const struct elf_load_segment *loads, int nr, uint64_t vaddr,
			       uint64_t *offset)
{
	for (int i = 0; i < nr; i++) {
		const struct elf_load_segment *l = &loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*offset = vaddr - l->vaddr + l->offset;
			return 0;
		}
	}
	return -ERANGE;
}

int elf_loads__offset_to_vaddr(const struct elf_load_segment *loads, int nr, uint64_t offset,
			       uint64_t *vaddr)
{
	for (int i = 0; i < nr; i++) {
		const struct elf_load_segment *l = &loads[i];

		if (offset >= l->offset && offset - l->offset < l->filesz) {
			*vaddr = l->vaddr + (offset - l->offset);
			return 0;
		}
	}
	return -ERANGE;
}
