// SPDX-License-Identifier: GPL-2.0
/*
 * The frame description holding an address, read from .eh_frame_hdr and
 * .eh_frame (see eh-frame.h).  The records are those of the LSB's
 * "Exception Frames": a CIE gives the encoding of its FDEs' pointers
 * (augmentation 'R'), an FDE its function's first address and length.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/eh-frame.h"
#include "util/elf-util.h"

/* DW_EH_PE_*: the low nibble is the value's format, 0x70 what it is relative to. */
#define PE_OMIT 0xff
#define PE_INDIRECT 0x80
#define PE_PCREL 0x10
#define PE_DATAREL 0x30
#define PE_DATAREL_SDATA4 0x3b /* .eh_frame_hdr's table as GNU ld writes it */

/* The bytes of one section, read in the file's byte order, never past @size. */
struct cursor {
	const uint8_t *base;
	size_t size, pos;
	uint64_t addr;	     /* the section's address: pc-relative values count from it */
	bool big, is64, bad; /* big: most significant byte first (ELFDATA2MSB) */
};

static uint64_t read_bytes(struct cursor *c, int n)
{
	uint64_t v = 0;

	if (c->bad || n > 8 || c->pos > c->size || (size_t)n > c->size - c->pos) {
		c->bad = true;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		v = v << 8 | c->base[c->pos + (c->big ? i : n - 1 - i)];
	}
	c->pos += n;
	return v;
}

static uint64_t read_uleb(struct cursor *c)
{
	uint64_t v = 0;

	for (int shift = 0; !c->bad; shift += 7) {
		uint8_t b = read_bytes(c, 1);

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static int64_t read_sleb(struct cursor *c)
{
	uint64_t v = 0;
	int shift = 0;
	uint8_t b;

	do {
		b = read_bytes(c, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* A value of format @fmt (the low nibble of a DW_EH_PE_ encoding); false if none. */
static bool read_value(struct cursor *c, uint8_t fmt, uint64_t *v)
{
	switch (fmt & 0x0f) {
	case 0x00: /* absptr */
		*v = read_bytes(c, c->is64 ? 8 : 4);
		break;
	case 0x01:
		*v = read_uleb(c);
		break;
	case 0x02:
		*v = read_bytes(c, 2);
		break;
	case 0x03:
		*v = read_bytes(c, 4);
		break;
	case 0x04:
	case 0x0c:
		*v = read_bytes(c, 8);
		break;
	case 0x09:
		*v = (uint64_t)read_sleb(c);
		break;
	case 0x0a:
		*v = (uint64_t)(int64_t)(int16_t)read_bytes(c, 2);
		break;
	case 0x0b:
		*v = (uint64_t)(int64_t)(int32_t)read_bytes(c, 4);
		break;
	default:
		return false;
	}
	return !c->bad;
}

/*
 * An address encoded as @enc: absolute, pc-relative or relative to
 * @datarel; the other kinds (text-, function-relative, aligned,
 * indirect) are not in these records.
 */
static bool read_pointer(struct cursor *c, uint8_t enc, uint64_t datarel, uint64_t *v)
{
	uint64_t at = c->addr + c->pos;

	if (enc == PE_OMIT || (enc & PE_INDIRECT) || !read_value(c, enc, v))
		return false;
	switch (enc & 0x70) {
	case 0:
		break;
	case PE_PCREL:
		*v += at;
		break;
	case PE_DATAREL:
		*v += datarel;
		break;
	default:
		return false;
	}
	if (!c->is64)
		*v &= 0xffffffff;
	return true;
}

/*
 * The record at @off of .eh_frame @sec: its body in *@body (the cursor
 * bounded to it, after the length), the end in *@next.  0, 1 at the
 * zero terminator, -EBADMSG.
 */
static int record_at(const struct cursor *sec, size_t off, struct cursor *body, size_t *next,
		     int *id_size)
{
	uint64_t len;

	*body = *sec;
	body->pos = off;
	len = read_bytes(body, 4);
	*id_size = 4;
	if (len == 0xffffffff) {
		len = read_bytes(body, 8);
		*id_size = 8;
	}
	if (body->bad)
		return -EBADMSG;
	if (!len)
		return 1;
	if (len > body->size - body->pos || len < (uint64_t)*id_size)
		return -EBADMSG;
	body->size = body->pos + len;
	*next = body->size;
	return 0;
}

/* The encoding of the FDE pointers of the CIE at @off: absptr unless 'R' says. */
static int cie_encoding(const struct cursor *sec, size_t off, int fde_id_size, uint8_t *enc)
{
	struct cursor c;
	const char *aug, *end;
	size_t next;
	int id_size;
	uint8_t version;

	if (record_at(sec, off, &c, &next, &id_size) || id_size != fde_id_size ||
	    read_bytes(&c, id_size) != 0)
		return -EBADMSG;
	version = read_bytes(&c, 1);
	if (c.bad || (version != 1 && version != 3 && version != 4))
		return -EBADMSG;
	aug = (const char *)c.base + c.pos;
	end = memchr(aug, '\0', c.size - c.pos);
	if (!end)
		return -EBADMSG;
	c.pos += end - aug + 1;
	if (version == 4)
		c.pos += 2; /* address and segment selector sizes */
	read_uleb(&c);	    /* code alignment */
	read_sleb(&c);	    /* data alignment */
	if (version == 1)
		read_bytes(&c, 1); /* return address register */
	else
		read_uleb(&c);
	*enc = 0;
	if (!*aug)
		return c.bad ? -EBADMSG : 0;
	if (*aug != 'z')
		return -EBADMSG; /* "eh" and others: not what a linker writes now */
	read_uleb(&c);		 /* the augmentation data's length */
	for (const char *a = aug + 1; *a && !c.bad; a++) {
		uint64_t unused;

		switch (*a) {
		case 'R':
			*enc = read_bytes(&c, 1);
			return c.bad ? -EBADMSG : 0;
		case 'P': /* the personality routine: skipped */
			if (!read_value(&c, read_bytes(&c, 1), &unused))
				return -EBADMSG;
			break;
		case 'L':
			read_bytes(&c, 1);
			break;
		case 'S':
		case 'B':
		case 'G':
			break;
		default:
			return -EBADMSG;
		}
	}
	return c.bad ? -EBADMSG : 0;
}

/*
 * The FDE at @off: its range in *@start, *@len, 0; 1 when the record is a
 * CIE or the terminator (*@next then the next record, or 0 at the end),
 * -EBADMSG.
 */
static int fde_at(const struct cursor *sec, size_t off, uint64_t *start, uint64_t *len,
		  size_t *next)
{
	struct cursor c;
	size_t id_pos;
	uint64_t id;
	uint8_t enc;
	int id_size, ret = record_at(sec, off, &c, next, &id_size);

	if (ret) {
		*next = 0;
		return ret;
	}
	id_pos = c.pos;
	id = read_bytes(&c, id_size);
	if (!id)
		return 1;
	/* The CIE pointer counts back from where it is. */
	if (c.bad || id > id_pos || cie_encoding(sec, id_pos - id, id_size, &enc) ||
	    !read_pointer(&c, enc, 0, start) || !read_value(&c, enc, len))
		return -EBADMSG;
	/* A range past the end of the address space holds nothing (nor all). */
	if (*len > (c.is64 ? UINT64_MAX : UINT32_MAX) - *start)
		return -EBADMSG;
	return 0;
}

static bool holds(uint64_t start, uint64_t len, uint64_t vaddr)
{
	return vaddr >= start && vaddr - start < len;
}

/* The walk of every record of .eh_frame. */
static int walk_range(const struct cursor *sec, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	size_t off = 0, next;
	uint64_t s, len;

	while (off < sec->size) {
		int ret = fde_at(sec, off, &s, &len, &next);

		if (ret < 0)
			return ret;
		if (!ret && holds(s, len, vaddr)) {
			*start = s;
			*end = s + len;
			return 0;
		}
		if (!next)
			break;
		off = next;
	}
	return -ENOENT;
}

/*
 * The binary search of .eh_frame_hdr @hdr's table of (first address, FDE)
 * pairs, sorted by address; 1 when the table is not one of fixed-size
 * entries (then the walk answers).
 */
static int table_range(struct cursor *hdr, const struct cursor *sec, uint64_t vaddr,
		       uint64_t *start, uint64_t *end)
{
	uint64_t ptr, count, loc, fde, s, len;
	uint8_t version, ptr_enc, count_enc, table_enc;
	size_t lo = 0, hi, table, next;

	version = read_bytes(hdr, 1);
	ptr_enc = read_bytes(hdr, 1);
	count_enc = read_bytes(hdr, 1);
	table_enc = read_bytes(hdr, 1);
	if (hdr->bad || version != 1 || !read_pointer(hdr, ptr_enc, hdr->addr, &ptr) ||
	    count_enc == PE_OMIT || table_enc != PE_DATAREL_SDATA4 ||
	    !read_pointer(hdr, count_enc, hdr->addr, &count))
		return 1;
	table = hdr->pos;
	if (count > (hdr->size - table) / 8)
		return -EBADMSG;
	/* The last entry at or below @vaddr. */
	hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		hdr->pos = table + mid * 8;
		read_pointer(hdr, table_enc, hdr->addr, &loc);
		if (loc <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	hdr->pos = table + (lo - 1) * 8;
	if (!read_pointer(hdr, table_enc, hdr->addr, &loc) ||
	    !read_pointer(hdr, table_enc, hdr->addr, &fde) || fde < sec->addr ||
	    fde - sec->addr >= sec->size)
		return -EBADMSG;
	if (fde_at(sec, fde - sec->addr, &s, &len, &next) || s != loc)
		return -EBADMSG;
	if (!holds(s, len, vaddr))
		return -ENOENT;
	*start = s;
	*end = s + len;
	return 0;
}

/* The bytes of the section @name of @elf into @c; false when it has none. */
static bool section_cursor(Elf *elf, const char *name, const GElf_Ehdr *eh, struct cursor *c)
{
	GElf_Shdr sh;
	/* Any type: lld's .eh_frame is SHT_X86_64_UNWIND. */
	Elf_Scn *scn = elf_find_section(elf, SHT_NULL, name, &sh);
	Elf_Data *d = scn && sh.sh_type != SHT_NOBITS ? elf_rawdata(scn, NULL) : NULL;

	if (!d || !d->d_buf)
		return false;
	*c = (struct cursor){ .base = d->d_buf,
			      .size = d->d_size,
			      .addr = sh.sh_addr,
			      .big = eh->e_ident[EI_DATA] == ELFDATA2MSB,
			      .is64 = eh->e_ident[EI_CLASS] == ELFCLASS64 };
	return true;
}

int eh_frame__range_elf(Elf *elf, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	struct cursor sec, hdr;
	GElf_Ehdr eh;
	int ret;

	if (!gelf_getehdr(elf, &eh))
		return -EBADMSG;
	if (!section_cursor(elf, ".eh_frame", &eh, &sec))
		return -ENOENT;
	ret = section_cursor(elf, ".eh_frame_hdr", &eh, &hdr)
		      ? table_range(&hdr, &sec, vaddr, start, end)
		      : 1;
	return ret == 1 ? walk_range(&sec, vaddr, start, end) : ret;
}

int eh_frame__range(const char *path, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	Elf *elf;
	int fd, ret = elf_util__open(path, &fd, &elf, NULL);

	if (ret)
		return ret;
	ret = eh_frame__range_elf(elf, vaddr, start, end);
	elf_util__close(fd, elf);
	return ret;
}
