// SPDX-License-Identifier: GPL-2.0
/*
 * Source-level names of functions (see demangle.h).  The demangling is
 * libiberty's; here is only the choice of its options and the matching.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "util/alloc.h"
#include "util/demangle.h"
#include "util/strbuf.h"

static bool ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * A legacy Rust symbol is an Itanium one whose last part is the hash
 * "17h" and 16 hex digits; libiberty's automatic style tries Rust first,
 * a sixth of -F's time on a C++ program, so only such names are given to it.
 */
static bool rust_legacy_hash(const char *sym)
{
	/* the last part of the name, before a suffix (".llvm.N"; ".." is Rust's) */
	for (const char *end = sym + strlen(sym); end;
	     end = memrchr(sym, '.', (size_t)(end - sym))) {
		if (end - sym >= 23 && end[-1] == 'E' && !memcmp(end - 20, "17h", 3) &&
		    strspn(end - 17, "0123456789abcdef") >= 16)
			return true;
	}
	return false;
}

char *demangle_sym(const char *sym, bool params)
{
	int opts = DMGL_ANSI | (params ? DMGL_PARAMS : 0);

	if (!sym || (strncmp(sym, "_Z", 2) && strncmp(sym, "_R", 2)))
		return NULL;
	/* libiberty's string is malloc()'s, as ours are */
	if (sym[1] == 'Z' && !rust_legacy_hash(sym))
		return cplus_demangle_v3(sym, opts);
	return cplus_demangle(sym, opts);
}

static void add_piece(const char *s, size_t len, void *sb)
{
	strbuf_add(sb, s, len);
}

/*
 * The display name of a C++ symbol (what -F shows: no parameters), printed
 * here for the common grammar of the Itanium C++ ABI, as libiberty prints
 * it: nested names, std:: and its allocator and basic_string, templates
 * whose arguments are builtin, qualified, pointer, reference and class
 * types or integer and enumerator literals, substitutions, constructors,
 * destructors, anonymous namespaces, and the vtable/typeinfo/guard of
 * such names.  libiberty's general printer cost five times as much and
 * was most of -F (libjvm's 56,528 names; ceph-osd's 47,185, most of them
 * templates).  Anything else (operators, ABI tags, lambdas, expressions,
 * packs, function and array types, local names, thunks, clones) makes the
 * printer give up, and libiberty prints the name.  test-demangle checks
 * this against libiberty over real programs' symbol tables.
 */
#define CXX_SUBS_MAX 256
#define CXX_DEPTH_MAX 64

struct cxx_printer {
	const char *p;	   /* what is left of the mangled name */
	struct strbuf *sb; /* the output */
	struct {
		size_t off, len; /* a substitution: its text, in the output */
	} subs[CXX_SUBS_MAX];
	int nsubs, depth;
	bool failed;
	size_t class_off, class_len; /* the last source name: a constructor's */
};

static bool cxx_fail(struct cxx_printer *cp)
{
	cp->failed = true;
	return false;
}

/* The output from @off is a substitution candidate. */
static void cxx_add_sub(struct cxx_printer *cp, size_t off)
{
	if (cp->nsubs == CXX_SUBS_MAX) {
		cxx_fail(cp);
		return;
	}
	cp->subs[cp->nsubs].off = off;
	cp->subs[cp->nsubs].len = cp->sb->len - off;
	cp->nsubs++;
}

/* The output's own bytes [@off, +@len) appended to it. */
static void cxx_copy(struct cxx_printer *cp, size_t off, size_t len)
{
	strbuf_grow(cp->sb, len); /* first: the copy is of sb's own bytes */
	strbuf_add(cp->sb, cp->sb->buf + off, len);
}

/* <source-name>: a length and that many characters. */
static bool cxx_source_name(struct cxx_printer *cp)
{
	const char *s = cp->p;
	size_t len = 0;

	if (*s < '1' || *s > '9')
		return cxx_fail(cp);
	for (; isdigit((unsigned char)*s); s++) {
		len = len * 10 + (size_t)(*s - '0');
		if (len > 4096)
			return cxx_fail(cp);
	}
	if (strnlen(s, len) < len)
		return cxx_fail(cp);
	cp->class_off = cp->sb->len;
	/* "_GLOBAL_" [._$] "N": an anonymous namespace, the class of no constructor */
	if (len >= 10 && !strncmp(s, "_GLOBAL_", 8) && strchr("._$", s[8]) && s[9] == 'N') {
		strbuf_addstr(cp->sb, "(anonymous namespace)");
		cp->class_len = 0;
	} else {
		strbuf_add(cp->sb, s, len);
		cp->class_len = len;
	}
	cp->p = s + len;
	/* ABI tags: Foo[abi:cxx11] (a constructor of Foo is still Foo) */
	while (*cp->p == 'B') {
		size_t at = cp->sb->len, off = cp->class_off, n = cp->class_len;

		cp->p++;
		strbuf_addstr(cp->sb, "[abi:");
		if (!cxx_source_name(cp))
			return false;
		strbuf_addch(cp->sb, ']');
		if (cp->sb->buf[at + 5] == '(') /* no "(anonymous namespace)" tag */
			return cxx_fail(cp);
		cp->class_off = off;
		cp->class_len = n;
	}
	return true;
}

/* An <operator-name> (two lower-case letters, or aS...): appended; false when none. */
static bool cxx_operator(struct cxx_printer *cp)
{
	static const struct {
		char code[3];
		const char *name;
	} ops[] = {
		{ "nw", " new" }, { "na", " new[]" }, { "dl", " delete" }, { "da", " delete[]" },
		{ "ps", "+" },	  { "ng", "-" },      { "ad", "&" },	   { "de", "*" },
		{ "co", "~" },	  { "pl", "+" },      { "mi", "-" },	   { "ml", "*" },
		{ "dv", "/" },	  { "rm", "%" },      { "an", "&" },	   { "or", "|" },
		{ "eo", "^" },	  { "aS", "=" },      { "pL", "+=" },	   { "mI", "-=" },
		{ "mL", "*=" },	  { "dV", "/=" },     { "rM", "%=" },	   { "aN", "&=" },
		{ "oR", "|=" },	  { "eO", "^=" },     { "ls", "<<" },	   { "rs", ">>" },
		{ "lS", "<<=" },  { "rS", ">>=" },    { "eq", "==" },	   { "ne", "!=" },
		{ "lt", "<" },	  { "gt", ">" },      { "le", "<=" },	   { "ge", ">=" },
		{ "ss", "<=>" },  { "nt", "!" },      { "aa", "&&" },	   { "oo", "||" },
		{ "pp", "++" },	  { "mm", "--" },     { "cm", "," },	   { "pm", "->*" },
		{ "pt", "->" },	  { "cl", "()" },     { "ix", "[]" },	   { "qu", "?" },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (cp->p[0] == ops[i].code[0] && cp->p[1] == ops[i].code[1]) {
			strbuf_addstr(cp->sb, "operator");
			strbuf_addstr(cp->sb, ops[i].name);
			cp->p += 2;
			cp->class_len = 0;
			return true;
		}
	return false;
}

/* After S: <seq-id> _ or _, the substitution it names appended. */
static bool cxx_substitution(struct cxx_printer *cp)
{
	size_t n = 0;

	if (*cp->p != '_') {
		for (; isdigit((unsigned char)*cp->p) || isupper((unsigned char)*cp->p); cp->p++) {
			n = n * 36 + (size_t)(isdigit((unsigned char)*cp->p) ? *cp->p - '0'
									     : *cp->p - 'A' + 10);
			if (n > CXX_SUBS_MAX)
				return cxx_fail(cp);
		}
		n++;
		if (*cp->p != '_')
			return cxx_fail(cp);
	}
	cp->p++;
	if (n >= (size_t)cp->nsubs)
		return cxx_fail(cp);
	cxx_copy(cp, cp->subs[n].off, cp->subs[n].len);
	cp->class_len = 0; /* no constructor named after a substitution here */
	return true;
}

static bool cxx_type(struct cxx_printer *cp);

/* The name of the builtin type at *@p, *@p past its code; NULL when none. */
static const char *cxx_builtin(const char **p)
{
	static const char *const lower[26] = {
		['a' - 'a'] = "signed char", ['b' - 'a'] = "bool",
		['c' - 'a'] = "char",	     ['d' - 'a'] = "double",
		['e' - 'a'] = "long double", ['f' - 'a'] = "float",
		['g' - 'a'] = "__float128",  ['h' - 'a'] = "unsigned char",
		['i' - 'a'] = "int",	     ['j' - 'a'] = "unsigned int",
		['l' - 'a'] = "long",	     ['m' - 'a'] = "unsigned long",
		['n' - 'a'] = "__int128",    ['o' - 'a'] = "unsigned __int128",
		['s' - 'a'] = "short",	     ['t' - 'a'] = "unsigned short",
		['v' - 'a'] = "void",	     ['w' - 'a'] = "wchar_t",
		['x' - 'a'] = "long long",   ['y' - 'a'] = "unsigned long long",
	};
	const char *s = *p, *n = NULL;

	if (s[0] >= 'a' && s[0] <= 'z' && lower[s[0] - 'a']) {
		*p = s + 1;
		return lower[s[0] - 'a'];
	}
	if (s[0] == 'D')
		n = s[1] == 'n'	  ? "decltype(nullptr)"
		    : s[1] == 's' ? "char16_t"
		    : s[1] == 'i' ? "char32_t"
				  : NULL;
	if (n)
		*p = s + 2;
	return n;
}

/*
 * After L: <type> <value> E, an integer literal: 5 (int), 5u, 5l, 5ul,
 * 5ll, 5ull, true, (char)97; an enumerator (Enum)2.
 */
static bool cxx_literal(struct cxx_printer *cp)
{
	static const struct {
		char code;
		const char *suffix;
	} suffixes[] = { { 'i', "" },	{ 'j', "u" },  { 'l', "l" },
			 { 'm', "ul" }, { 'x', "ll" }, { 'y', "ull" } };
	const char *t = cp->p, *name = cxx_builtin(&t), *suffix = NULL, *v;

	if (*cp->p == '_' || *cp->p == 'Z' || (name && strchr("vfdegnoz", *cp->p)))
		return cxx_fail(cp); /* external names, floats, __int128: libiberty's */
	for (size_t i = 0; name && i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (*cp->p == suffixes[i].code)
			suffix = suffixes[i].suffix;
	if (name) {
		cp->p = t;
		if (!suffix && *name != 'b')
			strbuf_addf(cp->sb, "(%s)", name);
	} else {
		strbuf_addch(cp->sb, '(');
		if (!cxx_type(cp))
			return false;
		strbuf_addch(cp->sb, ')');
	}
	v = cp->p + (*cp->p == 'n');
	if (!isdigit((unsigned char)*v))
		return cxx_fail(cp);
	while (isdigit((unsigned char)*v))
		v++;
	if (*v != 'E')
		return cxx_fail(cp);
	if (name && *name == 'b') {
		if (v - cp->p != 1 || (*cp->p != '0' && *cp->p != '1'))
			return cxx_fail(cp);
		strbuf_addstr(cp->sb, *cp->p == '1' ? "true" : "false");
	} else {
		if (*cp->p == 'n')
			strbuf_addch(cp->sb, '-');
		strbuf_add(cp->sb, cp->p + (*cp->p == 'n'), v - cp->p - (*cp->p == 'n'));
		if (suffix)
			strbuf_addstr(cp->sb, suffix);
	}
	cp->p = v + 1;
	return true;
}

/*
 * <template-arg>* E (an argument pack's, J ... E, or of I ... E), each
 * after ", " but the first, the ", " taken back before one that prints
 * nothing (an empty pack): libiberty's "A<, int>" and "A<int>".  *@cut:
 * the last one was such (libiberty then closes "B<int> >>" unspaced).
 */
static bool cxx_arg_list(struct cxx_printer *cp, bool *cut)
{
	bool first = true;

	*cut = false;
	while (*cp->p != 'E') {
		size_t at = cp->sb->len;

		if (!*cp->p || ++cp->depth > CXX_DEPTH_MAX)
			return cxx_fail(cp);
		if (!first)
			strbuf_addstr(cp->sb, ", ");
		if (*cp->p == 'J') {
			bool inner;

			cp->p++;
			if (!cxx_arg_list(cp, &inner))
				return false;
		} else if (*cp->p == 'L') {
			cp->p++;
			if (!cxx_literal(cp))
				return false;
		} else if (!cxx_type(cp)) {
			return false;
		}
		*cut = !first && cp->sb->len == at + 2;
		if (*cut)
			strbuf_setlen(cp->sb, at);
		first = false;
		cp->depth--;
	}
	cp->p++;
	return true;
}

/* I <template-arg>+ E, appended as <...>. */
static bool cxx_template_args(struct cxx_printer *cp)
{
	size_t class_off = cp->class_off, class_len = cp->class_len;
	bool cut;

	cp->p++;
	/* "operator< <int>" */
	if (cp->sb->len && cp->sb->buf[cp->sb->len - 1] == '<')
		strbuf_addch(cp->sb, ' ');
	strbuf_addch(cp->sb, '<');
	if (!cxx_arg_list(cp, &cut))
		return false;
	/* the arguments name no constructor: the template does */
	cp->class_off = class_off;
	cp->class_len = class_len;
	if (!cut && cp->sb->buf[cp->sb->len - 1] == '>')
		strbuf_addch(cp->sb, ' ');
	strbuf_addch(cp->sb, '>');
	return true;
}

/* An abbreviation of std:: after S (a, b): appended; false for any other. */
static bool cxx_abbreviation(struct cxx_printer *cp)
{
	if (cp->p[1] != 'a' && cp->p[1] != 'b')
		return false;
	strbuf_addstr(cp->sb, cp->p[1] == 'a' ? "std::allocator" : "std::basic_string");
	cp->p += 2;
	cp->class_len = 0;
	return true;
}

/*
 * N [CV-qualifiers] [ref-qualifier] <prefix> <unqualified-name> E, from
 * @start of the output: each prefix followed by more (and not a bare
 * substitution) a candidate; the name itself is the caller's.
 */
static bool cxx_nested_name(struct cxx_printer *cp, size_t start)
{
	int parts = 0;

	cp->p++;
	while (*cp->p && strchr("rVKRO", *cp->p))
		cp->p++;
	while (*cp->p != 'E') {
		bool sub = false;

		if (*cp->p == 'I') {
			if (!parts || !cxx_template_args(cp))
				return cxx_fail(cp);
		} else {
			if (parts)
				strbuf_addstr(cp->sb, "::");
			if (cp->p[0] == 'S' && cp->p[1] == 't' && !parts) {
				strbuf_addstr(cp->sb, "std::");
				cp->p += 2;
				if (!cxx_source_name(cp))
					return false;
			} else if (cp->p[0] == 'S' && !parts) {
				sub = true;
				if (!cxx_abbreviation(cp)) {
					cp->p++;
					if (!cxx_substitution(cp))
						return false;
				}
			} else if ((cp->p[0] == 'C' && (cp->p[1] == '1' || cp->p[1] == '2')) ||
				   (cp->p[0] == 'D' && cp->p[1] >= '0' && cp->p[1] <= '2')) {
				/* the class's name again, after '~' for a destructor */
				if (!cp->class_len || cp->p[2] != 'E')
					return cxx_fail(cp);
				if (cp->p[0] == 'D')
					strbuf_addch(cp->sb, '~');
				cxx_copy(cp, cp->class_off, cp->class_len);
				cp->p += 2;
			} else if (islower((unsigned char)cp->p[0])) {
				if (!cxx_operator(cp))
					return cxx_fail(cp);
			} else {
				/* L: internal linkage, not printed */
				if (*cp->p == 'L')
					cp->p++;
				if (!cxx_source_name(cp))
					return false;
			}
		}
		parts++;
		if (*cp->p != 'E' && !sub)
			cxx_add_sub(cp, start);
		if (cp->failed)
			return false;
	}
	cp->p++;
	return parts ? true : cxx_fail(cp);
}

/*
 * A class or enum type from @start of the output: nested, std::, an
 * abbreviation or substitution, a source name, with template arguments;
 * the type (and a template's name) a candidate.
 */
static bool cxx_class_type(struct cxx_printer *cp, size_t start)
{
	bool sub = false;

	if (*cp->p == 'N') {
		if (!cxx_nested_name(cp, start))
			return false;
	} else if (cp->p[0] == 'S' && cp->p[1] == 't') {
		strbuf_addstr(cp->sb, "std::");
		cp->p += 2;
		if (!cxx_source_name(cp))
			return false;
	} else if (cp->p[0] == 'S') {
		sub = true;
		if (!cxx_abbreviation(cp)) {
			cp->p++;
			if (!cxx_substitution(cp))
				return false;
		}
	} else if (!cxx_source_name(cp)) {
		return false;
	}
	if (*cp->p == 'I') {
		if (!sub)
			cxx_add_sub(cp, start); /* the template's name */
		if (!cxx_template_args(cp))
			return false;
		sub = false;
	}
	if (!sub)
		cxx_add_sub(cp, start);
	return !cp->failed;
}

/* A <type> (of a template argument), appended as libiberty prints it. */
static bool cxx_type(struct cxx_printer *cp)
{
	size_t start = cp->sb->len;
	const char *quals = cp->p, *end, *name;
	char how;
	bool ok = true;

	if (++cp->depth > CXX_DEPTH_MAX)
		return cxx_fail(cp);
	name = cxx_builtin(&cp->p);
	if (name) {
		strbuf_addstr(cp->sb, name);
		cp->depth--;
		return true;
	}
	switch (*cp->p) {
	case 'r':
	case 'V':
	case 'K':
		while (*cp->p == 'r' || *cp->p == 'V' || *cp->p == 'K')
			cp->p++;
		end = cp->p;
		ok = cxx_type(cp);
		/* after the type, the qualifier nearest it first: "int const volatile" */
		for (const char *q = end; ok && q-- > quals;)
			strbuf_addstr(cp->sb, *q == 'K'	  ? " const"
					      : *q == 'V' ? " volatile"
							  : " restrict");
		break;
	case 'P':
	case 'R':
	case 'O':
		how = *cp->p++;
		ok = cxx_type(cp);
		strbuf_addstr(cp->sb, how == 'P' ? "*" : how == 'R' ? "&" : "&&");
		break;
	case 'N':
	case 'S':
	case '1' ... '9':
		ok = cxx_class_type(cp, start);
		cp->depth--;
		return ok;
	default:
		return cxx_fail(cp); /* function, array, member pointer, template parameter... */
	}
	if (ok)
		cxx_add_sub(cp, start);
	cp->depth--;
	return ok && !cp->failed;
}

/*
 * @sym's display name appended to @sb by the printer above: false (and
 * @sb as it was) for a name it leaves to libiberty.
 */
static bool demangle_plain(struct strbuf *sb, const char *sym)
{
	static const struct {
		const char code[3], *says;
	} specials[] = { { "TV", "vtable for " },
			 { "TI", "typeinfo for " },
			 { "TS", "typeinfo name for " },
			 { "GV", "guard variable for " } };
	struct cxx_printer cp; /* not zeroed: 4 KB a name, a seventh of -F */
	size_t at = sb->len, start;
	const char *special = NULL;

	cp.p = sym + 2;
	cp.sb = sb;
	cp.nsubs = 0;
	cp.depth = 0;
	cp.failed = false;
	cp.class_off = 0;
	cp.class_len = 0;

	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (cp.p[0] == specials[i].code[0] && cp.p[1] == specials[i].code[1]) {
			strbuf_addstr(sb, specials[i].says);
			special = specials[i].code;
			cp.p += 2;
			break;
		}
	start = sb->len;
	if (special && special[0] == 'T') {
		/* of a class: a type */
		if (!cxx_class_type(&cp, start) || *cp.p)
			goto other;
		return true;
	}
	if (*cp.p == 'L' && !special)
		cp.p++;
	if (*cp.p == 'N') {
		if (!cxx_nested_name(&cp, start))
			goto other;
	} else {
		if (cp.p[0] == 'S' && cp.p[1] == 't') {
			strbuf_addstr(sb, "std::");
			cp.p += 2;
			if (*cp.p == 'L')
				cp.p++;
		}
		if (islower((unsigned char)*cp.p) ? !cxx_operator(&cp) : !cxx_source_name(&cp))
			goto other;
		if (*cp.p == 'I') {
			cxx_add_sub(&cp, start); /* the template's name */
			if (!cxx_template_args(&cp))
				goto other;
		}
	}
	/*
	 * Not printed: the parameters' types (a variable has none) and a
	 * clone's suffix (".cold", ".isra.0"), as libiberty without
	 * parameters.  It reads them, and gives up on a name whose
	 * parameters are not well formed, which no compiler writes.
	 */
	if (cp.failed || *cp.p == 'I' || (special && *cp.p))
		goto other;
	return true;
other:
	strbuf_setlen(sb, at);
	return false;
}

/* demangle_sym(@sym, false) appended to @sb: true, else false and @sb as it was. */
static bool demangle_add(struct strbuf *sb, const char *sym)
{
	size_t at = sb->len;
	char *d;

	if (strncmp(sym, "_Z", 2) && strncmp(sym, "_R", 2))
		return false;
	if (sym[1] == 'Z' && !rust_legacy_hash(sym)) {
		if (demangle_plain(sb, sym))
			return true;
		/* printed into @sb, not into a string of its own */
		if (cplus_demangle_v3_callback(sym, DMGL_ANSI, add_piece, sb))
			return true;
		strbuf_setlen(sb, at);
		return false;
	}
	d = demangle_sym(sym, false);
	if (d)
		strbuf_addstr(sb, d);
	free(d);
	return d != NULL;
}

void demangle_display_add(struct strbuf *sb, const char *sym, bool demangle)
{
	size_t len = strlen(sym);

	if (demangle && len > 4 && !strcmp(sym + len - 4, "@plt")) {
		/*
		 * "_ZdlPv@plt" is "operator delete@plt", an import (perf's
		 * default filter hides it), not "operator delete": the
		 * demangler would drop the suffix.  A version (@@GLIBCXX_3.4)
		 * goes, as in perf.
		 */
		char *base = xstrndup(sym, len - 4);
		bool done = demangle_add(sb, base);

		free(base);
		if (done) {
			strbuf_add(sb, sym + len - 4, 4);
			return;
		}
	} else if (demangle && demangle_add(sb, sym)) {
		return;
	}
	strbuf_add(sb, sym, len);
}

char *demangle_display(const char *sym, bool demangle)
{
	struct strbuf sb = STRBUF_INIT;

	demangle_display_add(&sb, sym, demangle);
	return strbuf_detach(&sb, NULL);
}

const char *demangle_own_name(const char *name)
{
	const char *last = name;
	int depth = 0;

	for (const char *p = name; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth > 0)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			last = p + 2, p++;
	}
	if (!*last || isdigit((unsigned char)*last))
		return NULL;
	for (const char *c = last; *c; c++)
		if (!ident_char((unsigned char)*c))
			return NULL;
	return last;
}

bool demangle_is_glob(const char *pattern)
{
	return strpbrk(pattern, "*?[") != NULL;
}

char *demangle_normalize(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = name; *p; p++) {
		if (!isspace((unsigned char)*p)) {
			strbuf_addch(&sb, *p);
			continue;
		}
		while (isspace((unsigned char)p[1]))
			p++;
		if (sb.len && ident_char((unsigned char)sb.buf[sb.len - 1]) &&
		    ident_char((unsigned char)p[1]))
			strbuf_addch(&sb, ' ');
	}
	return strbuf_detach(&sb, NULL);
}

/* The first '(' of @s outside <...>, or NULL. */
static const char *params_start(const char *s)
{
	int angle = 0;

	for (; *s; s++) {
		if (*s == '(' && !strncmp(s, "(anonymous namespace)", 21))
			s += 20;
		else if (*s == '<')
			angle++;
		else if (*s == '>' && angle)
			angle--;
		else if (*s == '(' && !angle)
			return s;
	}
	return NULL;
}

bool demangle_is_source_name(const char *pattern)
{
	return strstr(pattern, "::") || strchr(pattern, '<') || params_start(pattern);
}

static bool name_is(const char *pattern, const char *name)
{
	if (demangle_is_glob(pattern))
		return !fnmatch(pattern, name, 0);
	return !strcmp(pattern, name);
}

/*
 * Can @sym be the function @pattern names?  A mangled name spells the
 * function's own identifier (the last component of a qualified name, not
 * a glob, an operator, a destructor or a constructor, which the mangling
 * writes another way) as it is: a symbol without it is not demangled.
 */
static bool may_name(const char *pattern, const char *sym)
{
	const char *end = params_start(pattern), *last = pattern, *prev = NULL, *p;
	size_t len, plen = 0;

	if (!end)
		end = pattern + strlen(pattern);
	for (p = pattern; p < end; p++) {
		if (*p == '<' || *p == ' ')
			return true; /* a template's arguments, a return type */
		if (p[0] == ':' && p[1] == ':') {
			prev = last, plen = p - last;
			last = p + 2;
			p++;
		}
	}
	len = end - last;
	if (!len || !strncmp(last, "operator", 8))
		return true;
	for (p = last; p < end; p++)
		if (!ident_char((unsigned char)*p))
			return true;
	if (prev && plen == len && !strncmp(prev, last, len))
		return true; /* a constructor */
	return memmem(sym, strlen(sym), last, len) != NULL;
}

bool demangle_match(const char *pattern, const char *sym)
{
	char *d, *want, *have;
	const char *from;
	bool ok;

	if (!pattern || !sym)
		return false;
	if (name_is(pattern, sym))
		return true;
	if (strncmp(sym, "_Z", 2) && strncmp(sym, "_R", 2))
		return false;
	if (!demangle_is_glob(pattern) && !may_name(pattern, sym))
		return false;
	if (!params_start(pattern)) {
		d = demangle_sym(sym, false);
		ok = d && name_is(pattern, d);
		free(d);
		return ok;
	}
	/* A signature: from the name on (a template's return type comes first). */
	d = demangle_sym(sym, true);
	have = NULL;
	if (d) {
		char *base = demangle_sym(sym, false);

		from = base ? strstr(d, base) : NULL;
		have = demangle_normalize(from ? from : d);
		free(base);
	}
	want = demangle_normalize(pattern);
	ok = have && name_is(want, have);
	free(want);
	free(have);
	free(d);
	return ok;
}

/* FNV-1a, 32 bits. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void demangle_to_ident(struct strbuf *out, const char *name, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	bool plain = true;

	for (const char *p = name; *p; p++)
		plain &= ident_char((unsigned char)*p);
	if (plain) {
		strbuf_addstr(&sb, name);
	} else {
		bool gap = false;

		for (const char *p = name; *p; p++) {
			if (!ident_char((unsigned char)*p)) {
				gap = true;
				continue;
			}
			if (gap && sb.len)
				strbuf_addch(&sb, '_');
			gap = false;
			strbuf_addch(&sb, *p);
		}
	}
	if (sb.len && isdigit((unsigned char)sb.buf[0])) {
		struct strbuf tmp = STRBUF_INIT;

		strbuf_addch(&tmp, '_');
		strbuf_addstr(&tmp, sb.buf);
		strbuf_release(&sb);
		sb = tmp;
	}
	if (max > 9 && sb.len > max) {
		size_t cut = max - 9;

		while (cut > 1 && sb.buf[cut - 1] == '_')
			cut--;
		sb.buf[cut] = '\0';
		strbuf_addstr(out, sb.buf);
		strbuf_addf(out, "_%08x", name_hash(name));
	} else {
		strbuf_addstr(out, sb.buf);
	}
	strbuf_release(&sb);
}

size_t demangle_word_len(const char *s)
{
	const char *p = s;
	bool quoted = false;
	int depth = 0;

	for (; *p; p++) {
		if (quoted) /* no escapes inside quotes */
			quoted = *p != '"';
		else if (*p == '\\' && p[1])
			p++;
		else if (*p == '"')
			quoted = true;
		else if (*p == '(' || *p == '<')
			depth++;
		else if ((*p == ')' || *p == '>') && depth > 0)
			depth--;
		else if (!depth && strchr(" \t\n", *p))
			break;
	}
	return p - s;
}

int demangle_scan_name(const char *p, struct strbuf *name, bool *source)
{
	const char *s = p;
	int paren = 0, angle = 0;

	*source = false;
	if (*s == '"') {
		const char *close = strchr(s + 1, '"');

		if (!close)
			return DEMANGLE_SCAN_QUOTE;
		strbuf_add(name, s + 1, close - s - 1);
		*source = true;
		return close + 1 - p;
	}
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			strbuf_addch(name, *++s);
			*source = true;
			continue;
		}
		if (*s == '"')
			return DEMANGLE_SCAN_QUOTE;
		if (*s == '(' || *s == ')' || *s == '<' || *s == '>')
			*source = true;
		if (*s == '(') {
			paren++;
		} else if (*s == ')') {
			if (!paren--)
				return DEMANGLE_SCAN_PAREN;
		} else if (*s == '<') {
			angle++;
		} else if (*s == '>' && angle) {
			angle--;
		} else if (!paren && !angle) {
			if (s[0] == ':' && s[1] == ':') {
				strbuf_addstr(name, "::");
				s++;
				*source = true;
				continue;
			}
			if (strchr("@:+%;", *s))
				break;
		}
		strbuf_addch(name, *s);
	}
	if (paren)
		return DEMANGLE_SCAN_PAREN;
	return s - p;
}

void demangle_strip_params(char *name)
{
	size_t n = strlen(name);
	int depth = 0;

	if (n > 6 && !strcmp(name + n - 6, " const"))
		n -= 6;
	if (!n || name[n - 1] != ')')
		return;
	for (size_t i = n; i-- > 0;) {
		if (name[i] == ')')
			depth++;
		else if (name[i] == '(' && !--depth) {
			if (i)
				name[i] = '\0';
			return;
		}
	}
}

void demangle_quote_name(struct strbuf *sb, const char *name)
{
	struct strbuf back = STRBUF_INIT, follow = STRBUF_INIT;
	bool source;
	int n;
	bool as_is;

	/* Read back up to a ';' after it (no '<' left open), one word, and not
	 * taken for EVENT=, %SDT or 0xADDR. */
	strbuf_addf(&follow, "%s;", name);
	n = demangle_scan_name(follow.buf, &back, &source);
	strbuf_release(&follow);
	as_is = n >= 0 && (size_t)n == strlen(name) && source &&
		!strcmp(back.buf ? back.buf : "", name) &&
		demangle_word_len(name) == strlen(name) && !strchr(name, '=') && name[0] != '%' &&
		strncmp(name, "0x", 2) && !strpbrk(name, "@+%;\"\\");

	/* A ':' that is not half of a "::" would start a line number. */
	for (const char *c = name; as_is && (c = strchr(c, ':'));) {
		if (c[1] != ':')
			as_is = false;
		else
			c += 2;
	}

	strbuf_release(&back);
	if (as_is) {
		strbuf_addstr(sb, name);
	} else if (!strchr(name, '"')) {
		strbuf_addf(sb, "\"%s\"", name);
	} else {
		/* The first one too: "\\0x..." is no address. */
		for (const char *p = name; *p; p++) {
			if (p == name || !isalnum((unsigned char)*p))
				strbuf_addch(sb, '\\');
			strbuf_addch(sb, *p);
		}
	}
}
