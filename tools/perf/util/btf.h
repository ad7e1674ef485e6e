/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_BTF_H
#define PERF_UTIL_BTF_H

/*
 * The kernel's BTF (BPF Type Format) behind a small API: opening it (the
 * running kernel's /sys/kernel/btf/vmlinux, a module's on top of it, the
 * .BTF section of an ELF file such as a vmlinux or a .ko, or a raw BTF
 * file), the functions and their prototypes, and types as plain values.
 *
 * Rules: this is the one file that talks to libbpf (a later change may
 * load it only for the commands that need it); it knows nothing of probes.
 * Type ids are those of the BTF opened; 0 is void.  Every type asked for
 * is "real": typedefs, const, volatile, restrict and type tags are looked
 * through.  It calls strbuf, alloc and debug.
 */

#include <stdbool.h>
#include <stdint.h>

struct strbuf;
struct kbtf;

/* Where the running kernel's BTF is (PERF_BTF_DIR overrides, for tests). */
const char *kbtf__sysfs_dir(void);

/*
 * Open the BTF at @path: an ELF file's .BTF section or a raw BTF file
 * (told by its magic).  @base: the vmlinux BTF a module's BTF is split
 * from, or NULL.  0 with *@out, or -ENOENT (no such file), -ENODATA (an
 * ELF file without .BTF), -EBADMSG (corrupt or truncated); nothing printed.
 */
int kbtf__open(const char *path, struct kbtf *base, struct kbtf **out);
/* Free @b (not its base). */
void kbtf__free(struct kbtf *b);

enum kbtf_kind {
	KBTF_VOID,
	KBTF_INT,
	KBTF_PTR,
	KBTF_ARRAY,
	KBTF_STRUCT,
	KBTF_UNION,
	KBTF_ENUM,
	KBTF_FUNC_PROTO,
	KBTF_FLOAT,
	KBTF_FWD,
	KBTF_OTHER,
};

/* A real type, as plain values. */
struct kbtf_type {
	enum kbtf_kind kind;
	uint32_t id;	  /* the real type's id */
	const char *name; /* "" when anonymous; owned by the BTF */
	uint32_t size;	  /* bytes (INT, STRUCT, UNION, ENUM, FLOAT; 8 for PTR) */
	bool is_signed;	  /* INT with the signed encoding, or a signed ENUM64 */
	bool is_char;	  /* INT with the char encoding */
	bool is_bool;	  /* INT with the bool encoding */
	uint32_t ref;	  /* PTR: the type pointed to; ARRAY: the element (both as written) */
	uint32_t nelems;  /* ARRAY */
};

/* The real type of @id into @t: 0, or -EINVAL for an id not in the BTF. */
int kbtf__type(const struct kbtf *b, uint32_t id, struct kbtf_type *t);

/* The size of @id in bytes (arrays included), or -errno. */
long kbtf__size(const struct kbtf *b, uint32_t id);

/*
 * @id spelled as perf's -V prints DWARF types: "struct file*", "char*",
 * "long unsigned int", "size_t" (typedef names kept, qualifiers dropped),
 * appended to @sb.
 */
void kbtf__type_name(const struct kbtf *b, uint32_t id, struct strbuf *sb);

/*
 * The FUNC named @name: its FUNC_PROTO's id in *@proto.  0, or -ENOENT.
 * A module's BTF is searched without its base.
 */
int kbtf__find_func(const struct kbtf *b, const char *name, uint32_t *proto);

/* The number of parameters of FUNC_PROTO @proto (variadic ones not counted). */
int kbtf__nparams(const struct kbtf *b, uint32_t proto);
/* Does @proto end in "..."? */
bool kbtf__variadic(const struct kbtf *b, uint32_t proto);
/* Parameter @i of @proto: its name ("" when none) and type id (as written). */
void kbtf__param(const struct kbtf *b, uint32_t proto, int i, const char **name, uint32_t *type);
/* The return type of @proto (as written; 0: void). */
uint32_t kbtf__return_type(const struct kbtf *b, uint32_t proto);

/* A member found in a struct or union, through anonymous ones. */
struct kbtf_member {
	uint32_t type;	   /* as written */
	long byte_off;	   /* of the innermost struct holding it, from the outer one */
	uint32_t bit_off;  /* from the start of that innermost struct */
	uint32_t bitfield; /* its width in bits, 0 when not a bitfield */
};

/*
 * The member @name of struct or union @id (a real type), looked for in
 * anonymous members too: true with *@m.
 */
bool kbtf__member(const struct kbtf *b, uint32_t id, const char *name, struct kbtf_member *m);

/* Call @fn with the name of every FUNC of @b (a module's: its own only); stops at non-zero. */
int kbtf__for_each_func(const struct kbtf *b, int (*fn)(const char *name, void *arg), void *arg);

#endif
