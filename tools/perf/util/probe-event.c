// SPDX-License-Identifier: GPL-2.0
/*
 * The probe definition grammar: perf probe specs in, perf_probe_event out,
 * and the k/uprobe_events line format both ways (probe_trace_event).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/arch-regs.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/probe-bundle.h"
#include "util/probe-event.h"
#include "util/probe-file.h"
#include "util/probe-finder.h"
#include "util/strfilter.h"
#include "util/symbol-elf.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The longest kernel array fetcharg ("u8[64]"), MAX_ARRAY_LEN in the kernel. */
#define MAX_TYPE_ARRAY_LEN 64

/* Print "Semantic error :<message>" as one line; returns -EINVAL. */
static int __attribute__((format(printf, 1, 2))) semantic_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pr_err("Semantic error :%s\n", sb.buf);
	strbuf_release(&sb);
	return -EINVAL;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Is [s, s+n) a C identifier? */
static bool is_c_ident_n(const char *s, size_t n)
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
static char **split_words(const char *str, int *argc)
{
	char **argv = xzalloc(sizeof(*argv));
	int n = 0;

	for (;;) {
		size_t len;

		while (*str == ' ' || *str == '\t' || *str == '\n')
			str++;
		if (!*str)
			break;
		len = strcspn(str, " \t\n");
		argv = realloc(argv, (n + 2) * sizeof(*argv));
		if (!argv) {
			pr_err("fatal: out of memory\n");
			abort();
		}
		argv[n++] = xstrndup(str, len);
		argv[n] = NULL;
		str += len;
	}
	*argc = n;
	return argv;
}

static void free_words(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/*
 * The first @c in @s outside "..." and (...) ; with @last the last one.
 * Returns NULL when there is none.
 */
static const char *find_toplevel(const char *s, char c, bool last)
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
static const char *check_raw_fetcharg(const char *s, size_t n, int *errlen)
{
	*errlen = (int)n;
	if (!n)
		return s;
	switch (s[0]) {
	case '%': {
		char *reg = xstrndup(s + 1, n - 1);
		bool ok = arch_regs__is_valid(NULL, reg);

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
		return check_raw_fetcharg(open + 1, s + n - 1 - (open + 1), errlen);
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
			return semantic_error("'%s': an argument has one NAME= at most, in '%s'.",
					      p, argstr);
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

int parse_perf_probe_arg(const char *str, struct perf_probe_arg *arg)
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
	bad = check_raw_fetcharg(val, strlen(val), &errlen);
	if (bad) {
		if (bad[0] == '%')
			ret = semantic_error("'%.*s' is not a register of %s in '%s'.", errlen, bad,
					     arch_regs__host_arch(), str);
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

/* FUNC[@SRC][:RLN|+OFFS|%return|;PTN] or SRC:ALN or SRC;PTN at @p. */
static int parse_probe_location(const char *p, const char *tok, struct perf_probe_point *pp)
{
	const char *lazy = strchr(p, ';');
	const char *end = lazy ? lazy : p + strlen(p);
	size_t headlen = strcspn(p, "@:+%;");
	bool has_line = false, has_offset = false;
	const char *q = p + headlen;
	char *head;
	int ret;

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
			if (!n)
				return semantic_error("'@' needs a source file name in '%s'.", tok);
			pp->file = xstrndup(q, n);
			break;
		case ':':
			if (has_line)
				return semantic_error("Line number given twice: ':%.*s' in '%s'.",
						      (int)n, q, tok);
			if (!n)
				return semantic_error("':' needs a line number in '%s'.", tok);
			if (!parse_dec_n(q, n, &val))
				return semantic_error("There is non-digit char in line number "
						      "':%.*s' in '%s'.",
						      (int)n, q, tok);
			pp->line = (int)val;
			has_line = true;
			break;
		case '+':
			if (has_offset)
				return semantic_error("Offset given twice: '+%.*s' in '%s'.",
						      (int)n, q, tok);
			if (!n)
				return semantic_error("'+' needs an offset in '%s'.", tok);
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
				return semantic_error("'%%return' given twice in '%s'.", tok);
			pp->retprobe = true;
			break;
		}
		q += n;
	}
	if (lazy) {
		if (!lazy[1])
			return semantic_error("';' needs a lazy pattern in '%s'.", tok);
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

	head = xstrndup(p, headlen);
	ret = 0;
	if (!*head) {
		ret = semantic_error("No function or source file name in '%s'.", tok);
	} else if (!pp->file && strpbrk(head, "./") && (has_line || pp->lazy_line)) {
		/* SRC:ALN or SRC;PTN */
		if (!pp->line && !pp->lazy_line)
			ret = semantic_error("File always requires line number or lazy pattern: "
					     "'%s'.",
					     tok);
		else
			pp->file = head, head = NULL;
	} else if (!is_func_pattern(head)) {
		ret = semantic_error("'%s' is not a valid function name in '%s'.", head, tok);
	} else {
		pp->function = head, head = NULL;
	}
	free(head);
	return ret;
}

static int parse_probe_point_word(const char *tok, struct perf_probe_event *pev)
{
	const char *p = tok, *semi = strchr(tok, ';'), *eq = strchr(tok, '=');
	const char *colon = strchr(tok, ':');
	int ret;

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
		return semantic_error("No probe point after '=' in '%s'.", tok);
	if (p[0] == '0' && p[1] == 'x')
		return parse_abs_address(p, tok, &pev->point);
	return parse_probe_location(p, tok, &pev->point);
}

int parse_perf_probe_command(const char *cmd, struct perf_probe_event *pev)
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
	pr_debug("probe-definition: %s\n", cmd);
	if (argc - 1 > MAX_PROBE_ARGS) {
		ret = semantic_error("Too many probe arguments (%d > %d).", argc - 1,
				     MAX_PROBE_ARGS);
		goto out;
	}
	ret = parse_probe_point_word(argv[0], pev);
	if (ret)
		goto out;
	if (argc > 1 && pev->sdt) {
		ret = semantic_error("'%s' takes no arguments: '%s'.", argv[0], argv[1]);
		goto out;
	}
	pev->args = xzalloc(sizeof(*pev->args) * (argc > 1 ? argc - 1 : 1));
	for (int i = 1; i < argc; i++) {
		ret = parse_perf_probe_arg(argv[i], &pev->args[pev->nargs++]);
		if (ret)
			goto out;
	}
out:
	free_words(argv);
	if (ret) {
		char *target = pev->target;
		bool uprobes = pev->uprobes;

		pev->target = NULL;
		clear_perf_probe_event(pev);
		pev->target = target;
		pev->uprobes = uprobes;
	}
	return ret;
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
		strbuf_addstr(&sb, pp->function);
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
	if (pp->file || pp->line || pp->lazy_line)
		return true;
	for (int i = 0; i < pev->nargs; i++)
		if (perf_probe_arg_need_dwarf(&pev->args[i]))
			return true;
	return false;
}

/* ---- trace events (k/uprobe_events lines) ------------------------------ */

/* VALUE with +|-[u]OFFS(...) dereferences, into @arg. */
static int parse_trace_arg_value(const char *v, struct probe_trace_arg *arg)
{
	size_t n = strlen(v);

	while ((v[0] == '+' || v[0] == '-') && n && v[n - 1] == ')') {
		struct probe_trace_arg_ref *ref = xzalloc(sizeof(*ref));
		const char *p = v + 1, *open;
		char *end;

		if (*p == 'u') {
			ref->user_access = true;
			p++;
		}
		open = strchr(p, '(');
		ref->offset = open ? strtol(p, &end, 0) : 0;
		if (!open || end != open || open == p) {
			free(ref);
			pr_debug("Bad dereference in fetcharg '%s'\n", v);
			return -EINVAL;
		}
		if (v[0] == '-')
			ref->offset = -ref->offset;
		/* The list starts at the innermost dereference. */
		ref->next = arg->ref;
		arg->ref = ref;
		n -= open + 1 - v + 1;
		v = open + 1;
	}
	if (!n) {
		pr_debug("Empty fetcharg value\n");
		return -EINVAL;
	}
	arg->value = xstrndup(v, n);
	return 0;
}

static int parse_probe_trace_arg(const char *str, struct probe_trace_arg *arg)
{
	char *buf = xstrdup(str), *val = buf;
	const char *eq = find_toplevel(buf, '=', false);
	const char *colon;
	int ret;

	if (eq && is_c_ident_n(buf, eq - buf)) {
		arg->name = xstrndup(buf, eq - buf);
		val = buf + (eq - buf) + 1;
	}
	colon = find_toplevel(val, ':', true);
	if (colon) {
		arg->type = xstrdup(colon + 1);
		val[colon - val] = '\0';
		if (!*arg->type) {
			pr_debug("Empty type in fetcharg '%s'\n", str);
			free(buf);
			return -EINVAL;
		}
	}
	ret = parse_trace_arg_value(val, arg);
	free(buf);
	return ret;
}

/* PATH:0xOFF[(0xREF)] */
static int parse_uprobe_point(const char *s, struct probe_trace_point *tp)
{
	const char *colon = strrchr(s, ':');
	const char *paren;
	char *end;

	if (!colon || colon == s || strncmp(colon + 1, "0x", 2) ||
	    !isxdigit((unsigned char)colon[3]))
		return -EINVAL;
	tp->module = xstrndup(s, colon - s);
	tp->offset = strtoul(colon + 3, &end, 16);
	paren = end;
	if (*paren == '(') {
		if (strncmp(paren + 1, "0x", 2))
			return -EINVAL;
		tp->ref_ctr_offset = strtoull(paren + 3, &end, 16);
		if (end == paren + 3 || strcmp(end, ")"))
			return -EINVAL;
		return 0;
	}
	return *paren ? -EINVAL : 0;
}

/* [MOD:]SYM[+OFF] or [MOD:]0xADDR */
static int parse_kprobe_point(const char *s, struct probe_trace_point *tp)
{
	const char *colon = strchr(s, ':');
	const char *plus;
	char *end;

	if (colon) {
		if (colon == s)
			return -EINVAL;
		tp->module = xstrndup(s, colon - s);
		s = colon + 1;
	}
	if (s[0] == '0' && s[1] == 'x') {
		tp->address = strtoull(s + 2, &end, 16);
		return end == s + 2 || *end ? -EINVAL : 0;
	}
	plus = strchr(s, '+');
	if (plus == s || !*s)
		return -EINVAL;
	tp->symbol = plus ? xstrndup(s, plus - s) : xstrdup(s);
	if (plus) {
		tp->offset = strtoul(plus + 1, &end, 0);
		if (end == plus + 1 || *end)
			return -EINVAL;
	}
	return 0;
}

int parse_probe_trace_command(const char *cmd, struct probe_trace_event *tev)
{
	char **argv;
	int argc, ret = -EINVAL;
	const char *p, *slash;

	argv = split_words(cmd ? cmd : "", &argc);
	if (argc < 2) {
		pr_debug("Too few words in probe trace command '%s'\n", cmd ? cmd : "");
		goto out;
	}
	p = argv[0];
	if (p[0] != 'p' && p[0] != 'r')
		goto bad;
	tev->point.retprobe = p[0] == 'r';
	p++;
	while (tev->point.retprobe && isdigit((unsigned char)*p)) /* maxactive */
		p++;
	if (*p++ != ':')
		goto bad;
	slash = strchr(p, '/');
	if (!slash || !is_c_ident_n(p, slash - p) || !is_c_func_name(slash + 1))
		goto bad;
	tev->group = xstrndup(p, slash - p);
	tev->event = xstrdup(slash + 1);

	tev->uprobes = strchr(argv[1], '/') != NULL;
	if (tev->uprobes)
		ret = parse_uprobe_point(argv[1], &tev->point);
	else
		ret = parse_kprobe_point(argv[1], &tev->point);
	if (ret)
		goto bad;

	tev->args = xzalloc(sizeof(*tev->args) * (argc > 2 ? argc - 2 : 1));
	for (int i = 2; i < argc; i++) {
		ret = parse_probe_trace_arg(argv[i], &tev->args[tev->nargs++]);
		if (ret)
			goto bad;
	}
	ret = 0;
	goto out;
bad:
	ret = -EINVAL;
	pr_debug("Failed to parse probe trace command '%s'\n", cmd);
out:
	free_words(argv);
	if (ret)
		clear_probe_trace_event(tev);
	return ret;
}

static void add_trace_refs(struct strbuf *sb, const struct probe_trace_arg_ref *ref)
{
	if (!ref)
		return;
	add_trace_refs(sb, ref->next); /* the outermost one is printed first */
	strbuf_addf(sb, "%c%s%ld(", ref->offset < 0 ? '-' : '+', ref->user_access ? "u" : "",
		    ref->offset < 0 ? -ref->offset : ref->offset);
}

char *synthesize_probe_trace_arg(const struct probe_trace_arg *arg)
{
	struct strbuf sb = STRBUF_INIT;

	if (arg->name)
		strbuf_addf(&sb, "%s=", arg->name);
	add_trace_refs(&sb, arg->ref);
	strbuf_addstr(&sb, arg->value ? arg->value : "");
	for (const struct probe_trace_arg_ref *r = arg->ref; r; r = r->next)
		strbuf_addch(&sb, ')');
	if (arg->type)
		strbuf_addf(&sb, ":%s", arg->type);
	return strbuf_detach(&sb, NULL);
}

char *synthesize_probe_trace_point(const struct probe_trace_event *tev)
{
	const struct probe_trace_point *tp = &tev->point;
	struct strbuf sb = STRBUF_INIT;

	if (tev->uprobes) {
		strbuf_addf(&sb, "%s:0x%lx", tp->module ? tp->module : "", tp->offset);
		if (tp->ref_ctr_offset)
			strbuf_addf(&sb, "(0x%" PRIx64 ")", tp->ref_ctr_offset);
		return strbuf_detach(&sb, NULL);
	}
	if (tp->module)
		strbuf_addf(&sb, "%s:", tp->module);
	if (tp->symbol)
		strbuf_addf(&sb, "%s+%lu", tp->symbol, tp->offset);
	else
		strbuf_addf(&sb, "0x%" PRIx64, tp->address);
	return strbuf_detach(&sb, NULL);
}

char *synthesize_probe_trace_command(const struct probe_trace_event *tev)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	strbuf_addf(&sb, "%c:%s/%s ", tev->point.retprobe ? 'r' : 'p',
		    tev->group ? tev->group : PERFPROBE_GROUP, tev->event ? tev->event : "");
	s = synthesize_probe_trace_point(tev);
	strbuf_addstr(&sb, s);
	free(s);
	for (int i = 0; i < tev->nargs; i++) {
		s = synthesize_probe_trace_arg(&tev->args[i]);
		strbuf_addf(&sb, " %s", s);
		free(s);
	}
	return strbuf_detach(&sb, NULL);
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

/*
 * Resolution: perf_probe_event -> probe_trace_event, then tracefs.
 * The order of DESIGN.md: probe cache, SDT notes, DWARF, symbol table.
 * What is here now is the symbol table; the others come in front of it.
 */

struct probe_conf probe_conf = { .max_probes = MAX_PROBES };

/* The target of one command, loaded once for all its events. */
struct probe_target {
	bool uprobes;
	char *path;		   /* uprobes: the real path of the executable */
	char *module;		   /* kprobes in a module: its name */
	struct symbol_elf *syms;   /* NULL until needed */
	struct symbol_elf *layout; /* segments only, for DWARF places */
};

static void probe_target__clear(struct probe_target *t)
{
	free(t->path);
	free(t->module);
	if (t->syms)
		symbol_elf__delete(t->syms);
	if (t->layout)
		symbol_elf__delete(t->layout);
	memset(t, 0, sizeof(*t));
}

/* The name of a module from its path: "/x/ext4.ko" -> "ext4". */
static char *module_name(const char *target)
{
	const char *base = strrchr(target, '/');
	size_t n;

	base = base ? base + 1 : target;
	n = strcspn(base, ".");
	return xstrndup(base, n);
}

static int probe_target__init(struct probe_target *t, const struct perf_probe_event *pev)
{
	memset(t, 0, sizeof(*t));
	t->uprobes = pev->uprobes;
	if (pev->uprobes) {
		struct stat st;

		t->path = realpath(pev->target, NULL);
		if (!t->path || stat(t->path, &st) < 0) {
			pr_err("Error: target executable %s: %s\n", pev->target, strerror(errno));
			probe_target__clear(t);
			return -ENOENT;
		}
		if (S_ISDIR(st.st_mode)) {
			pr_err("Error: target executable %s is a directory\n", pev->target);
			probe_target__clear(t);
			return -EISDIR;
		}
	} else if (pev->target) {
		t->module = module_name(pev->target);
		if (strchr(pev->target, '/'))
			t->path = xstrdup(pev->target);
	}
	return 0;
}

static int probe_target__symbols(struct probe_target *t)
{
	const char *what;
	int ret;

	if (t->syms)
		return 0;
	if (t->path)
		ret = symbol_elf__load(t->path, &t->syms);
	else if (probe_conf.vmlinux)
		ret = symbol_elf__load(probe_conf.vmlinux, &t->syms);
	else
		ret = symbol_elf__load_kallsyms(NULL, &t->syms);
	if (!ret)
		return 0;
	what = t->path ? t->path : probe_conf.vmlinux ? probe_conf.vmlinux : "/proc/kallsyms";
	pr_err("Error: Failed to load symbols from %s: %s\n", what, symbol_elf__strerror(ret));
	return ret;
}

/*
 * The file layout of a uprobe target (segments, to turn addresses into file
 * offsets): the loaded symbols' when there are, else the layout alone,
 * which spares reading and sorting a large symbol table.
 */
static const struct symbol_elf *probe_target__layout(struct probe_target *t)
{
	int ret;

	if (t->syms)
		return t->syms;
	if (!t->layout) {
		ret = symbol_elf__load_layout(t->path, &t->layout);
		if (ret) {
			pr_err("Error: Failed to read %s: %s\n", t->path,
			       symbol_elf__strerror(ret));
			return NULL;
		}
	}
	return t->layout;
}

/* The default group: "probe_<basename up to the first non-identifier>". */
static char *default_group(const struct probe_target *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base;

	if (!t->uprobes)
		return xstrdup(PERFPROBE_GROUP);
	base = strrchr(t->path, '/');
	base = base ? base + 1 : t->path;
	strbuf_addstr(&sb, PERFPROBE_GROUP "_");
	while (*base && is_ident_char(*base))
		strbuf_addch(&sb, *base++);
	return strbuf_detach(&sb, NULL);
}

/* The default event name of a trace event: the function's name without a
 * symbol version, "abs_<addr>" for an address, "__return" for returns. */
static char *default_event(const struct perf_probe_event *pev, const struct probe_trace_point *tp)
{
	struct strbuf sb = STRBUF_INIT;

	if (pev->point.function && tp->realname) {
		const char *name = tp->realname;

		while (*name && *name != '@') {
			strbuf_addch(&sb, is_ident_char(*name) ? *name : '_');
			name++;
		}
	} else {
		strbuf_addf(&sb, "abs_%" PRIx64, pev->point.abs_address);
	}
	if (pev->point.retprobe)
		strbuf_addstr(&sb, "__return");
	return strbuf_detach(&sb, NULL);
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

static void fill_trace_event(const struct perf_probe_event *pev, const struct probe_target *t,
			     struct probe_trace_event *tev)
{
	tev->uprobes = t->uprobes;
	tev->group = pev->group ? xstrdup(pev->group) : default_group(t);
	if (pev->event) {
		struct strbuf ev = STRBUF_INIT;

		/* perf appends __return to a given name too. */
		strbuf_addf(&ev, "%s%s", pev->event, pev->point.retprobe ? "__return" : "");
		tev->event = strbuf_detach(&ev, NULL);
	} else {
		tev->event = default_event(pev, &tev->point);
	}
	tev->nargs = pev->nargs;
	tev->args = xzalloc(sizeof(*tev->args) * (pev->nargs ? pev->nargs : 1));
	for (int i = 0; i < pev->nargs; i++)
		raw_probe_trace_arg(&pev->args[i], &tev->args[i]);
	if (!t->uprobes && t->module && !tev->point.module)
		tev->point.module = xstrdup(t->module);
}

static void free_trace_events(struct probe_trace_event *tevs, int ntevs)
{
	for (int i = 0; i < ntevs; i++)
		clear_probe_trace_event(&tevs[i]);
	free(tevs);
}

static int check_kprobe_blacklist(const struct probe_trace_event *tev)
{
	struct kprobe_blacklist bl = { 0 };
	const struct kprobe_blacklist_entry *e = NULL;

	if (kprobe_blacklist__load(&bl, NULL))
		return 0;
	if (tev->point.address)
		e = kprobe_blacklist__find_addr(&bl, tev->point.address);
	if (!e && tev->point.symbol)
		e = kprobe_blacklist__find_symbol(&bl, tev->point.symbol);
	if (e)
		pr_err("Error: %s is blacklisted for kprobes; it can not be probed.\n", e->symbol);
	kprobe_blacklist__clear(&bl);
	return e ? -EPERM : 0;
}

/* Resolve @pev through the symbol table into *@tevs; returns their count. */
static int find_probe_trace_events_from_symbols(const struct perf_probe_event *pev,
						struct probe_target *t,
						struct probe_trace_event **tevs_out)
{
	const struct perf_probe_point *pp = &pev->point;
	const struct elf_symbol **syms = NULL;
	struct probe_trace_event *tevs;
	int nsyms, ret = 0;

	ret = probe_target__symbols(t);
	if (ret)
		return ret;
	if (!pp->function) {
		if (!t->uprobes) {
			pr_err("Error: an absolute address needs a user-space target (-x)\n");
			return -EINVAL;
		}
		tevs = xzalloc(sizeof(*tevs));
		ret = symbol_elf__uprobe_point_abs(t->syms, pp->abs_address, pp->retprobe,
						   &tevs->point);
		if (ret) {
			pr_err("Error: address 0x%" PRIx64 " is not in a loaded segment of %s\n",
			       pp->abs_address, t->path);
			free_trace_events(tevs, 1);
			return ret;
		}
		fill_trace_event(pev, t, tevs);
		*tevs_out = tevs;
		return 1;
	}

	if (strpbrk(pp->function, "*?["))
		nsyms = symbol_elf__find_glob(t->syms, pp->function, &syms);
	else
		nsyms = symbol_elf__find_name(t->syms, pp->function, &syms);
	if (nsyms <= 0) {
		free(syms);
		pr_err("Error: Failed to find symbol %s in %s\n", pp->function,
		       t->path	   ? t->path
		       : t->module ? t->module
				   : "the kernel");
		return -ENOENT;
	}
	if (nsyms > probe_conf.max_probes) {
		free(syms);
		pr_err("Error: Too many (%d) probe points found for %s; the limit is %d (--max-probes).\n",
		       nsyms, pp->function, probe_conf.max_probes);
		return -E2BIG;
	}
	tevs = xzalloc(sizeof(*tevs) * nsyms);
	for (int i = 0; i < nsyms && !ret; i++) {
		if (t->uprobes)
			ret = symbol_elf__uprobe_point(t->syms, syms[i], pp->offset, pp->retprobe,
						       &tevs[i].point);
		else
			ret = symbol_elf__kprobe_point(t->syms, syms[i], pp->offset, pp->retprobe,
						       &tevs[i].point);
		if (ret == -ERANGE)
			pr_err("Error: Offset %lu is bigger than the size of %s\n", pp->offset,
			       syms[i]->name);
		else if (ret)
			pr_err("Error: Failed to place a probe on %s: %s\n", syms[i]->name,
			       strerror(-ret));
		if (!ret)
			fill_trace_event(pev, t, &tevs[i]);
		if (!ret && !t->uprobes)
			ret = check_kprobe_blacklist(&tevs[i]);
	}
	free(syms);
	if (ret) {
		free_trace_events(tevs, nsyms);
		return ret;
	}
	*tevs_out = tevs;
	return nsyms;
}

/* Resolve one event, in the order of DESIGN.md.  Count of *@tevs, or -errno. */
static const char *probe_target__name(const struct probe_target *t)
{
	return t->path ? t->path : t->module ? t->module : "the kernel";
}

static int find_in_cache(struct probe_cache *pc, const struct perf_probe_event *pev,
			 const struct probe_target *t, struct probe_trace_event **tevs);

/* SDT markers read straight from the target (not yet cached). */
static int find_sdt_in_binary(const struct perf_probe_event *pev, const struct probe_target *t,
			      struct probe_trace_event **tevs)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	int ret;

	if (!t->uprobes)
		return 0;
	pc = probe_cache__new();
	ret = probe_cache__add_sdt_entries(pc, t->path, &err);
	if (ret < 0 && ret != -EEXIST)
		pr_debug("SDT notes of %s: %s\n", t->path, err.buf);
	ret = ret > 0 ? find_in_cache(pc, pev, t, tevs) : 0;
	probe_cache__close(pc);
	strbuf_release(&err);
	return ret;
}

/*
 * SDT events with a semaphore need the kernel to raise it while the event
 * exists ("(ref_ctr_offset)" in uprobe_events); say so when it can't.
 */
static int check_ref_ctr_support(const struct probe_trace_event *tevs, int ntevs)
{
	for (int i = 0; i < ntevs; i++) {
		if (!tevs[i].point.ref_ctr_offset)
			continue;
		if (probe_file__has_ref_ctr_offset() == 0) {
			pr_err("Error: %s:%s is guarded by a semaphore, and this kernel's uprobes can not raise semaphores (no ref_ctr_offset in tracefs README)\n",
			       tevs[i].group, tevs[i].event);
			return -EOPNOTSUPP;
		}
		break;
	}
	return 0;
}

/*
 * The probe cache of a target: the `probes` file of its build-id cache
 * entry.  The build-id of the file on disk decides, so a rebuilt binary
 * never gets another build's definitions; a copy of the same build at
 * another path finds them through the .build-id link.
 */
static int probe_target__cache_id(const struct probe_target *t, char **name, struct build_id *bid)
{
	int ret;

	if (t->path) {
		*name = xstrdup(t->path);
		ret = filename__read_build_id(t->path, bid);
	} else if (probe_conf.vmlinux) {
		*name = xstrdup(KERNEL_CACHE_NAME);
		ret = filename__read_build_id(probe_conf.vmlinux, bid);
	} else if (t->module) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "[%s]", t->module);
		*name = strbuf_detach(&sb, NULL);
		ret = module__read_build_id(t->module, bid);
	} else {
		*name = xstrdup(KERNEL_CACHE_NAME);
		ret = kernel__read_build_id(bid);
	}
	if (ret) {
		free(*name);
		*name = NULL;
	}
	return ret;
}

/*
 * The build-id cache entry of the target's build-id that holds @file
 * ("probes", "debug"): the one of the target's own path, else the one the
 * .build-id link leads to (a copy of the same build elsewhere).  A new
 * string, or NULL when neither has it.
 */
static char *probe_target__cache_entry(const struct probe_target *t, const char *file)
{
	struct build_id bid;
	char *name, *dir, *path, *link;

	if (probe_target__cache_id(t, &name, &bid))
		return NULL;
	dir = build_id_cache__dirname(name, &bid);
	free(name);
	for (int i = 0; dir && i < 2; i++) {
		path = path_join(dir, file);
		if (access(path, R_OK) == 0) {
			free(path);
			return dir;
		}
		free(path);
		free(dir);
		dir = NULL;
		if (i == 0) {
			link = build_id_cache__linkname(&bid);
			dir = realpath(link, NULL);
			free(link);
		}
	}
	return NULL;
}

/*
 * The target's cache, for reading: 0 with *@pc (kept, not to be closed by
 * the caller), or 1 when there is none or it is corrupt (then it is
 * reported once and not used).
 */
static int probe_target__open_cache(const struct probe_target *t, struct probe_cache **pc)
{
	/* One command resolves all its specs on one target: read its cache once. */
	static struct {
		char *key;
		struct probe_cache *pc;
	} memo;
	const char *key = t->path ? t->path : t->module ? t->module : "";
	struct strbuf err = STRBUF_INIT;
	char *dir;
	int ret;

	if (memo.key && !strcmp(memo.key, key)) {
		*pc = memo.pc;
		return memo.pc ? 0 : 1;
	}
	free(memo.key);
	probe_cache__close(memo.pc);
	memo.key = xstrdup(key);
	memo.pc = NULL;
	*pc = NULL;
	dir = probe_target__cache_entry(t, "probes");
	if (!dir)
		return 1;
	ret = probe_cache__open(dir, false, &memo.pc, &err);
	/* With --cache, the store reports it as an error. */
	if (ret == -EBADMSG && !probe_conf.cache)
		pr_warning("Warning: not using the corrupt probe cache %s\n", err.buf);
	strbuf_release(&err);
	free(dir);
	if (ret)
		memo.pc = NULL;
	*pc = memo.pc;
	return ret ? 1 : 0;
}

/*
 * The spec an entry is kept under: the request as perf writes it in the
 * cache, with the group spelled out when the event is named, and member
 * chains named after their last member ("handle len=r->len").
 */
static char *probe_cache_spec(const struct perf_probe_event *pev, const struct probe_target *t)
{
	struct perf_probe_event tmp = *pev;
	struct perf_probe_arg *args = NULL;
	char *group = NULL, *spec;

	if (pev->event && !pev->group)
		tmp.group = group = default_group(t);
	if (pev->nargs) {
		args = xzalloc(sizeof(*args) * pev->nargs);
		memcpy(args, pev->args, sizeof(*args) * pev->nargs);
		for (int i = 0; i < pev->nargs; i++) {
			struct perf_probe_arg_field *f = args[i].field;

			while (f && f->next)
				f = f->next;
			if (!args[i].name && f && f->name[0] != '[')
				args[i].name = f->name;
		}
		tmp.args = args;
	}
	spec = synthesize_perf_probe_command(&tmp);
	free(args);
	free(group);
	return spec;
}

/* Does one of @e's lines define an event matching [GROUP:]EVENT (globs)? */
static bool cache_entry_defines(const struct probe_cache_entry *e, const char *group,
				const char *event)
{
	for (int i = 0; i < e->nr_lines; i++) {
		char *g, *ev;
		bool ok;

		if (probe_file__line_event(e->lines[i], &g, &ev))
			continue;
		ok = (!group || !fnmatch(group, g, 0)) && !fnmatch(event, ev, 0);
		free(g);
		free(ev);
		if (ok)
			return true;
	}
	return false;
}

/* Append the events of @e's lines to *@tevs, placed on @t's file. */
static int tevs_from_cache_entry(const struct probe_cache_entry *e, const struct probe_target *t,
				 struct probe_trace_event **tevs, int *ntevs)
{
	for (int i = 0; i < e->nr_lines; i++) {
		struct probe_trace_event tev = { 0 };

		if (parse_probe_trace_command(e->lines[i], &tev)) {
			pr_err("Error: a bad line in the probe cache entry '%s': %s\n", e->spec,
			       e->lines[i]);
			return -EBADMSG;
		}
		if (tev.uprobes != t->uprobes) {
			clear_probe_trace_event(&tev);
			continue;
		}
		if (tev.uprobes) {
			/* The same build, maybe at another path. */
			free(tev.point.module);
			tev.point.module = xstrdup(t->path);
		}
		*tevs = realloc(*tevs, sizeof(**tevs) * (*ntevs + 1));
		if (!*tevs) {
			pr_err("fatal: out of memory\n");
			abort();
		}
		(*tevs)[(*ntevs)++] = tev;
	}
	return 0;
}

/* The events of the entries of @pc that answer @pev; their count or -errno. */
static int find_in_cache(struct probe_cache *pc, const struct perf_probe_event *pev,
			 const struct probe_target *t, struct probe_trace_event **tevs)
{
	int ntevs = 0, ret = 0;

	*tevs = NULL;
	if (pev->sdt) {
		for (int i = 0; i < pc->nr && !ret; i++)
			if (cache_entry_defines(&pc->entries[i], pev->group, pev->event))
				ret = tevs_from_cache_entry(&pc->entries[i], t, tevs, &ntevs);
	} else {
		char *spec = probe_cache_spec(pev, t);
		struct probe_cache_entry *e = probe_cache__find(pc, false, spec);

		if (e)
			ret = tevs_from_cache_entry(e, t, tevs, &ntevs);
		free(spec);
	}
	if (ret) {
		free_trace_events(*tevs, ntevs);
		*tevs = NULL;
		return ret;
	}
	return ntevs;
}

/*
 * Stage 1: the probe cache of the target's build-id, and for SDT events
 * the target's own SDT notes.  Returns the count of *@tevs, 0 for a miss
 * (go on), or -errno.
 */
static int find_probe_trace_events_from_cache(const struct perf_probe_event *pev,
					      struct probe_target *t,
					      struct probe_trace_event **tevs)
{
	struct probe_cache *pc;
	int ret = 0;

	if (!probe_target__open_cache(t, &pc)) /* kept for the next spec */
		ret = find_in_cache(pc, pev, t, tevs);
	if (ret == 0 && pev->sdt)
		ret = find_sdt_in_binary(pev, t, tevs);
	if (ret > 0 && pev->sdt && !probe_conf.dry_run) {
		int err = check_ref_ctr_support(*tevs, ret);

		if (err) {
			free_trace_events(*tevs, ret);
			return err;
		}
	}
	if (ret == 0 && pev->sdt) {
		char *spec = synthesize_perf_probe_command(pev);

		pr_err("Error: %s is not a cached or SDT event of %s\n", spec,
		       probe_target__name(t));
		free(spec);
		return -ENOENT;
	}
	if (ret > probe_conf.max_probes) {
		pr_err("Error: Too many (%d) probe points found; the limit is %d (--max-probes).\n",
		       ret, probe_conf.max_probes);
		free_trace_events(*tevs, ret);
		return -E2BIG;
	}
	return ret;
}

/*
 * Uprobes: the "@+0xOFF" of a global.  The kernel adds OFF to where the
 * probed file offset 0 would be in memory (probe address - probe file
 * offset), so OFF is the global's virtual address less the delta between
 * vaddr and file offset of the executable segment the probes are in.
 */
static int dwarf_global_offset(void *ctx, uint64_t vaddr, uint64_t *offset)
{
	const struct symbol_elf *se = ctx;

	for (int i = 0; i < se->nr_loads; i++) {
		const struct elf_load_segment *l = &se->loads[i];

		if (l->exec) {
			*offset = vaddr - (l->vaddr - l->offset);
			return 0;
		}
	}
	return -ERANGE;
}

/*
 * The event name perf gives a DWARF place: the function asked for (or the
 * one holding the place for globs and source lines), "_L<N>" for FUNC:N,
 * "__return" for return probes.
 */
static char *dwarf_event_name(const struct perf_probe_event *pev,
			      const struct probe_trace_event *tev)
{
	const struct perf_probe_point *pp = &pev->point;
	struct strbuf sb = STRBUF_INIT;
	const char *name = tev->point.realname ? tev->point.realname : "";

	if (pev->event) {
		strbuf_addstr(&sb, pev->event);
	} else {
		if (pp->function && !strpbrk(pp->function, "*?["))
			name = pp->function;
		for (; *name && *name != '@'; name++)
			strbuf_addch(&sb, is_ident_char(*name) ? *name : '_');
		if (pp->function && pp->line)
			strbuf_addf(&sb, "_L%d", pp->line);
	}
	if (pp->retprobe)
		strbuf_addstr(&sb, "__return");
	return strbuf_detach(&sb, NULL);
}

/* Turn the virtual address the finder gave into the probe's point. */
static int dwarf_place_point(struct probe_target *t, struct probe_trace_event *tev)
{
	struct probe_trace_point *tp = &tev->point;
	const struct elf_symbol *sym;
	struct probe_trace_point kp = { 0 };
	uint64_t off;
	int ret;

	if (t->uprobes) {
		ret = symbol_elf__vaddr_to_offset(probe_target__layout(t), tp->address, &off);
		if (ret) {
			pr_err("Error: address 0x%" PRIx64 " is not in a loaded segment of %s\n",
			       tp->address, t->path);
			return ret;
		}
		tp->module = xstrdup(t->path);
		tp->offset = off;
		return 0;
	}
	sym = symbol_elf__find_addr(t->syms, tp->address);
	if (!sym) {
		pr_err("Error: no symbol holds address 0x%" PRIx64 "\n", tp->address);
		return -ENOENT;
	}
	/* Through DWARF perf writes kprobes as FUNC+OFF, not _text+OFF. */
	kp.symbol = xstrdup(sym->name);
	kp.realname = xstrdup(sym->name);
	kp.offset = tp->address - sym->addr;
	kp.address = tp->address;
	kp.retprobe = tp->retprobe;
	free(tp->realname);
	*tp = kp;
	if (t->module)
		tp->module = xstrdup(t->module);
	return 0;
}

/*
 * Stage 3: DWARF.  Returns the count of *@tevs, 0 when the target has no
 * debuginfo and the symbol table may serve (a spec without lines or
 * variables), or -errno after one message.
 */
static int find_probe_trace_events_from_dwarf(const struct perf_probe_event *pev,
					      struct probe_target *t,
					      struct probe_trace_event **tevs)
{
	const char *path = t->uprobes ? t->path : t->path ? t->path : probe_conf.vmlinux;
	bool need = perf_probe_event_need_dwarf(pev);
	struct probe_finder_opts opts = { 0 };
	struct debuginfo *dbg = NULL;
	int ret = 0, n;

	if (pev->point.function || pev->point.file)
		ret = path ? debuginfo__new(path, &dbg) : -ENODATA;
	else if (!need)
		return 0;
	else
		ret = -ENODATA;
	if (ret == -ENODATA && path) {
		/* Kept in the build-id cache, e.g. by buildid-cache --debuginfod. */
		char *entry = probe_target__cache_entry(t, "debug");

		if (entry) {
			char *debug = path_join(entry, "debug");

			ret = debuginfo__new_with(path, debug, &dbg);
			free(debug);
		}
		free(entry);
	}
	if (ret == -EBADMSG) {
		pr_err("Error: Failed to read the debuginfo of %s: it is corrupt\n", path);
		return ret;
	}
	if (ret) {
		const char *urls = getenv("DEBUGINFOD_URLS");
		char *spec;

		if (!need)
			return 0;
		spec = synthesize_perf_probe_command(pev);
		if (urls && *urls)
			pr_err("Error: '%s' needs debuginfo (source lines or variables) of %s, which is neither here nor on the debuginfod servers (%s)\n",
			       spec, probe_target__name(t), urls);
		else
			pr_err("Error: '%s' needs debuginfo (source lines or variables) of %s, which is not available\n",
			       spec, probe_target__name(t));
		free(spec);
		return -ENODATA;
	}
	debuginfo__set_source_dir(dbg, probe_conf.source);
	/* Uprobes need only the segments; kprobes name the symbol of a place. */
	if (t->uprobes)
		ret = probe_target__layout(t) ? 0 : -EINVAL;
	else
		ret = probe_target__symbols(t);
	if (ret)
		goto out;
	opts.max_probes = probe_conf.max_probes;
	opts.no_inlines = probe_conf.no_inlines;
	opts.quiet_missing = !need;
	if (t->uprobes) {
		opts.global_offset = dwarf_global_offset;
		opts.ctx = (void *)probe_target__layout(t);
	}
	n = debuginfo__find_trace_events(dbg, pev, &opts, tevs);
	if ((n == -ENOENT || n == -E2BIG) && !need) {
		/*
		 * Not in DWARF (an assembler function, a PLT entry), or inlined
		 * in too many places (put_page, after perf's message): symbols.
		 */
		ret = 0;
		goto out;
	}
	if (n < 0) {
		ret = n;
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		struct probe_trace_event *tev = &(*tevs)[i];

		ret = dwarf_place_point(t, tev);
		tev->uprobes = t->uprobes;
		tev->group = pev->group ? xstrdup(pev->group) : default_group(t);
		tev->event = dwarf_event_name(pev, tev);
		if (!ret && !t->uprobes)
			ret = check_kprobe_blacklist(tev);
	}
	if (ret) {
		free_trace_events(*tevs, n);
		*tevs = NULL;
	} else {
		ret = n;
	}
out:
	debuginfo__delete(dbg);
	return ret;
}

/* Resolve one event, in the order of DESIGN.md.  Count of *@tevs, or -errno. */
static int convert_to_probe_trace_events(const struct perf_probe_event *pev,
					 struct probe_trace_event **tevs)
{
	struct probe_target t;
	int ret;

	ret = probe_target__init(&t, pev);
	if (ret)
		return ret;
	ret = find_probe_trace_events_from_cache(pev, &t, tevs);
	if (!ret)
		ret = find_probe_trace_events_from_dwarf(pev, &t, tevs);
	if (!ret)
		ret = find_probe_trace_events_from_symbols(pev, &t, tevs);
	probe_target__clear(&t);
	return ret;
}

/* The trace events of a whole command, with the event each came from. */
struct probe_batch {
	struct probe_trace_event *tevs;
	const struct perf_probe_event **from;
	int ntevs;
};

static void probe_batch__clear(struct probe_batch *b)
{
	free_trace_events(b->tevs, b->ntevs);
	free(b->from);
	memset(b, 0, sizeof(*b));
}

/* Resolve every event before anything is written: all or nothing. */
static int probe_batch__convert(struct probe_batch *b, const struct perf_probe_event *pevs,
				int npevs)
{
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < npevs; i++) {
		struct probe_trace_event *tevs = NULL;
		int n = convert_to_probe_trace_events(&pevs[i], &tevs);

		if (n < 0) {
			probe_batch__clear(b);
			return n;
		}
		b->tevs = realloc(b->tevs, sizeof(*b->tevs) * (b->ntevs + n));
		b->from = realloc(b->from, sizeof(*b->from) * (b->ntevs + n));
		if (!b->tevs || !b->from) {
			pr_err("fatal: out of memory\n");
			abort();
		}
		memcpy(b->tevs + b->ntevs, tevs, sizeof(*tevs) * n);
		for (int j = 0; j < n; j++)
			b->from[b->ntevs + j] = &pevs[i];
		b->ntevs += n;
		free(tevs);
	}
	return 0;
}

int show_probe_trace_definitions(struct perf_probe_event *pevs, int npevs)
{
	struct probe_batch b;
	int ret = probe_batch__convert(&b, pevs, npevs);

	if (ret)
		return ret;
	for (int i = 0; i < b.ntevs; i++) {
		char *line = synthesize_probe_trace_command(&b.tevs[i]);

		printf("%s\n", line);
		free(line);
	}
	probe_batch__clear(&b);
	return 0;
}

/*
 * Give every trace event a name not taken in tracefs nor earlier in the
 * batch.  Events of one spec that resolved to several places take
 * numbered names as with -f.
 */
static int probe_batch__name_events(struct probe_batch *b, bool uprobes)
{
	char **names = NULL;
	int nr = probe_file__get_event_names(uprobes, &names);
	int ret = 0;

	if (nr < 0 && probe_conf.dry_run) {
		/* -n writes nothing: without tracefs (not root) names are unchecked. */
		pr_debug("Not checking event names: %s\n", probe_file__strerror(nr));
		nr = 0;
		names = NULL;
	} else if (nr < 0) {
		pr_err("Error: Failed to read the %s events: %s\n", uprobes ? "uprobe" : "kprobe",
		       probe_file__strerror(nr));
		return nr;
	}
	for (int i = 0; i < b->ntevs && !ret; i++) {
		struct probe_trace_event *tev = &b->tevs[i];
		bool several = (i > 0 && b->from[i - 1] == b->from[i]) ||
			       (i + 1 < b->ntevs && b->from[i + 1] == b->from[i]);
		char *name = probe_file__unique_event_name(tev->group, tev->event, names, nr,
							   probe_conf.force_add || several, &ret);
		struct strbuf full = STRBUF_INIT;

		if (!name) {
			if (ret == -EEXIST)
				pr_err("Error: event \"%s\" already exists; remove it with 'perf probe -d' or force a numbered duplicate with 'perf probe -f'\n",
				       tev->event);
			else
				pr_err("Error: Failed to name the event %s:%s: %s\n", tev->group,
				       tev->event, probe_file__strerror(ret));
			break;
		}
		free(tev->event);
		tev->event = name;
		strbuf_addf(&full, "%s:%s", tev->group, name);
		names = realloc(names, sizeof(*names) * (nr + 1));
		if (!names) {
			pr_err("fatal: out of memory\n");
			abort();
		}
		names[nr++] = strbuf_detach(&full, NULL);
	}
	probe_file__free_lines(names, nr);
	return ret;
}

static int probe_batch__write(struct probe_batch *b, bool uprobes)
{
	struct strbuf reason = STRBUF_INIT;
	char **lines = xzalloc(sizeof(*lines) * b->ntevs);
	int fd, failed = -1, ret;

	for (int i = 0; i < b->ntevs; i++)
		lines[i] = synthesize_probe_trace_command(&b->tevs[i]);
	fd = probe_file__open(uprobes, O_WRONLY);
	if (fd < 0) {
		pr_err("Error: Failed to open %s: %s\n",
		       uprobes ? "uprobe_events" : "kprobe_events", probe_file__strerror(fd));
		ret = fd;
		goto out;
	}
	ret = probe_file__add_lines(fd, lines, b->ntevs, &failed, &reason);
	close(fd);
	if (ret)
		pr_err("Error: Failed to add event %s:%s (%s): %s%s%s\n",
		       failed >= 0 ? b->tevs[failed].group : "?",
		       failed >= 0 ? b->tevs[failed].event : "?", failed >= 0 ? lines[failed] : "",
		       strerror(-ret), reason.len ? ": " : "", reason.buf);
out:
	for (int i = 0; i < b->ntevs; i++)
		free(lines[i]);
	free(lines);
	strbuf_release(&reason);
	return ret;
}

/* "  GROUP:EVENT        (on POINT in TARGET with ARGS)" */
static void print_event_line(const char *group, const char *event, const char *point,
			     const char *target, const char *args)
{
	struct strbuf name = STRBUF_INIT;

	strbuf_addf(&name, "%s:%s", group, event);
	printf("  %-20s (on %s%s%s%s%s)\n", name.buf, point, target ? " in " : "",
	       target ? target : "", args && *args ? " with " : "", args ? args : "");
	strbuf_release(&name);
}

static void print_added_event(const struct probe_trace_event *tev,
			      const struct perf_probe_event *pev)
{
	struct perf_probe_point pp = pev->point;
	struct strbuf args = STRBUF_INIT, name = STRBUF_INIT;
	char *point;

	/* A glob or an alias shows the function actually probed. */
	if (pp.function && tev->point.realname && strpbrk(pp.function, "*?["))
		pp.function = tev->point.realname;
	if (pev->sdt) { /* perf shows the marker's own name: "%foo__bar" */
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%%%s", pev->event ? pev->event : "");
		point = strbuf_detach(&sb, NULL);
	} else
		point = synthesize_perf_probe_point(&pp);
	for (int i = 0; i < pev->nargs; i++) {
		char *a = synthesize_perf_probe_arg(&pev->args[i]);

		strbuf_addf(&args, "%s%s", i ? " " : "", a);
		free(a);
	}
	strbuf_addf(&name, "%s:%s", tev->group, tev->event);
	fprintf(stderr, "  %-20s (on %s%s%s%s%s)\n", name.buf, point,
		tev->point.module ? " in " : "", tev->point.module ? tev->point.module : "",
		args.len ? " with " : "", args.buf);
	free(point);
	strbuf_release(&args);
	strbuf_release(&name);
}

/*
 * --cache: put each event's resolved lines, as resolved (before names are
 * made unique in tracefs), into the target's cache, held locked in *@out
 * until the caller commits.  The build-id cache entry is created as
 * `perf buildid-cache --add` would.
 */
static int probe_batch__cache(const struct probe_batch *b, const struct perf_probe_event *pevs,
			      int npevs, struct probe_cache **out)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_target t;
	struct build_id bid;
	char *name = NULL, *dir = NULL;
	int ret;

	*out = NULL;
	ret = probe_target__init(&t, &pevs[0]);
	if (ret)
		return ret;
	ret = probe_target__cache_id(&t, &name, &bid);
	if (ret) {
		pr_err("Error: Failed to read the build-id of %s: %s\n", probe_target__name(&t),
		       build_id__strerror(ret));
		goto out;
	}
	ret = build_id_cache__add(name, t.path, &bid, false);
	if (ret) {
		pr_err("Error: Failed to add %s to the build-id cache %s: %s\n", name,
		       buildid_dir(), strerror(-ret));
		goto out;
	}
	dir = build_id_cache__dirname(name, &bid);
	ret = probe_cache__open(dir, true, out, &err);
	if (ret == -EBADMSG)
		pr_err("Error: corrupt probe cache %s (left as it is)\n", err.buf);
	else if (ret)
		pr_err("Error: Failed to open the probe cache in %s: %s\n", dir, strerror(-ret));
	for (int i = 0; !ret && i < npevs; i++) {
		char **lines = xzalloc(sizeof(*lines) * (b->ntevs ? b->ntevs : 1));
		char *spec;
		int n = 0;

		if (pevs[i].sdt) { /* already a cached or SDT event */
			free(lines);
			continue;
		}
		for (int j = 0; j < b->ntevs; j++)
			if (b->from[j] == &pevs[i])
				lines[n++] = synthesize_probe_trace_command(&b->tevs[j]);
		spec = probe_cache_spec(&pevs[i], &t);
		probe_cache__add_entry(*out, false, spec, lines, n);
		free(spec);
		for (int j = 0; j < n; j++)
			free(lines[j]);
		free(lines);
	}
out:
	strbuf_release(&err);
	free(dir);
	free(name);
	probe_target__clear(&t);
	return ret;
}

/* Take back the events this command wrote (the cache could not follow). */
static void probe_batch__unwrite(const struct probe_batch *b, bool uprobes)
{
	for (int i = 0; i < b->ntevs; i++) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "%s:%s", b->tevs[i].group, b->tevs[i].event);
		probe_file__del_events(uprobes, name.buf, NULL, NULL, NULL);
		strbuf_release(&name);
	}
}

int add_perf_probe_events(struct perf_probe_event *pevs, int npevs)
{
	struct probe_cache *pc = NULL;
	struct probe_batch b;
	bool uprobes = npevs > 0 && pevs[0].uprobes;
	int ret = probe_batch__convert(&b, pevs, npevs);

	if (ret)
		return ret;
	if (probe_conf.cache)
		ret = probe_batch__cache(&b, pevs, npevs, &pc);
	if (!ret)
		ret = probe_batch__name_events(&b, uprobes);
	if (!ret && !probe_conf.dry_run)
		ret = probe_batch__write(&b, uprobes);
	if (!ret && pc) {
		ret = probe_cache__commit(pc);
		if (ret) {
			pr_err("Error: Failed to write the probe cache %s: %s\n", pc->path,
			       strerror(-ret));
			if (!probe_conf.dry_run)
				probe_batch__unwrite(&b, uprobes);
		}
	}
	probe_cache__close(pc);
	if (!ret && (!probe_conf.dry_run || probe_conf.cache) && !quiet) {
		const struct probe_trace_event *last = &b.tevs[b.ntevs - 1];

		fprintf(stderr, "Added new event%s:\n", b.ntevs > 1 ? "s" : "");
		for (int i = 0; i < b.ntevs; i++)
			print_added_event(&b.tevs[i], b.from[i]);
		fprintf(stderr,
			"\nYou can now use it in all perf tools, such as:\n\n\tperf record -e %s:%s -aR sleep 1\n\n",
			last->group, last->event);
	}
	probe_batch__clear(&b);
	return ret;
}

/* Does "GROUP:EVENT" match the filter "[GROUP:]EVENT" (globs)? */
static bool event_matches(const char *group, const char *event, const char *filter)
{
	const char *colon;
	char *g;
	bool ok;

	if (!filter || !*filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon)
		return !fnmatch(filter, event, 0);
	g = xstrndup(filter, colon - filter);
	ok = !fnmatch(g, group, 0) && !fnmatch(colon + 1, event, 0);
	free(g);
	return ok;
}

static int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The probe point of a listed uprobe: "func+off" from its file offset. */
/* What -l loads once for the events of one file. */
struct list_ctx {
	struct symbol_elf *syms; /* the symbols of `path` */
	struct debuginfo *dbg;	 /* its DWARF, when it has some */
	char *path;
	struct symbol_elf *ksyms; /* the kernel's */
};

static void list_ctx__load(struct list_ctx *ctx, const char *path)
{
	if (ctx->path && !strcmp(ctx->path, path))
		return;
	if (ctx->syms)
		symbol_elf__delete(ctx->syms);
	if (ctx->dbg)
		debuginfo__delete(ctx->dbg);
	free(ctx->path);
	ctx->path = xstrdup(path);
	if (symbol_elf__load(path, &ctx->syms))
		ctx->syms = NULL;
	if (debuginfo__new(path, &ctx->dbg))
		ctx->dbg = NULL;
}

static void list_ctx__clear(struct list_ctx *ctx)
{
	if (ctx->syms)
		symbol_elf__delete(ctx->syms);
	if (ctx->ksyms)
		symbol_elf__delete(ctx->ksyms);
	if (ctx->dbg)
		debuginfo__delete(ctx->dbg);
	free(ctx->path);
}

/*
 * A source path as perf -l shows it: whole up to 30 characters, else the
 * longest tail of whole components ("/tmp/build-dir/x.c" -> "build-dir/x.c")
 * that fits in 30 with its leading '/', shown without it.
 */
static const char *short_source_name(const char *path)
{
	const char *s = path;

	while (strlen(s) > 30) {
		const char *slash = strchr(s + 1, '/');

		if (!slash)
			break;
		s = slash;
	}
	return s == path ? s : s + 1;
}

/*
 * The probe point of a listed uprobe, from its file offset: as perf names
 * it, "FUNC:RLN@SRC" through DWARF when the file has some, else "FUNC+OFF"
 * through the symbol table; "%return" after the function for returns.
 */
static char *uprobe_point_name(const struct probe_trace_point *tp, struct list_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	const struct elf_symbol *sym = NULL;
	uint64_t vaddr = 0;
	bool found = false;
	char *name;

	list_ctx__load(ctx, tp->module);
	found = ctx->syms && !symbol_elf__offset_to_vaddr(ctx->syms, tp->offset, &vaddr);
	name = found && ctx->dbg ? debuginfo__probe_point_name(ctx->dbg, vaddr) : NULL;
	if (name) {
		size_t fn = strcspn(name, ":@");
		char *at = strchr(name, '@');

		strbuf_add(&sb, name, fn);
		if (tp->retprobe)
			strbuf_addstr(&sb, "%return");
		if (at) {
			strbuf_add(&sb, name + fn, at + 1 - (name + fn));
			strbuf_addstr(&sb, short_source_name(at + 1));
		} else {
			strbuf_addstr(&sb, name + fn);
		}
		free(name);
		return strbuf_detach(&sb, NULL);
	}
	if (found)
		sym = symbol_elf__find_addr(ctx->syms, vaddr);
	if (sym) {
		const char *at = strchr(sym->name, '@');

		strbuf_add(&sb, sym->name, at ? (size_t)(at - sym->name) : strlen(sym->name));
		if (vaddr != sym->addr)
			strbuf_addf(&sb, "+%" PRIu64, vaddr - sym->addr);
	} else {
		strbuf_addf(&sb, "0x%lx", tp->offset);
	}
	if (tp->retprobe)
		strbuf_addstr(&sb, "%return");
	return strbuf_detach(&sb, NULL);
}

/*
 * The probe point of a listed kprobe: "_text+7166832" back to "vfs_read",
 * through the kernel's symbols (-k vmlinux, else /proc/kallsyms).
 */
static char *kprobe_point_name(const struct probe_trace_point *tp, struct symbol_elf **kcache)
{
	struct strbuf sb = STRBUF_INIT;
	const struct elf_symbol **base = NULL, *sym = NULL;
	uint64_t addr = 0;

	if (!*kcache && !tp->module) {
		int ret = probe_conf.vmlinux ? symbol_elf__load(probe_conf.vmlinux, kcache)
					     : symbol_elf__load_kallsyms(NULL, kcache);

		if (ret)
			*kcache = NULL;
	}
	if (*kcache && tp->symbol && !tp->module &&
	    symbol_elf__find_name(*kcache, tp->symbol, &base) > 0) {
		addr = base[0]->addr + tp->offset;
		sym = symbol_elf__find_addr(*kcache, addr);
	}
	free(base);
	if (sym) {
		strbuf_addstr(&sb, sym->name);
		if (addr != sym->addr)
			strbuf_addf(&sb, "+%" PRIu64, addr - sym->addr);
	} else {
		strbuf_addstr(&sb, tp->symbol ? tp->symbol : "");
		if (tp->offset)
			strbuf_addf(&sb, "+%lu", tp->offset);
	}
	if (tp->retprobe)
		strbuf_addstr(&sb, "%return");
	return strbuf_detach(&sb, NULL);
}

static void show_event_lines(bool uprobes, const char *filter, struct list_ctx *ctx)
{
	char **lines;
	int nr = probe_file__get_lines(uprobes, &lines);

	/* perf lists the events in the order of their definition lines. */
	if (nr > 1)
		qsort(lines, nr, sizeof(*lines), cmp_strings);
	for (int i = 0; i < nr; i++) {
		struct probe_trace_event tev = { 0 };
		struct strbuf point = STRBUF_INIT, args = STRBUF_INIT;

		if (parse_probe_trace_command(lines[i], &tev) ||
		    !event_matches(tev.group, tev.event, filter)) {
			clear_probe_trace_event(&tev);
			continue;
		}
		if (tev.uprobes) {
			char *p = uprobe_point_name(&tev.point, ctx);

			strbuf_addstr(&point, p);
			free(p);
		} else {
			char *p = kprobe_point_name(&tev.point, &ctx->ksyms);

			strbuf_addstr(&point, p);
			free(p);
		}
		for (int j = 0; j < tev.nargs; j++)
			strbuf_addf(&args, "%s%s", j ? " " : "",
				    tev.args[j].name ? tev.args[j].name : tev.args[j].value);
		print_event_line(tev.group, tev.event, point.buf, tev.point.module, args.buf);
		strbuf_release(&point);
		strbuf_release(&args);
		clear_probe_trace_event(&tev);
	}
	if (nr > 0)
		probe_file__free_lines(lines, nr);
}

int show_perf_probe_events(const char *filter)
{
	struct list_ctx ctx = { 0 };

	if (!tracefs__mountpoint()) {
		pr_err("Error: Failed to find tracefs: %s\n", strerror(errno));
		return -ENOENT;
	}
	show_event_lines(false, filter, &ctx);
	show_event_lines(true, filter, &ctx);
	list_ctx__clear(&ctx);
	return 0;
}

int del_perf_probe_events(const char *const *filters, int nr)
{
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		int total = 0;

		for (int up = 0; up < 2 && !ret; up++) {
			char **removed = NULL, *busy = NULL;
			int nr_removed = 0;
			int n = probe_file__del_events(up, filters[i], &removed, &nr_removed,
						       &busy);

			if (nr_removed > 1)
				qsort(removed, nr_removed, sizeof(*removed), cmp_strings);
			for (int j = 0; j < nr_removed; j++)
				pr_info("Removed event: %s\n", removed[j]);
			if (n == -ENOENT)
				n = 0; /* this kernel has no such probe type */
			if (n < 0) {
				if (n == -EBUSY)
					pr_err("Error: Failed to delete %s: it is enabled (in use); disable it first\n",
					       busy ? busy : filters[i]);
				else
					pr_err("Error: Failed to delete events matching \"%s\": %s\n",
					       filters[i], probe_file__strerror(n));
				ret = n;
			}
			total += nr_removed;
			free(busy);
			if (removed)
				probe_file__free_lines(removed, nr_removed);
		}
		if (!ret && total == 0) {
			pr_err("Error: \"%s\" does not hit any event.\n", filters[i]);
			ret = -ENOENT;
		}
	}
	return ret;
}

int show_available_funcs(const char *target, bool user, const char *filter)
{
	struct perf_probe_event pev = { .uprobes = user, .target = (char *)target };
	struct probe_target t;
	struct strfilter *sf;
	const char *err = NULL;
	char **names;
	int nr, ret;

	sf = strfilter__new(filter, &err);
	if (!sf) {
		pr_err("Error: bad filter '%s' at '%s'\n", filter, err ? err : "");
		return -EINVAL;
	}
	ret = probe_target__init(&t, &pev);
	if (!ret)
		ret = probe_target__symbols(&t);
	if (!ret) {
		nr = symbol_elf__func_names(t.syms, sf, &names);
		for (int i = 0; i < nr; i++) {
			printf("%s\n", names[i]);
			free(names[i]);
		}
		if (nr >= 0)
			free(names);
		else
			ret = nr;
	}
	probe_target__clear(&t);
	strfilter__delete(sf);
	return ret;
}

/*
 * The entries of the build-id cache; their probes files are opened by the
 * callers, which skip those without one (-ENOENT).
 */
static int probe_caches__list(struct build_id_cache_entry **entries)
{
	return build_id_cache__list_all(entries);
}

int show_probe_cache(const char *filter)
{
	struct build_id_cache_entry *entries;
	int nr = probe_caches__list(&entries), ret = 0;

	for (int i = 0; i < nr; i++) {
		char *dir = build_id_cache__dirname(entries[i].name, &entries[i].bid);
		struct strbuf err = STRBUF_INIT;
		char sbid[SBUILD_ID_SIZE];
		struct probe_cache *pc;
		int r = probe_cache__open(dir, false, &pc, &err);

		build_id__sprintf(&entries[i].bid, sbid);
		if (r == -ENOENT) {
			/* no probes file: nothing cached */
		} else if (r) {
			pr_err("Error: %s: %s\n", r == -EBADMSG ? "corrupt probe cache" : dir,
			       r == -EBADMSG ? err.buf : strerror(-r));
			ret = r;
		} else {
			printf("%s (%s):\n", entries[i].name, sbid);
			for (int j = 0; j < pc->nr; j++)
				if (!filter || !fnmatch(filter, pc->entries[j].spec, 0))
					printf("%s\n", pc->entries[j].spec);
			probe_cache__close(pc);
		}
		strbuf_release(&err);
		free(dir);
	}
	build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	return ret;
}

/* Remove the entries of the cache in @dir whose spec matches @filter. */
static int del_cache_entries(const char *dir, const char *filter, int *removed)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	int n = 0, ret = probe_cache__open(dir, true, &pc, &err);

	if (ret) {
		if (ret == -EBADMSG)
			pr_err("Error: corrupt probe cache %s (left as it is)\n", err.buf);
		else
			pr_err("Error: Failed to open the probe cache in %s: %s\n", dir,
			       strerror(-ret));
		strbuf_release(&err);
		return ret;
	}
	for (int i = 0; i < pc->nr;) {
		if (fnmatch(filter, pc->entries[i].spec, 0)) {
			i++;
			continue;
		}
		pr_info("Removed cached event: %s\n", pc->entries[i].spec);
		probe_cache__remove_entry(pc, i);
		n++;
	}
	if (n)
		ret = probe_cache__commit(pc);
	if (ret)
		pr_err("Error: Failed to write the probe cache %s: %s\n", pc->path, strerror(-ret));
	probe_cache__close(pc);
	*removed += n;
	return ret;
}

int del_probe_cache(const struct perf_probe_event *target, const char *filter)
{
	int ret = 0, removed = 0;

	if (target->target) {
		struct probe_target t;
		char *dir;

		ret = probe_target__init(&t, target);
		if (ret)
			return ret;
		dir = probe_target__cache_entry(&t, "probes");
		if (dir)
			ret = del_cache_entries(dir, filter, &removed);
		free(dir);
		probe_target__clear(&t);
	} else {
		struct build_id_cache_entry *entries;
		int nr = probe_caches__list(&entries);

		for (int i = 0; i < nr && !ret; i++) {
			char *dir = build_id_cache__dirname(entries[i].name, &entries[i].bid);

			ret = del_cache_entries(dir, filter, &removed);
			free(dir);
		}
		build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	}
	if (!ret && !removed) {
		pr_err("Error: \"%s\" does not hit any cached event.\n", filter);
		ret = -ENOENT;
	}
	return ret;
}

/* Bundles: --cache --export FILE [-x BIN...] and --cache --import FILE. */

/* Add to @b the cache of @name/@bid; 0, 1 when it is empty, or -errno. */
static int bundle_add_cache(struct probe_bundle *b, const char *name, const struct build_id *bid)
{
	char *dir = build_id_cache__dirname(name, bid);
	char *path = path_join(dir, "probes");
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct probe_cache *pc;
	int ret = probe_cache__open(dir, false, &pc, &err);

	if (ret == -ENOENT)
		ret = 1;
	else if (ret == -EBADMSG)
		pr_err("Error: corrupt probe cache %s; nothing exported\n", err.buf);
	else if (ret)
		pr_err("Error: Failed to read the probe cache %s: %s\n", path, strerror(-ret));
	if (!ret) {
		if (pc->nr) {
			probe_cache__format(pc, &text);
			probe_bundle__add(b, name, bid, text.buf, text.len);
		} else {
			ret = 1;
		}
		probe_cache__close(pc);
	}
	strbuf_release(&text);
	strbuf_release(&err);
	free(path);
	free(dir);
	return ret;
}

int export_probe_cache(const char *file, const char *const *targets, int ntargets)
{
	struct probe_bundle b = { 0 };
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	if (ntargets) {
		for (int i = 0; i < ntargets && ret >= 0; i++) {
			struct perf_probe_event pev = { .uprobes = true,
							.target = (char *)targets[i] };
			struct probe_target t;
			struct build_id bid;
			char *name;

			ret = probe_target__init(&t, &pev);
			if (ret)
				break;
			ret = probe_target__cache_id(&t, &name, &bid);
			if (ret)
				pr_err("Error: Failed to read the build-id of %s: %s\n", t.path,
				       build_id__strerror(ret));
			else
				ret = bundle_add_cache(&b, name, &bid);
			if (ret == 1)
				pr_warning("Warning: %s has no cached probes\n", t.path);
			free(name);
			probe_target__clear(&t);
		}
	} else {
		struct build_id_cache_entry *entries;
		int nr = probe_caches__list(&entries);

		for (int i = 0; i < nr && ret >= 0; i++)
			ret = bundle_add_cache(&b, entries[i].name, &entries[i].bid);
		build_id_cache__free_entries(entries, nr > 0 ? nr : 0);
	}
	if (ret >= 0 && !b.nr) {
		pr_err("Error: no cached probes to export\n");
		ret = -ENODATA;
	}
	if (ret >= 0)
		ret = probe_bundle__encode(&b, &out);
	if (ret >= 0) {
		ret = write_file_atomic(file, out.buf, out.len, 0644);
		if (ret)
			pr_err("Error: Failed to write %s: %s\n", file, strerror(-ret));
	}
	if (!ret) {
		int specs = 0;

		for (int i = 0; i < b.nr; i++)
			for (const char *p = b.entries[i].probes; *p; p = strchr(p, '\n') + 1)
				specs += *p == '#' || *p == '%';
		pr_info("Exported %d cached probe%s of %d binar%s to %s\n", specs,
			specs == 1 ? "" : "s", b.nr, b.nr == 1 ? "y" : "ies", file);
	}
	probe_bundle__clear(&b);
	strbuf_release(&out);
	return ret < 0 ? ret : 0;
}

/* Merge @src's entries into @dst; counts what is new and what replaced. */
static void merge_cache(struct probe_cache *dst, const struct probe_cache *src, int *added,
			int *updated, int *kept)
{
	for (int i = 0; i < src->nr; i++) {
		const struct probe_cache_entry *e = &src->entries[i];
		struct probe_cache_entry *old = probe_cache__find(dst, e->sdt, e->spec);
		bool same = old && old->nr_lines == e->nr_lines;

		for (int j = 0; same && j < e->nr_lines; j++)
			same = !strcmp(old->lines[j], e->lines[j]);
		if (same) {
			(*kept)++;
			continue;
		}
		if (old)
			(*updated)++;
		else
			(*added)++;
		probe_cache__add_entry(dst, e->sdt, e->spec, e->lines, e->nr_lines);
	}
}

int import_probe_cache(const char *file)
{
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT;
	struct probe_bundle b;
	struct stat st;
	int ret;

	if (stat(file, &st) < 0) {
		pr_err("Error: %s: %s\n", file, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)PROBE_BUNDLE_MAX_SIZE) {
		pr_err("Error: %s: %s\n", file,
		       S_ISREG(st.st_mode) ? "too large for a probe-cache bundle" : "not a file");
		return -EINVAL;
	}
	ret = strbuf_read_file(&data, file);
	if (ret) {
		pr_err("Error: %s: %s\n", file, strerror(-ret));
		goto out;
	}
	ret = probe_bundle__decode(data.buf, data.len, &b, &why);
	if (ret) {
		pr_err("Error: %s is refused: %s; nothing was imported\n", file, why.buf);
		goto out;
	}
	/* Every local cache the bundle merges into must be sound before any is written. */
	for (int i = 0; i < b.nr && !ret; i++) {
		char *dir = build_id_cache__dirname(b.entries[i].name, &b.entries[i].bid);
		struct probe_cache *pc;
		struct strbuf err = STRBUF_INIT;

		ret = probe_cache__open(dir, false, &pc, &err);
		if (ret == -ENOENT) {
			ret = 0;
		} else if (ret) {
			pr_err("Error: corrupt local probe cache %s; nothing was imported\n",
			       err.len ? err.buf : dir);
		} else {
			probe_cache__close(pc);
		}
		strbuf_release(&err);
		free(dir);
	}
	for (int i = 0; i < b.nr && !ret; i++) {
		const struct probe_bundle_entry *e = &b.entries[i];
		struct probe_cache *src = probe_cache__new(), *dst = NULL;
		char *dir = build_id_cache__dirname(e->name, &e->bid);
		int added = 0, updated = 0, kept = 0, bad_line;
		char sbid[SBUILD_ID_SIZE];
		const char *reason;

		probe_cache__parse(src, e->probes, e->probes_len, &bad_line, &reason);
		ret = build_id_cache__add(e->name, NULL, &e->bid, false);
		if (!ret)
			ret = probe_cache__open(dir, true, &dst, NULL);
		if (!ret) {
			merge_cache(dst, src, &added, &updated, &kept);
			if (added || updated)
				ret = probe_cache__commit(dst);
		}
		build_id__sprintf(&e->bid, sbid);
		if (ret)
			pr_err("Error: Failed to import the probes of %s (%s): %s\n", e->name, sbid,
			       strerror(-ret));
		else
			pr_info("Imported %s (%s): %d new, %d updated, %d already cached\n",
				e->name, sbid, added, updated, kept);
		probe_cache__close(dst);
		probe_cache__close(src);
		free(dir);
	}
	probe_bundle__clear(&b);
out:
	strbuf_release(&data);
	strbuf_release(&why);
	return ret;
}

/* ---- -V and -L: through DWARF ---------------------------------------------- */

/* Open the debuginfo of @pev's target, with perf's message when there is none. */
static int open_target_debuginfo(const struct perf_probe_event *pev, struct probe_target *t,
				 struct debuginfo **dbg)
{
	const char *path;
	int ret = probe_target__init(t, pev);

	if (ret)
		return ret;
	path = t->path ? t->path : probe_conf.vmlinux;
	ret = path ? debuginfo__new(path, dbg) : -ENODATA;
	if (!ret)
		debuginfo__set_source_dir(*dbg, probe_conf.source);
	if (ret == -EBADMSG)
		pr_err("Error: Failed to read the debuginfo of %s: it is corrupt\n", path);
	else if (ret)
		pr_err("Error: Failed to find the debuginfo of %s\n", probe_target__name(t));
	if (ret)
		probe_target__clear(t);
	return ret;
}

int show_available_vars(struct perf_probe_event *pevs, int npevs, bool externs, bool range,
			const char *filter)
{
	struct strfilter *sf = NULL;
	const char *err = NULL;
	int ret = 0;

	if (filter) {
		sf = strfilter__new(filter, &err);
		if (!sf) {
			pr_err("Error: bad filter '%s' at '%s'\n", filter, err ? err : "");
			return -EINVAL;
		}
	}
	for (int i = 0; i < npevs && !ret; i++) {
		struct probe_finder_opts opts = { .max_probes = probe_conf.max_probes,
						  .no_inlines = probe_conf.no_inlines };
		struct probe_target t;
		struct debuginfo *dbg = NULL;

		ret = open_target_debuginfo(&pevs[i], &t, &dbg);
		if (ret)
			break;
		ret = probe_target__symbols(&t);
		if (!ret && t.uprobes) {
			opts.global_offset = dwarf_global_offset;
			opts.ctx = t.syms;
		}
		if (!ret)
			ret = debuginfo__show_vars(dbg, &pevs[i], &opts, externs, range, sf);
		debuginfo__delete(dbg);
		probe_target__clear(&t);
	}
	strfilter__delete(sf);
	return ret;
}

int show_line_range(const char *spec, const char *target, bool user)
{
	struct perf_probe_event pev = { .uprobes = user, .target = (char *)target };
	char *head = xstrdup(spec), *colon, *at, *func = NULL, *file = NULL;
	struct probe_target t;
	struct debuginfo *dbg = NULL;
	long start = 0, end = -1;
	int ret;

	colon = strchr(head, ':');
	if (colon) {
		char *e;

		*colon++ = '\0';
		start = strtol(colon, &e, 10);
		if (*e == '-')
			end = strtol(e + 1, &e, 10);
		else if (*e == '+')
			end = start + strtol(e + 1, &e, 10) - 1;
		if (e == colon || *e || (end >= 0 && end < start)) {
			semantic_error("'%s' is not a valid line range.", spec);
			free(head);
			return -EINVAL;
		}
	}
	at = strchr(head, '@');
	if (at) {
		*at++ = '\0';
		file = at;
	}
	if (!at && strpbrk(head, "./"))
		file = head;
	else
		func = head;
	ret = open_target_debuginfo(&pev, &t, &dbg);
	if (!ret) {
		ret = debuginfo__show_lines(dbg, func, file, (int)start, (int)end);
		debuginfo__delete(dbg);
		probe_target__clear(&t);
	}
	free(head);
	return ret;
}
