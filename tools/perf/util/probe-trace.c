// SPDX-License-Identifier: GPL-2.0
/*
 * The k/uprobe_events line grammar (see probe-trace.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/debug.h"
#include "util/probe-trace.h"
#include "util/strbuf.h"

/*
 * An unsigned number at @s in @base (0: C prefixes), the end in *@end:
 * no sign and no blanks (strtoull() would take both), and it must fit
 * @max (strtoull() clamps).  0 or -EINVAL.
 */
static int parse_number(const char *s, int base, uint64_t max, char **end, uint64_t *v)
{
	unsigned long long n;

	if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, end, base);
	if (*end == s || errno == ERANGE || n > max)
		return -EINVAL;
	*v = n;
	return 0;
}

/* VALUE with +|-[u]OFFS(...) dereferences, into @arg. */
static int parse_trace_arg_value(const char *v, struct probe_trace_arg *arg)
{
	size_t n = strlen(v);

	while ((v[0] == '+' || v[0] == '-') && n && v[n - 1] == ')') {
		struct probe_trace_arg_ref *ref = xzalloc(sizeof(*ref));
		const char *p = v + 1, *open;
		char *end = NULL;
		uint64_t off = 0;

		if (*p == 'u') {
			ref->user_access = true;
			p++;
		}
		open = strchr(p, '(');
		/* |offset| <= LONG_MAX: the negation below stays defined. */
		if (!open || parse_number(p, 0, LONG_MAX, &end, &off) || end != open) {
			free(ref);
			pr_debug("Bad dereference in fetcharg '%s'\n", v);
			return -EINVAL;
		}
		ref->offset = v[0] == '-' ? -(long)off : (long)off;
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
	uint64_t v;
	char *end;

	if (!colon || colon == s || strncmp(colon + 1, "0x", 2) ||
	    parse_number(colon + 3, 16, ULONG_MAX, &end, &v))
		return -EINVAL;
	tp->module = xstrndup(s, colon - s);
	tp->offset = v;
	paren = end;
	if (*paren == '(') {
		if (strncmp(paren + 1, "0x", 2) ||
		    parse_number(paren + 3, 16, UINT64_MAX, &end, &tp->ref_ctr_offset) ||
		    strcmp(end, ")"))
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
	uint64_t v;
	char *end;

	if (colon) {
		if (colon == s)
			return -EINVAL;
		tp->module = xstrndup(s, colon - s);
		s = colon + 1;
	}
	if (s[0] == '0' && s[1] == 'x')
		return parse_number(s + 2, 16, UINT64_MAX, &end, &tp->address) || *end ? -EINVAL
										       : 0;
	plus = strchr(s, '+');
	if (plus == s || !*s)
		return -EINVAL;
	tp->symbol = plus ? xstrndup(s, plus - s) : xstrdup(s);
	if (plus) {
		if (parse_number(plus + 1, 0, ULONG_MAX, &end, &v) || *end)
			return -EINVAL;
		tp->offset = v;
	}
	return 0;
}

int parse_probe_trace_command(const char *cmd, struct probe_trace_event *tev)
{
	char **argv;
	int argc, ret = -EINVAL;
	const char *p, *slash;

	argv = split_blank_words(cmd ? cmd : "", &argc);
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
