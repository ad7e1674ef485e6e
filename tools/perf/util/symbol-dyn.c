// SPDX-License-Identifier: GPL-2.0
/* A file's dynamic symbols by name through .gnu.hash (see symbol-dyn.h). */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/elf-util.h"
#include "util/symbol-dyn.h"
#include "util/symbol-elf.h"

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
	int ret = symbol_elf__open_elf(path, &d->fd, &d->elf);

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
		    symbol_elf__keeps(d->elf, &s, sname)) {
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
