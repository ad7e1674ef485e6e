// SPDX-License-Identifier: GPL-2.0
/*
 * symbol-elf on real files: this test binary (built with -g, so it has a
 * .symtab), libc (versioned names, aliases), and broken inputs made in a
 * temporary directory.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/demangle.h"
#include "util/func-names.h"
#include "util/strfilter.h"
#include "util/symbol-dyn.h"
#include "util/symbol-elf.h"
#include "util/util.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

/* A function of our own to find; noinline and used so it has a symbol. */
__attribute__((noinline, used)) int symbol_elf_test_target(int x)
{
	return x * 3 + 1;
}

static char tmpdir[] = "/tmp/perf-test-symbol-elf.XXXXXX";
static char exe[4096];

static struct symbol_elf *load(const char *path)
{
	struct symbol_elf *se = NULL;
	int ret = symbol_elf__load(path, &se);

	CHECK_INT(ret, ==, 0);
	return se;
}

/* A place owns nothing: forgetting it is enough. */
static void clear_tp(struct symbol_elf_place *tp)
{
	memset(tp, 0, sizeof(*tp));
}

static int main_object_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	/* The first object is the executable itself. */
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

/* The file offset of the code at runtime address @p, from /proc/self/maps. */
static long maps_file_offset(uintptr_t p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	long ret = -1;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start, end, off;

		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 && p >= start &&
		    p < end && strstr(line, exe)) {
			ret = (long)(p - start + off);
			break;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

static void test_our_own_function_has_its_link_time_address(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL;
	uintptr_t bias = 0;
	int nr;

	if (!se)
		return;
	dl_iterate_phdr(main_object_bias, &bias);
	nr = symbol_elf__find_name(se, "symbol_elf_test_target", &syms);
	CHECK_INT(nr, ==, 1);
	if (nr == 1) {
		CHECK_INT(syms[0]->addr, ==, (uintptr_t)symbol_elf_test_target - bias);
		CHECK(syms[0]->size > 0);
		CHECK(elf_symbol__is_function(syms[0]));
		CHECK_INT(syms[0]->bind, ==, STB_GLOBAL);
	}
	CHECK_STR(se->path, exe);
	CHECK(!se->dynsym_only);
	free(syms);
	symbol_elf__delete(se);
}

static void test_a_uprobe_point_has_the_mapped_file_offset(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL;
	struct symbol_elf_place tp = { 0 };
	uintptr_t p = (uintptr_t)symbol_elf_test_target;

	if (!se || symbol_elf__find_name(se, "symbol_elf_test_target", &syms) != 1)
		goto out;
	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], 0, false, &tp), ==, 0);
	CHECK_INT(tp.offset, ==, maps_file_offset(p));
	CHECK_INT(tp.address, ==, syms[0]->addr);
	CHECK_STR(tp.module, exe);
	CHECK_STR(tp.realname, "symbol_elf_test_target");
	CHECK(!tp.retprobe);
	clear_tp(&tp);

	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], 4, false, &tp), ==, 0);
	CHECK_INT(tp.offset, ==, maps_file_offset(p) + 4);
	clear_tp(&tp);

	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], 0, true, &tp), ==, 0);
	CHECK(tp.retprobe);
	CHECK_INT(tp.offset, ==, maps_file_offset(p));
	clear_tp(&tp);

	/* perf accepts FUNC+size, refuses beyond it, and %return with an offset. */
	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], syms[0]->size, false, &tp), ==, 0);
	clear_tp(&tp);
	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], syms[0]->size + 1, false, &tp), ==,
		  -ERANGE);
	CHECK_INT(symbol_elf__uprobe_place(se, syms[0], 4, true, &tp), ==, -EINVAL);
	CHECK(tp.module == NULL);
out:
	free(syms);
	symbol_elf__delete(se);
}

static void test_an_absolute_address_finds_its_symbol(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL, *sym;
	struct symbol_elf_place tp = { 0 };

	if (!se || symbol_elf__find_name(se, "symbol_elf_test_target", &syms) != 1)
		goto out;
	sym = symbol_elf__find_addr(se, syms[0]->addr + 1);
	CHECK(sym == syms[0]);
	CHECK_INT(symbol_elf__uprobe_place_abs(se, syms[0]->addr + 2, false, &tp), ==, 0);
	CHECK_STR(tp.realname, "symbol_elf_test_target");
	CHECK_INT(tp.offset, ==, maps_file_offset((uintptr_t)symbol_elf_test_target) + 2);
	clear_tp(&tp);
	CHECK_INT(symbol_elf__uprobe_place_abs(se, 0x7fffffff0000ULL, false, &tp), ==, -ERANGE);
out:
	free(syms);
	symbol_elf__delete(se);
}

static void test_unknown_names_are_not_found(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL;

	if (!se)
		return;
	CHECK_INT(symbol_elf__find_name(se, "no_such_function_here", &syms), ==, 0);
	free(syms);
	symbol_elf__delete(se);
}

static void test_globs_find_functions_once(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL;
	int nr;

	if (!se)
		return;
	nr = symbol_elf__find_glob(se, "symbol_elf_test_tar*", &syms);
	CHECK_INT(nr, ==, 1);
	free(syms);
	nr = symbol_elf__find_glob(se, "test_*", &syms);
	CHECK(nr >= 5);
	for (int i = 0; i < nr; i++)
		CHECK(elf_symbol__is_function(syms[i]));
	free(syms);
	symbol_elf__delete(se);
}

static void test_the_funcs_list_is_sorted_and_filtered(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	struct strfilter *filter = strfilter__new(STRFILTER_DEFAULT_FUNCS, NULL);
	bool found = false;
	struct func_names fn;
	char **names;
	int nr;

	if (!se)
		return;
	nr = symbol_elf__func_names(se, NULL, filter, false, &fn);
	names = fn.names;
	CHECK(nr > 0);
	for (int i = 0; i < nr; i++) {
		CHECK(names[i][0] != '_');
		CHECK(!strstr(names[i], "@plt"));
		if (i)
			CHECK(strcmp(names[i - 1], names[i]) <= 0);
		found |= !strcmp(names[i], "symbol_elf_test_target");
	}
	func_names__release(&fn);
	CHECK(found);
	/* Without a filter the PLT entries of our libc calls show. */
	found = false;
	nr = symbol_elf__func_names(se, NULL, NULL, false, &fn);
	for (int i = 0; i < nr; i++)
		found |= !strcmp(fn.names[i], "fopen@plt");
	func_names__release(&fn);
	CHECK(found);
	strfilter__delete(filter);
	symbol_elf__delete(se);
}

/* The path of the libc we run with, from the loaded objects. */
static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	if (strstr(info->dlpi_name, "/libc.so")) {
		snprintf(data, 4096, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static void test_libc_aliases_are_found_both_ways(void)
{
	char libc[4096] = "";
	const struct elf_symbol **a = NULL, **b = NULL, **al = NULL;
	struct symbol_elf *se;
	int na, nb, nal;
	bool has_libc_malloc = false, has_malloc = false;

	dl_iterate_phdr(find_libc, libc);
	CHECK(libc[0]);
	se = libc[0] ? load(libc) : NULL;
	if (!se)
		return;
	na = symbol_elf__find_name(se, "malloc", &a);
	nb = symbol_elf__find_name(se, "__libc_malloc", &b);
	CHECK_INT(na, ==, 1);
	CHECK_INT(nb, ==, 1);
	if (na == 1 && nb == 1) {
		CHECK_INT(a[0]->addr, ==, b[0]->addr);
		nal = symbol_elf__aliases(se, a[0], &al);
		for (int i = 0; i < nal; i++) {
			has_malloc |= !strcmp(al[i]->name, "malloc") ||
				      !strncmp(al[i]->name, "malloc@", 7);
			has_libc_malloc |= !strcmp(al[i]->name, "__libc_malloc");
		}
		CHECK(has_malloc);
		CHECK(has_libc_malloc || se->dynsym_only);
		free(al);
	}
	free(a);
	free(b);
	symbol_elf__delete(se);
}

static void test_versioned_names_resolve_by_their_base_name(void)
{
	char libc[4096] = "";
	const struct elf_symbol **syms = NULL;
	struct symbol_elf *se;
	int nr;

	dl_iterate_phdr(find_libc, libc);
	se = libc[0] ? load(libc) : NULL;
	if (!se)
		return;
	/* "fopen@@GLIBC_2.2.5" in a .symtab, plain "fopen" in .dynsym. */
	nr = symbol_elf__find_name(se, "fopen", &syms);
	CHECK_INT(nr, ==, 1);
	if (nr == 1)
		CHECK(!strcmp(syms[0]->name, "fopen") || !strncmp(syms[0]->name, "fopen@", 6));
	free(syms);
	symbol_elf__delete(se);
}

static void test_a_plt_entry_answers_to_its_function_name(void)
{
	struct symbol_elf *se = load("/proc/self/exe");
	const struct elf_symbol **syms = NULL;

	if (!se)
		return;
	/* We call fopen through our PLT: perf's "fopen" is then "fopen@plt". */
	CHECK_INT(symbol_elf__find_name(se, "fopen", &syms), ==, 1);
	if (syms)
		CHECK(syms[0]->plt && !strcmp(syms[0]->name, "fopen@plt"));
	free(syms);
	CHECK_INT(symbol_elf__find_name(se, "fopen@plt", &syms), ==, 1);
	free(syms);
	CHECK_INT(symbol_elf__find_name(se, "fope", &syms), ==, 0);
	free(syms);
	symbol_elf__delete(se);
}

static void test_a_hidden_version_is_not_probed(void)
{
	char libc[4096] = "";
	const struct elf_symbol **syms = NULL;
	struct symbol_elf *se;
	int nr;

	dl_iterate_phdr(find_libc, libc);
	se = libc[0] ? load(libc) : NULL;
	if (!se)
		return;
	/* memcpy@@GLIBC_2.14 (the IFUNC) counts, memcpy@GLIBC_2.2.5 does not. */
	nr = symbol_elf__find_name(se, "memcpy", &syms);
	CHECK_INT(nr, ==, 1);
	if (nr == 1)
		CHECK_INT(syms[0]->type, ==, STT_GNU_IFUNC);
	free(syms);
	symbol_elf__delete(se);
}

static void test_bad_files_give_one_clear_error(void)
{
	char *notelf = path_join(tmpdir, "notelf"), *trunc = path_join(tmpdir, "trunc");
	char *missing = path_join(tmpdir, "missing"), *empty = path_join(tmpdir, "empty");
	struct symbol_elf *se = NULL;
	char head[2048];
	int fd;
	ssize_t n;

	CHECK_INT(symbol_elf__load(missing, &se), ==, -ENOENT);
	CHECK_INT(symbol_elf__load(tmpdir, &se), ==, -EISDIR);
	write_file_atomic(notelf, "#!/bin/sh\necho hi\n", 18, 0755);
	CHECK_INT(symbol_elf__load(notelf, &se), ==, -ENOEXEC);
	write_file_atomic(empty, "", 0, 0644);
	CHECK_INT(symbol_elf__load(empty, &se), ==, -ENOEXEC);
	fd = open("/proc/self/exe", O_RDONLY);
	n = read(fd, head, sizeof(head));
	close(fd);
	CHECK_INT(n, ==, sizeof(head));
	write_file_atomic(trunc, head, sizeof(head), 0755);
	CHECK_INT(symbol_elf__load(trunc, &se), ==, -EBADMSG);
	CHECK(se == NULL);
	CHECK(strcmp(symbol_elf__strerror(-ENOEXEC), "not an ELF file") == 0);
	free(notelf);
	free(trunc);
	free(missing);
	free(empty);
}

static void test_kallsyms_format_gives_sizes_and_kprobe_points(void)
{
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000100 T do_work\n"
				   "ffffffff81000180 t helper\n"
				   "ffffffff81000200 D some_data\n"
				   "ffffffff81000300 R ro_data\n"
				   "ffffffffc0000000 t mod_func\t[mod]\n";
	char *path = path_join(tmpdir, "kallsyms");
	const struct elf_symbol **syms = NULL;
	struct symbol_elf_place tp = { 0 };
	uint64_t off;
	struct symbol_elf *se = NULL;

	write_file_atomic(path, text, strlen(text), 0644);
	CHECK_INT(symbol_elf__load_kallsyms(path, &se), ==, 0);
	if (!se)
		goto out;
	CHECK_INT(se->nr_syms, ==, 4);
	if (symbol_elf__find_name(se, "do_work", &syms) != 1) {
		CHECK(!"do_work found once");
		symbol_elf__delete(se);
		goto out;
	}
	CHECK_INT(syms[0]->size, ==, 0x80);
	CHECK(elf_symbol__is_function(syms[0]));
	/*
	 * Entry probes are _text-relative, return probes on the symbol unless
	 * the kernel takes a kretprobe at an offset.
	 */
	CHECK_INT(symbol_elf__kprobe_place(se, syms[0], 0x10, false, false, &tp), ==, 0);
	CHECK_STR(tp.symbol, "_text");
	CHECK_STR(tp.realname, "do_work");
	CHECK_INT(tp.offset, ==, 0x110);
	CHECK_INT(tp.address, ==, 0xffffffff81000110ULL);
	CHECK(tp.module == NULL);
	clear_tp(&tp);
	CHECK_INT(symbol_elf__kprobe_place(se, syms[0], 0, true, false, &tp), ==, 0);
	CHECK_STR(tp.symbol, "do_work");
	CHECK_INT(tp.offset, ==, 0);
	CHECK(tp.retprobe);
	clear_tp(&tp);
	CHECK_INT(symbol_elf__kprobe_place(se, syms[0], 0, true, true, &tp), ==, 0);
	CHECK_STR(tp.symbol, "_text");
	CHECK_INT(tp.offset, ==, 0x100);
	CHECK(tp.retprobe);
	clear_tp(&tp);
	CHECK_INT(symbol_elf__kernel_text_offset(se, 0xffffffff81000190ULL, &off), ==, 0);
	CHECK_INT(off, ==, 0x190);
	CHECK_INT(symbol_elf__kernel_text_offset(se, 0xffffffff80000000ULL, &off), ==, -ENOENT);
	CHECK_INT(symbol_elf__kprobe_place(se, syms[0], 0x81, false, false, &tp), ==, -ERANGE);
	free(syms);
	CHECK_INT(symbol_elf__find_name(se, "mod_func", &syms), ==, 0);
	CHECK(symbol_elf__find_addr(se, 0xffffffff81000190ULL) != NULL);
	symbol_elf__delete(se);
	free(syms);
	syms = NULL;
	/* One function's offset from _text, read in one pass. */
	CHECK_INT(symbol_elf__kallsyms_text_offset(path, "helper", &off), ==, 0);
	CHECK_INT(off, ==, 0x180);
	CHECK_INT(symbol_elf__kallsyms_text_offset(path, "do_wor", &off), ==, -ENOENT);
	CHECK_INT(symbol_elf__kallsyms_text_offset(path, "some_data", &off), ==, -ENOENT);
	CHECK_INT(symbol_elf__kallsyms_text_offset(path, "mod_func", &off), ==, -ENOENT);
	/* kptr_restrict hides the addresses: all zero. */
	write_file_atomic(path, "0000000000000000 T a\n0000000000000000 T b\n", 42, 0644);
	CHECK_INT(symbol_elf__load_kallsyms(path, &se), ==, -EACCES);
	write_file_atomic(path, "0000000000000000 T _text\n0000000000000000 T b\n", 46, 0644);
	CHECK_INT(symbol_elf__kallsyms_text_offset(path, "b", &off), ==, -EACCES);
out:
	free(syms);
	free(path);
}

/* symbol_elf__find_name()'s rule, asked of every symbol in turn (its index must agree). */
static int find_name_by_scan(const struct symbol_elf *se, const char *name,
			     const struct elf_symbol **out, int max)
{
	size_t len = strlen(name);
	uint64_t last = 0;
	int nr = 0;

	for (int i = 0; i < se->nr_syms; i++) {
		const struct elf_symbol *s = &se->syms[i];
		bool ok;

		if (strncmp(s->name, name, len))
			ok = !s->plt && elf_symbol__is_function(s) && demangle_match(name, s->name);
		else if (!s->name[len])
			ok = true;
		else if (s->plt)
			ok = !strcmp(s->name + len, "@plt");
		else
			ok = !strncmp(s->name + len, "@@", 2) && s->name[len + 2];
		if (!ok || (nr && last == s->addr))
			continue;
		if (nr < max)
			out[nr] = s;
		last = s->addr;
		nr++;
	}
	return nr;
}

static void test_names_found_by_the_index_are_those_of_a_scan(void)
{
	static const char *const files[] = { "/proc/self/exe",
					     "/usr/lib/x86_64-linux-gnu/libc.so.6",
					     "/usr/lib/x86_64-linux-gnu/libstdc++.so.6" };
	int asked = 0, wrong = 0;

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct symbol_elf *se;

		if (symbol_elf__load(files[f], &se))
			continue;
		/* Every 7th symbol's own name, its base name, and a demangled one. */
		for (int i = 0; i < se->nr_syms; i += 7) {
			char base[256], *src = demangle_sym(se->syms[i].name, false);
			const char *names[3] = { se->syms[i].name, base, src };

			snprintf(base, sizeof(base), "%.*s", (int)strcspn(se->syms[i].name, "@"),
				 se->syms[i].name);
			for (int k = 0; k < 3; k++) {
				const struct elf_symbol **got, *want[64];
				int n, m;

				if (!names[k] || strpbrk(names[k], "*?[") || strchr(names[k], '@'))
					continue;
				n = symbol_elf__find_name(se, names[k], &got);
				m = find_name_by_scan(se, names[k], want, 64);
				asked++;
				if (n != m ||
				    (n <= 64 && n && memcmp(got, want, n * sizeof(*got)))) {
					printf("#   %s in %s: %d found, %d by the scan\n", names[k],
					       files[f], n, m);
					wrong++;
				}
				free(got);
			}
			free(src);
		}
		symbol_elf__delete(se);
	}
	CHECK(asked > 100);
	CHECK_INT(wrong, ==, 0);
}

/*
 * Every defined function of .dynsym, read here with libelf, is found by
 * its hash at its address, and only where the symbol table has it too.
 */
static int dynamic_functions_found(const char *path, int *asked)
{
	struct symbol_dyn *d;
	struct symbol_elf *se;
	GElf_Shdr shdr, vshdr;
	Elf_Scn *scn = NULL, *vscn = NULL;
	Elf_Data *data, *versym;
	Elf *elf;
	int fd, wrong = 0;

	if (symbol_dyn__open(path, &d))
		return 1;
	se = load(path);
	fd = open(path, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_DYNSYM)
			break;
	data = scn ? elf_getdata(scn, NULL) : NULL;
	while ((vscn = elf_nextscn(elf, vscn)))
		if (gelf_getshdr(vscn, &vshdr) && vshdr.sh_type == SHT_GNU_versym)
			break;
	versym = vscn ? elf_getdata(vscn, NULL) : NULL;
	for (size_t i = 1; data && i < shdr.sh_size / shdr.sh_entsize; i++) {
		struct elf_symbol got, *table_has = NULL;
		const struct elf_symbol **named = NULL;
		const char *name;
		GElf_Versym ver = 0;
		GElf_Sym sym;
		bool hidden;
		int type, n;

		gelf_getsym(data, i, &sym);
		type = GELF_ST_TYPE(sym.st_info);
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (sym.st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    !name || !*name)
			continue;
		(*asked)++;
		hidden = versym && gelf_getversym(versym, i, &ver) && (ver & 0x8000);
		if (symbol_dyn__find(d, name, sym.st_value + sym.st_size / 2, &got)) {
			/* A compat symbol answers only as another version of the name. */
			if (!hidden) {
				printf("#   %s in %s: not found by its hash\n", name, path);
				wrong++;
			}
			continue;
		}
		if (strcmp(got.name, name) ||
		    !elf_symbol__holds(&got, sym.st_value + sym.st_size / 2)) {
			printf("#   %s in %s: another symbol found\n", name, path);
			wrong++;
			continue;
		}
		n = symbol_elf__find_name(se, name, &named);
		for (int k = 0; k < n; k++)
			if (elf_symbol__holds(named[k], sym.st_value + sym.st_size / 2))
				table_has = (struct elf_symbol *)named[k];
		free(named);
		if (!table_has) {
			printf("#   %s in %s: not the symbol table's\n", name, path);
			wrong++;
		}
	}
	CHECK_INT(symbol_dyn__find(d, "no_such_function_here", 0, &(struct elf_symbol){ 0 }), ==,
		  -ENOENT);
	elf_end(elf);
	close(fd);
	symbol_elf__delete(se);
	symbol_dyn__close(d);
	return wrong;
}

static void test_exported_functions_are_found_by_hash(void)
{
	const struct elf_symbol **m = NULL;
	struct symbol_elf *se = load(LIBC);
	struct symbol_dyn *d;
	struct elf_symbol got;
	int asked = 0;

	CHECK_INT(dynamic_functions_found(LIBC, &asked), ==, 0);
	CHECK_INT(dynamic_functions_found("/usr/lib/x86_64-linux-gnu/libstdc++.so.6", &asked), ==,
		  0);
	CHECK(asked > 5000);
	/* An address outside the function: not found (the table then answers). */
	CHECK_INT(symbol_dyn__open(LIBC, &d), ==, 0);
	CHECK_INT(symbol_elf__find_name(se, "malloc", &m), >=, 1);
	CHECK_INT(symbol_dyn__find(d, "malloc", m[0]->addr, &got), ==, 0);
	CHECK_INT(symbol_dyn__find(d, "malloc", m[0]->addr + m[0]->size, &got), ==, -ENOENT);
	/* Objects are not functions. */
	CHECK_INT(symbol_dyn__find(d, "environ", 0, &got), ==, -ENOENT);
	free(m);
	symbol_dyn__close(d);
	symbol_elf__delete(se);
}

/* A copy of libc with its .gnu.hash header's word @word set to @value. */
static int gnu_hash_broken(const char *to, int word, uint32_t value)
{
	struct symbol_dyn *d = NULL;
	GElf_Shdr shdr;
	Elf_Scn *scn = NULL;
	Elf *elf;
	char *buf;
	size_t len;
	int fd = open(LIBC, O_RDONLY), ret;
	off_t at = -1;

	elf = elf_begin(fd, ELF_C_READ, NULL);
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_GNU_HASH)
			at = shdr.sh_offset;
	elf_end(elf);
	len = lseek(fd, 0, SEEK_END);
	buf = xmalloc(len);
	CHECK_INT(pread(fd, buf, len, 0), ==, (ssize_t)len);
	close(fd);
	CHECK(at > 0);
	memcpy(buf + at + 4 * word, &value, 4);
	write_file_atomic(to, buf, len, 0644);
	free(buf);
	ret = symbol_dyn__open(to, &d);
	symbol_dyn__close(d);
	return ret;
}

static void test_a_broken_gnu_hash_is_refused(void)
{
	char *bad = path_join(tmpdir, "libc.badhash"), *plain = path_join(tmpdir, "notelf");
	struct symbol_dyn *d;

	CHECK_INT(gnu_hash_broken(bad, 0, 0), ==, -EBADMSG);	      /* no buckets */
	CHECK_INT(gnu_hash_broken(bad, 0, 0x7fffffff), ==, -EBADMSG); /* beyond the section */
	CHECK_INT(gnu_hash_broken(bad, 2, 0x40000000), ==, -EBADMSG); /* a bloom beyond it */
	CHECK_INT(gnu_hash_broken(bad, 3, 64), ==, -EBADMSG);	      /* a shift of 64 */
	CHECK_INT(gnu_hash_broken(bad, 1, 0x7fffffff), ==, -EBADMSG); /* symoffset past .dynsym */
	write_file_atomic(plain, "#!/bin/sh\n", 10, 0755);
	CHECK_INT(symbol_dyn__open(plain, &d), ==, -ENOEXEC);
	free(bad);
	free(plain);
}

static void test_cleanup(void)
{
	CHECK_INT(rm_rf(tmpdir), ==, 0);
}

static void __attribute__((constructor)) setup(void)
{
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0 || !mkdtemp(tmpdir))
		abort();
	exe[n] = '\0';
}

TESTS(TEST(test_our_own_function_has_its_link_time_address),
      TEST(test_names_found_by_the_index_are_those_of_a_scan),
      TEST(test_a_uprobe_point_has_the_mapped_file_offset),
      TEST(test_an_absolute_address_finds_its_symbol), TEST(test_unknown_names_are_not_found),
      TEST(test_globs_find_functions_once), TEST(test_the_funcs_list_is_sorted_and_filtered),
      TEST(test_libc_aliases_are_found_both_ways),
      TEST(test_versioned_names_resolve_by_their_base_name),
      TEST(test_a_plt_entry_answers_to_its_function_name),
      TEST(test_a_hidden_version_is_not_probed), TEST(test_bad_files_give_one_clear_error),
      TEST(test_kallsyms_format_gives_sizes_and_kprobe_points),
      TEST(test_exported_functions_are_found_by_hash), TEST(test_a_broken_gnu_hash_is_refused),
      TEST(test_cleanup));
