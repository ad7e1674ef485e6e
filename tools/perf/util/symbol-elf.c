// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/demangle.h"
#include "util/elf-util.h"
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
	struct elf_symbol *v;
	int nr, alloc;
	char **blocks;
	int nr_blocks;
	size_t used; /* of the last block */
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

static void free_name_blocks(char **blocks, int nr)
{
	for (int i = 0; i < nr; i++)
		free(blocks[i]);
	free(blocks);
}

static void sym_vec_free(struct sym_vec *sv)
{
	free(sv->v);
	free_name_blocks(sv->blocks, sv->nr_blocks);
	memset(sv, 0, sizeof(*sv));
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

static void sym_vec_add(struct sym_vec *sv, const char *name, uint64_t addr, uint64_t size,
			unsigned char bind, unsigned char type, bool plt)
{
	struct elf_symbol *s;

	ALLOC_GROW(sv->v, sv->nr + 1, sv->alloc);
	s = &sv->v[sv->nr++];
	s->name = sym_vec_name(sv, name);
	s->addr = addr;
	s->size = size;
	s->bind = bind;
	s->type = type;
	s->plt = plt;
}

struct sym_key {
	uint64_t addr;
	const struct elf_symbol *sym;
};

static bool sym_key_less(const struct sym_key *x, const struct sym_key *y)
{
	int c;

	if (x->addr != y->addr)
		return x->addr < y->addr;
	c = strcmp(x->sym->name, y->sym->name);
	/* the .symtab copy before the .dynsym one, in the order read */
	return c ? c < 0 : x->sym < y->sym;
}

/* @k (@n keys) sorted: a merge sort with the comparison inlined, not qsort()'s calls. */
static void sym_keys_sort(struct sym_key *k, int n)
{
	struct sym_key *tmp = xmalloc(sizeof(*tmp) * (n ? n : 1)), *from = k, *to = tmp, *t;

	for (int width = 1; width < n; width *= 2) {
		for (int lo = 0; lo < n; lo += 2 * width) {
			int mid = lo + width < n ? lo + width : n;
			int hi = lo + 2 * width < n ? lo + 2 * width : n;
			int i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				to[o++] = sym_key_less(&from[j], &from[i]) ? from[j++] : from[i++];
			while (i < mid)
				to[o++] = from[i++];
			while (j < hi)
				to[o++] = from[j++];
		}
		t = from, from = to, to = t;
	}
	if (from != k)
		memcpy(k, from, sizeof(*k) * n);
	free(tmp);
}

/*
 * @sv by address, then name.  Sorted as 16-byte keys and put in order
 * once: qsort() moving the 32-byte symbols themselves, a call per
 * comparison, was two thirds of loading python3.11d's 20,000.
 */
static void sym_vec_sort(struct sym_vec *sv)
{
	struct sym_key *k = xmalloc(sizeof(*k) * (sv->nr ? sv->nr : 1));
	struct elf_symbol *v = xmalloc(sizeof(*v) * (sv->nr ? sv->nr : 1));

	for (int i = 0; i < sv->nr; i++)
		k[i] = (struct sym_key){ sv->v[i].addr, &sv->v[i] };
	sym_keys_sort(k, sv->nr);
	for (int i = 0; i < sv->nr; i++)
		v[i] = *k[i].sym;
	free(k);
	free(sv->v);
	sv->v = v;
	sv->alloc = sv->nr;
}

/*
 * Does the file end before its section headers or a segment's contents?
 * libelf reads lazily, so a truncated file would otherwise half-load.
 */
static bool elf_truncated(Elf *elf, off_t size)
{
	GElf_Ehdr ehdr;
	size_t phnum;

	if (!gelf_getehdr(elf, &ehdr))
		return true;
	if (ehdr.e_shoff &&
	    ehdr.e_shoff + (uint64_t)ehdr.e_shnum * ehdr.e_shentsize > (uint64_t)size)
		return true;
	if (elf_getphdrnum(elf, &phnum) < 0)
		return true;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_offset + ph.p_filesz > (uint64_t)size)
			return true;
	}
	return false;
}

/* Open @path with libelf, refusing a truncated file; *@fd and *@elf, else -errno. */
static int elf_open(const char *path, int *fd, Elf **elf)
{
	uint64_t size;
	int ret = elf_util__open(path, fd, elf, &size);

	if (!ret && elf_truncated(*elf, size)) {
		elf_util__close(*fd, *elf);
		ret = -EBADMSG;
	}
	return ret;
}

/*
 * Which defined symbols perf lists: functions and objects of allocated
 * sections (not e.g. .gnu.warning's), and global labels outside .bss.
 * A debug file's sections are all NOBITS: there only the binding counts.
 */
static bool keep_symbol(Elf *elf, const GElf_Sym *sym, const char *name, bool debug_file)
{
	unsigned char type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	GElf_Shdr shdr;
	Elf_Scn *scn;

	if (!name || !*name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return false;
	if (sym->st_shndx >= SHN_LORESERVE)
		return type != STT_NOTYPE || bind != STB_LOCAL;
	scn = elf_getscn(elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (type == STT_NOTYPE)
		return bind != STB_LOCAL && (debug_file || shdr.sh_type != SHT_NOBITS);
	return true;
}

/* Read the symbols of table @scn (.symtab or .dynsym); 0 or -EBADMSG. */
static int read_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, bool debug_file,
		       struct sym_vec *sv)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || !shdr->sh_entsize)
		return -EBADMSG;
	n = shdr->sh_size / shdr->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, i, &sym))
			return -EBADMSG;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!keep_symbol(elf, &sym, name, debug_file))
			continue;
		sym_vec_add(sv, name, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
			    GELF_ST_TYPE(sym.st_info), false);
	}
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
		sym_vec_add(sv, sb.buf, base + i * entsize, entsize, STB_GLOBAL, STT_FUNC, true);
		strbuf_release(&sb);
	}
}

static int read_loads(Elf *elf, struct symbol_elf *se)
{
	return elf_loads__read(elf, &se->loads, &se->nr_loads);
}

/* A separate debug file of @path with a .symtab, found by build-id; new string or NULL. */
static char *find_debug_file(const char *path)
{
	char sbid[SBUILD_ID_SIZE], *cands[2], *dir, *found = NULL;
	struct build_id bid;

	if (filename__read_build_id(path, &bid) < 0)
		return NULL;
	build_id__sprintf(&bid, sbid);
	/* The link is resolved inside the cache, never followed out of it. */
	dir = build_id_cache__link_dir(&bid);
	cands[0] = dir ? path_join(dir, "elf") : xstrdup("");
	free(dir);
	if (asprintf(&cands[1], "%s/%.2s/%s.debug", DEBUG_BUILD_ID_DIR, sbid, sbid + 2) < 0)
		abort();
	for (int i = 0; i < 2 && !found; i++) {
		GElf_Shdr shdr;
		Elf *elf;
		int fd;

		if (elf_open(cands[i], &fd, &elf) < 0)
			continue;
		if (elf_find_section(elf, SHT_SYMTAB, NULL, &shdr))
			found = xstrdup(cands[i]);
		elf_util__close(fd, elf);
	}
	free(cands[0]);
	free(cands[1]);
	return found;
}

/* The .symtab of the debug file @dpath into @sv; 0 or -errno. */
static int read_debug_symtab(const char *dpath, struct sym_vec *sv)
{
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *elf;
	int fd, ret;

	ret = elf_open(dpath, &fd, &elf);
	if (ret < 0)
		return ret;
	scn = elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	ret = scn ? read_symtab(elf, scn, &shdr, true, sv) : -ENODATA;
	elf_util__close(fd, elf);
	return ret;
}

/*
 * MiniDebugInfo (.gnu_debugdata, what Fedora and RHEL ship in every
 * stripped binary): an xz-compressed ELF file whose .symtab holds the
 * functions .dynsym lacks.  Decompressed within limits a corrupt or
 * hostile section can not get past: the decoder's memory, and an output
 * of at most MDI_RATIO times the section plus MDI_FLOOR, MDI_MAX in all
 * (real ones grow 3 to 6 times), allocated as it comes, never by a size
 * the data claims.
 */
#define MDI_MAX (256u << 20)
#define MDI_FLOOR (1u << 20)
#define MDI_RATIO 64
#define MDI_MEMLIMIT (96u << 20)

/* The xz stream @in (@len bytes) into *@out (new) and *@out_len; 0, -EILSEQ or -EFBIG. */
static int mdi_decompress(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
	size_t limit =
		len < (MDI_MAX - MDI_FLOOR) / MDI_RATIO ? len * MDI_RATIO + MDI_FLOOR : MDI_MAX;
	size_t alloc = 0, cap = limit + 1; /* a byte more than the limit: over it */
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	lzma_ret r;
	int ret;

	if (lzma_stream_decoder(&s, MDI_MEMLIMIT, 0) != LZMA_OK)
		return -EILSEQ;
	s.next_in = in;
	s.avail_in = len;
	do {
		if (!s.avail_out) {
			if (alloc == cap)
				break;
			alloc = alloc ? (alloc > cap / 2 ? cap : alloc * 2)
				      : (cap < 65536 ? cap : 65536);
			buf = xrealloc(buf, alloc);
			s.next_out = buf + s.total_out;
			s.avail_out = alloc - s.total_out;
		}
		r = lzma_code(&s, LZMA_FINISH);
	} while (r == LZMA_OK);
	if (s.total_out > limit)
		ret = -EFBIG;
	else
		ret = r == LZMA_STREAM_END ? 0 : -EILSEQ;
	*out_len = s.total_out;
	lzma_end(&s);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
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
	ret = mdi_decompress(data->d_buf, data->d_size, &image, &len);
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
		ret = read_symtab(mini, scn, &sshdr, true, sv) ? -EILSEQ : 0;
	elf_end(mini);
	free(image);
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

static int load_elf(Elf *elf, uint64_t size, const char *path, bool resolve,
		    struct symbol_elf **out);

int symbol_elf__load(const char *path, struct symbol_elf **out)
{
	uint64_t size;
	Elf *elf;
	int fd, ret = elf_util__open(path, &fd, &elf, &size);

	if (ret < 0)
		return ret;
	ret = load_elf(elf, size, path, true, out);
	elf_util__close(fd, elf);
	return ret;
}

int symbol_elf__load_elf(Elf *elf, uint64_t size, const char *path, struct symbol_elf **out)
{
	return load_elf(elf, size, path, false, out);
}

static int load_elf(Elf *elf, uint64_t size, const char *path, bool resolve,
		    struct symbol_elf **out)
{
	struct symbol_elf *se = NULL;
	struct sym_vec sv = { 0 };
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int ret;

	if (elf_truncated(elf, size))
		return -EBADMSG;
	ret = read_layout(elf, path, resolve, &se);
	if (ret < 0)
		goto out;
	scn = elf_find_section(elf, SHT_SYMTAB, NULL, &shdr);
	if (scn) {
		/* perf lists .dynsym too then, so "main" may show twice. */
		se->symsrc = xstrdup(se->path);
		ret = read_symtab(elf, scn, &shdr, false, &sv);
		scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr);
		if (!ret && scn)
			ret = read_symtab(elf, scn, &shdr, false, &sv);
	} else {
		se->symsrc = find_debug_file(path);
		ret = se->symsrc ? read_debug_symtab(se->symsrc, &sv) : -ENODATA;
		if (ret < 0) {
			sym_vec_free(&sv);
			free(se->symsrc);
			se->symsrc = xstrdup(se->path);
			/*
			 * A MiniDebugInfo is a whole table of functions with
			 * .dynsym; one that can not be read is noted, and
			 * .dynsym is all there is (as without one).
			 */
			ret = read_minidebuginfo(elf, size, &sv);
			if (ret && ret != -ENODATA) {
				se->mdi_err = ret;
				sym_vec_free(&sv);
			}
			se->dynsym_only = ret != 0;
			scn = elf_find_section(elf, SHT_DYNSYM, NULL, &shdr);
			ret = scn ? read_symtab(elf, scn, &shdr, false, &sv) : 0;
		}
	}
	if (ret < 0)
		goto out;
	if (sv.nr)
		read_plt(elf, &sv);
	if (!sv.nr) {
		ret = -ENODATA;
		goto out;
	}
	sym_vec_sort(&sv);
	se->syms = sv.v;
	se->nr_syms = sv.nr;
	se->name_blocks = sv.blocks;
	se->nr_name_blocks = sv.nr_blocks;
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
	int fd, ret = elf_open(path, &fd, &elf);

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
		sym_vec_add(&sv, name, addr, 0, type >= 'a' ? STB_LOCAL : STB_GLOBAL,
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
	free_name_blocks(se->name_blocks, se->nr_name_blocks);
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

	if (elf_open(path, &fd, &elf) < 0)
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

int symbol_elf__func_names(const struct symbol_elf *se, const struct strfilter *filter,
			   bool demangle, char ***names)
{
	char **v = xmalloc((se->nr_syms + 1) * sizeof(*v));
	int nr = 0;

	for (int i = 0; i < se->nr_syms; i++) {
		char *name = demangle_display(se->syms[i].name, demangle);

		if (strfilter__compare(filter, name))
			v[nr++] = name;
		else
			free(name);
	}
	qsort(v, nr, sizeof(*v), strcmp_ptr);
	*names = v;
	return nr;
}

/*
 * .gnu.hash: nbuckets, symoffset, bloom_size, bloom_shift; bloom_size
 * words of the file's class; nbuckets bucket words; then one chain word
 * per symbol from symoffset on, its hash with bit 0 set at a chain's end.
 */
struct symbol_dyn {
	int fd;
	Elf *elf;
	Elf_Data *syms, *versym; /* versym: .gnu.version, or NULL */
	size_t nr_syms, strndx;
	uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
	const unsigned char *bloom; /* bloom_size words of bloom_bits bits */
	unsigned int bloom_bits;
	const uint32_t *buckets, *chain;
	size_t nr_chain;
};

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		h = h * 33 + *c;
	return h;
}

/* The hash table @data of @d's class; 0 or -EBADMSG when it does not fit. */
static int gnu_hash_read(struct symbol_dyn *d, const Elf_Data *data)
{
	const uint32_t *w = data->d_buf;
	size_t words = data->d_size / 4, bloom_words;

	if (!w || words < 4)
		return -EBADMSG;
	d->nbuckets = w[0];
	d->symoffset = w[1];
	d->bloom_size = w[2];
	d->bloom_shift = w[3];
	bloom_words = (size_t)d->bloom_size * (d->bloom_bits / 32);
	if (!d->nbuckets || !d->bloom_size || d->bloom_shift >= 32 ||
	    bloom_words + d->nbuckets > words - 4 || d->symoffset > d->nr_syms)
		return -EBADMSG;
	d->bloom = (const unsigned char *)(w + 4);
	d->buckets = w + 4 + bloom_words;
	d->chain = d->buckets + d->nbuckets;
	d->nr_chain = words - 4 - bloom_words - d->nbuckets;
	return 0;
}

int symbol_dyn__open(const char *path, struct symbol_dyn **out)
{
	struct symbol_dyn *d = xzalloc(sizeof(*d));
	GElf_Shdr shdr, hshdr, vshdr;
	Elf_Scn *scn, *hash, *vscn;
	Elf_Data *hdata;
	int ret = elf_open(path, &d->fd, &d->elf);

	if (ret < 0) {
		free(d);
		return ret;
	}
	d->bloom_bits = gelf_getclass(d->elf) == ELFCLASS64 ? 64 : 32;
	ret = -ENODATA;
	scn = elf_find_section(d->elf, SHT_DYNSYM, NULL, &shdr);
	hash = elf_find_section(d->elf, SHT_GNU_HASH, NULL, &hshdr);
	if (!scn || !hash || elf_getscn(d->elf, hshdr.sh_link) != scn)
		goto out;
	ret = -EBADMSG;
	d->syms = elf_getdata(scn, NULL);
	hdata = elf_getdata(hash, NULL);
	if (!d->syms || !hdata || !shdr.sh_entsize)
		goto out;
	d->nr_syms = shdr.sh_size / shdr.sh_entsize;
	d->strndx = shdr.sh_link;
	vscn = elf_find_section(d->elf, SHT_GNU_versym, NULL, &vshdr);
	if (vscn && elf_getscn(d->elf, vshdr.sh_link) == scn)
		d->versym = elf_getdata(vscn, NULL);
	ret = gnu_hash_read(d, hdata);
out:
	if (ret < 0) {
		symbol_dyn__close(d);
		return ret;
	}
	*out = d;
	return 0;
}

/* Is symbol @i of @d a hidden version ("NAME@VER" in a .symtab: not NAME's)? */
static bool dyn_hidden(const struct symbol_dyn *d, size_t i)
{
	GElf_Versym v;

	return d->versym && gelf_getversym(d->versym, i, &v) && (v & 0x8000);
}

/* May the bloom filter of @d hold a name hashing to @h? */
static bool gnu_bloom_may(const struct symbol_dyn *d, uint32_t h)
{
	unsigned int bits = d->bloom_bits, b1 = h % bits, b2 = (h >> d->bloom_shift) % bits;
	size_t at = (size_t)(h / bits) % d->bloom_size;
	uint64_t word;

	if (bits == 64) {
		memcpy(&word, d->bloom + at * 8, 8);
	} else {
		uint32_t w32;

		memcpy(&w32, d->bloom + at * 4, 4);
		word = w32;
	}
	return (word >> b1 & 1) && (word >> b2 & 1);
}

int symbol_dyn__find(const struct symbol_dyn *d, const char *name, uint64_t vaddr,
		     struct elf_symbol *sym)
{
	uint32_t h = gnu_hash(name);
	size_t i;

	if (!gnu_bloom_may(d, h))
		return -ENOENT;
	i = d->buckets[h % d->nbuckets];
	if (i < d->symoffset)
		return -ENOENT;
	/* Every symbol of the chain: a name may be defined at several versions. */
	for (; i < d->nr_syms && i - d->symoffset < d->nr_chain; i++) {
		uint32_t ch = d->chain[i - d->symoffset];
		const char *sname;
		unsigned char type;
		GElf_Sym s;

		if ((ch | 1) == (h | 1) && !dyn_hidden(d, i) && gelf_getsym(d->syms, i, &s) &&
		    (sname = elf_strptr(d->elf, d->strndx, s.st_name)) && !strcmp(sname, name) &&
		    keep_symbol(d->elf, &s, sname, false)) {
			type = GELF_ST_TYPE(s.st_info);
			*sym = (struct elf_symbol){ .name = (char *)sname,
						    .addr = s.st_value,
						    .size = s.st_size,
						    .bind = GELF_ST_BIND(s.st_info),
						    .type = type };
			if ((type == STT_FUNC || type == STT_GNU_IFUNC) &&
			    elf_symbol__holds(sym, vaddr))
				return 0;
		}
		if (ch & 1)
			break;
	}
	return -ENOENT;
}

void symbol_dyn__close(struct symbol_dyn *d)
{
	if (!d)
		return;
	elf_util__close(d->fd, d->elf);
	free(d);
}
