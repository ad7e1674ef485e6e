// SPDX-License-Identifier: GPL-2.0
/*
 * The spec grammar: what parse_perf_probe_command() accepts and rejects,
 * the text it synthesizes back, and the k/uprobe_events line format.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/arch-regs.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "unit-test.h"

/* ---- helpers ----------------------------------------------------------- */

static FILE *captured;
static int saved_stderr = -1;

/* Send stderr to a temporary file until capture_end(). */
static void capture_begin(void)
{
	fflush(stderr);
	captured = tmpfile();
	saved_stderr = dup(2);
	dup2(fileno(captured), 2);
}

/* Restore stderr and return what was written to it (the caller frees). */
static char *capture_end(void)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[256];
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(captured);
	while ((n = fread(buf, 1, sizeof(buf), captured)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(captured);
	return strbuf_detach(&sb, NULL);
}

static const char *str_or_null(const char *s)
{
	return s ? s : "(null)";
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Field-by-field equality of two parsed perf probe events. */
static bool same_perf_probe_event(const struct perf_probe_event *a,
				  const struct perf_probe_event *b)
{
	if (!same_str(a->event, b->event) || !same_str(a->group, b->group) || a->sdt != b->sdt ||
	    a->nargs != b->nargs)
		return false;
	if (!same_str(a->point.file, b->point.file) ||
	    !same_str(a->point.function, b->point.function) ||
	    !same_str(a->point.lazy_line, b->point.lazy_line) || a->point.line != b->point.line ||
	    a->point.offset != b->point.offset || a->point.retprobe != b->point.retprobe ||
	    a->point.abs_address != b->point.abs_address)
		return false;
	for (int i = 0; i < a->nargs; i++) {
		const struct perf_probe_arg *x = &a->args[i], *y = &b->args[i];
		const struct perf_probe_arg_field *f = x->field, *g = y->field;

		if (!same_str(x->name, y->name) || !same_str(x->var, y->var) ||
		    !same_str(x->type, y->type) || x->user_access != y->user_access)
			return false;
		for (; f && g; f = f->next, g = g->next)
			if (!same_str(f->name, g->name) || f->ref != g->ref || f->index != g->index)
				return false;
		if (f || g)
			return false;
	}
	return true;
}

/* ---- accepted probe definitions ------------------------------------------ */

struct spec_case {
	const char *spec;
	const char *group, *event, *function, *file, *lazy;
	int line;
	unsigned long offset;
	bool retprobe;
	unsigned long long abs;
	bool sdt;
	int nargs;
	const char *synth; /* the synthesized text, NULL: the spec itself */
};

static const struct spec_case good_specs[] = {
	{ .spec = "main", .function = "main" },
	{ .spec = "f+4", .function = "f", .offset = 4 },
	{ .spec = "f+0x10", .function = "f", .offset = 16, .synth = "f+16" },
	{ .spec = "f%return", .function = "f", .retprobe = true },
	{ .spec = "f:3", .function = "f", .line = 3 },
	{ .spec = "f:0", .function = "f", .synth = "f" },
	/* an empty line number is none, as in perf: scripts build FUNC:$line */
	{ .spec = "f:", .function = "f", .synth = "f" },
	{ .spec = "f@a.c:", .function = "f", .file = "a.c", .synth = "f@a.c" },
	{ .spec = "f:%return", .function = "f", .retprobe = true, .synth = "f%return" },
	{ .spec = "f@a.c", .function = "f", .file = "a.c" },
	{ .spec = "f@/tmp/sp/a.c", .function = "f", .file = "/tmp/sp/a.c" },
	{ .spec = "f@a.c:2", .function = "f", .file = "a.c", .line = 2, .synth = "f:2@a.c" },
	{ .spec = "f:2@a.c", .function = "f", .file = "a.c", .line = 2 },
	{ .spec = "f@a.c+4", .function = "f", .file = "a.c", .offset = 4, .synth = "f+4@a.c" },
	{ .spec = "f@a.c%return",
	  .function = "f",
	  .file = "a.c",
	  .retprobe = true,
	  .synth = "f%return@a.c" },
	{ .spec = "f@a.c;r+=", .function = "f", .file = "a.c", .lazy = "r+=" },
	{ .spec = "f;r", .function = "f", .lazy = "r" },
	{ .spec = "f;p%return", .function = "f", .lazy = "p%return" },
	{ .spec = "f;x:3", .function = "f", .lazy = "x:3" },
	{ .spec = "f;a=b", .function = "f", .lazy = "a=b" },
	{ .spec = "a.c:4", .file = "a.c", .line = 4 },
	{ .spec = "src/a.c:4", .file = "src/a.c", .line = 4 },
	{ .spec = "a.c;r+=", .file = "a.c", .lazy = "r+=" },
	{ .spec = "a.c;*", .file = "a.c", .lazy = "*" },
	{ .spec = "f.isra.0", .function = "f.isra.0" },
	{ .spec = "f.isra.0+8", .function = "f.isra.0", .offset = 8 },
	{ .spec = "Py*", .function = "Py*" },
	{ .spec = "vfs_rea?", .function = "vfs_rea?" },
	{ .spec = "0x1139", .abs = 0x1139 },
	{ .spec = "0xABC", .abs = 0xabc, .synth = "0xabc" },
	{ .spec = "0x1139%return", .abs = 0x1139, .retprobe = true },
	{ .spec = "ev=0x1139", .event = "ev", .abs = 0x1139 },
	{ .spec = "ev=f", .event = "ev", .function = "f" },
	{ .spec = "grp:ev=f", .group = "grp", .event = "ev", .function = "f" },
	{ .spec = "p:ev=f", .group = "p", .event = "ev", .function = "f" },
	{ .spec = "_g1:e_2=f:3", .group = "_g1", .event = "e_2", .function = "f", .line = 3 },
	{ .spec = "grp:ev=a.c:10", .group = "grp", .event = "ev", .file = "a.c", .line = 10 },
	{ .spec = "%sdt_libc:setjmp", .group = "sdt_libc", .event = "setjmp", .sdt = true },
	{ .spec = "%cached", .event = "cached", .sdt = true },
	{ .spec = "%sdt_libc:*", .group = "sdt_libc", .event = "*", .sdt = true },
	{ .spec = "sdt_libc:setjmp",
	  .group = "sdt_libc",
	  .event = "setjmp",
	  .sdt = true,
	  .synth = "%sdt_libc:setjmp" },
	{ .spec = "f x y z", .function = "f", .nargs = 3 },
	{ .spec = "  f\t x  ", .function = "f", .nargs = 1, .synth = "f x" },
	{ .spec = "f%return $retval", .function = "f", .retprobe = true, .nargs = 1 },
};

static void test_accepts_probe_definitions(void)
{
	for (size_t i = 0; i < sizeof(good_specs) / sizeof(good_specs[0]); i++) {
		const struct spec_case *c = &good_specs[i];
		struct perf_probe_event pev = { 0 };
		char *s;
		int ret;

		capture_begin();
		ret = parse_perf_probe_command(c->spec, &pev);
		free(capture_end());
		CHECK_INT(ret, ==, 0);
		if (ret) {
			printf("#   spec: '%s'\n", c->spec);
			continue;
		}
		s = synthesize_perf_probe_command(&pev);
		CHECK_STR(s, c->synth ? c->synth : c->spec);
		free(s);
		CHECK(same_str(pev.group, c->group));
		CHECK(same_str(pev.event, c->event));
		CHECK(same_str(pev.point.function, c->function));
		CHECK(same_str(pev.point.file, c->file));
		CHECK(same_str(pev.point.lazy_line, c->lazy));
		CHECK_INT(pev.point.line, ==, c->line);
		CHECK_INT(pev.point.offset, ==, c->offset);
		CHECK_INT(pev.point.retprobe, ==, c->retprobe);
		CHECK_INT(pev.point.abs_address, ==, c->abs);
		CHECK_INT(pev.sdt, ==, c->sdt);
		CHECK_INT(pev.nargs, ==, c->nargs);
		if (!same_str(pev.event, c->event) || !same_str(pev.point.function, c->function))
			printf("#   spec: '%s' event %s function %s\n", c->spec,
			       str_or_null(pev.event), str_or_null(pev.point.function));
		clear_perf_probe_event(&pev);
	}
}

static void test_group_p_is_a_group_not_a_probe_type(void)
{
	struct perf_probe_event pev = { 0 };

	CHECK_INT(parse_perf_probe_command("p:ev=f", &pev), ==, 0);
	CHECK_STR(pev.group, "p");
	CHECK_STR(pev.event, "ev");
	clear_perf_probe_event(&pev);
}

static void test_same_argument_name_twice_is_left_to_the_resolver(void)
{
	struct perf_probe_event pev = { 0 };

	capture_begin();
	CHECK_INT(parse_perf_probe_command("f a=1 a=2", &pev), <, 0);
	free(capture_end());
	CHECK_INT(parse_perf_probe_command("f a=\\1 a=\\2", &pev), ==, 0);
	CHECK_INT(pev.nargs, ==, 2);
	CHECK_STR(pev.args[0].name, "a");
	CHECK_STR(pev.args[1].var, "\\2");
	clear_perf_probe_event(&pev);
}

/* ---- arguments ---------------------------------------------------------- */

struct arg_case {
	const char *arg;
	const char *name, *var, *type, *fields;
	bool user;
	const char *synth;
};

static const struct arg_case good_args[] = {
	{ .arg = "v", .var = "v", .fields = "" },
	{ .arg = "x=v", .name = "x", .var = "v", .fields = "" },
	{ .arg = "p->x", .var = "p", .fields = "->x" },
	{ .arg = "p->n->arr[2]", .var = "p", .fields = "->n->arr[2]" },
	{ .arg = "s.a.b", .var = "s", .fields = ".a.b" },
	{ .arg = "x[1].y->z", .var = "x", .fields = "[1].y->z" },
	{ .arg = "len=req->len:u32",
	  .name = "len",
	  .var = "req",
	  .type = "u32",
	  .fields = "->len" },
	{ .arg = "r:s8", .var = "r", .type = "s8" },
	{ .arg = "r:s16", .var = "r", .type = "s16" },
	{ .arg = "r:s32", .var = "r", .type = "s32" },
	{ .arg = "r:s64", .var = "r", .type = "s64" },
	{ .arg = "r:u8", .var = "r", .type = "u8" },
	{ .arg = "r:u64", .var = "r", .type = "u64" },
	{ .arg = "r:x8", .var = "r", .type = "x8" },
	{ .arg = "r:x16", .var = "r", .type = "x16" },
	{ .arg = "r:x32", .var = "r", .type = "x32" },
	{ .arg = "r:x64", .var = "r", .type = "x64" },
	{ .arg = "r:string", .var = "r", .type = "string" },
	{ .arg = "r:ustring", .var = "r", .type = "ustring" },
	{ .arg = "r:char", .var = "r", .type = "char" },
	{ .arg = "r:symbol", .var = "r", .type = "symbol" },
	{ .arg = "file:%pD", .var = "file", .type = "%pD" },
	{ .arg = "d:%pd", .var = "d", .type = "%pd" },
	{ .arg = "r:b4@3/32", .var = "r", .type = "b4@3/32" },
	{ .arg = "r:b1@0/8", .var = "r", .type = "b1@0/8" },
	{ .arg = "r:b64@0/64", .var = "r", .type = "b64@0/64" },
	{ .arg = "r:s32[2]", .var = "r", .type = "s32[2]" },
	{ .arg = "r:string[3]", .var = "r", .type = "string[3]" },
	{ .arg = "x->y:u32[64]", .var = "x", .type = "u32[64]", .fields = "->y" },
	{ .arg = "$retval", .var = "$retval" },
	{ .arg = "$retval:u32", .var = "$retval", .type = "u32" },
	{ .arg = "$params", .var = "$params" },
	{ .arg = "$vars", .var = "$vars" },
	{ .arg = "x=$comm:string", .name = "x", .var = "$comm", .type = "string" },
	{ .arg = "$arg1", .var = "$arg1" },
	{ .arg = "$arg12", .var = "$arg12" },
	{ .arg = "$stack", .var = "$stack" },
	{ .arg = "$stack3", .var = "$stack3" },
	{ .arg = "%di", .var = "%di" },
	{ .arg = "x=%ax:u32", .name = "x", .var = "%ax", .type = "u32" },
	{ .arg = "%r15", .var = "%r15" },
	{ .arg = "%ip", .var = "%ip" },
	{ .arg = "%sp", .var = "%sp" },
	{ .arg = "%flags", .var = "%flags" },
	{ .arg = "@g", .var = "@g" },
	{ .arg = "@+0x10", .var = "@+0x10" },
	{ .arg = "@sym+8:u64", .var = "@sym+8", .type = "u64" },
	{ .arg = "+0(%di)", .var = "+0(%di)" },
	{ .arg = "-8(%sp)", .var = "-8(%sp)" },
	{ .arg = "+8(+0(%di)):u32", .var = "+8(+0(%di))", .type = "u32" },
	{ .arg = "+0(%di):string", .var = "+0(%di)", .type = "string" },
	{ .arg = "+u0(%di)", .var = "+u0(%di)" },
	{ .arg = "+0x10(@g)", .var = "+0x10(@g)" },
	{ .arg = "+0($stack)", .var = "+0($stack)" },
	{ .arg = "+0(%di)@user", .var = "+0(%di)", .fields = "", .user = true },
	{ .arg = "+0(%di):u64@user", .var = "+0(%di)", .type = "u64", .fields = "", .user = true },
	{ .arg = "v@user", .var = "v", .fields = "", .user = true },
	{ .arg = "v:u32@user", .var = "v", .type = "u32", .fields = "", .user = true },
	{ .arg = "v@user:u32",
	  .var = "v",
	  .type = "u32",
	  .fields = "",
	  .user = true,
	  .synth = "v:u32@user" },
	{ .arg = "name=p->s:string@user",
	  .name = "name",
	  .var = "p",
	  .type = "string",
	  .fields = "->s",
	  .user = true },
	{ .arg = "\"str\"", .var = "\"str\"" },
	{ .arg = "s=\"a=b:c\":string", .name = "s", .var = "\"a=b:c\"", .type = "string" },
	{ .arg = "\\1", .var = "\\1" },
	{ .arg = "\\\"abc\":string", .var = "\\\"abc\"", .type = "string" },
	{ .arg = "v2=\\0x10:x64", .name = "v2", .var = "\\0x10", .type = "x64" },
};

static void field_chain_text(struct strbuf *sb, const struct perf_probe_arg *pa)
{
	for (const struct perf_probe_arg_field *f = pa->field; f; f = f->next) {
		if (f->name[0] == '[')
			strbuf_addstr(sb, f->name);
		else
			strbuf_addf(sb, "%s%s", f->ref ? "->" : ".", f->name);
	}
}

static void test_accepts_arguments(void)
{
	for (size_t i = 0; i < sizeof(good_args) / sizeof(good_args[0]); i++) {
		const struct arg_case *c = &good_args[i];
		struct perf_probe_arg pa = { 0 };
		struct strbuf chain = STRBUF_INIT;
		char *s;
		int ret = parse_perf_probe_arg(c->arg, &pa);

		CHECK_INT(ret, ==, 0);
		if (ret) {
			printf("#   arg: '%s'\n", c->arg);
			clear_perf_probe_arg(&pa);
			continue;
		}
		CHECK(same_str(pa.name, c->name));
		CHECK_STR(pa.var, c->var);
		CHECK(same_str(pa.type, c->type));
		CHECK_INT(pa.user_access, ==, c->user);
		field_chain_text(&chain, &pa);
		CHECK_STR(chain.buf, c->fields ? c->fields : "");
		s = synthesize_perf_probe_arg(&pa);
		CHECK_STR(s, c->synth ? c->synth : c->arg);
		free(s);
		strbuf_release(&chain);
		clear_perf_probe_arg(&pa);
	}
}

static void test_array_index_field_has_its_number(void)
{
	struct perf_probe_arg pa = { 0 };

	CHECK_INT(parse_perf_probe_arg("a[12]->b", &pa), ==, 0);
	CHECK_STR(pa.field->name, "[12]");
	CHECK_INT(pa.field->index, ==, 12);
	CHECK(!pa.field->ref);
	CHECK_STR(pa.field->next->name, "b");
	CHECK(pa.field->next->ref);
	CHECK(!pa.field->next->next);
	clear_perf_probe_arg(&pa);
}

/* ---- rejected probe definitions -------------------------------------------- */

struct bad_case {
	const char *spec;
	const char *fragment; /* the first message line names this */
};

static char long_spec[5001];
static char long_event[80];
static char many_args[1024];

static const struct bad_case bad_specs[] = {
	{ "", "Empty probe definition" },
	{ "   ", "Empty probe definition" },
	{ "=x", "'' is bad for event name" },
	{ "1ev=f", "'1ev' is bad for event name" },
	{ "ev-1=f", "'ev-1' is bad for event name" },
	{ "g1:g2:ev=f", "'g2:ev' is bad for event name" },
	{ "grp:=f", "'' is bad for event name" },
	{ ":ev=f", "'' is bad for group name" },
	{ "g-x:ev=f", "'g-x' is bad for group name" },
	{ long_event, "is too long for an event name" },
	{ "ev=", "No probe point after '=' in 'ev='" },
	{ "a b=c=d", "'=d'" },
	{ "f%retur", "'%retur' is not a valid probe point suffix in 'f%retur'" },
	{ "f%", "'%' is not a valid probe point suffix in 'f%'" },
	{ "f%returnx", "'%returnx' is not a valid probe point suffix" },
	{ "f%return%return", "'%return' given twice" },
	{ "f@", "'@' needs a source file name in 'f@'" },
	{ "f@a.c@b.c", "SRC@SRC is not allowed: '@b.c' in 'f@a.c@b.c'" },
	{ ":", "':' needs a line number in ':'" },
	{ "a.c:", "File always requires line number or lazy pattern: 'a.c:'" },
	{ "f+", "'+' needs an offset in 'f+'" },
	{ "f;", "';' needs a lazy pattern in 'f;'" },
	{ "+0x", "There is non-digit character in offset '+0x' in '+0x'" },
	{ "+4", "No function or source file name in '+4'" },
	{ "f+abc", "There is non-digit character in offset '+abc'" },
	{ "f+-4", "Offset '+-4' is negative in 'f+-4'" },
	{ "f:abc", "There is non-digit char in line number ':abc'" },
	{ "f:3:4", "Line number given twice: ':4'" },
	{ "f+4+4", "Offset given twice: '+4'" },
	{ "f:3+4", "Offset can't be used with line number in 'f:3+4'" },
	{ "f+4:3", "Offset can't be used with line number in 'f+4:3'" },
	{ "f%return:3",
	  "Offset/Line/Lazy pattern can't be used with return probe in 'f%return:3'" },
	{ "f+4%return", "can't be used with return probe in 'f+4%return'" },
	{ "f%return+4", "can't be used with return probe in 'f%return+4'" },
	{ "f%return;x", "can't be used with return probe in 'f%return;x'" },
	{ "a.c:4%return", "can't be used with return probe in 'a.c:4%return'" },
	{ "f+4;x", "Lazy pattern can't be used with offset in 'f+4;x'" },
	{ "f:3;x", "Lazy pattern can't be used with line number in 'f:3;x'" },
	{ "a.c:0", "File always requires line number or lazy pattern: 'a.c:0'" },
	{ "f-x", "'f-x' is not a valid function name in 'f-x'" },
	{ "0x", "Invalid absolute address '0x'" },
	{ "0xzz", "Invalid absolute address '0xzz'" },
	{ "0x1139+4", "Invalid absolute address '0x1139+4'" },
	{ "%", "'' is bad for event name in '%'" },
	{ "%a-b", "'a-b' is bad for event name" },
	{ "%g-x:e", "'g-x' is bad for group name" },
	{ "%sdt_libc:setjmp x", "takes no arguments: 'x'" },
	{ "f %zz", "'%zz' is not a register of x86_64 in '%zz'" },
	{ "f %eax", "'%eax' is not a register of x86_64" },
	{ "f %al", "'%al' is not a register of x86_64" },
	{ "f %", "'%' is not a register" },
	{ "f +0(%zz)", "'%zz' is not a register of x86_64 in '+0(%zz)'" },
	{ "f r:s7", "'s7' is not a valid type in 'r:s7'" },
	{ "f r:b40@3/32", "'b40@3/32' is not a valid type in 'r:b40@3/32'" },
	{ "f r:b4@3", "'b4@3' is not a valid type" },
	{ "f r:b0@0/32", "'b0@0/32' is not a valid type" },
	{ "f r:b4@3/24", "'b4@3/24' is not a valid type" },
	{ "f r:u", "'u' is not a valid type" },
	{ "f r:y", "'y' is not a valid type" },
	{ "f r:%px", "'%px' is not a valid type" },
	{ "f r:", "'' is not a valid type in 'r:'" },
	{ "f r:u32[0]", "'u32[0]' is not a valid type" },
	{ "f r:u32[65]", "'u32[65]' is not a valid type" },
	{ "f r:u32[", "'u32[' is not a valid type" },
	{ "f r:b4@3/32[2]", "'b4@3/32[2]' is not a valid type" },
	{ "f x=", "No variable or value in 'x='" },
	{ "f =x", "'' is bad for argument name in '=x'" },
	{ "f 1a=x", "'1a' is bad for argument name in '1a=x'" },
	{ "f x[", "Array index must be a number: '[' in 'x['" },
	{ "f x[a]", "Array index must be a number: '[a]' in 'x[a]'" },
	{ "f x->", "'->' needs a member name in 'x->'" },
	{ "f x.", "'.' needs a member name in 'x.'" },
	{ "f x->1", "'->' needs a member name in 'x->1'" },
	{ "f x@usr", "'@usr' is not a valid member access in 'x@usr'" },
	{ "f $retvalx", "'$retvalx' is not a special variable" },
	{ "f $arg0", "'$arg0' is not a special variable" },
	{ "f $", "'$' is not a special variable" },
	{ "f 1x", "'1x' is not a variable, register or fetcharg in '1x'" },
	{ "f +0(%di", "'+0(%di' is not a variable, register or fetcharg" },
	{ "f +x(%di)", "'+x(%di)' is not a variable, register or fetcharg" },
	{ "f +0()", "'' is not a variable, register or fetcharg in '+0()'" },
	{ "f @", "'@' is not a variable, register or fetcharg" },
	{ "f \\", "'\\' is not a variable, register or fetcharg" },
	{ "f \"abc", "'\"abc' is not a variable, register or fetcharg" },
	{ long_spec, "Probe definition is too long (5000 characters, at most 4096)" },
	{ many_args, "Too many probe arguments (129 > 128)" },
};

static void setup_long_specs(void)
{
	struct strbuf sb = STRBUF_INIT;

	memset(long_spec, 'f', 5000);
	memset(long_event, 'e', 65);
	strcpy(long_event + 65, "=f");
	strbuf_addch(&sb, 'f');
	for (int i = 0; i < MAX_PROBE_ARGS + 1; i++)
		strbuf_addstr(&sb, " x");
	strcpy(many_args, sb.buf);
	strbuf_release(&sb);
}

static void test_rejects_bad_definitions_with_one_clear_line(void)
{
	setup_long_specs();
	for (size_t i = 0; i < sizeof(bad_specs) / sizeof(bad_specs[0]); i++) {
		const struct bad_case *c = &bad_specs[i];
		struct perf_probe_event pev = { 0 };
		char *err, *nl;
		int ret;

		capture_begin();
		ret = parse_perf_probe_command(c->spec, &pev);
		err = capture_end();
		CHECK_INT(ret, <, 0);
		nl = strchr(err, '\n');
		/* One line, ending in a newline, with perf's prefix and the point. */
		CHECK(nl && !nl[1]);
		CHECK(!strncmp(err, "Semantic error :", 16));
		if (nl)
			*nl = '\0';
		if (ret >= 0 || !strstr(err, c->fragment))
			printf("#   spec '%.40s': got \"%s\", want \"%s\"\n", c->spec, err,
			       c->fragment);
		CHECK(strstr(err, c->fragment) != NULL);
		CHECK(!pev.event && !pev.point.function && !pev.args && !pev.nargs);
		free(err);
		clear_perf_probe_event(&pev);
	}
}

/*
 * -a and -D as perf 6.1 parses them: a point its option parser refuses is
 * a usage error now (-EINVAL); a point it lets through and fails to find
 * later, and any argument word, are held in bad_arg and told only when
 * the event is resolved, with the status perf then has (-ENOENT, 254, or
 * the argument's own -EINVAL, 234).
 */
static void test_late_parse_holds_what_perf_finds_later(void)
{
	static const struct {
		const char *spec;
		int ret;    /* of parse_perf_probe_command_late() */
		bool point; /* held as a bad point */
		int err;    /* the held -errno, 0: nothing held */
		bool dwarf; /* the held argument names a variable */
		int nargs;
	} cases[] = {
		{ "", -EINVAL, false, 0, false, 0 },
		{ "=f", -EINVAL, false, 0, false, 0 },
		{ "f%x", -EINVAL, false, 0, false, 0 },
		{ "f:abc", -EINVAL, false, 0, false, 0 },
		{ "@", -EINVAL, false, 0, false, 0 },
		{ "a.c:", -EINVAL, false, 0, false, 0 },
		{ "f:1+4", -EINVAL, false, 0, false, 0 },
		{ "h@a@b", -EINVAL, false, 0, false, 0 },
		{ "0xzz", -EINVAL, false, 0, false, 0 },
		{ "f@", 0, true, -ENOENT, false, 0 },
		{ "a.c@", 0, true, -ENOENT, false, 0 },
		{ "f+", 0, true, -ENOENT, false, 0 },
		{ "f;", 0, true, -ENOENT, false, 0 },
		{ "f:1:2", 0, true, -ENOENT, false, 0 },
		{ "f+1+2", 0, true, -ENOENT, false, 0 },
		{ "f+-1", 0, true, -ENOENT, false, 0 },
		{ "f:-1", 0, true, -ENOENT, false, 0 },
		{ "han-dle", 0, true, -ENOENT, false, 0 },
		{ "f\\", 0, true, -ENOENT, false, 0 },
		{ "ev=", 0, true, -ENOENT, false, 0 },
		{ "f%return%return", 0, true, -ENOENT, false, 0 },
		{ "f r->", 0, false, -EINVAL, true, 0 },
		{ "f b=c=d", 0, false, -ENOENT, true, 0 },
		{ "f +", 0, false, -EINVAL, false, 0 },
		{ "f $foo", 0, false, -EINVAL, false, 0 },
		{ "f %di r-> x", 0, false, -EINVAL, true, 0 },
		{ "f %di x", 0, false, 0, false, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_probe_event pev = { 0 };
		char *out;
		int ret;

		capture_begin();
		ret = parse_perf_probe_command_late(cases[i].spec, &pev);
		out = capture_end();
		if (ret != cases[i].ret || pev.bad_point != cases[i].point ||
		    pev.bad_arg_err != cases[i].err)
			printf("#   spec '%s': ret %d point %d err %d\n", cases[i].spec, ret,
			       pev.bad_point, pev.bad_arg_err);
		CHECK_INT(ret, ==, cases[i].ret);
		CHECK_INT(pev.bad_point, ==, cases[i].point);
		CHECK_INT(pev.bad_arg_err, ==, cases[i].err);
		CHECK_INT(pev.bad_arg_dwarf, ==, cases[i].dwarf);
		CHECK_INT(pev.nargs, ==, cases[i].nargs);
		/* Held: nothing printed yet, the message kept; refused: one line now. */
		if (cases[i].err)
			CHECK(!*out && pev.bad_arg &&
			      !strncmp(pev.bad_arg, "Semantic error :", 16));
		else if (ret)
			CHECK(!strncmp(out, "Semantic error :", 16));
		else
			CHECK(!*out && !pev.bad_arg);
		/* A bad point keeps no point; a bad argument keeps its point. */
		if (cases[i].point)
			CHECK(!pev.point.function && !pev.point.file);
		else if (!ret)
			CHECK_STR(pev.point.function, "f");
		free(out);
		clear_perf_probe_event(&pev);
	}
}

static void test_limits_are_inclusive(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct perf_probe_event pev = { 0 };

	for (int i = 0; i < MAX_EVENT_NAME_LEN; i++)
		strbuf_addch(&sb, 'e');
	strbuf_addstr(&sb, "=f");
	for (int i = 0; i < MAX_PROBE_ARGS; i++)
		strbuf_addstr(&sb, " x");
	CHECK_INT(parse_perf_probe_command(sb.buf, &pev), ==, 0);
	CHECK_INT(pev.nargs, ==, MAX_PROBE_ARGS);
	CHECK_INT(strlen(pev.event), ==, MAX_EVENT_NAME_LEN);
	clear_perf_probe_event(&pev);

	strbuf_reset(&sb);
	strbuf_addch(&sb, 'f');
	while (sb.len < PROBE_SPEC_MAX_LEN)
		strbuf_addch(&sb, sb.len % 2 ? ' ' : 'x');
	CHECK_INT(sb.len, ==, PROBE_SPEC_MAX_LEN);
	/* 2048 args: too many, but not too long */
	capture_begin();
	CHECK_INT(parse_perf_probe_command(sb.buf, &pev), <, 0);
	free(capture_end());
	strbuf_release(&sb);
}

static void test_failed_parse_keeps_target(void)
{
	struct perf_probe_event pev = { 0 };

	pev.target = strdup("/bin/true");
	pev.uprobes = true;
	capture_begin();
	CHECK_INT(parse_perf_probe_command("f%retur", &pev), <, 0);
	free(capture_end());
	CHECK_STR(pev.target, "/bin/true");
	CHECK(pev.uprobes);
	clear_perf_probe_event(&pev);
	CHECK(!pev.target);
}

/* ---- round trips ------------------------------------------------------------ */

static const char *const round_trips[] = {
	"main",
	"grp:ev=f:12 req->len name=conn->peer:string",
	"f@a.c:2 x=p->n->arr[2]:s32 +8(+0(%di)):u32@user",
	"ev=f%return $retval:s64",
	"a.c;r+= x",
	"f;p%return",
	"0x1139%return arg=%ax:x64",
	"f $params $vars $comm $arg3",
	"%sdt_libc:setjmp",
	"f v@user:u32 w:b4@3/32 a:u8[16] \"lit\" \\7",
	"f@/usr/src/x.c+12 @g @+0x10:u64",
};

static void test_synthesized_text_parses_back_the_same(void)
{
	for (size_t i = 0; i < sizeof(round_trips) / sizeof(round_trips[0]); i++) {
		struct perf_probe_event a = { 0 }, b = { 0 };
		char *s, *t;

		CHECK_INT(parse_perf_probe_command(round_trips[i], &a), ==, 0);
		s = synthesize_perf_probe_command(&a);
		CHECK_INT(parse_perf_probe_command(s, &b), ==, 0);
		CHECK(same_perf_probe_event(&a, &b));
		t = synthesize_perf_probe_command(&b);
		CHECK_STR(s, t);
		free(s);
		free(t);
		clear_perf_probe_event(&a);
		clear_perf_probe_event(&b);
	}
	for (size_t i = 0; i < sizeof(good_specs) / sizeof(good_specs[0]); i++) {
		struct perf_probe_event a = { 0 }, b = { 0 };
		char *s;

		if (parse_perf_probe_command(good_specs[i].spec, &a) < 0)
			continue;
		s = synthesize_perf_probe_command(&a);
		CHECK_INT(parse_perf_probe_command(s, &b), ==, 0);
		CHECK(same_perf_probe_event(&a, &b));
		free(s);
		clear_perf_probe_event(&a);
		clear_perf_probe_event(&b);
	}
}

static void test_point_synthesis_is_what_perf_lists(void)
{
	struct perf_probe_point pp = { 0 };
	char *s;

	pp.function = "main";
	pp.file = "/tmp/a.c";
	s = synthesize_perf_probe_point(&pp);
	CHECK_STR(s, "main@/tmp/a.c");
	free(s);
	pp.file = NULL;
	pp.offset = 4;
	s = synthesize_perf_probe_point(&pp);
	CHECK_STR(s, "main+4");
	free(s);
	pp.offset = 0;
	pp.retprobe = true;
	s = synthesize_perf_probe_point(&pp);
	CHECK_STR(s, "main%return");
	free(s);
}

/* ---- dwarf need ------------------------------------------------------------- */

static void test_need_dwarf(void)
{
	static const struct {
		const char *spec;
		bool need;
	} cases[] = {
		{ "f", false },
		{ "f+4", false },
		{ "f%return $retval", false },
		{ "0x1139 %di +0(%di):string @g $comm $arg1 \\1 \"s\"", false },
		{ "%sdt_libc:setjmp", false },
		{ "f:3", true },
		{ "f@a.c", true },
		{ "a.c:4", true },
		{ "f;x", true },
		{ "f v", true },
		{ "f $params", true },
		{ "f $vars", true },
		{ "f name=%di", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_probe_event pev = { 0 };

		CHECK_INT(parse_perf_probe_command(cases[i].spec, &pev), ==, 0);
		if (perf_probe_event_need_dwarf(&pev) != cases[i].need)
			printf("#   need_dwarf('%s') != %d\n", cases[i].spec, cases[i].need);
		CHECK_INT(perf_probe_event_need_dwarf(&pev), ==, cases[i].need);
		clear_perf_probe_event(&pev);
	}
}

static void test_c_func_names(void)
{
	char name[MAX_EVENT_NAME_LEN + 2];

	CHECK(is_c_func_name("main"));
	CHECK(is_c_func_name("_x9"));
	CHECK(!is_c_func_name(""));
	CHECK(!is_c_func_name(NULL));
	CHECK(!is_c_func_name("9x"));
	CHECK(!is_c_func_name("a-b"));
	CHECK(!is_c_func_name("a.b"));
	memset(name, 'a', MAX_EVENT_NAME_LEN);
	name[MAX_EVENT_NAME_LEN] = '\0';
	CHECK(is_c_func_name(name));
	strcat(name, "a");
	CHECK(!is_c_func_name(name));
}

static void test_arch_registers(void)
{
	static const char *const ok[] = { "ax",	 "bx",	"cx", "dx",    "si",  "di",  "bp",
					  "sp",	 "r8",	"r9", "r10",   "r11", "r12", "r13",
					  "r14", "r15", "ip", "flags", "cs",  "ss",  "orig_ax" };
	static const char *const bad[] = { "eax", "al", "rax", "r16", "ds", "fs", "", "zz" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK(arch_regs__is_valid("x86_64", ok[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!arch_regs__is_valid("x86_64", bad[i]));
	CHECK(arch_regs__is_valid("aarch64", "x0"));
	CHECK(arch_regs__is_valid("aarch64", "pc"));
	CHECK(!arch_regs__is_valid("aarch64", "di"));
	CHECK(arch_regs__is_valid("i386", "ds"));
	CHECK(arch_regs__is_valid("mips", "anything_9"));
	CHECK(!arch_regs__is_valid("mips", "a-b"));
	CHECK(arch_regs__names("x86_64") != NULL);
	CHECK(arch_regs__names("mips") == NULL);
}

/* pev->arch: the registers of the -x file's machine, not of the host. */
static void test_raw_registers_of_the_event_arch(void)
{
	struct perf_probe_event pev = { .arch = "aarch64" };

	CHECK_INT(parse_perf_probe_command("f %x0 +8(%sp):u32 %pc", &pev), ==, 0);
	CHECK_INT(pev.nargs, ==, 3);
	clear_perf_probe_event(&pev);
	pev.arch = "aarch64";
	CHECK(parse_perf_probe_command("f %ax", &pev) < 0);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse_perf_probe_command("f %ax", &pev), ==, 0);
	clear_perf_probe_event(&pev);
	CHECK(parse_perf_probe_command("f %x0", &pev) < 0);
	clear_perf_probe_event(&pev);
}

/* ---- trace commands ----------------------------------------------------------- */

struct trace_case {
	const char *line;
	const char *synth; /* NULL: the line itself */
};

static const struct trace_case trace_lines[] = {
	{ .line = "p:probe_a/main /tmp/a:0x1139" },
	{ "p:probe_a/main /tmp/a:0x0000000000001139 arg1=%di:s32",
	  "p:probe_a/main /tmp/a:0x1139 arg1=%di:s32" },
	{ .line = "p:probe_a/main /tmp/a:0x1139 x=%di:s32" },
	{ .line = "r:probe_a/f__return /tmp/sp/a:0x1129 arg1=$retval" },
	{ "r:tst/y /bin/true:0x0000000000001000 arg1=$retval",
	  "r:tst/y /bin/true:0x1000 arg1=$retval" },
	{ .line = "p:probe/vfs_read vfs_read+0 file=%di:u64" },
	{ .line = "r:probe/vfs_read__return vfs_read+0 ret=$retval:s64" },
	{ .line = "p:probe/x _text+1234" },
	{ .line = "p:probe/x vfs_read", .synth = "p:probe/x vfs_read+0" },
	{ .line = "r10:probe/x vfs_read+0", .synth = "r:probe/x vfs_read+0" },
	{ .line = "p:probe/x ext4:ext4_file_open+16 f=+0(%si):u64" },
	{ .line = "p:probe/x 0xffffffff81000000" },
	{ .line = "p:sdt_prov/ev /bin/prog:0x1139(0x4010)" },
	{ "p:sdt_prov/ev /bin/prog:0x0000000000001139(0x4010) arg1=+8(%sp):s64",
	  "p:sdt_prov/ev /bin/prog:0x1139(0x4010) arg1=+8(%sp):s64" },
	{ .line = "p:g/e /bin/p:0x10 len=+8(+0(%di)):u32" },
	{ .line = "p:g/e /bin/p:0x10 s=+0(%di):string" },
	{ .line = "p:g/e /bin/p:0x10 @sym" },
	{ .line = "p:g/e /bin/p:0x10 a=@+0x10" },
	{ .line = "p:g/e /bin/p:0x10 $comm" },
	{ .line = "p:g/e /bin/p:0x10 u=+u0(%di):u64" },
	{ .line = "p:g/e /bin/p:0x10 u=+u8(+u0(%di))" },
	{ .line = "p:g/e /bin/p:0x10 b=%ax:b4@3/32" },
	{ .line = "p:g/e /bin/p:0x10 v=-24(%bp):x64 w=-28(%bp):s32" },
	{ .line = "p:g/e /bin/p:0x10 arr=+24(+8(-24(%bp))):s32" },
	{ .line = "p:g/e /bin/p:0x10 arg1=\\1" },
	{ .line = "p:g/e /bin/p:0x10 i=\\\"a=b:c\":string" },
	{ .line = "p:g/e /bin/p:0x10 a=+0(%di):u8[4]" },
	{ .line = "p:g/e /bin/my:prog:0x10" },
};

static void test_trace_commands_round_trip(void)
{
	for (size_t i = 0; i < sizeof(trace_lines) / sizeof(trace_lines[0]); i++) {
		const struct trace_case *c = &trace_lines[i];
		struct probe_trace_event tev = { 0 }, tev2 = { 0 };
		char *s, *t;
		int ret = parse_probe_trace_command(c->line, &tev);

		CHECK_INT(ret, ==, 0);
		if (ret) {
			printf("#   line: '%s'\n", c->line);
			continue;
		}
		s = synthesize_probe_trace_command(&tev);
		CHECK_STR(s, c->synth ? c->synth : c->line);
		CHECK_INT(parse_probe_trace_command(s, &tev2), ==, 0);
		t = synthesize_probe_trace_command(&tev2);
		CHECK_STR(t, s);
		free(s);
		free(t);
		clear_probe_trace_event(&tev);
		clear_probe_trace_event(&tev2);
	}
}

static void test_trace_command_fields(void)
{
	struct probe_trace_event tev = { 0 };
	const struct probe_trace_arg_ref *ref;

	CHECK_INT(parse_probe_trace_command("p:probe_a/main /tmp/a:0x0000000000001139(0x4010) "
					    "len=+8(-u16(%di)):u32 %ax",
					    &tev),
		  ==, 0);
	CHECK(tev.uprobes);
	CHECK(!tev.point.retprobe);
	CHECK_STR(tev.group, "probe_a");
	CHECK_STR(tev.event, "main");
	CHECK_STR(tev.point.module, "/tmp/a");
	CHECK_INT(tev.point.offset, ==, 0x1139);
	CHECK_INT(tev.point.ref_ctr_offset, ==, 0x4010);
	CHECK(!tev.point.symbol);
	CHECK_INT(tev.nargs, ==, 2);
	CHECK_STR(tev.args[0].name, "len");
	CHECK_STR(tev.args[0].value, "%di");
	CHECK_STR(tev.args[0].type, "u32");
	ref = tev.args[0].ref; /* innermost first */
	CHECK_INT(ref->offset, ==, -16);
	CHECK(ref->user_access);
	CHECK_INT(ref->next->offset, ==, 8);
	CHECK(!ref->next->user_access);
	CHECK(!ref->next->next);
	CHECK(!tev.args[1].name);
	CHECK_STR(tev.args[1].value, "%ax");
	CHECK(!tev.args[1].type);
	clear_probe_trace_event(&tev);

	CHECK_INT(parse_probe_trace_command("r:probe/vfs_read__return ext4:vfs_read+0x10 r=$retval",
					    &tev),
		  ==, 0);
	CHECK(!tev.uprobes);
	CHECK(tev.point.retprobe);
	CHECK_STR(tev.point.module, "ext4");
	CHECK_STR(tev.point.symbol, "vfs_read");
	CHECK_INT(tev.point.offset, ==, 16);
	clear_probe_trace_event(&tev);
}

static void test_rejects_bad_trace_commands(void)
{
	static const char *const bad[] = {
		"",
		"p:probe/x",
		"x:probe/x vfs_read",
		"p:probe vfs_read",
		"p:/x vfs_read",
		"p:probe/ vfs_read",
		"p:pro-be/x vfs_read",
		"p:probe/x /bin/true",
		"p:probe/x /bin/true:1000",
		"p:probe/x /bin/true:0x",
		"p:probe/x /bin/true:0x10(0x",
		"p:probe/x /bin/true:0x10(4010)",
		"p:probe/x /bin/true:0x10 a=",
		"p:probe/x /bin/true:0x10 a=%di:",
		"p:probe/x /bin/true:0x10 a=+x(%di)",
		"p:probe/x vfs_read+x",
		"p:probe/x +4",
		"p:probe/x 0xzz",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct probe_trace_event tev = { 0 };
		int ret = parse_probe_trace_command(bad[i], &tev);

		if (ret >= 0)
			printf("#   accepted '%s'\n", bad[i]);
		CHECK_INT(ret, <, 0);
		CHECK(!tev.event && !tev.args);
		clear_probe_trace_event(&tev);
	}
}

static void test_trace_synthesis_from_fields(void)
{
	struct probe_trace_arg_ref inner = { 0 }, outer = { 0 };
	struct probe_trace_arg arg = { 0 };
	struct probe_trace_event tev = { 0 };
	char *s;

	inner.offset = 0;
	inner.next = &outer;
	outer.offset = 8;
	arg.name = "len";
	arg.value = "%di";
	arg.type = "u32";
	arg.ref = &inner;
	tev.event = "f";
	tev.uprobes = true;
	tev.point.module = "/tmp/a";
	tev.point.offset = 0x1139;
	tev.nargs = 1;
	tev.args = &arg;
	s = synthesize_probe_trace_command(&tev);
	CHECK_STR(s, "p:probe/f /tmp/a:0x1139 len=+8(+0(%di)):u32");
	free(s);
}

/* The one [GROUP:]EVENT glob rule of -l, -d, perf list and %GROUP:EVENT. */
static void test_event_globs(void)
{
	CHECK(probe_event_match_filter(NULL, "probe_app", "handle"));
	CHECK(probe_event_match_filter("", "probe_app", "handle"));
	CHECK(probe_event_match_filter("handle", "probe_app", "handle"));
	CHECK(probe_event_match_filter("h*", "probe_app", "handle"));
	CHECK(!probe_event_match_filter("h*", "probe_app", "other"));
	CHECK(probe_event_match_filter("probe_*:*", "probe_app", "handle"));
	CHECK(probe_event_match_filter("probe_app:handle", "probe_app", "handle"));
	CHECK(!probe_event_match_filter("probe_x:handle", "probe_app", "handle"));
	CHECK(probe_event_match_filter(":handle", "", "handle"));
	CHECK(!probe_event_match_filter(":handle", "probe_app", "handle"));
	/* like perf, GROUP/EVENT has no group part */
	CHECK(!probe_event_match_filter("probe_app/handle", "probe_app", "handle"));
	/* the globs match whole names */
	CHECK(!probe_event_match_filter("hand", "probe_app", "handle"));
	CHECK(probe_event_match(NULL, "*", "any", "thing"));
	CHECK(!probe_event_match("sdt_*", "*", "probe_app", "x"));
	CHECK(probe_event_match("sdt_*", "gc__*", "sdt_python", "gc__start"));
}

TESTS(TEST(test_accepts_probe_definitions), TEST(test_raw_registers_of_the_event_arch),
      TEST(test_group_p_is_a_group_not_a_probe_type),
      TEST(test_same_argument_name_twice_is_left_to_the_resolver), TEST(test_accepts_arguments),
      TEST(test_array_index_field_has_its_number),
      TEST(test_rejects_bad_definitions_with_one_clear_line),
      TEST(test_late_parse_holds_what_perf_finds_later), TEST(test_limits_are_inclusive),
      TEST(test_failed_parse_keeps_target), TEST(test_synthesized_text_parses_back_the_same),
      TEST(test_point_synthesis_is_what_perf_lists), TEST(test_need_dwarf), TEST(test_c_func_names),
      TEST(test_arch_registers), TEST(test_trace_commands_round_trip),
      TEST(test_trace_command_fields), TEST(test_rejects_bad_trace_commands),
      TEST(test_trace_synthesis_from_fields), TEST(test_event_globs));
