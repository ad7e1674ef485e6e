// SPDX-License-Identifier: GPL-2.0
/*
 * Reading SDT markers from .note.stapsdt.  The section is read raw and
 * decoded here, so a truncated or malformed note is caught before any
 * marker of the file is used.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "util/arch-regs.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/sdt-note.h"
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
	struct sdt_note *v = NULL;
	struct elf_note_iter it;
	struct elf_note en;
	const char *dummy;
	int nr = 0, alloc = 0, ret;

	if (!why)
		why = &dummy;
	elf_notes__iter_init(&it, buf, len, swap, align);
	while ((ret = elf_notes__next(&it, &en)) > 0) {
		struct sdt_note note = { 0 };

		if (!elf_note__is(&en, SDT_NOTE_OWNER, NT_STAPSDT))
			continue;
		ret = parse_desc(en.desc, en.descsz, elf64, swap, &note, why);
		if (ret)
			goto fail;
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr++] = note;
	}
	if (ret < 0) {
		*why = it.short_header
			       ? "the SDT note section ends inside a note header"
			       : "an SDT note runs past the end of its section (a truncated file?)";
		goto fail;
	}
	*notes = v;
	return nr;
fail:
	sdt_notes__free(v, nr);
	return ret;
}

/*
 * Move the notes by the prelink difference and find their file offsets;
 * notes that fall outside the file's segments are dropped with a warning.
 */
static int locate_notes(Elf *elf, const char *path, struct sdt_note *notes, int nr)
{
	GElf_Shdr base_shdr;
	bool have_base = elf_find_section(elf, SHT_NULL, ".stapsdt.base", &base_shdr) != NULL;
	struct elf_load_segment *loads;
	int kept = 0, nr_loads;

	elf_loads__read(elf, &loads, &nr_loads);

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
		if (elf_loads__vaddr_to_offset(loads, nr_loads, n->pc, &n->offset)) {
			bad = "address";
			where = n->pc;
		} else if (n->semaphore && elf_loads__vaddr_to_offset(loads, nr_loads, n->semaphore,
								      &n->sem_offset)) {
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
	free(loads);
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
	uint64_t size;
	Elf_Scn *scn;
	Elf *elf;
	int fd, ret;

	*notes = NULL;
	if (!why)
		why = &dummy;
	ret = elf_util__open(path, &fd, &elf, &size);
	if (ret)
		return ret;
	if (!gelf_getehdr(elf, &ehdr)) {
		ret = -ENOEXEC;
		goto out;
	}
	scn = elf_find_section(elf, SHT_NULL, ".note.stapsdt", &shdr);
	if (!scn || shdr.sh_type != SHT_NOTE) {
		ret = 0;
		goto out;
	}
	if (shdr.sh_offset > size || shdr.sh_size > size - shdr.sh_offset) {
		*why = "the SDT note section runs past the end of the file (a truncated file?)";
		ret = -EBADMSG;
		goto out;
	}
	data = elf_rawdata(scn, NULL);
	if (!data) {
		*why = "the SDT note section cannot be read";
		ret = -EBADMSG;
		goto out;
	}
	ret = sdt_notes__parse(data->d_buf, data->d_size, ehdr.e_ident[EI_CLASS] == ELFCLASS64,
			       ehdr.e_ident[EI_DATA] != host_data, shdr.sh_addralign, &v, why);
	if (ret > 0)
		ret = locate_notes(elf, path, v, ret);
	for (int i = 0; i < ret; i++) {
		const char *arch = arch_regs__elf_arch(ehdr.e_machine);

		v[i].arch = arch ? arch : "";
	}
	if (ret >= 0)
		*notes = v;
out:
	elf_util__close(fd, elf);
	return ret;
}
