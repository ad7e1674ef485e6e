// SPDX-License-Identifier: GPL-2.0
/*
 * The vocabulary of every probe stage (see probe-spec.h): the perf probe
 * spec grammar (perf_probe_event) and its synthesis back to text, the
 * words and identifiers the k/uprobe_events line grammar (probe-trace.c)
 * shares, the clear functions, and "[GROUP:]EVENT" glob matching.  Pure text and data: no
 * file, tracefs, ELF or DWARF is touched here.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/arch-regs.h"
#include "util/debug.h"
#include "util/demangle.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The longest kernel array fetcharg ("u8[64]"), MAX_ARRAY_LEN in the kernel. */
#define MAX_TYPE_ARRAY_LEN 64

/* Print "Semantic error :<message>" as one line; returns -EINVAL. */
/* Where semantic_error() writes while a word's error is held, or NULL. */
static struct strbuf *held_error;

int semantic_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (held_error) {
		strbuf_reset(held_error);
		strbuf_addf(held_error, "Semantic error :%s", sb.buf);
	} else {
		pr_err("Semantic error :%s\n", sb.buf);
	}
	strbuf_release(&sb);
	return -EINVAL;
}

/*
 * A point perf 6.1 lets through its option parser and then fails to find
 * ('handle:', 'han-dle', 'handle+-1'): the same words, but -ENOENT, so
 * that -a and -D fail with perf's status (254), not as a usage error.
 */
#define late_error(...) (semantic_error(__VA_ARGS__), -ENOENT)

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Is [s, s+n) a C identifier? */
bool is_c_ident_n(const char *s, size_t n)
{
	if (!n || !is_ident_start((unsigned char)s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_ident_char((unsigned char)s[i]))
			return false;
	return true;
}

bool is_c_func_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n <= MAX_EVENT_NAME_LEN && is_c_ident_n(name, n);
}

/* An SDT/cached event name may be a glob: "%sdt_libc:*". */
static bool is_event_glob(const char *s, size_t n)
{
	if (!n || n > MAX_EVENT_NAME_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_ident_char((unsigned char)s[i]) && !strchr("*?", s[i]))
			return false;
	return true;
}

/* The function name at @p of point @tok (demangle_scan_name()). */
static int scan_func_name(const char *p, const char *tok, struct strbuf *name, bool *source)
{
	static const char *const why[] = {
		[-DEMANGLE_SCAN_QUOTE] = "Unbalanced quote",
		[-DEMANGLE_SCAN_PAREN] = "Unbalanced parenthesis",
	};
	int ret = demangle_scan_name(p, name, source);

	return ret < 0 ? semantic_error("%s in '%s'.", why[-ret], tok) : ret;
}

/* A source-level name: printable ASCII (blanks of signatures included). */
static bool is_printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* A function name or glob: identifiers, '.' (foo.isra.0) and glob characters. */
static bool is_func_pattern(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!is_ident_char((unsigned char)*s) && !strchr(".*?[]!", *s))
			return false;
	return true;
}

/*
 * Split @str at blanks into a NULL-terminated array of new strings;
 * *argc gets the count.  The caller frees with free_words().
 */
static char **split_words_as(const char *str, int *argc, bool source_name)
{
	char **argv = xzalloc(sizeof(*argv));
	size_t alloc = 1;
	int n = 0;

	for (;;) {
		size_t len;

		while (*str == ' ' || *str == '\t' || *str == '\n')
			str++;
		if (!*str)
			break;
		len = n || !source_name ? strcspn(str, " \t\n") : demangle_word_len(str);
		ALLOC_GROW(argv, n + 2, alloc);
		argv[n++] = xstrndup(str, len);
		argv[n] = NULL;
		str += len;
	}
	*argc = n;
	return argv;
}

char **split_words(const char *str, int *argc)
{
	return split_words_as(str, argc, true);
}

char **split_blank_words(const char *str, int *argc)
{
	return split_words_as(str, argc, false);
}

void free_words(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/*
 * The first @c in @s outside "..." and (...) ; with @last the last one.
 * Returns NULL when there is none.
 */
const char *find_toplevel(const char *s, char c, bool last)
{
	const char *found = NULL;
	bool quoted = false;
	int depth = 0;

	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		else if (*s == c && depth == 0) {
			found = s;
			if (!last)
				break;
		}
	}
	return found;
}

/* ---- types ------------------------------------------------------------ */

static bool is_basic_type_n(const char *t, size_t n)
{
	static const char *const named[] = { "string", "ustring", "char", "symbol", "symstr" };
	static const char *const bits[] = { "8", "16", "32", "64" };

	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (strlen(named[i]) == n && !strncmp(named[i], t, n))
			return true;
	if (n < 2 || !strchr("sux", t[0]))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (strlen(bits[i]) == n - 1 && !strncmp(bits[i], t + 1, n - 1))
			return true;
	return false;
}

/* Parse a decimal number filling all of [s, s+n); false if it does not. */
static bool parse_dec_n(const char *s, size_t n, unsigned long *val)
{
	unsigned long v = 0;

	if (!n || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*val = v;
	return true;
}

/* b<bit-width>@<bit-offset>/<container-size>, the bits inside the container. */
static bool is_bitfield_type(const char *t)
{
	const char *at, *slash;
	unsigned long width, offset, size;

	if (t[0] != 'b')
		return false;
	at = strchr(t, '@');
	slash = at ? strchr(at, '/') : NULL;
	if (!at || !slash)
		return false;
	if (!parse_dec_n(t + 1, at - t - 1, &width) ||
	    !parse_dec_n(at + 1, slash - at - 1, &offset) ||
	    !parse_dec_n(slash + 1, strlen(slash + 1), &size))
		return false;
	if (size != 8 && size != 16 && size != 32 && size != 64)
		return false;
	return width >= 1 && width + offset <= size;
}

/* A fetcharg type as the kernel's README lists it (%pd/%pD: kprobes only). */
static bool is_valid_type(const char *t)
{
	size_t n = strlen(t);
	const char *br = strchr(t, '[');
	unsigned long len;

	if (!strcmp(t, "%pd") || !strcmp(t, "%pD"))
		return true;
	if (br) {
		if (t[n - 1] != ']' || !parse_dec_n(br + 1, t + n - 2 - br, &len))
			return false;
		if (len < 1 || len > MAX_TYPE_ARRAY_LEN)
			return false;
		return is_basic_type_n(t, br - t);
	}
	return is_basic_type_n(t, n) || is_bitfield_type(t);
}

/* ---- perf probe arguments --------------------------------------------- */

static bool is_special_var(const char *v)
{
	static const char *const names[] = { "$retval", "$params", "$vars", "$comm", "$stack" };
	unsigned long n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i]))
			return true;
	if (!strncmp(v, "$stack", 6) && parse_dec_n(v + 6, strlen(v + 6), &n))
		return true;
	if (!strncmp(v, "$arg", 4) && parse_dec_n(v + 4, strlen(v + 4), &n) && n >= 1)
		return true;
	return false;
}

/*
 * A raw fetcharg of [s, s+n): %REG, @SYM, $special, \imm, "str" or
 * +|-[u]OFFS(raw).  Returns NULL when valid, else the part at fault.
 */
static const char *check_raw_fetcharg(const char *s, size_t n, const char *arch, int *errlen)
{
	*errlen = (int)n;
	if (!n)
		return s;
	switch (s[0]) {
	case '%': {
		char *reg = xstrndup(s + 1, n - 1);
		bool ok = arch_regs__is_valid(arch, reg);

		free(reg);
		return ok ? NULL : s;
	}
	case '@':
		return n > 1 ? NULL : s;
	case '\\':
		return n > 1 ? NULL : s;
	case '"':
		return n > 1 && s[n - 1] == '"' ? NULL : s;
	case '$': {
		char *v = xstrndup(s, n);
		bool ok = is_special_var(v);

		free(v);
		return ok ? NULL : s;
	}
	case '+':
	case '-': {
		const char *p = s + 1, *open;
		char *end;

		if (*p == 'u')
			p++;
		open = memchr(p, '(', n - (p - s));
		if (!open || s[n - 1] != ')' || open == p)
			return s;
		strtol(p, &end, 0);
		if (end != open)
			return s;
		return check_raw_fetcharg(open + 1, s + n - 1 - (open + 1), arch, errlen);
	}
	}
	return s;
}

static void add_field(struct perf_probe_arg *arg, struct perf_probe_arg_field ***tail,
		      const char *name, size_t n, long index, bool ref)
{
	struct perf_probe_arg_field *f = xzalloc(sizeof(*f));

	f->name = xstrndup(name, n);
	f->index = index;
	f->ref = ref;
	**tail = f;
	*tail = &f->next;
}

/* VAR[->F|.F|[N]]... into arg->var and arg->field. */
static int parse_c_variable(const char *v, const char *argstr, struct perf_probe_arg *arg)
{
	struct perf_probe_arg_field **tail = &arg->field;
	const char *p = v;
	size_t n = 0;

	while (is_ident_char((unsigned char)p[n]))
		n++;
	if (!is_c_ident_n(p, n))
		return semantic_error("'%s' is not a variable, register or fetcharg in '%s'.", v,
				      argstr);
	arg->var = xstrndup(p, n);
	p += n;
	while (*p) {
		bool ref = false;

		if (p[0] == '[') {
			const char *close = strchr(p, ']');
			unsigned long idx;

			if (!close || !parse_dec_n(p + 1, close - p - 1, &idx))
				return semantic_error("Array index must be a number: '%s' in '%s'.",
						      p, argstr);
			add_field(arg, &tail, p, close + 1 - p, (long)idx, false);
			p = close + 1;
			continue;
		}
		if (p[0] == '-' && p[1] == '>') {
			ref = true;
			p += 2;
		} else if (p[0] == '.') {
			p++;
		} else if (p[0] == '=') {
			{
				/* perf looks "c=d" up as a variable: not found. */
				semantic_error("'%s': an argument has one NAME= at most, in '%s'.",
					       p, argstr);
				return -ENOENT;
			}
		} else {
			return semantic_error("'%s' is not a valid member access in '%s'.", p,
					      argstr);
		}
		n = 0;
		while (is_ident_char((unsigned char)p[n]))
			n++;
		if (!is_c_ident_n(p, n))
			return semantic_error("'%s' needs a member name in '%s'.", ref ? "->" : ".",
					      argstr);
		add_field(arg, &tail, p, n, 0, ref);
		p += n;
	}
	return 0;
}

static bool strip_suffix(char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n < m || strcmp(s + n - m, suffix))
		return false;
	s[n - m] = '\0';
	return true;
}

/* One argument word, its registers those of @arch (NULL: the host). */
static int parse_arg(const char *str, const char *arch, struct perf_probe_arg *arg)
{
	char *buf = xstrdup(str), *val = buf;
	const char *eq, *colon, *bad;
	int ret = 0, errlen;

	eq = find_toplevel(buf, '=', false);
	if (eq && eq != buf && buf[0] != '"' && buf[0] != '\\') {
		if (!is_c_ident_n(buf, eq - buf)) {
			char *name = xstrndup(buf, eq - buf);

			ret = semantic_error("'%s' is bad for argument name in '%s'.", name, str);
			free(name);
			goto out;
		}
		arg->name = xstrndup(buf, eq - buf);
		val = buf + (eq - buf) + 1;
	} else if (eq == buf) {
		ret = semantic_error("'' is bad for argument name in '%s'.", str);
		goto out;
	}
	if (strip_suffix(val, "@user"))
		arg->user_access = true;
	colon = find_toplevel(val, ':', true);
	if (colon) {
		const char *type = colon + 1;

		if (!is_valid_type(type)) {
			ret = semantic_error("'%s' is not a valid type in '%s'.", type, str);
			goto out;
		}
		arg->type = xstrdup(type);
		val[colon - val] = '\0';
	}
	if (!arg->user_access && strip_suffix(val, "@user"))
		arg->user_access = true;
	if (!*val) {
		ret = semantic_error("No variable or value in '%s'.", str);
		goto out;
	}
	if (is_ident_start((unsigned char)val[0])) {
		ret = parse_c_variable(val, str, arg);
		goto out;
	}
	bad = check_raw_fetcharg(val, strlen(val), arch, &errlen);
	if (bad) {
		if (bad[0] == '%')
			ret = semantic_error("'%.*s' is not a register of %s in '%s'.", errlen, bad,
					     arch ? arch : arch_regs__host_arch(), str);
		else if (bad[0] == '$')
			ret = semantic_error("'%.*s' is not a special variable ($retval, $params, "
					     "$vars, $comm, $argN, $stackN) in '%s'.",
					     errlen, bad, str);
		else
			ret = semantic_error("'%.*s' is not a variable, register or fetcharg in "
					     "'%s'.",
					     errlen, bad, str);
		goto out;
	}
	arg->var = xstrdup(val);
out:
	free(buf);
	return ret;
}

/* ---- perf probe points ------------------------------------------------ */

/* "%[GROUP:]EVENT" or "sdt_PROVIDER:NAME" at @s (without the '%'). */
static int parse_sdt_event(const char *s, const char *tok, struct perf_probe_event *pev)
{
	const char *colon = strchr(s, ':');
	const char *ev = colon ? colon + 1 : s;

	if (colon && !is_event_glob(s, colon - s))
		return semantic_error("'%.*s' is bad for group name in '%s'.", (int)(colon - s), s,
				      tok);
	if (!is_event_glob(ev, strlen(ev)))
		return semantic_error("'%s' is bad for event name in '%s'.", ev, tok);
	if (colon)
		pev->group = xstrndup(s, colon - s);
	pev->event = xstrdup(ev);
	pev->sdt = true;
	return 0;
}

/* "[GROUP:]EVENT" of "[GROUP:]EVENT=..." in [s, s+n). */
static int parse_event_name(const char *s, size_t n, const char *tok, struct perf_probe_event *pev)
{
	const char *colon = memchr(s, ':', n);
	const char *ev = colon ? colon + 1 : s;
	size_t evlen = s + n - ev;

	if (colon && !is_c_ident_n(s, colon - s))
		return semantic_error("'%.*s' is bad for group name -it must follow C "
				      "symbol-naming rule in '%s'.",
				      (int)(colon - s), s, tok);
	if (colon && colon - s > MAX_EVENT_NAME_LEN)
		return semantic_error("'%.*s' is too long for a group name (%d > %d) in '%s'.",
				      (int)(colon - s), s, (int)(colon - s), MAX_EVENT_NAME_LEN,
				      tok);
	if (!is_c_ident_n(ev, evlen))
		return semantic_error("'%.*s' is bad for event name -it must follow C "
				      "symbol-naming rule in '%s'.",
				      (int)evlen, ev, tok);
	if (evlen > MAX_EVENT_NAME_LEN)
		return semantic_error("'%.*s' is too long for an event name (%zu > %d) in '%s'.",
				      (int)evlen, ev, evlen, MAX_EVENT_NAME_LEN, tok);
	if (colon)
		pev->group = xstrndup(s, colon - s);
	pev->event = xstrndup(ev, evlen);
	return 0;
}

static int parse_abs_address(const char *p, const char *tok, struct perf_probe_point *pp)
{
	const char *q = p + 2;
	char *end;

	if (!isxdigit((unsigned char)*q))
		return semantic_error("Invalid absolute address '%s' in '%s'.", p, tok);
	pp->abs_address = strtoull(q, &end, 16);
	if (!*end)
		return 0;
	if (!strcmp(end, "%return")) {
		pp->retprobe = true;
		return 0;
	}
	return semantic_error("Invalid absolute address '%s' in '%s'.", p, tok);
}

static int parse_point_suffixes(const char *p, const char *q, const char *end, const char *lazy,
				const char *tok, struct perf_probe_point *pp, bool func,
				size_t headlen, bool *has_line_out, bool *has_offset_out,
				bool *empty_line_out);

/*
 * FUNC[@SRC][:RLN|+OFFS|%return|;PTN] or SRC:ALN or SRC;PTN at @p.  FUNC
 * may be a source-level name: "shop::Cart::add", "\"NAME\"",
 * "shop\\:\\:Cart\\:\\:add", "shop::Cart::add(int)", "main.(*Server).poll"
 * (scan_func_name()).
 */
static int parse_probe_location(const char *p, const char *tok, struct perf_probe_point *pp)
{
	struct strbuf name = STRBUF_INIT;
	bool source;
	int scanned = scan_func_name(p, tok, &name, &source);
	size_t headlen = scanned > 0 ? (size_t)scanned : 0;
	const char *lazy = strchr(p + headlen, ';');
	const char *end = lazy ? lazy : p + strlen(p);
	bool has_line = false, has_offset = false, empty_line = false;
	/* perf refuses a bad SRC:LINE at once, a bad FUNC... only later. */
	bool func = headlen && (source || (!memchr(p, '.', headlen) && !memchr(p, '/', headlen)));
	const char *q = p + headlen;
	char *head;
	int ret;

	head = strbuf_detach(&name, NULL);
	if (scanned > 0 && *p == '"' && p[headlen] && !strchr("@:+%;", p[headlen]))
		scanned = semantic_error("'%s' follows the quoted name in '%s'.", p + headlen, tok);
	if (scanned < 0) {
		free(head);
		return scanned;
	}
	ret = parse_point_suffixes(p, q, end, lazy, tok, pp, func, headlen, &has_line, &has_offset,
				   &empty_line);
	if (ret) {
		free(head);
		return ret;
	}
	ret = 0;
	if (!*head) {
		ret = semantic_error("No function or source file name in '%s'.", tok);
	} else if (!source && !pp->file && strpbrk(head, "./") &&
		   (has_line || empty_line || pp->lazy_line)) {
		/* SRC:ALN or SRC;PTN */
		if (!pp->line && !pp->lazy_line)
			ret = semantic_error("File always requires line number or lazy pattern: "
					     "'%s'.",
					     tok);
		else
			pp->file = head, head = NULL;
	} else if (source ? !is_printable(head) : !is_func_pattern(head)) {
		ret = late_error("'%s' is not a valid function name in '%s'.", head, tok);
	} else {
		pp->function = head, head = NULL;
	}
	free(head);
	return ret;
}

/* The @, :, +, % and ; parts of a point after its head, from @q to @end. */
static int parse_point_suffixes(const char *p, const char *q, const char *end, const char *lazy,
				const char *tok, struct perf_probe_point *pp, bool func,
				size_t headlen, bool *has_line_out, bool *has_offset_out,
				bool *empty_line_out)
{
	bool has_line = false, has_offset = false;

	while (q < end) {
		char c = *q++;
		size_t n = strcspn(q, "@:+%;");
		unsigned long val;
		char *stop;

		switch (c) {
		case '@':
			if (pp->file)
				return semantic_error("SRC@SRC is not allowed: '@%.*s' in '%s'.",
						      (int)n, q, tok);
			if (!n && headlen)
				return late_error("'@' needs a source file name in '%s'.", tok);
			if (!n)
				return semantic_error("'@' needs a source file name in '%s'.", tok);
			pp->file = xstrndup(q, n);
			break;
		case ':':
			if (has_line)
				return late_error("Line number given twice: ':%.*s' in '%s'.",
						  (int)n, q, tok);
			/*
			 * An empty line number is no line, as in perf: scripts
			 * build FUNC:$line and rely on FUNC: being FUNC.
			 */
			if (!n && headlen) {
				*empty_line_out = true;
				break;
			}
			if (!n)
				return semantic_error("':' needs a line number in '%s'.", tok);
			if (q[0] == '-' && parse_dec_n(q + 1, n - 1, &val))
				return late_error("Line number ':%.*s' is negative in '%s'.",
						  (int)n, q, tok);
			if (!parse_dec_n(q, n, &val))
				return semantic_error("There is non-digit char in line number "
						      "':%.*s' in '%s'.",
						      (int)n, q, tok);
			pp->line = (int)val;
			has_line = true;
			break;
		case '+':
			if (has_offset)
				return late_error("Offset given twice: '+%.*s' in '%s'.", (int)n, q,
						  tok);
			if (!n)
				return late_error("'+' needs an offset in '%s'.", tok);
			if (q[0] == '-' && parse_dec_n(q + 1, n - 1, &val))
				return late_error("Offset '+%.*s' is negative in '%s'.", (int)n, q,
						  tok);
			errno = 0;
			val = strtoul(q, &stop, 0);
			if (stop != q + n || errno || *q == '-')
				return semantic_error("There is non-digit character in offset "
						      "'+%.*s' in '%s'.",
						      (int)n, q, tok);
			pp->offset = val;
			has_offset = true;
			break;
		case '%':
			if (n != 6 || strncmp(q, "return", 6))
				return semantic_error(
					"'%%%.*s' is not a valid probe point suffix in "
					"'%s'.",
					(int)n, q, tok);
			if (pp->retprobe)
				return late_error("'%%return' given twice in '%s'.", tok);
			pp->retprobe = true;
			break;
		}
		q += n;
	}
	if (lazy) {
		if (!lazy[1])
			return late_error("';' needs a lazy pattern in '%s'.", tok);
		pp->lazy_line = xstrdup(lazy + 1);
	}

	if (pp->retprobe && (has_line || has_offset || pp->lazy_line))
		return semantic_error("Offset/Line/Lazy pattern can't be used with return probe "
				      "in '%s'.",
				      tok);
	if (has_line && has_offset)
		return semantic_error("Offset can't be used with line number in '%s'.", tok);
	if (pp->lazy_line && has_offset)
		return semantic_error("Lazy pattern can't be used with offset in '%s'.", tok);
	if (pp->lazy_line && has_line)
		return semantic_error("Lazy pattern can't be used with line number in '%s'.", tok);
	*has_line_out = has_line;
	*has_offset_out = has_offset;
	return 0;
}

static int parse_probe_point_word(const char *tok, struct perf_probe_event *pev)
{
	const char *p = tok, *semi = strchr(tok, ';'), *eq = NULL;
	const char *colon = strchr(tok, ':');
	bool quoted = false;
	int ret;

	/* EVENT= is before a quoted or escaped function name ("a=b"). */
	for (const char *s = tok; *s && !eq; s++) {
		if (quoted)
			quoted = *s != '"';
		else if (*s == '\\' && s[1])
			s++;
		else if (*s == '"')
			quoted = true;
		else if (*s == '=')
			eq = s;
	}

	if (*p == '%')
		return parse_sdt_event(p + 1, tok, pev);
	if (!strncmp(p, "sdt_", 4) && colon && is_c_ident_n(p, colon - p) &&
	    is_event_glob(colon + 1, strlen(colon + 1)) && !isdigit((unsigned char)colon[1]))
		return parse_sdt_event(p, tok, pev);
	if (eq && (!semi || eq < semi)) {
		ret = parse_event_name(p, eq - p, tok, pev);
		if (ret)
			return ret;
		p = eq + 1;
	}
	if (!*p)
		return late_error("No probe point after '=' in '%s'.", tok);
	if (p[0] == '0' && p[1] == 'x')
		return parse_abs_address(p, tok, &pev->point);
	return parse_probe_location(p, tok, &pev->point);
}

int parse_perf_probe_arg(const char *str, struct perf_probe_arg *arg)
{
	return parse_arg(str, NULL, arg);
}

/*
 * One argument word for parse_perf_probe_command_late(): a word that does
 * not parse is held in pev->bad_arg (the first one only) and the event
 * keeps no arguments; the point alone is resolved.
 */
static int parse_arg_late(const char *word, struct perf_probe_event *pev)
{
	struct strbuf err = STRBUF_INIT;
	struct perf_probe_arg pa = { 0 };
	int ret;

	if (pev->bad_arg)
		return 0;
	held_error = &err;
	ret = parse_arg(word, pev->arch, &pa);
	held_error = NULL;
	if (!ret) {
		pev->args[pev->nargs++] = pa;
		strbuf_release(&err);
		return 0;
	}
	clear_perf_probe_arg(&pa);
	for (int i = 0; i < pev->nargs; i++)
		clear_perf_probe_arg(&pev->args[i]);
	pev->nargs = 0;
	pev->bad_arg = strbuf_detach(&err, NULL);
	pev->bad_arg_err = ret;
	pev->bad_arg_dwarf = is_ident_start((unsigned char)word[0]);
	return 0;
}

/*
 * The point word for parse_perf_probe_command_late(): an error perf finds
 * only later (late_error()) is held in pev->bad_arg with pev->bad_point
 * set, the rest of the event left empty; any other is told now.
 */
static int parse_point_late(const char *word, struct perf_probe_event *pev)
{
	struct strbuf err = STRBUF_INIT;
	char *target = pev->target;
	const char *arch = pev->arch;
	bool uprobes = pev->uprobes;
	int ret;

	held_error = &err;
	ret = parse_probe_point_word(word, pev);
	held_error = NULL;
	if (ret == -ENOENT) {
		pev->target = NULL;
		clear_perf_probe_event(pev);
		pev->target = target;
		pev->arch = arch;
		pev->uprobes = uprobes;
		pev->bad_arg = strbuf_detach(&err, NULL);
		pev->bad_arg_err = ret;
		pev->bad_point = true;
		return 0;
	}
	if (ret)
		pr_err("%s\n", err.buf);
	strbuf_release(&err);
	return ret;
}

static int parse_command(const char *cmd, struct perf_probe_event *pev, bool late)
{
	char **argv;
	int argc, ret;
	size_t len = cmd ? strlen(cmd) : 0;

	if (len > PROBE_SPEC_MAX_LEN)
		return semantic_error("Probe definition is too long (%zu characters, at most %d): "
				      "'%.32s...'.",
				      len, PROBE_SPEC_MAX_LEN, cmd);
	argv = split_words(cmd ? cmd : "", &argc);
	if (!argc) {
		ret = semantic_error("Empty probe definition.");
		goto out;
	}
	if (argc - 1 > MAX_PROBE_ARGS) {
		ret = semantic_error("Too many probe arguments (%d > %d).", argc - 1,
				     MAX_PROBE_ARGS);
		goto out;
	}
	ret = late ? parse_point_late(argv[0], pev) : parse_probe_point_word(argv[0], pev);
	if (ret || pev->bad_point)
		goto out;
	if (argc > 1 && pev->sdt) {
		ret = semantic_error("'%s' takes no arguments: '%s'.", argv[0], argv[1]);
		goto out;
	}
	pev->args = xzalloc(sizeof(*pev->args) * (argc > 1 ? argc - 1 : 1));
	for (int i = 1; i < argc; i++) {
		ret = late ? parse_arg_late(argv[i], pev)
			   : parse_arg(argv[i], pev->arch, &pev->args[pev->nargs++]);
		if (ret)
			goto out;
	}
out:
	free_words(argv);
	if (ret) {
		char *target = pev->target;
		const char *arch = pev->arch;
		bool uprobes = pev->uprobes;

		pev->target = NULL;
		clear_perf_probe_event(pev);
		pev->target = target;
		pev->arch = arch;
		pev->uprobes = uprobes;
	}
	return ret;
}

int parse_perf_probe_command(const char *cmd, struct perf_probe_event *pev)
{
	return parse_command(cmd, pev, false);
}

int parse_perf_probe_command_quiet(const char *cmd, struct perf_probe_event *pev,
				   struct strbuf *err)
{
	struct strbuf *outer = held_error;
	int ret;

	held_error = err;
	ret = parse_command(cmd, pev, false);
	held_error = outer;
	return ret;
}

int parse_perf_probe_command_late(const char *cmd, struct perf_probe_event *pev)
{
	return parse_command(cmd, pev, true);
}

/* ---- synthesis of perf probe text -------------------------------------- */

char *synthesize_perf_probe_point(const struct perf_probe_point *pp)
{
	struct strbuf sb = STRBUF_INIT;

	if (!pp->function && !pp->file) {
		strbuf_addf(&sb, "0x%" PRIx64, pp->abs_address);
		if (pp->retprobe)
			strbuf_addstr(&sb, "%return");
		return strbuf_detach(&sb, NULL);
	}
	if (pp->function) {
		/* A C function as it is, a C++, Rust or Go one as it reads back. */
		if (is_func_pattern(pp->function) && strncmp(pp->function, "0x", 2) &&
		    !(strpbrk(pp->function, "./") && (pp->line || pp->lazy_line)))
			strbuf_addstr(&sb, pp->function);
		else
			demangle_quote_name(&sb, pp->function);
		if (pp->offset)
			strbuf_addf(&sb, "+%lu", pp->offset);
		if (pp->line)
			strbuf_addf(&sb, ":%d", pp->line);
		if (pp->retprobe)
			strbuf_addstr(&sb, "%return");
		if (pp->file)
			strbuf_addf(&sb, "@%s", pp->file);
	} else {
		strbuf_addstr(&sb, pp->file);
		if (pp->line)
			strbuf_addf(&sb, ":%d", pp->line);
	}
	if (pp->lazy_line)
		strbuf_addf(&sb, ";%s", pp->lazy_line);
	return strbuf_detach(&sb, NULL);
}

char *synthesize_perf_probe_arg(const struct perf_probe_arg *pa)
{
	struct strbuf sb = STRBUF_INIT;

	if (pa->name)
		strbuf_addf(&sb, "%s=", pa->name);
	strbuf_addstr(&sb, pa->var ? pa->var : "");
	for (const struct perf_probe_arg_field *f = pa->field; f; f = f->next) {
		if (f->name[0] == '[')
			strbuf_addstr(&sb, f->name);
		else
			strbuf_addf(&sb, "%s%s", f->ref ? "->" : ".", f->name);
	}
	if (pa->type)
		strbuf_addf(&sb, ":%s", pa->type);
	if (pa->user_access)
		strbuf_addstr(&sb, "@user");
	return strbuf_detach(&sb, NULL);
}

char *synthesize_perf_probe_command(const struct perf_probe_event *pev)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	if (pev->sdt) {
		strbuf_addch(&sb, '%');
		if (pev->group)
			strbuf_addf(&sb, "%s:", pev->group);
		strbuf_addstr(&sb, pev->event ? pev->event : "");
	} else {
		if (pev->event) {
			if (pev->group)
				strbuf_addf(&sb, "%s:", pev->group);
			strbuf_addf(&sb, "%s=", pev->event);
		}
		s = synthesize_perf_probe_point(&pev->point);
		strbuf_addstr(&sb, s);
		free(s);
	}
	for (int i = 0; i < pev->nargs; i++) {
		s = synthesize_perf_probe_arg(&pev->args[i]);
		strbuf_addf(&sb, " %s", s);
		free(s);
	}
	return strbuf_detach(&sb, NULL);
}

/* ---- debuginfo need ---------------------------------------------------- */

bool perf_probe_arg_need_dwarf(const struct perf_probe_arg *pa)
{
	const char *v = pa->var;

	if (pa->field || !v)
		return pa->field != NULL;
	if (!strcmp(v, "$params") || !strcmp(v, "$vars"))
		return true;
	return is_ident_start((unsigned char)v[0]);
}

bool perf_probe_event_need_dwarf(const struct perf_probe_event *pev)
{
	const struct perf_probe_point *pp = &pev->point;

	if (pev->sdt)
		return false;
	if (pp->file || pp->line || pp->lazy_line || pev->bad_arg_dwarf)
		return true;
	for (int i = 0; i < pev->nargs; i++)
		if (perf_probe_arg_need_dwarf(&pev->args[i]))
			return true;
	return false;
}

/* ---- cleanup ----------------------------------------------------------- */

void clear_perf_probe_arg(struct perf_probe_arg *pa)
{
	struct perf_probe_arg_field *f = pa->field, *next;

	free(pa->name);
	free(pa->var);
	free(pa->type);
	for (; f; f = next) {
		next = f->next;
		free(f->name);
		free(f);
	}
	memset(pa, 0, sizeof(*pa));
}

void clear_perf_probe_event(struct perf_probe_event *pev)
{
	struct perf_probe_point *pp = &pev->point;

	free(pev->event);
	free(pev->group);
	free(pev->target);
	free(pp->file);
	free(pp->function);
	free(pp->lazy_line);
	free(pev->bad_arg);
	for (int i = 0; i < pev->nargs; i++)
		clear_perf_probe_arg(&pev->args[i]);
	free(pev->args);
	memset(pev, 0, sizeof(*pev));
}

void clear_probe_trace_event(struct probe_trace_event *tev)
{
	struct probe_trace_point *tp = &tev->point;

	free(tev->event);
	free(tev->group);
	free(tp->realname);
	free(tp->symbol);
	free(tp->module);
	for (int i = 0; i < tev->nargs; i++) {
		struct probe_trace_arg *arg = &tev->args[i];
		struct probe_trace_arg_ref *ref = arg->ref, *next;

		free(arg->name);
		free(arg->value);
		free(arg->type);
		for (; ref; ref = next) {
			next = ref->next;
			free(ref);
		}
	}
	free(tev->args);
	memset(tev, 0, sizeof(*tev));
}

void raw_probe_trace_arg(const struct perf_probe_arg *pa, struct probe_trace_arg *ta)
{
	const char *v = pa->var;

	if (pa->name)
		ta->name = xstrdup(pa->name);
	if (pa->user_access && (v[0] == '+' || v[0] == '-') && v[1] != 'u') {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addch(&sb, v[0]);
		strbuf_addch(&sb, 'u');
		strbuf_addstr(&sb, v + 1);
		ta->value = strbuf_detach(&sb, NULL);
	} else {
		ta->value = xstrdup(v);
	}
	if (pa->type)
		ta->type = xstrdup(pa->type);
}

/* The argument name perf gives: the last member, else VAR[:TYPE] made an identifier. */
char *perf_probe_arg_default_name(const struct perf_probe_arg *pa)
{
	const struct perf_probe_arg_field *f;
	const char *last = NULL;
	struct strbuf sb = STRBUF_INIT;

	for (f = pa->field; f; f = f->next)
		if (f->name[0] != '[')
			last = f->name;
	if (pa->field)
		return xstrdup(last ? last : pa->var);
	strbuf_addstr(&sb, pa->var);
	if (pa->type)
		strbuf_addf(&sb, ":%s", pa->type);
	for (size_t i = 0; i < sb.len; i++)
		if (!isalnum((unsigned char)sb.buf[i]) && sb.buf[i] != '_')
			sb.buf[i] = '_';
	return strbuf_detach(&sb, NULL);
}

char *probe_event_name(const struct perf_probe_event *pev, const char *base)
{
	const struct perf_probe_point *pp = &pev->point;
	struct strbuf sb = STRBUF_INIT;

	if (pev->event) {
		strbuf_addstr(&sb, pev->event);
	} else if (!pp->function && !pp->file) {
		strbuf_addf(&sb, "abs_%" PRIx64, pp->abs_address);
	} else {
		char suffix[32] = "";
		/* A mangled name as written keeps it (perf's name). */
		bool as_written = base && pp->function && !strcmp(base, pp->function);
		char *name = demangle_display(base ? base : "", !as_written);

		if (pp->function && pp->line)
			snprintf(suffix, sizeof(suffix), "_L%d", pp->line);
		/* A C++ signature names the function, not its parameters. */
		demangle_strip_params(name);
		name[strcspn(name, "@")] = '\0';
		demangle_to_ident(&sb, name,
				  MAX_EVENT_NAME_LEN - strlen(suffix) -
					  (pp->retprobe ? strlen("__return") : 0));
		strbuf_addstr(&sb, suffix);
		free(name);
	}
	if (pp->retprobe)
		strbuf_addstr(&sb, "__return");
	return strbuf_detach(&sb, NULL);
}

char *probe_default_group(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base;

	if (!path)
		return xstrdup(PERFPROBE_GROUP);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	strbuf_addstr(&sb, PERFPROBE_GROUP "_");
	while (*base && is_ident_char(*base))
		strbuf_addch(&sb, *base++);
	return strbuf_detach(&sb, NULL);
}
