// SPDX-License-Identifier: GPL-2.0
/*
 * probe-verify: cached lines checked against their entry and the file,
 * on this very program (its functions, segments and instructions).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit-test.h"
#include "util/probe-cache.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/probe-verify.h"
#include "util/strbuf.h"
#include "util/symbol-elf.h"

#if defined(__x86_64__)
/* Two functions of known instructions: +0 2 bytes, +2 3 bytes, +5 ret. */
__asm__(".text\n"
	".globl verify_fixture\n"
	".type verify_fixture, @function\n"
	"verify_fixture:\n"
	"	test %edi, %edi\n"
	"	cmp $1, %edi\n"
	"	ret\n"
	".size verify_fixture, . - verify_fixture\n"
	".globl verify_other\n"
	".type verify_other, @function\n"
	"verify_other:\n"
	"	ret\n"
	".size verify_other, . - verify_other\n"
	/* +0 2 bytes, +2 je (2), +4 ret, +5 nop past the return, +6 ret */
	".globl verify_jumpy\n"
	".type verify_jumpy, @function\n"
	"verify_jumpy:\n"
	"	test %edi, %edi\n"
	"	.byte 0x74, 1\n"
	"	ret\n"
	"	nop\n"
	"	ret\n"
	".size verify_jumpy, . - verify_jumpy\n");
void verify_fixture(void);
void verify_other(void);
void verify_jumpy(void);

static char exe[PATH_MAX];
static uint64_t fixture_off, other_off, data_off, jumpy_off;
int verify_data = 1; /* in .data: not executable */

/* File offsets of the fixtures in this program. */
static int setup(void)
{
	const struct elf_symbol **syms = NULL;
	struct symbol_elf *se;
	uint64_t a[4];
	const char *names[4] = { "verify_fixture", "verify_other", "verify_data", "verify_jumpy" };
	int ok = 1;

	if (!realpath("/proc/self/exe", exe) || symbol_elf__load(exe, &se))
		return 0;
	for (int i = 0; i < 4 && ok; i++) {
		ok = symbol_elf__find_name(se, names[i], &syms) == 1 &&
		     !symbol_elf__vaddr_to_offset(se, syms[0]->addr, &a[i]);
		free(syms);
	}
	symbol_elf__delete(se);
	fixture_off = a[0], other_off = a[1], data_off = a[2], jumpy_off = a[3];
	return ok;
}

/* "KIND:probe_t/ev PATH:0xOFF REST" (PATH NULL: this program), in a static buffer. */
static const char *line_at(const char *kind, const char *path, uint64_t off, const char *rest)
{
	static char buf[PATH_MAX + 256];

	snprintf(buf, sizeof(buf), "%s:probe_t/ev %s:0x%lx%s", kind, path ? path : exe,
		 (unsigned long)off, rest);
	return buf;
}

/* "KIND:GROUP/EVENT THIS:0xOFF", in a static buffer. */
static const char *named_at(const char *kind, const char *group, const char *event, uint64_t off)
{
	static char buf[PATH_MAX + 256];

	snprintf(buf, sizeof(buf), "%s:%s/%s %s:0x%lx", kind, group, event, exe,
		 (unsigned long)off);
	return buf;
}

/* Check the one entry of "#SPEC\nLINE\n" ('%' for "%SPEC") against this program. */
static int check_entry(const char *spec, const char *line, struct strbuf *why)
{
	struct probe_verifier v = { .path = exe, .uprobes = true };
	struct probe_cache *pc = probe_cache__new();
	struct strbuf text = STRBUF_INIT;
	const char *reason;
	int bad = -1, ret;

	strbuf_reset(why);
	strbuf_addf(&text, "%c%s\n%s\n", spec[0] == '%' ? '%' : '#', spec + (spec[0] == '%'), line);
	ret = probe_cache__parse(pc, text.buf, text.len, &bad, &reason);
	if (ret) {
		strbuf_addstr(why, reason);
	} else {
		ret = probe_verifier__check(&v, &pc->entries[0], &bad, why);
		if (ret)
			CHECK_INT(bad, ==, 2); /* the line's own number */
	}
	probe_verifier__clear(&v);
	probe_cache__close(pc);
	strbuf_release(&text);
	return ret;
}

/* The same with "probe_t:ev=" before a '#' SPEC: the event of line_at(). */
static int check(const char *spec, const char *line, struct strbuf *why)
{
	struct strbuf named = STRBUF_INIT;
	int ret;

	if (spec[0] != '%')
		strbuf_addstr(&named, "probe_t:ev=");
	strbuf_addstr(&named, spec);
	ret = check_entry(named.buf, line, why);
	strbuf_release(&named);
	return ret;
}

static void test_an_honest_line_checks_out(void)
{
	struct strbuf why = STRBUF_INIT;

	CHECK_INT(setup(), ==, 1);
	CHECK_INT(check("verify_fixture", line_at("p", NULL, fixture_off, ""), &why), ==, 0);
	CHECK_INT(check("verify_fixture+2", line_at("p", NULL, fixture_off + 2, ""), &why), ==, 0);
	CHECK_INT(check("verify_fixture%return",
			named_at("r", "probe_t", "ev__return", fixture_off), &why),
		  ==, 0);
	CHECK_INT(check("verify_fixture x=%di", line_at("p", NULL, fixture_off, " x=%di"), &why),
		  ==, 0);
	CHECK_INT(
		check("verify_fixture %di:u32", line_at("p", NULL, fixture_off, " %di:u32"), &why),
		==, 0);
	/* A variable gets its own name, member chains their last member. */
	CHECK_INT(check("verify_fixture r->len seq",
			line_at("p", NULL, fixture_off, " len=%di:s32 seq=%si:s32"), &why),
		  ==, 0);
	CHECK_INT(check("verify_fixture $params", line_at("p", NULL, fixture_off, " a=%di b=%si"),
			&why),
		  ==, 0);
	CHECK_INT(check("verify_f*", line_at("p", NULL, fixture_off, ""), &why), ==, 0);
	/* A source line: any function. */
	CHECK_INT(check("@verify.c:3", line_at("p", NULL, other_off, ""), &why), ==, 0);
	/* The same build elsewhere (a build host's path that is not here). */
	CHECK_INT(check("verify_fixture", line_at("p", "/nonexistent/build/prog", fixture_off, ""),
			&why),
		  ==, 0);
	strbuf_release(&why);
}

static void test_planted_lines_are_refused_with_a_reason(void)
{
	struct strbuf why = STRBUF_INIT;

	CHECK_INT(setup(), ==, 1);
	CHECK_INT(check("verify_fixture", line_at("p", NULL, other_off, ""), &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "is in verify_other, not in verify_fixture"));
	CHECK_INT(check("verify_fixture", line_at("p", NULL, fixture_off + 1, ""), &why), ==,
		  -EBADMSG);
	CHECK(strstr(why.buf, "is not an instruction start in verify_fixture"));
	CHECK_INT(check("verify_fixture", line_at("p", NULL, data_off, ""), &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "not in an executable segment"));
	CHECK_INT(check("verify_fixture", line_at("r", NULL, fixture_off, ""), &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "a return probe (r:) for a request without %return"));
	/* A %return request: p: only on a return instruction (Go's). */
	CHECK_INT(check("verify_fixture%return",
			named_at("p", "probe_t", "ev__return", fixture_off), &why),
		  ==, -EBADMSG);
	CHECK(strstr(why.buf, "not at a return of verify_fixture"));
	CHECK_INT(check("verify_fixture%return",
			named_at("p", "probe_t", "ev__return", fixture_off + 5), &why),
		  ==, 0);
	CHECK_INT(check("verify_fixture", line_at("p", NULL, fixture_off, "(0x10)"), &why), ==,
		  -EBADMSG);
	CHECK(strstr(why.buf, "ref_ctr_offset 0x10) on an entry that is not an SDT marker"));
	CHECK_INT(check("verify_fixture", line_at("p", NULL, fixture_off, " pw=+0(%di):string"),
			&why),
		  ==, -EBADMSG);
	CHECK(strstr(why.buf, "1 argument where the entry asks for 0"));
	CHECK_INT(check("verify_fixture x=%di", line_at("p", NULL, fixture_off, " y=%di"), &why),
		  ==, -EBADMSG);
	CHECK(strstr(why.buf, "argument 1 is named y where the entry asks for x"));
	CHECK_INT(
		check("verify_fixture", line_at("p", "/proc/self/cmdline", fixture_off, ""), &why),
		==, -EBADMSG);
	CHECK(strstr(why.buf, "the line names another file, /proc/self/cmdline"));
	CHECK_INT(check("nosuch verify_fixture", line_at("p", NULL, fixture_off, ""), &why), ==,
		  -EBADMSG);
	/* A marker this program does not have. */
	CHECK_INT(check("%sdt_x:y=y", line_at("p", NULL, fixture_off, ""), &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "has no SDT marker sdt_x:y=y"));
	/* A kernel line in a file's cache. */
	CHECK_INT(check("verify_fixture", "p:probe_t/ev verify_fixture+0", &why), ==, -EBADMSG);
	strbuf_release(&why);
}

static void test_the_line_defines_the_event_of_its_spec(void)
{
	/* This program's default group: up to the '-' of test-probe-verify. */
	const char *g = "probe_test";
	struct strbuf why = STRBUF_INIT;

	CHECK_INT(setup(), ==, 1);
	/* A given GROUP:EVENT, maybe made unique (perf probe -f: "_1"). */
	CHECK_INT(check_entry("g:h=verify_fixture", named_at("p", "g", "h", fixture_off), &why), ==,
		  0);
	CHECK_INT(check_entry("g:h=verify_fixture", named_at("p", "g", "h_12", fixture_off), &why),
		  ==, 0);
	CHECK_INT(check_entry("g:h=verify_fixture", named_at("p", "g2", "h", fixture_off), &why),
		  ==, -EBADMSG);
	CHECK_STR(why.buf, "the line defines g2:h, where the entry asks for g:h");
	CHECK_INT(check_entry("g:h=verify_fixture", named_at("p", "g", "h2", fixture_off), &why),
		  ==, -EBADMSG);
	CHECK_INT(check_entry("g:h=verify_fixture", named_at("p", "g", "h_", fixture_off), &why),
		  ==, -EBADMSG);
	CHECK_INT(check_entry("g:h=verify_fixture%return",
			      named_at("r", "g", "h__return", fixture_off), &why),
		  ==, 0);
	CHECK_INT(check_entry("g:h=verify_fixture%return", named_at("r", "g", "h", fixture_off),
			      &why),
		  ==, -EBADMSG);
	CHECK_STR(why.buf, "the line defines g:h, where the entry asks for g:h__return");
	/* No name given: the default group, the name perf derives. */
	CHECK_INT(check_entry("verify_fixture", named_at("p", g, "verify_fixture", fixture_off),
			      &why),
		  ==, 0);
	CHECK_INT(check_entry("verify_fixture",
			      named_at("p", "probe_x", "verify_fixture", fixture_off), &why),
		  ==, -EBADMSG);
	CHECK_STR(why.buf, "the line defines probe_x:verify_fixture, where the entry asks for "
			   "probe_test:verify_fixture");
	CHECK_INT(
		check_entry("verify_fixture", named_at("p", g, "verify_other", fixture_off), &why),
		==, -EBADMSG);
	CHECK_INT(check_entry("verify_fixture%return",
			      named_at("r", g, "verify_fixture__return_1", fixture_off), &why),
		  ==, 0);
	/* A glob: the function placed (or one the glob matches). */
	CHECK_INT(check_entry("verify_f*", named_at("p", g, "verify_fixture", fixture_off), &why),
		  ==, 0);
	CHECK_INT(check_entry("verify_f*", named_at("p", g, "verify_other", fixture_off), &why), ==,
		  -EBADMSG);
	CHECK_STR(
		why.buf,
		"the line defines probe_test:verify_other, where the entry asks for probe_test:verify_f*");
	/* A source line: named after a function only DWARF knows, any name. */
	CHECK_INT(check_entry("@verify.c:3", named_at("p", g, "inlined", fixture_off), &why), ==,
		  0);
	CHECK_INT(check_entry("@verify.c:3", named_at("p", "g", "inlined", fixture_off), &why), ==,
		  -EBADMSG);
	CHECK_STR(why.buf, "the line defines g:inlined, where the entry asks for probe_test:*");
	strbuf_release(&why);
}

/* The symbols of this program, for probe_verify__code_address(). */
static int own_symbols(void *ctx, struct symbol_elf **se)
{
	*se = ctx;
	return 0;
}

static void test_a_place_dwarf_gave_starts_an_instruction(void)
{
	struct probe_verify_source src = { .symbols = own_symbols };
	const struct elf_symbol **syms = NULL;
	struct strbuf why = STRBUF_INIT;
	struct symbol_elf *se;
	uint64_t fixture, data;

	CHECK_INT(setup(), ==, 1);
	CHECK_INT(symbol_elf__load(exe, &se), ==, 0);
	src.se = se, src.ctx = se;
	CHECK_INT(symbol_elf__find_name(se, "verify_fixture", &syms), ==, 1);
	fixture = syms[0]->addr;
	free(syms);
	CHECK_INT(symbol_elf__find_name(se, "verify_data", &syms), ==, 1);
	data = syms[0]->addr;
	free(syms);
	CHECK_INT(probe_verify__code_address(exe, &src, fixture, NULL, &why), ==, 0);
	CHECK_INT(probe_verify__code_address(exe, &src, fixture + 2, NULL, &why), ==, 0);
	CHECK_INT(probe_verify__code_address(exe, &src, fixture + 3, "f", &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "is not an instruction start in verify_fixture of "));
	strbuf_reset(&why);
	CHECK_INT(probe_verify__code_address(exe, &src, data, NULL, &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "is not in an executable segment of "));
	/* No symbol and no call frames hold it (the fixture has no CFI). */
	strbuf_reset(&why);
	src.symbols = NULL;
	CHECK_INT(probe_verify__code_address(exe, &src, fixture + 2, NULL, &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "(its call frames and symbols)"));
	symbol_elf__delete(se);
	strbuf_release(&why);
}

/*
 * Where the spec's kind puts its lines in the function: FUNC and a glob at
 * the entry (past a prologue only when an argument is read through
 * DWARF, and only straight from the entry), FUNC+OFF at the offset,
 * FUNC%return's r: at the entry; FUNC:LINE anywhere in it.
 */
static void test_each_kind_has_its_place_in_the_function(void)
{
	struct strbuf why = STRBUF_INIT;

	CHECK_INT(setup(), ==, 1);
	CHECK_INT(check("verify_jumpy", line_at("p", NULL, jumpy_off + 2, ""), &why), ==, -EBADMSG);
	CHECK(strstr(why.buf, "is not the entry of verify_jumpy"));
	CHECK_INT(check("verify_j*", line_at("p", NULL, jumpy_off + 2, ""), &why), ==, -EBADMSG);
	CHECK_INT(check("verify_jumpy %di", line_at("p", NULL, jumpy_off + 2, " %di"), &why), ==,
		  -EBADMSG);
	/* A variable: perf skips the prologue, code that runs on from the entry. */
	CHECK_INT(check("verify_jumpy seq", line_at("p", NULL, jumpy_off + 2, " seq=%si"), &why),
		  ==, 0);
	CHECK_INT(check("verify_jumpy seq", line_at("p", NULL, jumpy_off + 4, " seq=%si"), &why),
		  ==, 0);
	CHECK_INT(check("verify_jumpy seq", line_at("p", NULL, jumpy_off + 5, " seq=%si"), &why),
		  ==, -EBADMSG);
	CHECK(strstr(why.buf, "is not the entry of verify_jumpy nor past its prologue alone"));
	CHECK_INT(check("verify_jumpy+2", line_at("p", NULL, jumpy_off + 2, ""), &why), ==, 0);
	CHECK_INT(check("verify_jumpy+2", line_at("p", NULL, jumpy_off + 4, ""), &why), ==,
		  -EBADMSG);
	CHECK(strstr(why.buf, "is not verify_jumpy+2 but +4 in verify_jumpy"));
	CHECK_INT(check("verify_jumpy%return",
			named_at("r", "probe_t", "ev__return", jumpy_off + 2), &why),
		  ==, -EBADMSG);
	CHECK(strstr(why.buf, "a return probe (r:) at 0x"));
	CHECK(strstr(why.buf, ", not at the entry of verify_jumpy"));
	CHECK_INT(check("verify_jumpy:3", line_at("p", NULL, jumpy_off + 5, ""), &why), ==, 0);
	CHECK_INT(check("verify_jumpy;ret*", line_at("p", NULL, jumpy_off + 6, ""), &why), ==, 0);
	strbuf_release(&why);
}

static void test_kernel_lines_name_the_function_of_the_spec(void)
{
	struct probe_verifier v = { .uprobes = false };
	struct probe_cache *pc = probe_cache__new();
	struct strbuf why = STRBUF_INIT;
	const char *text = "#vfs_read\np:probe/vfs_read vfs_read+0\n"
			   "#vfs_r*\np:probe/vfs_read vfs_read+4\n"
			   "#vfs_read\np:probe/vfs_read vfs_write+0\n";
	const char *reason;
	int bad;

	CHECK_INT(probe_cache__parse(pc, text, strlen(text), &bad, &reason), ==, 0);
	CHECK_INT(probe_verifier__check(&v, &pc->entries[0], &bad, &why), ==, 0);
	CHECK_INT(probe_verifier__check(&v, &pc->entries[1], &bad, &why), ==, 0);
	CHECK_INT(probe_verifier__check(&v, &pc->entries[2], &bad, &why), ==, -EBADMSG);
	CHECK_INT(bad, ==, 6);
	CHECK_STR(why.buf, "the probe is on vfs_write, not on vfs_read");
	probe_verifier__clear(&v);
	probe_cache__close(pc);
	strbuf_release(&why);
}

static void test_the_description_names_the_placed_function(void)
{
	struct perf_probe_event pev = { 0 };
	struct probe_trace_event tev = { 0 };
	struct strbuf line = STRBUF_INIT;
	char *point, *args;

	CHECK_INT(setup(), ==, 1);
	CHECK_INT(parse_perf_probe_command("verify_fixture+2 x=%di", &pev), ==, 0);
	strbuf_addf(&line, "p:probe_t/ev %s:0x%lx x=%%di", exe, (unsigned long)other_off);
	CHECK_INT(parse_probe_trace_command(line.buf, &tev), ==, 0);
	tev.cached = true;
	probe_verify__describe(&tev, &pev, false, &point, &args);
	CHECK_STR(point, "verify_other");
	CHECK_STR(args, "x=%di");
	free(point);
	free(args);
	/* Other arguments than the spec's: the line's own. */
	clear_probe_trace_event(&tev);
	strbuf_reset(&line);
	strbuf_addf(&line, "p:probe_t/ev %s:0x%lx pw=+0(%%si):string", exe,
		    (unsigned long)fixture_off + 2);
	CHECK_INT(parse_probe_trace_command(line.buf, &tev), ==, 0);
	tev.cached = true;
	probe_verify__describe(&tev, &pev, false, &point, &args);
	CHECK_STR(point, "verify_fixture+2");
	CHECK_STR(args, "pw=+0(%si):string");
	free(point);
	free(args);
	/* FUNC alone, at FUNC+2: perf's text (a prologue skip) ... */
	clear_perf_probe_event(&pev);
	CHECK_INT(parse_perf_probe_command("verify_fixture", &pev), ==, 0);
	probe_verify__describe(&tev, &pev, false, &point, &args);
	CHECK_STR(point, "verify_fixture");
	free(point);
	free(args);
	/* ... but in another function (one the spec's was inlined in): where. */
	clear_perf_probe_event(&pev);
	CHECK_INT(parse_perf_probe_command("verify_other:3", &pev), ==, 0);
	probe_verify__describe(&tev, &pev, false, &point, &args);
	CHECK_STR(point, "verify_fixture+2");
	free(point);
	free(args);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse_perf_probe_command("verify_fixture+2 x=%di", &pev), ==, 0);
	/* Not cached: the request, as perf shows it. */
	tev.cached = false;
	probe_verify__describe(&tev, &pev, false, &point, &args);
	CHECK_STR(point, "verify_fixture+2");
	CHECK_STR(args, "x=%di");
	free(point);
	free(args);
	clear_probe_trace_event(&tev);
	clear_perf_probe_event(&pev);
	strbuf_release(&line);
}
#endif

static void test_unparsable_and_overflowing_lines_are_refused_when_read(void)
{
	static const char *const bad[] = {
		"p:g/e /bin/x:0xzz",
		"p:g/e /bin/x:0x10 a=+-8(%di)",
		"p:g/e /bin/x:0x10 a=--8(%di)",
		"p:g/e /bin/x:0x10 a=-9223372036854775808(%di)",
		"p:g/e /bin/x:0x10 a=+99999999999999999999(%di)",
		"p:g/e /bin/x:0x1ffffffffffffffff",
		"p:g/e /bin/x:0x10(0x-1)",
		"p:g/e /bin/x:0x10(0x1ffffffffffffffff)",
		"p:g/e sym+-1",
		"p:g/e sym+99999999999999999999",
		"p:g/e 0x1ffffffffffffffff",
	};
	struct probe_trace_event tev = { 0 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct probe_cache *pc = probe_cache__new();
		struct strbuf text = STRBUF_INIT;
		const char *why = NULL;
		int line = 0;

		CHECK_INT(parse_probe_trace_command(bad[i], &tev), ==, -EINVAL);
		strbuf_addf(&text, "#e\n%s\n", bad[i]);
		CHECK_INT(probe_cache__parse(pc, text.buf, text.len, &line, &why), ==, -EBADMSG);
		CHECK_INT(line, ==, 2);
		CHECK_STR(why, "a trace-event line that does not parse");
		probe_cache__close(pc);
		strbuf_release(&text);
	}
	/* The largest ones that fit still parse. */
	CHECK_INT(parse_probe_trace_command("p:g/e /bin/x:0x10 a=-9223372036854775807(%di)", &tev),
		  ==, 0);
	CHECK_INT(tev.args[0].ref->offset, ==, -9223372036854775807LL);
	clear_probe_trace_event(&tev);
	CHECK_INT(parse_probe_trace_command("p:g/e /bin/x:0xffffffffffffffff", &tev), ==, 0);
	clear_probe_trace_event(&tev);
}

TESTS(
#if defined(__x86_64__)
	TEST(test_an_honest_line_checks_out), TEST(test_planted_lines_are_refused_with_a_reason),
	TEST(test_the_line_defines_the_event_of_its_spec),
	TEST(test_a_place_dwarf_gave_starts_an_instruction),
	TEST(test_each_kind_has_its_place_in_the_function),
	TEST(test_kernel_lines_name_the_function_of_the_spec),
	TEST(test_the_description_names_the_placed_function),
#endif
	TEST(test_unparsable_and_overflowing_lines_are_refused_when_read));
