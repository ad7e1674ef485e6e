// SPDX-License-Identifier: GPL-2.0
/*
 * SDT markers: decoding .note.stapsdt, converting marker arguments to
 * fetchargs exactly as perf 6.1 writes them (the expected strings were
 * taken from the system perf's probe cache for the same arguments), and
 * adding a file's markers to a probe cache.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/probe-cache.h"
#include "util/tracefs.h"
#include "util/sdt-arg.h"
#include "util/sdt-note.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PYTHON "/usr/bin/python3.11"

/* One argument word: the fetcharg perf writes, or NULL when perf skips it. */
static const struct {
	const char *arg;
	const char *fetcharg;
} arg_table[] = {
	/* sizes and signedness */
	{ "8@%rax", "%ax:u64" },
	{ "-8@%rax", "%ax:s64" },
	{ "4@%ebx", "%bx:u32" },
	{ "-4@%edi", "%di:s32" },
	{ "2@%si", "%si:u16" },
	{ "-2@%bx", "%bx:s16" },
	{ "1@%al", "%ax:u8" },
	{ "-1@%dil", "%di:s8" },
	{ "+8@%rax", "%ax:u64" },
	{ "08@%rax", "%ax:u64" },
	{ "-08@%rax", "%ax:s64" },
	{ "8x@%rax", "%ax:u64" },
	/* sizes that give no type */
	{ "%rax", "%ax" },
	{ "3@%rbx", "%bx" },
	{ "5@%rax", "%ax" },
	{ "7@%rax", "%ax" },
	{ "0@%rcx", "%cx" },
	{ "-0@%rax", "%ax" },
	{ "-3@%rax", "%ax" },
	{ "@%rax", "%ax" },
	{ "x@%rax", "%ax" },
	{ "--8@%rax", "%ax" },
	/* register names: the kernel's 64-bit ones */
	{ "8@%rbx", "%bx:u64" },
	{ "8@%rcx", "%cx:u64" },
	{ "8@%rdx", "%dx:u64" },
	{ "8@%rsi", "%si:u64" },
	{ "8@%rdi", "%di:u64" },
	{ "8@%rbp", "%bp:u64" },
	{ "8@%rsp", "%sp:u64" },
	{ "8@%r8", "%r8:u64" },
	{ "8@%r15", "%r15:u64" },
	{ "-4@%r8d", "%r8:s32" },
	{ "-2@%r10w", "%r10:s16" },
	{ "1@%r11b", "%r11:u8" },
	{ "-1@%ah", "%ax:s8" },
	{ "1@%ch", "%cx:u8" },
	{ "1@%dh", "%dx:u8" },
	{ "1@%bh", "%bx:u8" },
	{ "1@%sil", "%si:u8" },
	{ "1@%bpl", "%bp:u8" },
	{ "1@%spl", "%sp:u8" },
	{ "4@%esp", "%sp:u32" },
	/* looked up as a prefix, first match in perf's order */
	{ "8@%es", "%si:u64" },
	{ "8@%rs", "%si:u64" },
	{ "8@%rb", "%bx:u64" },
	{ "8@%ed", "%dx:u64" },
	{ "8@%r1", "%r10:u64" },
	/* unknown names are kept */
	{ "8@%rip", "%rip:u64" },
	{ "8@%eip", "%eip:u64" },
	{ "4@%cs", "%cs:u32" },
	{ "-1@%r12l", "%r12l:s8" },
	{ "8@%xmm0", "%xmm0:u64" },
	{ "8@%abcde", "%abcde:u64" },
	/* memory operands */
	{ "8@-16(%rbp)", "-16(%bp):u64" },
	{ "-4@8(%rsp)", "+8(%sp):s32" },
	{ "-4@112(%rsp)", "+112(%sp):s32" },
	{ "4@(%rax)", "+0(%ax):u32" },
	{ "8@+8(%rax)", "+8(%ax):u64" },
	{ "8@-0(%rax)", "-0(%ax):u64" },
	{ "8@008(%rax)", NULL }, /* perf 6.1: "+008(%ax)", octal to the kernel */
	{ ".@-08(%rbp)", NULL }, /* found by fuzz-sdt-arg */
	/* perf 6.1 writes "+(%ax)", which the kernel refuses: skipped */
	{ "8@-(%rax)", NULL },
	{ "8@+(%rax)", NULL },
	{ "-(%rip)", NULL }, /* found by fuzz-sdt-arg */
	{ "8@8(%es)", "+8(%si):u64" },
	{ "-8(%rbp)", "-8(%bp)" },
	{ "8@1234567890123(%rax)", "+1234567890123(%ax):u64" },
	/* what perf's pattern lets through unbalanced */
	{ "8@8(%rax", "+8(%ax:u64" },
	{ "8@(%rax", "+0(%ax:u64" },
	{ "8@%rax)", "%ax):u64" },
	{ "8@8%rax", "8%ax:u64" },
	{ "8@8%rax)", "8%ax):u64" },
	{ "8@-%rax", "%ax:u64" },
	{ "8@+8%rax", "8%ax:u64" },
	/* skipped: no uprobe fetcharg for them */
	{ "-8@$5", NULL },
	{ "4@$-3", NULL },
	{ "8@$0x10", NULL },
	{ "4@foo(%rip)", NULL },
	{ "8@(%rax,%rbx,8)", NULL },
	{ "8@8(%rax,%rbx)", NULL },
	{ "-2@-0x10(%rbx)", NULL },
	{ "8@0x8(%rax)", NULL },
	{ "4@glob", NULL },
	{ "8@%rflags", NULL },
	{ "8@%abcdef", NULL },
	{ "8@8(%abcdef)", NULL },
	{ "8@%a", NULL },
	{ "8@%Rax", NULL },
	{ "8@%r_x", NULL },
	{ "8@%1a", NULL },
	{ "8@--8(%rax)", NULL },
	{ "8@a(%rax)", NULL },
	{ "8@(%rax)(%rbx)", NULL },
	{ "8@((%rax))", NULL },
	{ "8@%%rax", NULL },
	{ "8@*%rax", NULL },
	{ "8@@%rax", NULL },
	{ "8@$", NULL },
	{ "8@", NULL },
};

static void test_arg_table(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(arg_table); i++) {
		struct strbuf sb = STRBUF_INIT;
		int ret = sdt_arg__to_fetcharg(arg_table[i].arg, &sb);

		if (arg_table[i].fetcharg) {
			CHECK_INT(ret, ==, 1);
			CHECK_STR(sb.buf, arg_table[i].fetcharg);
		} else {
			CHECK_INT(ret, ==, 0);
			CHECK_STR(sb.buf, "");
		}
		if (ret < 0 || (arg_table[i].fetcharg && strcmp(sb.buf, arg_table[i].fetcharg)))
			printf("#   for '%s'\n", arg_table[i].arg);
		strbuf_release(&sb);
	}
}

/* Operands of other architectures, in their assembler syntax. */
static const struct {
	const char *arch, *arg, *fetcharg; /* NULL: skipped */
} cross_table[] = {
	{ "aarch64", "-4@x0", "%x0:s32" },
	{ "aarch64", "8@x30", "%x30:u64" },
	{ "aarch64", "-4@w1", "%x1:s32" },
	{ "aarch64", "8@sp", "%sp:u64" },
	{ "aarch64", "-4@[x8]", "+0(%x8):s32" },
	{ "aarch64", "-4@[sp, 12]", "+12(%sp):s32" },
	{ "aarch64", "-4@[sp,12]", "+12(%sp):s32" },
	{ "aarch64", "8@[x29, -8]", "-8(%x29):u64" },
	{ "aarch64", "2@[x1, #16]", "+16(%x1):u16" },
	{ "aarch64", "1@[x2, #-3]", "-3(%x2):u8" },
	{ "aarch64", "4@5", NULL },
	{ "aarch64", "4@x31", NULL },
	{ "aarch64", "4@x00", NULL },
	{ "aarch64", "4@%x0", NULL },
	{ "aarch64", "4@[x0, 0x10]", NULL },
	{ "aarch64", "4@[x0, x1]", NULL },
	{ "aarch64", "4@[x0", NULL },
	{ "aarch64", "4@[x0]!", NULL },
	{ "riscv64", "-4@a0", "%a0:s32" },
	{ "riscv64", "8@x10", "%a0:u64" },
	{ "riscv64", "-4@-20(s0)", "-20(%s0):s32" },
	{ "riscv64", "8@8(sp)", "+8(%sp):u64" },
	{ "riscv64", "4@s1", "%s1:u32" },
	{ "riscv64", "4@s12", NULL },
	{ "riscv64", "4@5", NULL },
	{ "", "4@x0", NULL }, /* a machine without a table */
	{ NULL, "-4@%edi", "%di:s32" },
	{ "i386", "4@%eax", "%ax:u32" },
};

static void test_cross_arch_operands(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cross_table); i++) {
		struct strbuf sb = STRBUF_INIT;
		int ret = sdt_arg__to_fetcharg_arch(cross_table[i].arch, cross_table[i].arg, &sb);

		if (cross_table[i].fetcharg) {
			CHECK_INT(ret, ==, 1);
			CHECK_STR(sb.buf, cross_table[i].fetcharg);
		} else {
			CHECK_INT(ret, ==, 0);
			CHECK_STR(sb.buf, "");
		}
		if (ret < 0 || (cross_table[i].fetcharg && strcmp(sb.buf, cross_table[i].fetcharg)))
			printf("#   for '%s'\n", cross_table[i].arg);
		strbuf_release(&sb);
	}
}

static void test_arg_sizes_over_8_are_errors(void)
{
	static const char *const bad[] = {
		"16@%rax",     "9@%rax",	  "-9@%rax",
		"-16@%rax",    "32@%rax",	  "64@%rax",
		"10@%rax",     "4294967304@%rax", "99999999999999999999@%rax",
		"16@foo(%rip)"
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct strbuf sb = STRBUF_INIT;

		CHECK_INT(sdt_arg__to_fetcharg(bad[i], &sb), ==, -EINVAL);
		CHECK_STR(sb.buf, "");
		strbuf_release(&sb);
	}
}

static void test_args_numbered_by_position(void)
{
	static const struct {
		const char *args, *out;
	} t[] = {
		{ "", "" },
		{ "   ", "" },
		{ "8@%rbx 8@%r15", " arg1=%bx:u64 arg2=%r15:u64" },
		{ "4@foo(%rip) 8@%rax", " arg2=%ax:u64" },
		{ "-8@$5 4@$-3 8@$0x10", "" },
		{ "8@%rax  4@%rcx", " arg1=%ax:u64 arg2=%cx:u32" },
		{ " 8@%rax\t4@%rcx ", " arg1=%ax:u64 arg2=%cx:u32" },
		/* a space inside an operand splits it, as in perf */
		{ "8@8 (%rax) 4@%rbx", " arg2=+0(%ax) arg3=%bx:u32" },
		{ "8@%r14 8@%rax -4@%ebp", " arg1=%r14:u64 arg2=%ax:u64 arg3=%bp:s32" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "p:x");
		CHECK_INT(sdt_args__synthesize(t[i].args, &sb, NULL), ==, 0);
		CHECK_STR(sb.buf + 3, t[i].out);
		strbuf_release(&sb);
	}
}

/* A displacement the kernel's long can not hold is no fetcharg: skipped. */
static void test_displacement_out_of_range_is_skipped(void)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_INT(sdt_arg__to_fetcharg("8@-77777777777777777777(%rbp)", &sb), ==, 0);
	CHECK_STR(sb.buf, "");
	CHECK_INT(sdt_arg__to_fetcharg("8@-9223372036854775808(%rbp)", &sb), ==, 1);
	CHECK_STR(sb.buf, "-9223372036854775808(%bp):u64");
	strbuf_reset(&sb);
	CHECK_INT(sdt_arg__to_fetcharg("8@9223372036854775808(%rbp)", &sb), ==, 0);
	CHECK_INT(sdt_arg__to_fetcharg_arch("aarch64", "-4@[sp, 99999999999999999999]", &sb), ==,
		  0);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

/* gcc's arm64 memory operands hold a space: "[sp, 4]" is one operand. */
static void test_arm64_args_with_a_space_inside_brackets(void)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_INT(sdt_args__synthesize_arch("aarch64", "-4@x1 -4@[sp, 4] -8@x0 4@[x29, #-12]", &sb,
					    NULL),
		  ==, 0);
	CHECK_STR(sb.buf, " arg1=%x1:s32 arg2=+4(%sp):s32 arg3=%x0:s64 arg4=-12(%x29):u32");
	strbuf_release(&sb);
}

static void test_args_bad_size_appends_nothing(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *bad = NULL;

	strbuf_addstr(&sb, "p:x");
	CHECK_INT(sdt_args__synthesize("8@%rax 16@%rbx 4@%rcx", &sb, &bad), ==, -EINVAL);
	CHECK_STR(sb.buf, "p:x");
	CHECK_STR(bad, "16@%rbx");
	free(bad);
	strbuf_release(&sb);
}

static void test_note_line(void)
{
	struct sdt_note n = { .provider = "python",
			      .name = "gc__start",
			      .args = "-4@112(%rsp)",
			      .offset = 0x26fc1,
			      .sem_offset = 0x67dd4e };
	struct strbuf sb = STRBUF_INIT;

	CHECK_INT(sdt_note__synthesize(&n, "/usr/bin/python3.11", &sb, NULL), ==, 0);
	CHECK_STR(sb.buf, "p:sdt_python/gc__start /usr/bin/python3.11:0x26fc1(0x67dd4e) "
			  "arg1=+112(%sp):s32");
	strbuf_reset(&sb);
	n.sem_offset = 0;
	n.args = "";
	CHECK_INT(sdt_note__synthesize(&n, "/p", &sb, NULL), ==, 0);
	CHECK_STR(sb.buf, "p:sdt_python/gc__start /p:0x26fc1");
	strbuf_reset(&sb);
	n.args = "8@%rax 16@%rax";
	CHECK_INT(sdt_note__synthesize(&n, "/p", &sb, NULL), ==, -EINVAL);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

/* Notes as a linker writes them, of either word size and byte order. */
struct note_buf {
	unsigned char b[1024];
	size_t len;
	bool elf64, swap;
};

static void put32(struct note_buf *nb, uint32_t v)
{
	if (nb->swap)
		v = bswap_32(v);
	memcpy(nb->b + nb->len, &v, 4);
	nb->len += 4;
}

static void put_addr(struct note_buf *nb, uint64_t v)
{
	if (!nb->elf64) {
		put32(nb, v);
		return;
	}
	if (nb->swap)
		v = bswap_64(v);
	memcpy(nb->b + nb->len, &v, 8);
	nb->len += 8;
}

static void put_bytes(struct note_buf *nb, const void *p, size_t n)
{
	memcpy(nb->b + nb->len, p, n);
	nb->len += n;
	while (nb->len % 4)
		nb->b[nb->len++] = 0;
}

/* A note of @owner/@type; @strings (with its NULs) holds provider, name, args. */
static void put_note(struct note_buf *nb, const char *owner, uint32_t type, uint64_t pc,
		     uint64_t base, uint64_t sem, const char *strings, size_t slen)
{
	size_t asz = nb->elf64 ? 8 : 4;

	put32(nb, strlen(owner) + 1);
	put32(nb, 3 * asz + slen);
	put32(nb, type);
	put_bytes(nb, owner, strlen(owner) + 1);
	put_addr(nb, pc);
	put_addr(nb, base);
	put_addr(nb, sem);
	put_bytes(nb, strings, slen);
}

#define STRS(s) s, sizeof(s)

static void check_layout(bool elf64, bool swap)
{
	struct note_buf nb = { .elf64 = elf64, .swap = swap };
	struct sdt_note *notes;
	const char *why = NULL;
	int nr;

	put_note(&nb, "stapsdt", 3, 0x401136, 0x402004, 0x404010,
		 STRS("prov\0first\0-4@%edi 8@%rsi"));
	put_note(&nb, "GNU", 3, 1, 2, 3, STRS("x\0y\0z"));
	put_note(&nb, "stapsdt", 1, 1, 2, 3, STRS("x\0y\0z"));
	put_note(&nb, "stapsdt", 3, 0x401200, 0x402004, 0, STRS("prov\0second\0"));
	nr = sdt_notes__parse(nb.b, nb.len, elf64, swap, 4, &notes, &why);
	CHECK_INT(nr, ==, 2);
	if (nr != 2)
		return;
	CHECK_STR(notes[0].provider, "prov");
	CHECK_STR(notes[0].name, "first");
	CHECK_STR(notes[0].args, "-4@%edi 8@%rsi");
	CHECK_INT(notes[0].pc, ==, 0x401136);
	CHECK_INT(notes[0].base, ==, 0x402004);
	CHECK_INT(notes[0].semaphore, ==, 0x404010);
	CHECK_STR(notes[1].name, "second");
	CHECK_STR(notes[1].args, "");
	CHECK_INT(notes[1].semaphore, ==, 0);
	sdt_notes__free(notes, nr);
}

static void test_notes_64_and_32_bit_both_byte_orders(void)
{
	check_layout(true, false);
	check_layout(false, false);
	check_layout(true, true);
	check_layout(false, true);
}

static void test_notes_32_bit_addresses_are_4_bytes(void)
{
	struct note_buf nb = { .elf64 = false };
	struct sdt_note *notes;
	int nr;

	put_note(&nb, "stapsdt", 3, 0xfffffff0, 0x2004, 0x4010, STRS("p\0n\0"));
	nr = sdt_notes__parse(nb.b, nb.len, false, false, 4, &notes, NULL);
	CHECK_INT(nr, ==, 1);
	if (nr == 1)
		CHECK_INT(notes[0].pc, ==, 0xfffffff0);
	sdt_notes__free(notes, nr > 0 ? nr : 0);
	/* Read as 64-bit, the same bytes lack their strings. */
	CHECK_INT(sdt_notes__parse(nb.b, nb.len, true, false, 4, &notes, NULL), ==, -EBADMSG);
}

static void check_bad(struct note_buf *nb, size_t len, const char *what)
{
	struct sdt_note *notes = (struct sdt_note *)1;
	const char *why = NULL;

	CHECK_INT(sdt_notes__parse(nb->b, len, nb->elf64, false, 4, &notes, &why), ==, -EBADMSG);
	CHECK(why != NULL);
	CHECK(notes == (struct sdt_note *)1); /* nothing handed out */
	if (why)
		printf("#   %s: %s\n", what, why);
}

static void test_malformed_notes_fail_the_whole_section(void)
{
	struct note_buf nb = { .elf64 = true };
	size_t good;

	put_note(&nb, "stapsdt", 3, 1, 2, 3, STRS("p\0good\0"));
	good = nb.len;
	put_note(&nb, "stapsdt", 3, 1, 2, 3, STRS("p\0second\08@%rax"));
	check_bad(&nb, good + 6, "truncated inside a header");
	check_bad(&nb, nb.len - 8, "truncated inside a descriptor");

	nb.len = good;
	put_note(&nb, "stapsdt", 3, 1, 2, 3, "p\0n\0no-nul", 10);
	check_bad(&nb, nb.len, "args without NUL");

	nb.len = good;
	put_note(&nb, "stapsdt", 3, 1, 2, 3, "p\0", 2);
	check_bad(&nb, nb.len, "no name");

	nb.len = good;
	put_note(&nb, "stapsdt", 3, 1, 2, 3, STRS("\0n\0"));
	check_bad(&nb, nb.len, "empty provider");

	nb.len = good;
	put_note(&nb, "stapsdt", 3, 1, 2, 3, "", 0);
	nb.len -= 24; /* a descriptor size claiming 24 bytes with only 0 there */
	check_bad(&nb, nb.len, "short descriptor");

	/* A descriptor size near 4G must not wrap around. */
	nb.len = good;
	put32(&nb, 8);
	put32(&nb, 0xfffffffc);
	put32(&nb, 3);
	put_bytes(&nb, "stapsdt", 8);
	check_bad(&nb, nb.len, "huge descriptor size");
}

static void test_read_errors(void)
{
	struct sdt_note *notes;

	CHECK_INT(sdt_notes__read("/nonexistent/file", &notes, NULL), ==, -ENOENT);
	CHECK_INT(sdt_notes__read("/", &notes, NULL), ==, -EISDIR);
	CHECK_INT(sdt_notes__read("/etc/hostname", &notes, NULL), ==, -ENOEXEC);
}

/* python3.11 as Debian builds it: eight markers, each with a semaphore. */
static void test_read_python(void)
{
	struct sdt_note *notes;
	int nr;

	if (access(PYTHON, R_OK)) {
		printf("# no %s: skipped\n", PYTHON);
		return;
	}
	nr = sdt_notes__read(PYTHON, &notes, NULL);
	CHECK_INT(nr, ==, 8);
	for (int i = 0; i < nr; i++) {
		CHECK_STR(notes[i].provider, "python");
		CHECK(notes[i].sem_offset != 0);
		CHECK(notes[i].offset < notes[i].pc);
	}
	sdt_notes__free(notes, nr > 0 ? nr : 0);
}

static void test_cache_add_python(void)
{
	struct probe_cache *pc = probe_cache__new();
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct probe_cache_entry *e;
	int nr_before;

	if (access(PYTHON, R_OK)) {
		printf("# no %s: skipped\n", PYTHON);
		probe_cache__close(pc);
		return;
	}
	probe_cache__add_entry(pc, false, "handle len=r->len",
			       (char *[]){ "p:probe_python/handle " PYTHON ":0x1144" }, 1);
	CHECK_INT(probe_cache__add_sdt_entries(pc, PYTHON, &err), ==, 8);
	CHECK_INT(pc->nr, ==, 9);
	CHECK(!pc->entries[0].sdt);
	CHECK_STR(pc->entries[1].spec, "sdt_python:audit=audit");
	e = probe_cache__find(pc, true, "sdt_python:gc__start=gc__start");
	CHECK(e != NULL);
	if (e) {
		CHECK_INT(e->nr_lines, ==, 1);
		CHECK(strstr(e->lines[0], " arg1=+112(%sp):s32") != NULL);
	}

	/* Again: every line is there already; the cache is left as it was. */
	probe_cache__format(pc, &sb);
	nr_before = pc->nr;
	CHECK_INT(probe_cache__add_sdt_entries(pc, PYTHON, &err), ==, -EEXIST);
	CHECK_INT(pc->nr, ==, nr_before);
	{
		struct strbuf after = STRBUF_INIT;

		probe_cache__format(pc, &after);
		CHECK_STR(after.buf, sb.buf);
		strbuf_release(&after);
	}

	/* A stale line of one marker: the new one joins it, in strcmp order. */
	probe_cache__remove_sdt_entries(pc);
	CHECK_INT(pc->nr, ==, 1);
	probe_cache__add_entry(pc, true, "sdt_python:line=line",
			       (char *[]){ "p:sdt_python/line " PYTHON ":0x99" }, 1);
	CHECK_INT(probe_cache__add_sdt_entries(pc, PYTHON, &err), ==, 8);
	CHECK_STR(pc->entries[1].spec, "sdt_python:line=line");
	CHECK_INT(pc->entries[1].nr_lines, ==, 2);
	if (pc->entries[1].nr_lines == 2)
		CHECK(strcmp(pc->entries[1].lines[0], pc->entries[1].lines[1]) < 0);
	CHECK_STR(pc->entries[2].spec, "sdt_python:audit=audit");

	strbuf_release(&sb);
	strbuf_release(&err);
	probe_cache__close(pc);
}

static void test_cache_add_errors_leave_the_cache_alone(void)
{
	struct probe_cache *pc = probe_cache__new();
	struct strbuf err = STRBUF_INIT;

	CHECK_INT(probe_cache__add_sdt_entries(pc, "/nonexistent", &err), ==, -ENOENT);
	CHECK(strstr(err.buf, "/nonexistent") != NULL);
	CHECK_INT(probe_cache__add_sdt_entries(pc, "/etc/hostname", NULL), ==, -ENOEXEC);
	CHECK_INT(pc->nr, ==, 0);
	strbuf_release(&err);
	probe_cache__close(pc);
}

static void test_ref_ctr_offset_from_readme(void)
{
	char dir[] = "/tmp/perf-test-sdt.XXXXXX";
	char *readme;
	FILE *f;

	if (!mkdtemp(dir))
		return;
	setenv("PERF_TRACEFS_DIR", dir, 1);
	readme = path_join(dir, "README");
	f = fopen(readme, "w");
	fputs("  uprobe_events\t\t- Create/append/remove/show the userspace dynamic events\n"
	      "   place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n",
	      f);
	fclose(f);
	CHECK_INT(tracefs__has_ref_ctr_offset(), ==, 1);
	f = fopen(readme, "w");
	fputs("   place (uprobe): <path>:<offset>\n", f);
	fclose(f);
	CHECK_INT(tracefs__has_ref_ctr_offset(), ==, 0);
	unlink(readme);
	CHECK(tracefs__has_ref_ctr_offset() < 0);
	rmdir(dir);
	free(readme);
}

TESTS(TEST(test_arg_table), TEST(test_cross_arch_operands), TEST(test_arg_sizes_over_8_are_errors),
      TEST(test_args_numbered_by_position), TEST(test_arm64_args_with_a_space_inside_brackets),
      TEST(test_displacement_out_of_range_is_skipped), TEST(test_args_bad_size_appends_nothing),
      TEST(test_note_line), TEST(test_notes_64_and_32_bit_both_byte_orders),
      TEST(test_notes_32_bit_addresses_are_4_bytes),
      TEST(test_malformed_notes_fail_the_whole_section), TEST(test_read_errors),
      TEST(test_read_python), TEST(test_cache_add_python),
      TEST(test_cache_add_errors_leave_the_cache_alone), TEST(test_ref_ctr_offset_from_readme));
