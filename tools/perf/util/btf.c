// SPDX-License-Identifier: GPL-2.0
/* The kernel's BTF through libbpf (see btf.h). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/alloc.h"
#include "util/btf.h"
#include "util/debug.h"
#include "util/strbuf.h"

struct kbtf {
	struct btf *btf;
	uint32_t first; /* the first id of its own (a module's: after its base) */
};

#ifndef LIBBPF_SONAME
#define LIBBPF_SONAME "libbpf.so.1"
#endif

/*
 * libbpf's entry points, loaded by the first kbtf__open(): a command that
 * reads no BTF does not map libbpf (and start-up does not grow with it).
 */
static struct {
	void *handle;
	libbpf_print_fn_t (*set_print)(libbpf_print_fn_t);
	struct btf *(*parse_elf_split)(const char *, struct btf *);
	struct btf *(*parse_raw_split)(const char *, struct btf *);
	__u32 (*type_cnt)(const struct btf *);
	void (*free)(struct btf *);
	const struct btf_type *(*type_by_id)(const struct btf *, __u32);
	const char *(*name_by_offset)(const struct btf *, __u32);
	size_t (*pointer_size)(const struct btf *);
	__s64 (*resolve_size)(const struct btf *, __u32);
} lib;

static int load_library(void)
{
	void *h;

	if (lib.handle)
		return 0;
	h = dlopen(LIBBPF_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		pr_debug("btf: %s\n", dlerror());
		return -ENOSYS;
	}
	*(void **)&lib.set_print = dlsym(h, "libbpf_set_print");
	*(void **)&lib.parse_elf_split = dlsym(h, "btf__parse_elf_split");
	*(void **)&lib.parse_raw_split = dlsym(h, "btf__parse_raw_split");
	*(void **)&lib.type_cnt = dlsym(h, "btf__type_cnt");
	*(void **)&lib.free = dlsym(h, "btf__free");
	*(void **)&lib.type_by_id = dlsym(h, "btf__type_by_id");
	*(void **)&lib.name_by_offset = dlsym(h, "btf__name_by_offset");
	*(void **)&lib.pointer_size = dlsym(h, "btf__pointer_size");
	*(void **)&lib.resolve_size = dlsym(h, "btf__resolve_size");
	if (!lib.set_print || !lib.parse_elf_split || !lib.parse_raw_split || !lib.type_cnt ||
	    !lib.free || !lib.type_by_id || !lib.name_by_offset || !lib.pointer_size ||
	    !lib.resolve_size) {
		pr_debug("btf: %s lacks an entry point\n", LIBBPF_SONAME);
		dlclose(h);
		memset(&lib, 0, sizeof(lib));
		return -ENOSYS;
	}
	lib.handle = h;
	return 0;
}

const char *kbtf__sysfs_dir(void)
{
	const char *dir = getenv("PERF_BTF_DIR");

	return dir && *dir ? dir : "/sys/kernel/btf";
}

/* libbpf's own messages are ours to word: kept for -v. */
static int __attribute__((format(printf, 2, 0)))
kbtf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	pr_debug("libbpf: %s", buf);
	return 0;
}

/* Is the file at @path an ELF file?  -errno when it can not be read. */
static int is_elf(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 0)
		return -EIO;
	return n == 4 && !memcmp(magic, "\177ELF", 4);
}

int kbtf__open(const char *path, struct kbtf *base, struct kbtf **out)
{
	struct btf *btf;
	int elf = is_elf(path);

	if (elf < 0)
		return elf;
	if (load_library())
		return -ENOSYS;
	lib.set_print(kbtf_print);
	errno = 0;
	if (elf)
		btf = lib.parse_elf_split(path, base ? base->btf : NULL);
	else
		btf = lib.parse_raw_split(path, base ? base->btf : NULL);
	if (!btf) {
		int err = errno;

		pr_debug("libbpf could not read BTF from %s: %s\n", path, strerror(err));
		if (elf && err == ENOENT)
			return -ENODATA;
		return err == ENOMEM ? -ENOMEM : -EBADMSG;
	}
	*out = xzalloc(sizeof(**out));
	(*out)->btf = btf;
	(*out)->first = base ? lib.type_cnt(base->btf) : 1;
	return 0;
}

void kbtf__free(struct kbtf *b)
{
	if (!b)
		return;
	lib.free(b->btf);
	free(b);
}

/* The type of @id through typedefs and qualifiers; NULL for void or a bad id. */
static const struct btf_type *real_type(const struct kbtf *b, uint32_t *id)
{
	for (int depth = 0; depth < 64; depth++) {
		const struct btf_type *t;

		if (*id == 0)
			return NULL;
		t = lib.type_by_id(b->btf, *id);
		if (!t)
			return NULL;
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return t;
		*id = t->type;
	}
	return NULL;
}

int kbtf__type(const struct kbtf *b, uint32_t id, struct kbtf_type *out)
{
	const struct btf_type *t;

	memset(out, 0, sizeof(*out));
	out->name = "";
	if (id == 0) {
		out->kind = KBTF_VOID;
		return 0;
	}
	t = real_type(b, &id);
	if (!t)
		return id ? -EINVAL : (out->kind = KBTF_VOID, 0);
	out->id = id;
	out->name = lib.name_by_offset(b->btf, t->name_off);
	if (!out->name)
		out->name = "";
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		out->kind = KBTF_INT;
		out->size = t->size;
		out->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		out->is_char = btf_int_encoding(t) & BTF_INT_CHAR;
		out->is_bool = btf_int_encoding(t) & BTF_INT_BOOL;
		break;
	case BTF_KIND_PTR:
		out->kind = KBTF_PTR;
		out->size = (uint32_t)lib.pointer_size(b->btf);
		if (!out->size)
			out->size = 8;
		out->ref = t->type;
		break;
	case BTF_KIND_ARRAY:
		out->kind = KBTF_ARRAY;
		out->ref = btf_array(t)->type;
		out->nelems = btf_array(t)->nelems;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		out->kind = btf_is_struct(t) ? KBTF_STRUCT : KBTF_UNION;
		out->size = t->size;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		out->kind = KBTF_ENUM;
		out->size = t->size;
		out->is_signed = btf_kflag(t);
		break;
	case BTF_KIND_FUNC_PROTO:
		out->kind = KBTF_FUNC_PROTO;
		break;
	case BTF_KIND_FLOAT:
		out->kind = KBTF_FLOAT;
		out->size = t->size;
		break;
	case BTF_KIND_FWD:
		out->kind = KBTF_FWD;
		break;
	default:
		out->kind = KBTF_OTHER;
		break;
	}
	return 0;
}

long kbtf__size(const struct kbtf *b, uint32_t id)
{
	long long n = lib.resolve_size(b->btf, id);

	return n < 0 ? -EINVAL : (long)n;
}

/* kbtf__type_name() at @depth: a corrupt BTF may loop. */
static void type_name(const struct kbtf *b, uint32_t id, struct strbuf *sb, int depth)
{
	const struct btf_type *t = NULL;
	const char *name;

	/* Qualifiers are dropped, as the -V of DWARF types does. */
	while (id && (t = lib.type_by_id(b->btf, id)) && btf_is_mod(t) && depth++ < 64)
		id = t->type;
	if (depth >= 64) {
		strbuf_addstr(sb, "(loop)");
		return;
	}
	if (!id || !t) {
		strbuf_addstr(sb, "void");
		return;
	}
	name = lib.name_by_offset(b->btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		type_name(b, t->type, sb, depth + 1);
		strbuf_addch(sb, '*');
		return;
	case BTF_KIND_ARRAY:
		type_name(b, btf_array(t)->type, sb, depth + 1);
		strbuf_addf(sb, "[%u]", btf_array(t)->nelems);
		return;
	case BTF_KIND_STRUCT:
		strbuf_addstr(sb, "struct ");
		break;
	case BTF_KIND_UNION:
		strbuf_addstr(sb, "union ");
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		strbuf_addstr(sb, "enum ");
		break;
	case BTF_KIND_FWD:
		strbuf_addstr(sb, btf_kflag(t) ? "union " : "struct ");
		break;
	case BTF_KIND_FUNC_PROTO:
		type_name(b, t->type, sb, depth + 1);
		strbuf_addstr(sb, " (*)()");
		return;
	default:
		break;
	}
	strbuf_addstr(sb, name && *name ? name : "(anon)");
}

void kbtf__type_name(const struct kbtf *b, uint32_t id, struct strbuf *sb)
{
	type_name(b, id, sb, 0);
}

int kbtf__find_func(const struct kbtf *b, const char *name, uint32_t *proto)
{
	uint32_t n = lib.type_cnt(b->btf);

	for (uint32_t id = b->first; id < n; id++) {
		const struct btf_type *t = lib.type_by_id(b->btf, id);
		const char *tn;

		if (!btf_is_func(t))
			continue;
		tn = lib.name_by_offset(b->btf, t->name_off);
		if (tn && !strcmp(tn, name)) {
			const struct btf_type *p = lib.type_by_id(b->btf, t->type);

			if (!p || !btf_is_func_proto(p))
				return -EINVAL;
			*proto = t->type;
			return 0;
		}
	}
	return -ENOENT;
}

int kbtf__for_each_func(const struct kbtf *b, int (*fn)(const char *name, void *arg), void *arg)
{
	uint32_t n = lib.type_cnt(b->btf);

	for (uint32_t id = b->first; id < n; id++) {
		const struct btf_type *t = lib.type_by_id(b->btf, id);
		int ret;

		if (!btf_is_func(t))
			continue;
		ret = fn(lib.name_by_offset(b->btf, t->name_off), arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* The params of @proto, with a trailing "..." (type 0, no name) counted. */
static int raw_nparams(const struct kbtf *b, uint32_t proto, const struct btf_param **params)
{
	const struct btf_type *t = lib.type_by_id(b->btf, proto);

	if (!t || !btf_is_func_proto(t))
		return 0;
	*params = btf_params(t);
	return btf_vlen(t);
}

bool kbtf__variadic(const struct kbtf *b, uint32_t proto)
{
	const struct btf_param *p;
	int n = raw_nparams(b, proto, &p);

	return n > 0 && p[n - 1].type == 0 && p[n - 1].name_off == 0;
}

int kbtf__nparams(const struct kbtf *b, uint32_t proto)
{
	const struct btf_param *p;
	int n = raw_nparams(b, proto, &p);

	return kbtf__variadic(b, proto) ? n - 1 : n;
}

void kbtf__param(const struct kbtf *b, uint32_t proto, int i, const char **name, uint32_t *type)
{
	const struct btf_param *p;
	int n = raw_nparams(b, proto, &p);

	*name = "";
	*type = 0;
	if (i < 0 || i >= n)
		return;
	*name = lib.name_by_offset(b->btf, p[i].name_off);
	if (!*name)
		*name = "";
	*type = p[i].type;
}

uint32_t kbtf__return_type(const struct kbtf *b, uint32_t proto)
{
	const struct btf_type *t = lib.type_by_id(b->btf, proto);

	return t && btf_is_func_proto(t) ? t->type : 0;
}

static bool find_member(const struct kbtf *b, uint32_t id, const char *name, int depth,
			struct kbtf_member *m)
{
	const struct btf_type *t = lib.type_by_id(b->btf, id);
	const struct btf_member *mem;

	if (!t || !btf_is_composite(t) || depth > 32)
		return false;
	mem = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *mn = lib.name_by_offset(b->btf, mem[i].name_off);
		uint32_t off = btf_member_bit_offset(t, i);

		if (mn && *mn) {
			if (strcmp(mn, name))
				continue;
			m->type = mem[i].type;
			m->byte_off = 0;
			m->bit_off = off;
			m->bitfield = btf_member_bitfield_size(t, i);
			if (!m->bitfield) {
				/* Old style: the width is the int's own. */
				uint32_t sub = mem[i].type;
				const struct btf_type *it = real_type(b, &sub);

				if (it && btf_is_int(it) &&
				    (btf_int_bits(it) != it->size * 8 || btf_int_offset(it)))
					m->bitfield = btf_int_bits(it);
				m->bit_off += it && btf_is_int(it) ? btf_int_offset(it) : 0;
			}
			if (!m->bitfield) {
				m->byte_off = off / 8;
				m->bit_off = 0;
			}
			return true;
		}
		{
			uint32_t sub = mem[i].type;
			const struct btf_type *st = real_type(b, &sub);

			if (st && btf_is_composite(st) && find_member(b, sub, name, depth + 1, m)) {
				m->byte_off += off / 8;
				return true;
			}
		}
	}
	return false;
}

bool kbtf__member(const struct kbtf *b, uint32_t id, const char *name, struct kbtf_member *m)
{
	memset(m, 0, sizeof(*m));
	return find_member(b, id, name, 0, m);
}
