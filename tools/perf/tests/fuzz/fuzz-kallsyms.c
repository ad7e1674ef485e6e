// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms reader (symbol-elf.c): the text as /proc/kallsyms, then
 * the lookups a kprobe makes on it.  Every symbol is found by its name.
 */
#include "tests/fuzz/fuzz.h"
#include "util/symbol-elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbol_elf *se = NULL;
	char path[32];
	int fd;

	if (size > 65536)
		return 0;
	fd = fuzz_memfd(data, size, path);
	if (!symbol_elf__load_kallsyms(path, &se)) {
		for (int i = 0; i < se->nr_syms && i < 64; i++) {
			const struct elf_symbol *sym = &se->syms[i], **v;
			struct symbol_elf_place pl;
			int n = symbol_elf__find_name(se, sym->name, &v);

			free(v);
			if (n < 1)
				abort();
			symbol_elf__find_addr(se, sym->addr);
			symbol_elf__kprobe_place(se, sym, sym->size, false, false, &pl);
			symbol_elf__kprobe_place(se, sym, 0, true, true, &pl);
			if (i < 8) {
				uint64_t off;

				symbol_elf__kallsyms_text_offset(path, sym->name, &off);
			}
		}
		symbol_elf__delete(se);
	}
	close(fd);
	return 0;
}
