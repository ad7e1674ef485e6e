// SPDX-License-Identifier: GPL-2.0
/*
 * Reading SDT markers from .note.stapsdt.  The section is read raw and
 * decoded here, so a truncated or malformed note is caught before any
 * marker of the file is used.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/debug.h"
#include "util/sdt-note.h"
#include "util/symbol-elf.h"
#include "util/util.h"

#define SDT_NOTE_OWNER "stapsdt"

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

static size_t align_up(size_t n, size_t align)
{
	return (n + align - 1) / align * align;
}

void sdt_notes__free(struct sdt_note *notes, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(notes[i].provider);
		free(notes[i].name);
		free(notes[i].args);
	}
	free(notes);
}

/*
 * Decode one descriptor: three addresses, then provider, name and args,
 * each NUL-terminated inside the descriptor.  0 or -EBADMSG.
 */
static int parse_desc(const unsigned char *desc, size_t len, bool elf64, bool swap,
		      struct sdt_note *note, const char **why)
{
	size_t addr_size = elf64 ? 8 : 4, pos = 3 * addr_size;
	const char *str[3];

	if (len < pos) {
		*why = "an SDT note too short for its three addresses";
		return -EBADMSG;
	}
	for (int i = 0; i < 3; i++) {
		const unsigned char *p = desc + i * addr_size;
		uint64_t v = elf64 ? get64(p, swap) : get32(p, swap);

		if (i == 0)
			note->pc = v;
		else if (i == 1)
			note->base = v;
		else
			note->semaphore = v;
	}
	for (int i = 0; i < 3; i++) {
		const unsigned char *nul = pos < len ? memchr(desc + pos, '\0', len - pos) : NULL;

		if (!nul) {
			*why = "an SDT note without its provider, name and argument strings";
			return -EBADMSG;
		}
		str[i] = (const char *)desc + pos;
		pos = nul - desc + 1;
	}
	if (!*str[0] || !*str[1]) {
		*why = "an SDT note with an empty provider or name";
		return -EBADMSG;
	}
	note->provider = xstrdup(str[0]);
	note->name = xstrdup(str[1]);
	note->args = xstrdup(str[2]);
	note->offset = note->pc;
	note->sem_offset = note->semaphore;
	return 0;
}

int sdt_notes__parse(const void *buf, size_t len, bool elf64, bool swap, size_t align,
		     struct sdt_note **notes, const char **why)
{
	const unsigned char *p = buf;
	struct sdt_note *v = NULL;
	const char *dummy;
	size_t pos = 0;
	int nr = 0, ret = 0;

	if (!why)
		why = &dummy;
	if (align != 8)
		align = 4;
	while (pos < len) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off, next;

		if (len - pos < 12) {
			*why = "the SDT note section ends inside a note header";
			ret = -EBADMSG;
			break;
		}
		namesz = get32(p + pos, swap);
		descsz = get32(p + pos + 4, swap);
		type = get32(p + pos + 8, swap);
		name_off = pos + 12;
		desc_off = name_off + align_up(namesz, align);
		next = desc_off + align_up(descsz, align);
		/* Compare without overflow: the sizes come from the file. */
		if (namesz > len || descsz > len || desc_off > len || desc_off + descsz > len) {
			*why = "an SDT note runs past the end of its section (a truncated file?)";
			ret = -EBADMSG;
			break;
		}
		if (type == NT_STAPSDT && namesz == sizeof(SDT_NOTE_OWNER) &&
		    !memcmp(p + name_off, SDT_NOTE_OWNER, namesz)) {
			struct sdt_note note = { 0 };

			ret = parse_desc(p + desc_off, descsz, elf64, swap, &note, why);
			if (ret)
				break;
			v = realloc(v, (nr + 1) * sizeof(*v));
			if (!v)
				abort();
			v[nr++] = note;
		}
		pos = next > len ? len : next;
	}
	if (ret) {
		sdt_notes__free(v, nr);
		return ret;
	}
	*notes = v;
	return nr;
}

/* The file offset of @vaddr through the PT_LOAD holding it in its file part. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *offset)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) < 0)
		return -EBADMSG;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			*offset = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

/*
 * Move the notes by the prelink difference and find their file offsets;
 * notes that fall outside the file's segments are dropped with a warning.
 */
static int locate_notes(Elf *elf, const char *path, struct sdt_note *notes, int nr)
{
	GElf_Shdr base_shdr;
	bool have_base = elf_find_section(elf, SHT_NULL, ".stapsdt.base", &base_shdr) != NULL;
	int kept = 0;

	for (int i = 0; i < nr; i++) {
		struct sdt_note *n = &notes[i];
		const char *bad = NULL;
		uint64_t where = 0;

		if (have_base && n->base && n->base != base_shdr.sh_addr) {
			uint64_t delta = base_shdr.sh_addr - n->base;

			n->pc += delta;
			if (n->semaphore)
				n->semaphore += delta;
		}
		n->sem_offset = 0;
		if (vaddr_to_offset(elf, n->pc, &n->offset)) {
			bad = "address";
			where = n->pc;
		} else if (n->semaphore && vaddr_to_offset(elf, n->semaphore, &n->sem_offset)) {
			bad = "semaphore";
			where = n->semaphore;
		}
		if (bad) {
			pr_warning("Warning: SDT marker %s:%s of %s skipped: its %s 0x%" PRIx64
				   " is in no loadable segment of the file\n",
				   n->provider, n->name, path, bad, where);
			free(n->provider);
			free(n->name);
			free(n->args);
			continue;
		}
		notes[kept++] = *n;
	}
	return kept;
}

int sdt_notes__read(const char *path, struct sdt_note **notes, const char **why)
{
	unsigned char host_data = htobe16(1) == 1 ? ELFDATA2MSB : ELFDATA2LSB;
	struct sdt_note *v = NULL;
	const char *dummy;
	Elf_Data *data;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	struct stat st;
	Elf *elf;
	int fd, ret;

	*notes = NULL;
	if (!why)
		why = &dummy;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOEXEC;
		goto out_close;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
		ret = -ENOEXEC;
		goto out_end;
	}
	scn = elf_find_section(elf, SHT_NULL, ".note.stapsdt", &shdr);
	if (!scn || shdr.sh_type != SHT_NOTE) {
		ret = 0;
		goto out_end;
	}
	if (shdr.sh_offset > (uint64_t)st.st_size || shdr.sh_size > st.st_size - shdr.sh_offset) {
		*why = "the SDT note section runs past the end of the file (a truncated file?)";
		ret = -EBADMSG;
		goto out_end;
	}
	data = elf_rawdata(scn, NULL);
	if (!data) {
		*why = "the SDT note section cannot be read";
		ret = -EBADMSG;
		goto out_end;
	}
	ret = sdt_notes__parse(data->d_buf, data->d_size, ehdr.e_ident[EI_CLASS] == ELFCLASS64,
			       ehdr.e_ident[EI_DATA] != host_data, shdr.sh_addralign, &v, why);
	if (ret > 0)
		ret = locate_notes(elf, path, v, ret);
	if (ret >= 0)
		*notes = v;
out_end:
	elf_end(elf);
out_close:
	close(fd);
	return ret;
}
