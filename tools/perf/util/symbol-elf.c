// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/demangle.h"
#include "util/elf-util.h"
#include "util/func-names.h"
#include "util/minidebuginfo.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/symbol-elf.h"
#include "util/util.h"

#define DEBUG_BUILD_ID_DIR "/usr/lib/debug/.build-id"

/*
 * Symbols being read, their names copied into blocks of NAME_BLOCK bytes:
 * one strdup() per symbol (and its free()) was a fifth of loading
 * python3.11d's 20,000.
 */
#define NAME_BLOCK 65536

struct sym_vec {
	struct elf_symbol *v; /* or, borrowing, their names only: */
	char **names;
	int nr, alloc;
	char **labels; /* see symbol_elf.labels */
	int nr_labels, alloc_labels;
	char **blocks;
	int nr_blocks;
	size_t used; /* of the last block */
	/*
	 * symbol_elf__load_names(): the names of the tables point into the
	 * files read, which are kept open (kept), and are not sorted.
	 */
	bool borrow;
	int nr_labels_named; /* borrowing: the labels among names */
	struct symbol_elf_file kept[SYMBOL_ELF_KEPT];
	int nr_kept;
};

static char *sym_vec_name(struct sym_vec *sv, const char *name)
{
	size_t len = strlen(name) + 1;
	char *at;

	if (!sv->nr_blocks || sv->used + len > NAME_BLOCK) {
		sv->blocks = xrealloc(sv->blocks, sizeof(*sv->blocks) * (sv->nr_blocks + 1));
		sv->blocks[sv->nr_blocks++] = xmalloc(len > NAME_BLOCK ? len : NAME_BLOCK);
		sv->used = 0;
	}
	at = sv->blocks[sv->nr_blocks - 1] + sv->used;
	memcpy(at, name, len);
	/* a name longer than a block has one of its own: the next starts anew */
	sv->used = len > NAME_BLOCK ? NAME_BLOCK : sv->used + len;
	return at;
}

/* The file @fd, @elf (and @image, a MiniDebugInfo's) let go of. */
static void kept_file_close(struct symbol_elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->image);
}

/*
 * The file a table was read from: kept when its names are borrowed (and
 * there is room), else closed.
 */
static void sym_vec_done_with(struct sym_vec *sv, int fd, Elf *elf, void *image)
{
	struct symbol_elf_file f = { fd, elf, image };

	if (sv->borrow && sv->nr_kept < SYMBOL_ELF_KEPT)
		sv->kept[sv->nr_kept++] = f;
	else
		kept_file_close(&f);
}

/* @name of a table, borrowed (never written: the file is mapped read-only) or copied. */
static char *sym_vec_table_name(struct sym_vec *sv, const char *name)
{
	return sv->borrow ? (char *)name : sym_vec_name(sv, name);
}

static void free_name_blocks(char **blocks, int nr)
{
	for (int i = 0; i < nr; i++)
		free(blocks[i]);
	free(blocks);
}

/* Free all @sv holds; it is empty then, and borrows as it did. */
static void sym_vec_free(struct sym_vec *sv)
{
	bool borrow = sv->borrow;

	free(sv->v);
	free(sv->names);
	free(sv->labels);
	free_name_blocks(sv->blocks, sv->nr_blocks);
	for (int i = 0; i < sv->nr_kept; i++)
		kept_file_close(&sv->kept[i]);
	memset(sv, 0, sizeof(*sv));
	sv->borrow = borrow;
}

/*
 * The symbols by the name before any '@' (NAME of NAME@plt, NAME@@VER),
 * hashed, and the mangled functions apart: a plain name is answered by
 * its bucket and the mangled ones, not by every symbol (a cached add
 * checked 20 lines against python3.11d's 20,000 symbols one by one).
 */
struct symbol_name_index {
	int *head, *next; /* chains of symbol indexes, -1 ends */
	unsigned int mask;
	int *mangled, nr_mangled;
};

/* Room for @n more symbols. */
static void sym_vec_reserve(struct sym_vec *sv, size_t n)
{
	if (n >= (size_t)INT_MAX - (size_t)sv->nr)
		return;
	if (sv->borrow)
		ALLOC_GROW(sv->names, sv->nr + (int)n, sv->alloc);
	else
		ALLOC_GROW(sv->v, sv->nr + (int)n, sv->alloc);
}

/*
 * A symbol named @name, kept as it is (sym_vec_name(), sym_vec_table_name());
 * borrowing, only its name.
 */
static void sym_vec_add(struct sym_vec *sv, char *name, uint64_t addr, uint64_t size,
			unsigned char bind, unsigned char type, bool plt)
{
	struct elf_symbol *s;

	if (sv->borrow) {
		ALLOC_GROW(sv->names, sv->nr + 1, sv->alloc);
		sv->names[sv->nr++] = name;
		return;
	}
	ALLOC_GROW(sv->v, sv->nr + 1, sv->alloc);
	s = &sv->v[sv->nr++];
	s->name = name;
	s->addr = addr;
	s->size = size;
	s->bind = bind;
	s->type = type;
	s->plt = plt;
}

/*
 * @sv by address, then name (of one name, the copy read first).  Sorted
 * as keys and put in order once: qsort() moving the 32-byte symbols
 * themselves, a call per comparison, was two thirds of loading
 * python3.11d's 20,000.
 */
static void sym_vec_sort(struct sym_vec *sv)
{
	struct addr_name_key *k = xmalloc(sizeof(*k) * (sv->nr ? sv->nr : 1));
	struct elf_symbol *v = xmalloc(sizeof(*v) * (sv->nr ? sv->nr : 1));

	for (int i = 0; i < sv->nr; i++)
		k[i] = (struct addr_name_key){ sv->v[i].addr, sv->v[i].name, (size_t)i };
	addr_name_sort(k, sv->nr);
	for (int i = 0; i < sv->nr; i++)
		v[i] = sv->v[k[i].order];
	free(k);
	free(sv->v);
	sv->v = v;
	sv->alloc = sv->nr;
}

/*
 * Does the file end before its section headers or (@segments) a segment's
 * contents?  libelf reads lazily, so a truncated file would otherwise
 * half-load.  A debug file's program headers are the binary's: there only
 * the section headers must fit (libelf checks each section's bytes).
 */
static bool elf_truncated(Elf *elf, off_t size, bool segments)
{
	GElf_Ehdr ehdr;
	size_t phnum;

	if (!gelf_getehdr(elf, &ehdr))
		return true;
	if (ehdr.e_shoff &&
	    ehdr.e_shoff + (uint64_t)ehdr.e_shnum * ehdr.e_shentsize > (uint64_t)size)
		return true;
	if (!segments)
		return false;
	if (elf_getphdrnum(elf, &phnum) < 0)
		return true;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_offset + ph.p_filesz > (uint64_t)size)
			return true;
	}
	return false;
}

/* symbol_elf__open_elf() of a file whose segments may not be in it (@segments false). */
static int open_elf(const char *path, bool segments, int *fd, Elf **elf)
{
	uint64_t size;
	int ret = elf_util__open(path, fd, elf, &size);

	if (!ret && elf_truncated(*elf, size, segments)) {
		elf_util__close(*fd, *elf);
		ret = -EBADMSG;
	}
	return ret;
}

int symbol_elf__open_elf(const char *path, int *fd, Elf **elf)
{
	return open_elf(path, true, fd, elf);
}

enum sym_kind { SYM_DROP, SYM_KEEP, SYM_LABEL };

/*
 * Which defined symbols perf lists: functions and objects of allocated
 * sections (not e.g. .gnu.warning's), and labels (NOTYPE) of a section
 * whose name says text or data (.text, .rodata, .data.rel.ro, "zztext";
 * not .bss, .got or .eh_frame_hdr, as perf 6.1 and 6.12 list them).  A
 * global label is a symbol like the others; a local one (an assembler
 * file's entry point, a table in .data) is listed too, but is no symbol a
 * probe may name, nor one that names an address.  A debug file's sections
 * keep their names (their type is NOBITS): its symbols are judged alike.
 */
/* What keep_symbol() asks of a symbol's section, looked up once per table. */
enum sec_bits { SEC_KNOWN = 1, SEC_ALLOC = 2, SEC_LABELS = 4 };

/* The sections of a table's file, and what is known of each. */
struct sym_sections {
	Elf *elf;
	unsigned char *bits;
	size_t nsec;
};

static unsigned char sec_bits(struct sym_sections *ss, size_t ndx)
{
	GElf_Shdr shdr;
	Elf_Scn *scn;
	size_t shstrndx;
	const char *name;
	unsigned char b;

	if (ndx < ss->nsec && ss->bits[ndx])
		return ss->bits[ndx];
	scn = elf_getscn(ss->elf, ndx);
	if (!scn || !gelf_getshdr(scn, &shdr))
		return SEC_KNOWN;
	name = elf_getshdrstrndx(ss->elf, &shstrndx) < 0
		       ? NULL
		       : elf_strptr(ss->elf, shstrndx, shdr.sh_name);
	b = SEC_KNOWN | (shdr.sh_flags & SHF_ALLOC ? SEC_ALLOC : 0) |
	    (name && (strstr(name, "text") || strstr(name, "data")) ? SEC_LABELS : 0);
	if (ndx < ss->nsec)
		ss->bits[ndx] = b;
	return b;
}

static enum sym_kind keep_symbol(struct sym_sections *ss, const GElf_Sym *sym, const char *name)
{
	unsigned char type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info), sec;

	if (!name || !*name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return SYM_DROP;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return SYM_DROP;
	if (sym->st_shndx >= SHN_LORESERVE)
		return type != STT_NOTYPE || bind != STB_LOCAL ? SYM_KEEP : SYM_DROP;
	sec = sec_bits(ss, sym->st_shndx);
	if (!(sec & SEC_ALLOC))
		return SYM_DROP;
	if (type != STT_NOTYPE)
		return SYM_KEEP;
	if (!(sec & SEC_LABELS))
		return SYM_DROP;
	return bind == STB_LOCAL ? SYM_LABEL : SYM_KEEP;
}

bool symbol_elf__keeps(Elf *elf, const GElf_Sym *sym, const char *name)
{
	struct sym_sections ss = { elf, NULL, 0 };

	return keep_symbol(&ss, sym, name) == SYM_KEEP;
}

/* Read the symbols of table @scn (.symtab or .dynsym); 0 or -EBADMSG. */
static int read_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct sym_vec *sv)
{
	Elf_Data *data = elf_getdata(scn, NULL), *strs;
	Elf_Scn *strscn = elf_getscn(elf, shdr->sh_link);
	struct sym_sections ss = { elf, NULL, 0 };
	const GElf_Sym *in_place = NULL;
	size_t n;

	if (!data || !shdr->sh_entsize)
		return -EBADMSG;
	/*
	 * The names straight from the string table when it ends in a NUL, so
	 * that each one does: elf_strptr() checking each, and the section
	 * header of each symbol read anew, were most of loading 59,000.
	 */
	strs = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (strs && (!strs->d_buf || !strs->d_size || ((char *)strs->d_buf)[strs->d_size - 1]))
		strs = NULL;
	if (elf_getshdrnum(elf, &ss.nsec) < 0)
		ss.nsec = 0;
	ss.bits = xzalloc(ss.nsec + 1);
	n = shdr->sh_size / shdr->sh_entsize;
	/*
	 * A 64-bit file's table as libelf gives it is GElf_Sym's already:
	 * read in place, not copied out one by one (a tenth of -F's load).
	 */
	if (gelf_getclass(elf) == ELFCLASS64 && data->d_type == ELF_T_SYM && data->d_buf &&
	    !((uintptr_t)data->d_buf % _Alignof(GElf_Sym))) {
		if (n > data->d_size / sizeof(GElf_Sym)) {
			free(ss.bits);
			return -EBADMSG;
		}
		in_place = data->d_buf;
	}
	/* Room for all at once: growing by doubling copied and touched twice as much. */
	sym_vec_reserve(sv, n);
	for (size_t i = 1; i < n; i++) {
		GElf_Sym copy;
		const GElf_Sym *sym = in_place ? &in_place[i] : gelf_getsym(data, i, &copy);
		const char *name;

		if (!sym) {
			free(ss.bits);
			return -EBADMSG;
		}
		if (strs)
			name = sym->st_name < strs->d_size ? (char *)strs->d_buf + sym->st_name
							   : NULL;
		else
			name = elf_strptr(elf, shdr->sh_link, sym->st_name);
		switch (keep_symbol(&ss, sym, name)) {
		case SYM_DROP:
			continue;
		case SYM_LABEL:
			/* names only: among the names, -F lists them alike (no copy) */
			if (sv->borrow) {
				sym_vec_add(sv, sym_vec_table_name(sv, name), 0, 0, 0, 0, false);
				sv->nr_labels_named++;
				continue;
			}
			ALLOC_GROW(sv->labels, sv->nr_labels + 1, sv->alloc_labels);
			sv->labels[sv->nr_labels++] = sym_vec_table_name(sv, name);
			continue;
		case SYM_KEEP:
			break;
		}
		sym_vec_add(sv, sym_vec_table_name(sv, name), sym->st_value, sym->st_size,
			    GELF_ST_BIND(sym->st_info), GELF_ST_TYPE(sym->st_info), false);
	}
	free(ss.bits);
	return 0;
}

/*
 * NAME@plt for each .rela.plt (.rel.plt) entry: entry i sits at .plt.sec + i * 16 with
 * IBT's second PLT, else at .plt + (i + 1) * 16 (entry 0 is the resolver
 * stub).  Only x86-style 16-byte entries are synthesized.
 */
static void read_plt(Elf *elf, struct sym_vec *sv)
{
	GElf_Shdr rela_shdr, plt_shdr, dyn_shdr;
	Elf_Scn *rela = elf_find_section(elf, SHT_RELA, ".rela.plt", &rela_shdr), *plt, *dyn;
	uint64_t base, entsize = 16;
	Elf_Data *rdata, *ddata;
	size_t n;

	if (!rela)
		rela = elf_find_section(elf, SHT_REL, ".rel.plt", &rela_shdr); /* i386 */
	if (!rela)
		return;
	plt = elf_find_section(elf, SHT_PROGBITS, ".plt.sec", &plt_shdr);
	if (plt) {
		base = plt_shdr.sh_addr;
	} else {
		plt = elf_find_section(elf, SHT_PROGBITS, ".plt", &plt_shdr);
		if (!plt)
			return;
		base = plt_shdr.sh_addr + entsize;
	}
	dyn = elf_getscn(elf, rela_shdr.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dyn_shdr))
		return;
	rdata = elf_getdata(rela, NULL);
	ddata = elf_getdata(dyn, NULL);
	if (!rdata || !ddata || !rela_shdr.sh_entsize)
		return;
	n = rela_shdr.sh_size / rela_shdr.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		GElf_Rela r;
		GElf_Rel rl;
		GElf_Sym sym;
		uint64_t info;
		const char *name;

		if (rela_shdr.sh_type == SHT_RELA) {
			if (!gelf_getrela(rdata, i, &r))
				return;
			info = r.r_info;
		} else {
			if (!gelf_getrel(rdata, i, &rl))
				return;
			info = rl.r_info;
		}
		if (!gelf_getsym(ddata, GELF_R_SYM(info), &sym))
			continue;
		/* IRELATIVE slots have no symbol: perf lists them as "@plt". */
		name = elf_strptr(elf, dyn_shdr.sh_link, sym.st_name);
		strbuf_addf(&sb, "%s@plt", name ? name : "");
		sym_vec_add(sv, sym_vec_name(sv, sb.buf), base + i * entsize, entsize, STB_GLOBAL,
			    STT_FUNC, true);
		strbuf_release(&sb);
	}
}

static int read_loads(Elf *elf, struct symbol_elf *se)
{
	return elf_loads__read(elf, &se->loads, &se->nr_loads);
}

/* Where a copy of a file's symbols may be, by its build-id. */
enum symbol_file { SYMBOL_FILE_CACHED, SYMBOL_FILE_DEBUG };

/*
 * A file of @path's build-id with a .symtab: its copy in the build-id cache
 * ($PERF_BUILDID_DIR|~/.debug/.build-id/xx/rest/elf: perf probe -D and
 * buildid-cache -a put it there) or a distribution's debug file
 * (/usr/lib/debug/.build-id/xx/rest.debug); new string or NULL.
 */
static char *find_symbol_file(const char *path, enum symbol_file which)
{
	char sbid[SBUILD_ID_SIZE], *cand, *dir, *found = NULL;
	struct build_id bid;
	GElf_Shdr shdr;
	Elf *elf;
	int fd;

	if (filename__read_build_id(path, &bid) < 0)
		return NULL;
	build_id__sprintf(&bid, sbid);
	if (which == SYMBOL_FILE_CACHED) {
		/* The link is resolved inside the cache, never followed out of it. */
		dir = build_id_cache__link_dir(&bid);
		if (!dir)
			return NULL;
		cand = path_join(dir, "elf");
		free(dir);
	} else if (asprintf(&cand, "%s/%.2s/%s.debug", DEBUG_BUILD_ID_DIR, sbid, sbid + 2) < 0) {
		abort();
	}
	if (!open_elf(cand, false, &fd, &elf)) {
		if (elf_find_section(elf, SHT_SYMTAB, NULL, &shdr))
			found = cand;
		elf_util__close(fd, elf);
	}
	if (!found)
		free(cand);
	return found;
}

/*
 * The .symtab of the file @dpath of find_symbol_file() into @sv, and its
 * .dynsym too with @dynsym (a copy of the file itself; a debug file's is
 * NOBITS); 0 or -errno.
 */
static int read_symbol_file(const char *dpath, bool dynsym, struct sym_vec *sv)
{
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *elf;
	int fd, ret;

	ret = open_elf(dpath, false, &fd, &elf);
	if (ret < 0)
		return ret;
	scn = elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	ret = scn ? read_symtab(elf, scn, &shdr, sv) : -ENODATA;
	if (!ret && dynsym && (scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr)))
		ret = read_symtab(elf, scn, &shdr, sv);
	sym_vec_done_with(sv, fd, elf, NULL);
	return ret;
}

/*
 * The .symtab of @elf's MiniDebugInfo into @sv: 0, -ENODATA when it has
 * none, -EILSEQ when it is corrupt (a size past the file's end, data that
 * does not decompress, no ELF file or no .symtab in it), -EFBIG when it
 * decompresses past the limits.
 */
static int read_minidebuginfo(Elf *elf, uint64_t file_size, struct sym_vec *sv)
{
	GElf_Shdr shdr, sshdr;
	Elf_Scn *scn = elf_find_section(elf, SHT_PROGBITS, ".gnu_debugdata", &shdr);
	GElf_Ehdr eh;
	uint8_t *image = NULL;
	Elf_Data *data;
	size_t len;
	Elf *mini;
	int ret;

	if (!scn)
		return -ENODATA;
	/* A size the file does not have is neither read nor allocated. */
	if (shdr.sh_offset > file_size || shdr.sh_size > file_size - shdr.sh_offset)
		return -EILSEQ;
	data = elf_rawdata(scn, NULL);
	if (!data || !data->d_buf || data->d_size != shdr.sh_size)
		return -EILSEQ;
	ret = minidebuginfo__decompress(data->d_buf, data->d_size, &image, &len);
	if (ret)
		return ret;
	ret = -EILSEQ;
	/*
	 * A debug file: its program headers are the binary's, so only its
	 * section headers must fit (libelf checks each section's bytes).
	 */
	mini = elf_memory((char *)image, len);
	if (mini && elf_kind(mini) == ELF_K_ELF && gelf_getehdr(mini, &eh) && eh.e_shoff <= len &&
	    (uint64_t)eh.e_shnum * eh.e_shentsize <= len - eh.e_shoff &&
	    (scn = elf_find_section(mini, SHT_SYMTAB, NULL, &sshdr)))
		ret = read_symtab(mini, scn, &sshdr, sv) ? -EILSEQ : 0;
	sym_vec_done_with(sv, -1, mini, image);
	pr_debug("MiniDebugInfo (.gnu_debugdata): %s\n", ret ? "corrupt" : "read");
	return ret;
}

/*
 * A new symbol_elf of @elf with its path (resolved by realpath() with
 * @resolve), type and PT_LOAD layout only.
 */
static int read_layout(Elf *elf, const char *path, bool resolve, struct symbol_elf **out)
{
	struct symbol_elf *se = xzalloc(sizeof(*se));
	char real[PATH_MAX];
	GElf_Ehdr ehdr;
	size_t shnum;
	int ret;

	se->path = xstrdup(resolve && realpath(path, real) ? real : path);
	if (!gelf_getehdr(elf, &ehdr) || elf_getshdrnum(elf, &shnum) < 0) {
		ret = -EBADMSG;
	} else {
		se->e_type = ehdr.e_type;
		ret = read_loads(elf, se);
	}
	if (ret < 0) {
		symbol_elf__delete(se);
		return ret;
	}
	*out = se;
	return 0;
}

static int load_elf(Elf *elf, uint64_t size, const char *path, bool resolve, bool names_only,
		    struct symbol_elf **out);

int symbol_elf__load(const char *path, struct symbol_elf **out)
{
	uint64_t size;
	Elf *elf;
	int fd, ret = elf_util__open(path, &fd, &elf, &size);

	if (ret < 0)
		return ret;
	ret = load_elf(elf, size, path, true, false, out);
	elf_util__close(fd, elf);
	return ret;
}

int symbol_elf__load_names(const char *path, struct symbol_elf **out)
{
	uint64_t size;
	Elf *elf;
	int fd, ret = elf_util__open(path, &fd, &elf, &size);

	if (ret < 0)
		return ret;
	ret = load_elf(elf, size, path, true, true, out);
	if (ret < 0) {
		elf_util__close(fd, elf);
		return ret;
	}
	/* Its names may be this file's: kept open as long as they are. */
	(*out)->kept[(*out)->nr_kept++] = (struct symbol_elf_file){ fd, elf, NULL };
	return 0;
}

int symbol_elf__load_elf(Elf *elf, uint64_t size, const char *path, struct symbol_elf **out)
{
	return load_elf(elf, size, path, false, false, out);
}

static int load_elf(Elf *elf, uint64_t size, const char *path, bool resolve, bool names_only,
		    struct symbol_elf **out)
{
	struct symbol_elf *se = NULL;
	struct sym_vec sv = { .borrow = names_only };
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int ret;

	if (elf_truncated(elf, size, true))
		return -EBADMSG;
	ret = read_layout(elf, path, resolve, &se);
	if (ret < 0)
		goto out;
	/*
	 * Where perf 6.1 and 6.12 read the symbols, the first of: the copy in
	 * the build-id cache with a .symtab (its .symtab and .dynsym, as of
	 * the file itself: "main" may show twice), a distribution's debug
	 * file (its .symtab only, its .dynsym is NOBITS), the file's own
	 * tables, its MiniDebugInfo and .dynsym.
	 */
	for (enum symbol_file which = SYMBOL_FILE_CACHED; which <= SYMBOL_FILE_DEBUG && !se->symsrc;
	     which++) {
		se->symsrc = find_symbol_file(path, which);
		if (se->symsrc &&
		    read_symbol_file(se->symsrc, which == SYMBOL_FILE_CACHED, &sv) < 0) {
			sym_vec_free(&sv);
			free(se->symsrc);
			se->symsrc = NULL;
		}
	}
	scn = elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	if (se->symsrc) {
		ret = 0;
	} else if (scn) {
		se->symsrc = xstrdup(se->path);
		ret = read_symtab(elf, scn, &shdr, &sv);
		scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr);
		if (!ret && scn)
			ret = read_symtab(elf, scn, &shdr, &sv);
	} else {
		se->symsrc = xstrdup(se->path);
		/*
		 * A MiniDebugInfo is a whole table of functions with .dynsym;
		 * one that can not be read is noted, and .dynsym is all there
		 * is (as without one).
		 */
		ret = read_minidebuginfo(elf, size, &sv);
		if (ret && ret != -ENODATA) {
			se->mdi_err = ret;
			sym_vec_free(&sv);
		}
		se->dynsym_only = ret != 0;
		scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr);
		ret = scn ? read_symtab(elf, scn, &shdr, &sv) : 0;
	}
	if (ret < 0)
		goto out;
	/* labels are no symbols: a file of labels only is stripped */
	if (sv.nr > sv.nr_labels_named)
		read_plt(elf, &sv);
	if (sv.nr == sv.nr_labels_named) {
		ret = -ENODATA;
		goto out;
	}
	if (names_only) {
		/* the files the names are in, and room for the caller's */
		se->kept = xmalloc(sizeof(*se->kept) * (SYMBOL_ELF_KEPT + 1));
		memcpy(se->kept, sv.kept, sizeof(*sv.kept) * sv.nr_kept);
		se->nr_kept = sv.nr_kept;
		se->names_only = true;
		se->names = sv.names;
		se->nr_names = sv.nr;
	} else {
		sym_vec_sort(&sv);
		se->syms = sv.v;
		se->nr_syms = sv.nr;
	}
	se->name_blocks = sv.blocks;
	se->nr_name_blocks = sv.nr_blocks;
	se->labels = sv.labels;
	se->nr_labels = sv.nr_labels;
	memset(&sv, 0, sizeof(sv));
	*out = se;
	se = NULL;
out:
	sym_vec_free(&sv);
	symbol_elf__delete(se);
	return ret;
}

int symbol_elf__load_layout(const char *path, struct symbol_elf **out)
{
	Elf *elf;
	int fd, ret = symbol_elf__open_elf(path, &fd, &elf);

	if (ret < 0)
		return ret;
	ret = read_layout(elf, path, true, out);
	elf_util__close(fd, elf);
	return ret;
}

int symbol_elf__kallsyms_text_offset(const char *path, const char *name, uint64_t *off)
{
	size_t len = strlen(name), sz = 0;
	bool text_seen = false, func_seen = false;
	uint64_t text = 0, func = 0;
	char *line = NULL;
	int ret = -ENOENT;
	ssize_t n;
	FILE *f;

	f = fopen(path ? path : "/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (!(text_seen && func_seen) && (n = getline(&line, &sz, f)) > 0) {
		/* "ADDR T NAME\n", or "ADDR t NAME\t[MOD]\n": no sscanf per line. */
		char *sp = memchr(line, ' ', n), *nm;

		if (!sp || sp + 3 >= line + n || sp[2] != ' ')
			continue;
		nm = sp + 3;
		if (!text_seen && line + n - nm == 6 && !memcmp(nm, "_text\n", 6)) {
			text = strtoull(line, NULL, 16);
			text_seen = true;
		} else if (!func_seen && (sp[1] == 't' || sp[1] == 'T') &&
			   line + n - nm == (ssize_t)len + 1 && !memcmp(nm, name, len) &&
			   nm[len] == '\n') {
			func = strtoull(line, NULL, 16);
			func_seen = true;
		}
	}
	free(line);
	fclose(f);
	if (text_seen && func_seen && !text && !func)
		ret = -EACCES;
	else if (text_seen && func_seen && func >= text) {
		*off = func - text;
		ret = 0;
	}
	return ret;
}

int symbol_elf__load_kallsyms(const char *path, struct symbol_elf **out)
{
	struct sym_vec sv = { 0 };
	struct symbol_elf *se;
	char *line = NULL;
	size_t sz = 0;
	bool any_addr = false;
	FILE *f;

	if (!path)
		path = "/proc/kallsyms";
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (getline(&line, &sz, f) > 0) {
		uint64_t addr;
		char type, name[512];
		int n = 0;

		if (sscanf(line, "%" SCNx64 " %c %511s%n", &addr, &type, name, &n) != 3)
			continue;
		/* perf leaves out modules' symbols and read-only data. */
		if (strchr(line + n, '[') || type == 'r' || type == 'R')
			continue;
		any_addr |= addr != 0;
		sym_vec_add(&sv, sym_vec_name(&sv, name), addr, 0,
			    type >= 'a' ? STB_LOCAL : STB_GLOBAL,
			    strchr("tTwW", type) ? STT_FUNC : STT_OBJECT, false);
	}
	free(line);
	fclose(f);
	if (!sv.nr || !any_addr) {
		int nr = sv.nr;

		sym_vec_free(&sv);
		return nr ? -EACCES : -ENODATA;
	}
	sym_vec_sort(&sv);
	for (int i = 0; i < sv.nr; i++) {
		int j = i + 1;

		while (j < sv.nr && sv.v[j].addr == sv.v[i].addr)
			j++;
		if (j < sv.nr)
			sv.v[i].size = sv.v[j].addr - sv.v[i].addr;
	}
	se = xzalloc(sizeof(*se));
	se->path = xstrdup(path);
	se->symsrc = xstrdup(path);
	se->syms = sv.v;
	se->nr_syms = sv.nr;
	se->name_blocks = sv.blocks;
	se->nr_name_blocks = sv.nr_blocks;
	*out = se;
	return 0;
}

void symbol_elf__delete(struct symbol_elf *se)
{
	if (!se)
		return;
	free(se->syms);
	free(se->names);
	free(se->labels);
	free_name_blocks(se->name_blocks, se->nr_name_blocks);
	for (int i = 0; i < se->nr_kept; i++)
		kept_file_close(&se->kept[i]);
	free(se->kept);
	free(se->loads);
	free(se->path);
	free(se->symsrc);
	if (se->by_name) {
		free(se->by_name->head);
		free(se->by_name->next);
		free(se->by_name->mangled);
	}
	free(se->by_name);
	free(se);
}

const char *symbol_elf__strerror(int err)
{
	switch (-err) {
	case ENOEXEC:
		return "not an ELF file";
	case EBADMSG:
		return "truncated or malformed ELF file";
	case ENODATA:
		return "no symbols (the file is stripped)";
	case EILSEQ:
		return "its MiniDebugInfo (.gnu_debugdata) is corrupt";
	case EFBIG:
		return "its MiniDebugInfo (.gnu_debugdata) is too large once decompressed";
	case EACCES:
		return "Permission denied";
	default:
		return strerror(-err);
	}
}

bool elf_symbol__is_function(const struct elf_symbol *sym)
{
	return !sym->plt && (sym->type == STT_FUNC || sym->type == STT_GNU_IFUNC);
}

bool elf_symbol__holds(const struct elf_symbol *sym, uint64_t addr)
{
	return sym->size ? addr >= sym->addr && addr - sym->addr < sym->size : addr == sym->addr;
}

static void ptr_vec_add(const struct elf_symbol ***v, int *nr, const struct elf_symbol *s)
{
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = s;
}

/*
 * Does @sym answer to @name as perf's symbol lookup has it: the exact name,
 * its PLT entry "NAME@plt", or its default version "NAME@@VER" (not a
 * hidden "NAME@VER": perf probes memcpy@@GLIBC_2.14, not memcpy@GLIBC_2.2.5).
 */
static bool symbol_answers_to(const struct elf_symbol *sym, const char *name, size_t len, bool glob)
{
	if (strncmp(sym->name, name, len)) {
		/*
		 * A C++ or Rust function by its source name or signature; a
		 * plain name is none of another unmangled symbol (asking
		 * demangle_match() of each was most of a cached add's check).
		 */
		if (!glob && strncmp(sym->name, "_Z", 2) && strncmp(sym->name, "_R", 2))
			return false;
		return !sym->plt && elf_symbol__is_function(sym) && demangle_match(name, sym->name);
	}
	if (!sym->name[len])
		return true;
	if (sym->plt)
		return !strcmp(sym->name + len, "@plt");
	return !strncmp(sym->name + len, "@@", 2) && sym->name[len + 2];
}

static unsigned int base_name_hash(const char *s, size_t *len)
{
	unsigned int h = 2166136261u;
	const char *p = s;

	for (; *p && *p != '@'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	*len = p - s;
	return h;
}

static struct symbol_name_index *name_index(struct symbol_elf *se)
{
	struct symbol_name_index *x = se->by_name;
	unsigned int size = 64;

	if (x)
		return x;
	while (size < 2u * (unsigned int)se->nr_syms)
		size *= 2;
	x = xzalloc(sizeof(*x));
	x->mask = size - 1;
	x->head = xmalloc(sizeof(*x->head) * size);
	x->next = xmalloc(sizeof(*x->next) * (se->nr_syms ? se->nr_syms : 1));
	for (unsigned int i = 0; i < size; i++)
		x->head[i] = -1;
	/* Backwards, so that each chain runs in the table's (address) order. */
	for (int i = se->nr_syms - 1; i >= 0; i--) {
		const char *n = se->syms[i].name;
		size_t len;
		unsigned int h = base_name_hash(n, &len) & x->mask;

		x->next[i] = x->head[h];
		x->head[h] = i;
	}
	for (int i = 0; i < se->nr_syms; i++) {
		const char *n = se->syms[i].name;

		if (!strncmp(n, "_Z", 2) || !strncmp(n, "_R", 2)) {
			x->mangled = xrealloc(x->mangled, sizeof(int) * (x->nr_mangled + 1));
			x->mangled[x->nr_mangled++] = i;
		}
	}
	se->by_name = x;
	return x;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int symbol_elf__find_name(const struct symbol_elf *se, const char *name,
			  const struct elf_symbol ***out)
{
	size_t len = strlen(name), blen;
	bool glob = demangle_is_glob(name);
	int nr = 0, *hits = NULL, nr_hits = 0;

	*out = NULL;
	if (glob || strchr(name, '@')) { /* every symbol asked, as ever */
		for (int i = 0; i < se->nr_syms; i++) {
			const struct elf_symbol *s = &se->syms[i];

			if (!symbol_answers_to(s, name, len, glob))
				continue;
			/* Aliases and .symtab/.dynsym copies: probe an address once. */
			if (nr && (*out)[nr - 1]->addr == s->addr)
				continue;
			ptr_vec_add(out, &nr, s);
		}
		return nr;
	}
	{
		/* The index is a cache of the table, made once: not a change of it. */
		struct symbol_name_index *x = name_index((struct symbol_elf *)se);
		unsigned int h = base_name_hash(name, &blen) & x->mask;

		/* Those spelled NAME, NAME@plt or NAME@@VER: NAME's bucket. */
		for (int i = x->head[h]; i >= 0; i = x->next[i]) {
			if (!strncmp(se->syms[i].name, name, len) &&
			    symbol_answers_to(&se->syms[i], name, len, glob)) {
				hits = xrealloc(hits, sizeof(int) * (nr_hits + 1));
				hits[nr_hits++] = i;
			}
		}
		for (int j = 0; j < x->nr_mangled; j++) {
			int i = x->mangled[j];

			/* Another spelling: C++ or Rust by its source name. */
			if (strncmp(se->syms[i].name, name, len) &&
			    symbol_answers_to(&se->syms[i], name, len, glob)) {
				hits = xrealloc(hits, sizeof(int) * (nr_hits + 1));
				hits[nr_hits++] = i;
			}
		}
	}
	/* In the table's order, as the scan of every symbol gave them. */
	if (nr_hits > 1)
		qsort(hits, nr_hits, sizeof(*hits), cmp_int);
	for (int k = 0; k < nr_hits; k++) {
		const struct elf_symbol *s = &se->syms[hits[k]];

		/* Aliases and .symtab/.dynsym copies: probe an address once. */
		if (nr && (*out)[nr - 1]->addr == s->addr)
			continue;
		ptr_vec_add(out, &nr, s);
	}
	free(hits);
	return nr;
}

/* Does the string table of the symbol section of @shdr hold @want (@len bytes)? */
static bool strtab_has(Elf *elf, const GElf_Shdr *shdr, const char *want, size_t len)
{
	Elf_Data *data = elf_getdata(elf_getscn(elf, shdr->sh_link), NULL);

	return data && data->d_buf && memmem(data->d_buf, data->d_size, want, len);
}

bool symbol_elf__may_have_versions(const char *path, const char *name)
{
	struct strbuf want = STRBUF_INIT;
	bool may = true;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *elf;
	int fd;

	if (symbol_elf__open_elf(path, &fd, &elf) < 0)
		return true;
	scn = elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	/* Without a .symtab the load looks further (a debug file): ask it. */
	if (scn) {
		strbuf_addstr(&want, name);
		strbuf_addch(&want, '@');
		may = strtab_has(elf, &shdr, want.buf, want.len);
		scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr);
		if (!may && scn)
			may = strtab_has(elf, &shdr, want.buf, want.len);
		strbuf_release(&want);
	}
	elf_util__close(fd, elf);
	return may;
}

bool symbol_elf__has_versions(const struct symbol_elf *se, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < se->nr_syms; i++) {
		const struct elf_symbol *s = &se->syms[i];

		if (!s->plt && !strncmp(s->name, name, len) && s->name[len] == '@')
			return true;
	}
	return false;
}

int symbol_elf__find_glob(const struct symbol_elf *se, const char *pattern,
			  const struct elf_symbol ***out)
{
	int nr = 0;

	*out = NULL;
	for (int i = 0; i < se->nr_syms; i++) {
		const struct elf_symbol *s = &se->syms[i];

		if (!elf_symbol__is_function(s) || !demangle_match(pattern, s->name))
			continue;
		if (nr && (*out)[nr - 1]->addr == s->addr)
			continue;
		ptr_vec_add(out, &nr, s);
	}
	return nr;
}

/* Lower is better: which of several symbols at one address names it. */
static int sym_rank(const struct elf_symbol *s)
{
	int r = elf_symbol__is_function(s) ? 0 : 4;

	return r + (s->bind == STB_GLOBAL ? 0 : s->bind == STB_WEAK ? 1 : 2);
}

const struct elf_symbol *symbol_elf__find_addr(const struct symbol_elf *se, uint64_t addr)
{
	const struct elf_symbol *best = NULL;
	int lo = 0, hi = se->nr_syms;

	/* The first symbol above @addr; candidates are before it. */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (se->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0; i--) {
		const struct elf_symbol *s = &se->syms[i];
		bool holds = s->size ? addr < s->addr + s->size : addr == s->addr;

		/* Sizes are small: stop once symbols start far below. */
		if (best && s->addr != best->addr)
			break;
		if (!holds)
			continue;
		if (!best || sym_rank(s) < sym_rank(best) ||
		    (sym_rank(s) == sym_rank(best) && strcmp(s->name, best->name) < 0))
			best = s;
	}
	return best;
}

static int ptr_cmp_name(const void *a, const void *b)
{
	const struct elf_symbol *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int symbol_elf__aliases(const struct symbol_elf *se, const struct elf_symbol *sym,
			const struct elf_symbol ***out)
{
	int nr = 0;

	*out = NULL;
	for (int i = 0; i < se->nr_syms; i++)
		if (se->syms[i].addr == sym->addr && se->syms[i].plt == sym->plt)
			ptr_vec_add(out, &nr, &se->syms[i]);
	if (nr)
		qsort(*out, nr, sizeof(**out), ptr_cmp_name);
	/* Drop the copies of one name (.symtab and .dynsym). */
	for (int i = 1, n = 1; i <= nr; i++) {
		if (i == nr) {
			nr = n;
			break;
		}
		if (strcmp((*out)[i]->name, (*out)[n - 1]->name))
			(*out)[n++] = (*out)[i];
	}
	return nr;
}

int symbol_elf__vaddr_to_offset(const struct symbol_elf *se, uint64_t vaddr, uint64_t *offset)
{
	return elf_loads__vaddr_to_offset(se->loads, se->nr_loads, vaddr, offset);
}

int symbol_elf__offset_to_vaddr(const struct symbol_elf *se, uint64_t offset, uint64_t *vaddr)
{
	return elf_loads__offset_to_vaddr(se->loads, se->nr_loads, offset, vaddr);
}

static int check_offset(const struct elf_symbol *sym, uint64_t offs, bool retprobe)
{
	if (retprobe && offs)
		return -EINVAL;
	if (offs > sym->size && !(offs == 0 && sym->size == 0)) {
		pr_debug("Offset %" PRIu64 " is bigger than the size of %s\n", offs, sym->name);
		return -ERANGE;
	}
	return 0;
}

int symbol_elf__uprobe_place(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, struct symbol_elf_place *pl)
{
	uint64_t off;
	int ret = check_offset(sym, offs, retprobe);

	if (!ret)
		ret = symbol_elf__vaddr_to_offset(se, sym->addr + offs, &off);
	if (ret < 0)
		return ret;
	*pl = (struct symbol_elf_place){
		.module = se->path,
		.realname = sym->name,
		.address = sym->addr + offs,
		.offset = off,
		.retprobe = retprobe,
	};
	return 0;
}

int symbol_elf__uprobe_place_abs(const struct symbol_elf *se, uint64_t vaddr, bool retprobe,
				 struct symbol_elf_place *pl)
{
	const struct elf_symbol *sym;
	uint64_t off;
	int ret = symbol_elf__vaddr_to_offset(se, vaddr, &off);

	if (ret < 0)
		return ret;
	sym = symbol_elf__find_addr(se, vaddr);
	*pl = (struct symbol_elf_place){
		.module = se->path,
		.realname = sym ? sym->name : NULL,
		.address = vaddr,
		.offset = off,
		.retprobe = retprobe,
	};
	return 0;
}

int symbol_elf__kernel_text_offset(const struct symbol_elf *se, uint64_t addr, uint64_t *off)
{
	for (int i = 0; i < se->nr_syms; i++)
		if (!strcmp(se->syms[i].name, "_text") && se->syms[i].addr &&
		    addr >= se->syms[i].addr) {
			*off = addr - se->syms[i].addr;
			return 0;
		}
	return -ENOENT;
}

int symbol_elf__kprobe_place(const struct symbol_elf *se, const struct elf_symbol *sym,
			     uint64_t offs, bool retprobe, bool ret_on_text,
			     struct symbol_elf_place *pl)
{
	int ret = check_offset(sym, offs, retprobe);
	uint64_t off;

	if (ret < 0)
		return ret;
	*pl = (struct symbol_elf_place){
		.realname = sym->name,
		.address = sym->addr + offs,
		.retprobe = retprobe,
	};
	/*
	 * Relative to _text, which stays right for names the kernel has
	 * several times; a kretprobe only where the kernel takes one at an
	 * offset (else SYM+0).
	 */
	if ((!retprobe || ret_on_text) && !symbol_elf__kernel_text_offset(se, pl->address, &off)) {
		pl->symbol = "_text";
		pl->offset = off;
	} else {
		pl->symbol = sym->name;
		pl->offset = offs;
	}
	return 0;
}

int symbol_elf__func_names(const struct symbol_elf *se, struct func_names_job *job,
			   const struct strfilter *filter, bool demangle, struct func_names *out)
{
	int total = (se->names_only ? se->nr_names : se->nr_syms) + se->nr_labels;
	const char **syms;

	if (se->names_only && !se->nr_labels) {
		func_names__show(job, (const char *const *)se->names, total, filter, demangle, out);
		return out->nr;
	}
	syms = xmalloc((total + 1) * sizeof(*syms));
	for (int i = 0; i < total; i++) {
		int k = se->names_only ? se->nr_names : se->nr_syms;

		if (i >= k)
			syms[i] = se->labels[i - k];
		else
			syms[i] = se->names_only ? se->names[i] : se->syms[i].name;
	}
	func_names__show(job, syms, total, filter, demangle, out);
	free(syms);
	return out->nr;
}
