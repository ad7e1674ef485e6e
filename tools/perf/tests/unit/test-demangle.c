// SPDX-License-Identifier: GPL-2.0
/*
 * Source-level names: demangling (libiberty), matching a written name or
 * signature against a symbol, the spec grammar of such names and the
 * identifier an event is named with.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "util/demangle.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/symbol-elf.h"
#include "unit-test.h"

static void test_demangles_cxx_and_rust(void)
{
	char *s;

	s = demangle_sym("_ZN4shop4Cart3addEii", true);
	CHECK_STR(s, "shop::Cart::add(int, int)");
	free(s);
	s = demangle_sym("_ZN4shop4Cart3addEii", false);
	CHECK_STR(s, "shop::Cart::add");
	free(s);
	s = demangle_sym("_ZN4shop4Cart5scaleIlEET_S2_", false);
	CHECK_STR(s, "shop::Cart::scale<long>");
	free(s);
	s = demangle_sym("_ZN12_GLOBAL__N_16helperEi", false);
	CHECK_STR(s, "(anonymous namespace)::helper");
	free(s);
	/* Rust legacy: the hash is not shown. */
	s = demangle_sym("_ZN3app6server6handle17h0123456789abcdefE", false);
	CHECK_STR(s, "app::server::handle");
	free(s);
	s = demangle_sym("_RNvNtCs1234_7mycrate3foo3bar", false);
	CHECK_STR(s, "mycrate::foo::bar");
	free(s);
	CHECK(!demangle_sym("main", false));
	CHECK(!demangle_sym("main.(*Server).poll", false));
	s = demangle_display("handle", true);
	CHECK_STR(s, "handle");
	free(s);
	s = demangle_display("_ZN4shop4Cart3addEi", false);
	CHECK_STR(s, "_ZN4shop4Cart3addEi");
	free(s);
	s = demangle_display("_ZdlPv@plt", true);
	CHECK_STR(s, "operator delete@plt");
	free(s);
	s = demangle_display("_Znot_mangled@plt", true);
	CHECK_STR(s, "_Znot_mangled@plt");
	free(s);
}

/* Appended after what is there; a name that does not demangle leaves no trace of trying. */
static void test_display_names_append_to_a_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "x|");
	demangle_display_add(&sb, "_ZN4shop4Cart3addEii", true);
	strbuf_addch(&sb, '|');
	demangle_display_add(&sb, "_Znot_mangled", true);
	strbuf_addch(&sb, '|');
	demangle_display_add(&sb, "_ZN3app6server6handle17h0123456789abcdefE", true);
	strbuf_addch(&sb, '|');
	demangle_display_add(&sb, "_ZN4shop4Cart3addEii", false);
	CHECK_STR(sb.buf,
		  "x|shop::Cart::add|_Znot_mangled|app::server::handle|_ZN4shop4Cart3addEii");
	strbuf_release(&sb);
}

static void test_matches_names_overloads_and_signatures(void)
{
	CHECK(demangle_match("shop::Cart::add", "_ZN4shop4Cart3addEi"));
	/* the identifier is looked for before demangling, but not where the mangling writes it another way */
	CHECK(demangle_match("ns0::C250::m50", "_ZN3ns04C2503m50Ei"));
	CHECK(!demangle_match("ns0::C250::m50", "_ZN3ns04C2503m51Ei"));
	CHECK(demangle_match("shop::Cart::Cart", "_ZN4shop4CartC2Ev"));
	CHECK(demangle_match("shop::Cart::~Cart", "_ZN4shop4CartD2Ev"));
	CHECK(demangle_match("shop::Cart::operator+", "_ZN4shop4CartplERKS0_"));
	CHECK(demangle_match(
		"std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string",
		"_ZNSsC1Ev"));
	CHECK(demangle_match("core::fmt::write", "_ZN4core3fmt5write17h0123456789abcdefE"));
	CHECK(demangle_match("shop::Cart::add", "_ZN4shop4Cart3addEii"));
	CHECK(demangle_match("shop::Cart::add(int)", "_ZN4shop4Cart3addEi"));
	CHECK(!demangle_match("shop::Cart::add(int)", "_ZN4shop4Cart3addEii"));
	CHECK(demangle_match("shop::Cart::add(int,int)", "_ZN4shop4Cart3addEii"));
	CHECK(demangle_match("shop::Cart::add( int , int )", "_ZN4shop4Cart3addEii"));
	CHECK(!demangle_match("shop::Cart::add(char)", "_ZN4shop4Cart3addEi"));
	CHECK(demangle_match("shop::Cart::scale<long>", "_ZN4shop4Cart5scaleIlEET_S2_"));
	CHECK(demangle_match("shop::Cart::scale<long>(long)", "_ZN4shop4Cart5scaleIlEET_S2_"));
	CHECK(demangle_match("shop::Cart::*", "_ZN4shop4Cart5scaleIlEET_S2_"));
	CHECK(!demangle_match("shop::Other::*", "_ZN4shop4Cart3addEi"));
	CHECK(demangle_match("(anonymous namespace)::helper", "_ZN12_GLOBAL__N_16helperEi"));
	CHECK(demangle_match("app::server::handle", "_ZN3app6server6handle17h0123456789abcdefE"));
	CHECK(!demangle_match("app::server", "_ZN3app6server6handle17h0123456789abcdefE"));
	/* The mangled name and unmangled names as they are. */
	CHECK(demangle_match("_ZN4shop4Cart3addEi", "_ZN4shop4Cart3addEi"));
	CHECK(demangle_match("main.(*Server).poll", "main.(*Server).poll"));
	CHECK(demangle_match("main.*", "main.(*Server).poll"));
	CHECK(!demangle_match("shop::Cart::add", "add"));
	CHECK(demangle_is_source_name("shop::Cart::add"));
	CHECK(!demangle_is_source_name("handle"));
}

static void test_normalizes_blanks_and_strips_params(void)
{
	char *s = demangle_normalize(" add ( unsigned  int , char const * ) ");
	char buf[64];

	CHECK_STR(s, "add(unsigned int,char const*)");
	free(s);
	strcpy(buf, "shop::Cart::add(int, int) const");
	demangle_strip_params(buf);
	CHECK_STR(buf, "shop::Cart::add");
	strcpy(buf, "main.(*Server).poll");
	demangle_strip_params(buf);
	CHECK_STR(buf, "main.(*Server).poll");
	strcpy(buf, "(anonymous namespace)::helper(int)");
	demangle_strip_params(buf);
	CHECK_STR(buf, "(anonymous namespace)::helper");
}

static char *ident(const char *name, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	demangle_to_ident(&sb, name, max);
	return strbuf_detach(&sb, NULL);
}

static void test_event_identifiers(void)
{
	char *s;

	s = ident("shop::Cart::add", 64);
	CHECK_STR(s, "shop_Cart_add");
	free(s);
	s = ident("main.(*Server).poll", 64);
	CHECK_STR(s, "main_Server_poll");
	free(s);
	s = ident("net/http.(*conn).serve", 64);
	CHECK_STR(s, "net_http_conn_serve");
	free(s);
	s = ident("(anonymous namespace)::helper", 64);
	CHECK_STR(s, "anonymous_namespace_helper");
	free(s);
	s = ident("foo.isra.0", 64);
	CHECK_STR(s, "foo_isra_0");
	free(s);
	/* Identifier names are kept as they are, underscores and all. */
	s = ident("__libc_start_main", 64);
	CHECK_STR(s, "__libc_start_main");
	free(s);
	s = ident("9lives", 64);
	CHECK_STR(s, "_9lives");
	free(s);
	/* Too long: cut, then '_' and 8 hex digits of a hash of the whole name. */
	s = ident("a::very::long::name::space::with::many::parts::that::goes::on::and::on", 32);
	CHECK_INT(strlen(s), ==, 31);
	CHECK(!strncmp(s, "a_very_long_name_space_", 23));
	CHECK(s[22] == '_' && s[21] != '_');
	{
		char *t = ident(
			"a::very::long::name::space::with::many::parts::that::goes::on::and::ON",
			32);

		CHECK(strcmp(s, t)); /* another name, another hash */
		CHECK_INT(strlen(t), ==, 31);
		free(t);
	}
	free(s);
}

static void test_scans_source_names_in_specs(void)
{
	struct strbuf sb = STRBUF_INIT;
	bool source;

	CHECK_INT(demangle_scan_name("shop::Cart::add:3", &sb, &source), ==, 15);
	CHECK_STR(sb.buf, "shop::Cart::add");
	CHECK(source);
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("shop\\:\\:Cart\\:\\:add", &sb, &source), ==, 19);
	CHECK_STR(sb.buf, "shop::Cart::add");
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("\"a::b\"%return", &sb, &source), ==, 6);
	CHECK_STR(sb.buf, "a::b");
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("add(int, int)@x.cc", &sb, &source), ==, 13);
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("handle:3", &sb, &source), ==, 6);
	CHECK(!source);
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("\"a::b", &sb, &source), ==, DEMANGLE_SCAN_QUOTE);
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("add(int", &sb, &source), ==, DEMANGLE_SCAN_PAREN);
	strbuf_release(&sb);
	CHECK_INT(demangle_scan_name("add)", &sb, &source), ==, DEMANGLE_SCAN_PAREN);
	strbuf_release(&sb);
	CHECK_INT(demangle_word_len("(anonymous namespace)::helper x"), ==, 29);
	CHECK_INT(demangle_word_len("f(int, int) x"), ==, 11);
	CHECK_INT(demangle_word_len("handle x"), ==, 6);
}

/* The point of @spec, parsed; the caller frees the event. */
static int parse(const char *spec, struct perf_probe_event *pev)
{
	memset(pev, 0, sizeof(*pev));
	return parse_perf_probe_command(spec, pev);
}

static void test_specs_with_source_names(void)
{
	struct perf_probe_event pev;

	CHECK_INT(parse("shop::Cart::add", &pev), ==, 0);
	CHECK_STR(pev.point.function, "shop::Cart::add");
	CHECK(!pev.point.file);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("shop\\:\\:Cart\\:\\:add:2 price", &pev), ==, 0);
	CHECK_STR(pev.point.function, "shop::Cart::add");
	CHECK_INT(pev.point.line, ==, 2);
	CHECK_INT(pev.nargs, ==, 1);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("ev=\"shop::Cart::add\"%return", &pev), ==, 0);
	CHECK_STR(pev.point.function, "shop::Cart::add");
	CHECK_STR(pev.event, "ev");
	CHECK(pev.point.retprobe);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("(anonymous namespace)::helper x", &pev), ==, 0);
	CHECK_STR(pev.point.function, "(anonymous namespace)::helper");
	CHECK_INT(pev.nargs, ==, 1);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("shop::Cart::add(int, int)@cxx-shop.cc", &pev), ==, 0);
	CHECK_STR(pev.point.function, "shop::Cart::add(int, int)");
	CHECK_STR(pev.point.file, "cxx-shop.cc");
	clear_perf_probe_event(&pev);
	/* Go: a '.' or '/' without a line is a function, with '(' always. */
	CHECK_INT(parse("main.handle", &pev), ==, 0);
	CHECK_STR(pev.point.function, "main.handle");
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("main.(*Server).poll:1", &pev), ==, 0);
	CHECK_STR(pev.point.function, "main.(*Server).poll");
	CHECK_INT(pev.point.line, ==, 1);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("net/http.(*conn).serve", &pev), ==, 0);
	CHECK_STR(pev.point.function, "net/http.(*conn).serve");
	clear_perf_probe_event(&pev);
	/* Still a file with a line. */
	CHECK_INT(parse("main.c:12", &pev), ==, 0);
	CHECK_STR(pev.point.file, "main.c");
	clear_perf_probe_event(&pev);
	CHECK(parse("\"shop::Cart::add", &pev) < 0);
	CHECK(parse("\"shop::Cart::add\"x", &pev) < 0);
	CHECK_INT(parse("\"main.handle\":3", &pev), ==, 0);
	CHECK_STR(pev.point.function, "main.handle");
	{
		char *text = synthesize_perf_probe_point(&pev.point);

		CHECK_STR(text, "\"main.handle\":3");
		free(text);
	}
	clear_perf_probe_event(&pev);
	CHECK(parse("a\\\001b", &pev) < 0);
	CHECK_INT(parse("\\0x", &pev), ==, 0);
	CHECK_STR(pev.point.function, "0x");
	{
		char *text = synthesize_perf_probe_point(&pev.point);

		CHECK_STR(text, "\"0x\"");
		free(text);
	}
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("ev=\"operator=\"", &pev), ==, 0);
	CHECK_STR(pev.event, "ev");
	CHECK_STR(pev.point.function, "operator=");
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("\"a=b\"", &pev), ==, 0);
	CHECK_STR(pev.point.function, "a=b");
	CHECK(!pev.event);
	clear_perf_probe_event(&pev);
	CHECK_INT(parse("\"a@b\":3", &pev), ==, 0);
	CHECK_STR(pev.point.function, "a@b");
	{
		char *text = synthesize_perf_probe_point(&pev.point);

		CHECK_STR(text, "\"a@b\":3");
		free(text);
	}
	clear_perf_probe_event(&pev);
	CHECK(parse("shop::Cart::add(int", &pev) < 0);
}

/* What the spec synthesis writes for a name reads back as that name. */
static void test_names_are_written_back_readable(void)
{
	static const char *const names[] = {
		"handle",
		"shop::Cart::add",
		"shop::Cart::add(int, int)",
		"main.(*Server).poll",
		"a@b",
		"a:b",
		"x\"y:z",
		"(anonymous namespace)::helper",
		" fstr",
		"operator=",
		"0x10",
		"%x",
		"a=\"b",
		"X<;y",
		"^<",
		"\\",
		"a:::b",
	};
	static const char *const quoted[] = { "\"a@b\"", "\"a:b\"", "\\x\\\"y\\:z" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct strbuf out = STRBUF_INIT, back = STRBUF_INIT;
		bool source;
		int n;

		demangle_quote_name(&out, names[i]);
		n = demangle_scan_name(out.buf, &back, &source);
		CHECK_INT(n, ==, (int)out.len);
		CHECK_STR(back.buf, names[i]);
		if (i >= 8)
			CHECK(strcmp(out.buf, names[i]));
		if (i >= 4 && i < 7)
			CHECK_STR(out.buf, quoted[i - 4]);
		if (i >= 1 && i < 4)
			CHECK_STR(out.buf, names[i]);
		strbuf_release(&out);
		strbuf_release(&back);
	}
}

/* What libiberty prints of @sym without parameters: the display name's reference. */
static char *libiberty_display(const char *sym)
{
	char *d = cplus_demangle_v3(sym, DMGL_ANSI);

	return d ? d : strdup(sym);
}

/* demangle_display() of @sym is libiberty's; false (and said) when not. */
static bool shown_as_libiberty(const char *sym)
{
	char *ours = demangle_display(sym, true), *want = libiberty_display(sym);
	bool same = !strcmp(ours, want);

	if (!same)
		printf("#   %s: ours '%s', libiberty '%s'\n", sym, ours, want);
	free(ours);
	free(want);
	return same;
}

/*
 * Plain C++ names are printed without libiberty (five times as fast, most
 * of -F): each as libiberty prints it, and what is not plain (templates,
 * operators, ABI tags, clones, a length past the end) left to it.
 */
static void test_plain_names_are_shown_as_libiberty_shows_them(void)
{
	static const char *const names[] = {
		"_ZN13ABIDescriptor15is_volatile_regE5VMReg",
		"_ZNK3Foo3barEv",
		"_ZN3FooC1Ei",
		"_ZN3FooC2Ev",
		"_ZN3FooD0Ev",
		"_ZN3FooD2Ev",
		"_ZNSt3foo3barEv",
		"_ZN12_GLOBAL__N_13fooEv",
		"_ZN12_GLOBAL__N_13FooC2Ev",
		"_ZN12_GLOBAL__N_1C2Ev",
		"_ZL3foov",
		"_Z3foo",
		"_Z3fooi",
		"_ZTV3Foo",
		"_ZTVN3Foo3BarE",
		"_ZTI3Foo",
		"_ZTS3Foo",
		"_ZGVN3Foo1xE",
		"_ZTVN3FooC2E",
		"_ZTV3Fooi",
		"_ZN3Foo3barEv.part.0",
		"_Z3foov.cold",
		"_Z3fooB5cxx11v",
		"_ZN3Foo3barB5cxx11Ev",
		"_ZN3FooIiE3barEv",
		"_Z3fooIiEvT_",
		"_ZNKSt6vectorIiSaIiEE4sizeEv",
		"_ZN3FooplERKS_",
		"_ZN3Foo",
		"_ZN999foo3barEv",
		"_ZN3fooE",
		"_ZNE",
		"_ZN3Foo3barC1Ev",
		"_ZN3FooC3Ev",
		"_Z0v",
		"_Z01av",
		/* templates, substitutions, literals, qualifiers */
		"_ZNKSt3setIiSt4lessIiESaIiEE4sizeEv",
		"_ZTVSt15_Sp_counted_ptrIPN7rocksdb11RateLimiterELN9__gnu_cxx12_Lock_policyE2EE",
		"_Z1fILb1ELc97ELh3ELs3ELx5ELy5ELm4ELj5ELl7ELin3EEvv",
		"_Z1fILb2EEvv",
		"_Z1fILi5EEvv",
		"_Z1fILf3f800000EEvv",
		"_Z1fIL_Z1gvEEvv",
		"_ZN5boost6detail8functionIKPcE3runEv",
		"_ZN1AIPKcE1fEv",
		"_ZN1AIRKN1B1CEE1fEv",
		"_ZN1AIKPcEC2Ev",
		"_ZN1AIiS_IiEE1fEv",
		"_ZN1AIiE1BIiE1fEv",
		"_ZN1AIiE1BIS0_E1fEv",
		"_ZN1AIiE1BIS1_E1fEv",
		"_ZN1AIiE1BIS9_E1fEv",
		"_ZN2ns1AINS_1BEE1fEv",
		"_ZNSt6vectorIiSaIiEEC2Ev",
		"_ZNSt6vectorIiSaIiEED1Ev",
		"_ZN1AIA3_iE1fEv",
		"_ZN1AIFviEE1fEv",
		"_ZN1AIiEcviEv",
		"_ZN1AIDnE1fEv",
		"_ZN1AIwDsDiE1fEv",
		"_ZN1AIPPKcE1fEv",
		"_ZN1AIVKiE1fEv",
		"_ZN1AIrPiE1fEv",
		"_ZN1AIOiE1fEv",
		"_ZN1AIT_E1fEv",
		"_ZN1AIJiiEE1fEv",
		"_ZN1AIiEIiE1fEv",
		"_ZNIiE1fEv",
		"_ZN1AIiE",
		"_ZN1AIiEE",
		"_ZN1AIiE1fIiEEvv",
		"_Z3fooIiEvT_",
		"_ZThn8_N2PG31cluster_osdmap_trim_lower_boundEv",
		"_ZTv0_n24_N3FooD1Ev",
		"_ZNSsC1Ev",
		"_ZZ4mainE1x",
		"_ZGVZ4mainE1x",
		"_ZTI1AIiE",
		"_ZTS1AIiEx",
		"_ZN12_GLOBAL__N_11AIiEC2Ev",
		"_ZN1AIN12_GLOBAL__N_11BEEC2Ev",
		"_ZNSt8_Rb_treeIjSt4pairIKjSt3setINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4lessIS8_ESaIS8_EEESt10_Select1stISD_ES9_IjESaISD_EE8_M_eraseEPSt13_Rb_tree_nodeISD_E",
		"_ZN1AISaIiEE1fEv",
		"_ZN1AISbIcEE1fEv",
		"_ZN1AISsE1fEv",
		"_ZN1AISt6vectorIiSaIiEEE1fEv",
	};
	const char *files[] = { "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", NULL, NULL };
	glob_t g = { 0 };
	int compared = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(shown_as_libiberty(names[i]));
	/* Real programs' tables where this machine has them (make bench: libjvm). */
	if (!glob("/usr/lib/jvm/*/lib/server/libjvm.so", 0, NULL, &g) && g.gl_pathc)
		files[1] = g.gl_pathv[0];
	files[2] = "/usr/bin/ceph-osd";
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct symbol_elf *se;
		int bad = 0;

		if (!files[f] || symbol_elf__load_names(files[f], &se))
			continue;
		for (int i = 0; i < se->nr_names && bad < 10; i++) {
			const char *n = se->names[i];

			/* not C++; a Rust hash goes to the other demangler; NAME@plt keeps @plt */
			if (strncmp(n, "_Z", 2) || strstr(n, "17h") || strchr(n, '@'))
				continue;
			bad += !shown_as_libiberty(n);
			compared++;
		}
		CHECK_INT(bad, ==, 0);
		symbol_elf__delete(se);
	}
	printf("# %d names of real programs compared\n", compared);
	CHECK_INT(compared, >, 3000); /* libstdc++ alone */
	globfree(&g);
}

TESTS(TEST(test_names_are_written_back_readable), TEST(test_demangles_cxx_and_rust),
      TEST(test_display_names_append_to_a_strbuf),
      TEST(test_plain_names_are_shown_as_libiberty_shows_them),
      TEST(test_matches_names_overloads_and_signatures),
      TEST(test_normalizes_blanks_and_strips_params), TEST(test_event_identifiers),
      TEST(test_scans_source_names_in_specs), TEST(test_specs_with_source_names));
