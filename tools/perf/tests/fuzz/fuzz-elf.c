// SPDX-License-Identifier: GPL-2.0
/*
 * An ELF image through libelf's groundwork (elf-util.c, on elf_memory():
 * sections, notes, PT_LOAD conversions), the symbol tables (symbol-elf.c:
 * the same bytes as a file, every lookup perf makes, a MiniDebugInfo
 * decompressed) and the call frame information (eh-frame.c).  A symbol
 * found by its address range must be found again by that address; one
 * found through .gnu.hash must bear the name and hold the address; a
 * frame description found for an address must hold it.
 */
#include <gelf.h>

#include "tests/fuzz/fuzz.h"
#include "util/eh-frame.h"
#include "util/elf-util.h"
#include "util/func-names.h"
#include "util/symbol-dyn.h"
#include "util/symbol-elf.h"

static void walk_image(const uint8_t *data, size_t size)
{
	char *image = malloc(size ? size : 1);
	struct elf_load_segment *loads = NULL;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int nr = 0;

	memcpy(image, data, size);
	elf = elf_memory(image, size);
	if (!elf || !gelf_getehdr(elf, &ehdr))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		struct elf_note_iter it;
		struct elf_note note;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		elf_notes__iter_init(&it, d->d_buf, d->d_size, elf_util__swapped(&ehdr),
				     shdr.sh_addralign);
		while (elf_notes__next(&it, &note) == 1)
			elf_note__is(&note, "GNU", 3);
	}
	elf_find_section(elf, SHT_NULL, ".text", &shdr);
	/* Frame descriptions at the entry point and across .text. */
	for (int i = 0; i < 8; i++) {
		uint64_t at = ehdr.e_entry + (uint64_t)i * 7, start, end;

		if (i == 7 && elf_find_section(elf, SHT_NULL, ".text", &shdr))
			at = shdr.sh_addr + shdr.sh_size / 2;
		if (!eh_frame__range_elf(elf, at, &start, &end) && (at < start || at >= end))
			abort();
	}
	elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	if (!elf_loads__read(elf, &loads, &nr)) {
		for (int i = 0; i < nr; i++) {
			uint64_t off, va;

			if (!elf_loads__vaddr_to_offset(loads, nr, loads[i].vaddr, &off))
				elf_loads__offset_to_vaddr(loads, nr, off, &va);
		}
	}
	free(loads);
out:
	elf_end(elf);
	free(image);
}

/*
 * The same names through .gnu.hash: what it finds holds the address asked
 * and bears the name.
 */
static void dyn_lookups(const char *path, const struct symbol_elf *se)
{
	struct symbol_dyn *d;
	struct elf_symbol got;

	if (symbol_dyn__open(path, &d))
		return;
	for (int i = 0; se && i < se->nr_syms && i < 64; i++) {
		const struct elf_symbol *sym = &se->syms[i];

		if (!symbol_dyn__find(d, sym->name, sym->addr, &got) &&
		    (strcmp(got.name, sym->name) || !elf_symbol__holds(&got, sym->addr)))
			abort();
	}
	symbol_dyn__find(d, "main", 0, &got);
	symbol_dyn__close(d);
}

static void lookups(const struct symbol_elf *se)
{
	const struct elf_symbol **v;
	struct symbol_elf_place pl;
	struct func_names fn;

	for (int i = 0; i < se->nr_syms && i < 64; i++) {
		const struct elf_symbol *sym = &se->syms[i];
		uint64_t start, end;

		if (!eh_frame__range(se->path, sym->addr, &start, &end) &&
		    (sym->addr < start || sym->addr >= end))
			abort();
		symbol_elf__find_name(se, sym->name, &v);
		free(v);
		if (sym->size && sym->addr + sym->size > sym->addr &&
		    !symbol_elf__find_addr(se, sym->addr))
			abort();
		symbol_elf__aliases(se, sym, &v);
		free(v);
		symbol_elf__has_versions(se, sym->name);
		symbol_elf__uprobe_place(se, sym, sym->size / 2, false, &pl);
		symbol_elf__uprobe_place(se, sym, 0, true, &pl);
		symbol_elf__uprobe_place_abs(se, sym->addr, false, &pl);
		symbol_elf__kprobe_place(se, sym, 0, false, false, &pl);
	}
	symbol_elf__find_glob(se, "*", &v);
	free(v);
	symbol_elf__func_names(se, NULL, NULL, true, &fn);
	func_names__release(&fn);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbol_elf *se = NULL;
	char path[32];
	int fd;

	if (size > (1 << 20))
		return 0;
	elf_version(EV_CURRENT);
	walk_image(data, size);
	fd = fuzz_memfd(data, size, path);
	if (!symbol_elf__load(path, &se))
		lookups(se);
	dyn_lookups(path, se);
	symbol_elf__delete(se);
	se = NULL;
	if (!symbol_elf__load_layout(path, &se))
		symbol_elf__delete(se);
	close(fd);
	return 0;
}
