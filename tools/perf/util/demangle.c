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
	for (const char *h = strstr(sym, "17h"); h; h = strstr(h + 1, "17h")) {
		size_t n = strspn(h + 3, "0123456789abcdef");

		if (n == 16 && h[19] == 'E')
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
 * The <source-name> at *@p (a length, then that many characters) appended
 * to @sb as libiberty prints it, *@anon when it is an anonymous namespace:
 * false when it is none (or runs past the name's end).
 */
static bool plain_source_name(struct strbuf *sb, const char **p, bool *anon)
{
	const char *s = *p;
	size_t len = 0;

	if (*s < '1' || *s > '9')
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		len = len * 10 + (size_t)(*s - '0');
		if (len > 4096)
			return false;
	}
	if (strnlen(s, len) < len)
		return false;
	/* "_GLOBAL_" [._$] "N": an anonymous namespace */
	*anon = len >= 10 && !strncmp(s, "_GLOBAL_", 8) && strchr("._$", s[8]) && s[9] == 'N';
	if (*anon)
		strbuf_addstr(sb, "(anonymous namespace)");
	else
		strbuf_add(sb, s, len);
	*p = s + len;
	return true;
}

/*
 * Most names of a C++ program are plain: _Z [L] <source-name> and
 * _ZN [rVKRO] (St | <source-name> | a constructor or destructor)... E,
 * whatever the parameters after them.  Printed without parameters (what
 * -F shows) such a name is its parts joined by "::", which is written
 * here; libiberty's general printer cost five times as much, and was
 * most of -F on libjvm's 56,528 names (84% of them plain).  Any other
 * name (templates, substitutions, operators, ABI tags, clones...): false
 * and @sb as it was, for libiberty.  test-demangle checks this against
 * libiberty over real programs' symbol tables.
 */
static bool demangle_plain(struct strbuf *sb, const char *sym)
{
	static const struct {
		const char code[3], *says;
	} specials[] = { { "TV", "vtable for " },
			 { "TI", "typeinfo for " },
			 { "TS", "typeinfo name for " },
			 { "GV", "guard variable for " } };
	size_t at = sb->len, last = 0, last_len = 0;
	const char *p = sym + 2;
	bool special = false, anon;
	int parts = 0;

	/* the special names of a class (and a guard): of a plain name here */
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (p[0] == specials[i].code[0] && p[1] == specials[i].code[1]) {
			strbuf_addstr(sb, specials[i].says);
			special = true;
			p += 2;
			break;
		}
	if (*p == 'L' && !special)
		p++;
	if (*p != 'N') {
		if (!plain_source_name(sb, &p, &anon))
			goto other;
		/* the parameters' types: not template arguments, an ABI tag, a clone */
		if (*p == 'I' || *p == 'B' || strchr(p, '.') || (special && *p))
			goto other;
		return true;
	}
	for (p++; *p && strchr("rVKRO", *p); p++)
		;
	if (p[0] == 'S' && p[1] == 't') {
		strbuf_addstr(sb, "std");
		parts++;
		p += 2;
	}
	while (*p != 'E') {
		if (parts)
			strbuf_addstr(sb, "::");
		if ((p[0] == 'C' && (p[1] == '1' || p[1] == '2')) ||
		    (p[0] == 'D' && p[1] >= '0' && p[1] <= '2')) {
			/* the class's name again, after '~' for a destructor */
			if (!last_len || special ||
			    (p[2] != 'E' && p[2] != 'I' && !isdigit((unsigned char)p[2])))
				goto other;
			if (p[0] == 'D')
				strbuf_addch(sb, '~');
			/* grown first: the copy is of sb's own bytes */
			strbuf_grow(sb, last_len);
			strbuf_add(sb, sb->buf + last, last_len);
			p += 2;
			if (*p != 'E')
				goto other;
		} else {
			last = sb->len;
			if (!plain_source_name(sb, &p, &anon))
				goto other;
			/* an anonymous namespace is no class of a constructor */
			last_len = anon ? 0 : sb->len - last;
		}
		parts++;
	}
	/* a special name's type ends at its 'E' */
	if (!parts || strchr(p, '.') || (special && p[1]))
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
