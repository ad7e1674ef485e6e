// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/alloc.h"

void str_list_append(struct str_list *list, const char *s)
{
	list->items = xrealloc(list->items, (list->nr + 1) * sizeof(*list->items));
	list->items[list->nr++] = s;
}

void str_list_clear(struct str_list *list)
{
	free(list->items);
	list->items = NULL;
	list->nr = 0;
}

static int takes_value(const struct option *opt)
{
	return opt->type == OPTION_STRING || opt->type == OPTION_STRING_LIST ||
	       opt->type == OPTION_INTEGER || opt->type == OPTION_CALLBACK;
}

/*
 * perf lists the options sorted: those with a short name by that letter
 * (case aside), then by long name; the long-only ones after them.
 */
static int option_order(const void *a, const void *b)
{
	const struct option *x = *(const struct option *const *)a;
	const struct option *y = *(const struct option *const *)b;
	int sx = x->short_name ? tolower(x->short_name) : 256;
	int sy = y->short_name ? tolower(y->short_name) : 256;

	if (sx != sy)
		return sx - sy;
	return strcmp(x->long_name ? x->long_name : "", y->long_name ? y->long_name : "");
}

/* One option's line(s): its names, then its help at column 26. */
static void print_option(FILE *fp, const struct option *opt)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "    ");
	if (opt->short_name)
		strbuf_addf(&sb, "-%c%s", opt->short_name, opt->long_name ? ", " : "");
	else
		strbuf_addstr(&sb, "    ");
	if (opt->long_name)
		strbuf_addf(&sb, "--%s", opt->long_name);
	if (opt->type == OPTION_OPTARG && (opt->flags & PARSE_OPT_OPTARG_NEXT))
		strbuf_addf(&sb, " <%s>", opt->argh);
	else if (opt->type == OPTION_OPTARG)
		strbuf_addf(&sb, "[=<%s>]", opt->argh);
	else if (takes_value(opt))
		strbuf_addf(&sb, " <%s>", opt->argh ? opt->argh : "n");
	if (sb.len > 24)
		fprintf(fp, "%s\n%26s%s\n", sb.buf, "", opt->help);
	else
		fprintf(fp, "%-26s%s\n", sb.buf, opt->help);
	strbuf_release(&sb);
}

static void print_usage_head(FILE *fp, const char *const usage[])
{
	fprintf(fp, "\n Usage: %s\n", usage[0]);
	for (int i = 1; usage[i]; i++)
		fprintf(fp, "    or: %s\n", usage[i]);
	fputc('\n', fp);
}

static void print_usage(FILE *fp, const char *const usage[], const struct option *options)
{
	const struct option **sorted;
	size_t nr = 0;

	for (const struct option *opt = options; opt->type != OPTION_END; opt++)
		nr++;
	sorted = xzalloc((nr ? nr : 1) * sizeof(*sorted));
	for (size_t i = 0; i < nr; i++)
		sorted[i] = &options[i];
	qsort(sorted, nr, sizeof(*sorted), option_order);
	print_usage_head(fp, usage);
	for (size_t i = 0; i < nr; i++)
		print_option(fp, sorted[i]);
	fputc('\n', fp);
	free(sorted);
}

void usage_with_options(const char *const usage[], const struct option *options)
{
	print_usage(stderr, usage, options);
}

/*
 * The copies comma lists are split in, kept reachable for the life of the
 * process like argv itself (and so not reported as leaks by LeakSanitizer).
 */
static void keep_split_copy(char *copy)
{
	static char **copies;
	static size_t nr;
	static size_t alloc;

	ALLOC_GROW(copies, nr + 1, alloc);
	copies[nr++] = copy;
}

static int set_value(const struct option *opt, const char *arg, int unset)
{
	char *end;
	long n;

	switch (opt->type) {
	case OPTION_BOOLEAN:
		*(int *)opt->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)opt->value = unset ? 0 : *(int *)opt->value + 1;
		return 0;
	case OPTION_OPTARG:
		if (opt->callback)
			return opt->callback(opt, arg, unset);
		/* fallthrough */
	case OPTION_STRING:
		*(const char **)opt->value = unset ? NULL : arg ? arg : opt->defval;
		return 0;
	case OPTION_STRING_LIST: {
		struct str_list *list = opt->value;

		if (!(opt->flags & PARSE_OPT_SPLIT_COMMA) || !strchr(arg, ',')) {
			str_list_append(list, arg);
			return 0;
		}
		/* The pieces live as long as argv, so they are never freed. */
		char *copy = strdup(arg), *save = NULL, *tok;

		if (!copy)
			return -ENOMEM;
		keep_split_copy(copy);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			str_list_append(list, tok);
		return 0;
	}
	case OPTION_INTEGER:
		errno = 0;
		n = strtol(arg, &end, 0);
		if (errno || *end || end == arg || n < -2147483647L || n > 2147483647L)
			return -EINVAL;
		*(int *)opt->value = n;
		return 0;
	case OPTION_CALLBACK:
		return opt->callback(opt, arg, unset);
	case OPTION_END:
		break;
	}
	return -EINVAL;
}

static const char *opt_name(const struct option *opt, int is_long, struct strbuf *sb)
{
	if (is_long)
		strbuf_addf(sb, "option `%s'", opt->long_name);
	else
		strbuf_addf(sb, "switch `%c'", opt->short_name);
	return sb->buf;
}

/* Apply @opt; @value is the attached text (after '=' or the short letter). */
static int apply(const struct option *opt, int is_long, const char *value, int unset, int *i,
		 int argc, const char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (unset && opt->type != OPTION_BOOLEAN && opt->type != OPTION_INCR &&
	    opt->type != OPTION_STRING && opt->type != OPTION_CALLBACK) {
		fprintf(stderr, "  Error: %s can't be negated\n", opt_name(opt, 1, &sb));
		ret = -1;
	} else if (opt->type == OPTION_OPTARG && !value && !unset) {
		/* perf probe's -F and -l: the next word when it is no option. */
		if ((opt->flags & PARSE_OPT_OPTARG_NEXT) && *i + 1 < argc && argv[*i + 1][0] != '-')
			value = argv[++*i];
	} else if (!takes_value(opt) || unset) {
		if (value && opt->type != OPTION_OPTARG) {
			fprintf(stderr, "  Error: %s takes no value\n",
				opt_name(opt, is_long, &sb));
			ret = -1;
		}
	} else if (!value) {
		if (*i + 1 >= argc) {
			fprintf(stderr, " Error: %s requires a value\n",
				opt_name(opt, is_long, &sb));
			ret = -1;
		} else {
			value = argv[++*i];
		}
	}
	if (!ret && set_value(opt, value, unset) < 0) {
		strbuf_reset(&sb);
		fprintf(stderr, "  Error: bad value for %s: '%s'\n", opt_name(opt, is_long, &sb),
			value ? value : "");
		ret = -1;
	}
	strbuf_release(&sb);
	return ret;
}

static const struct option *find_long(const struct option *options, const char *name, size_t len,
				      int *unset, int *ambiguous)
{
	const struct option *opt, *found = NULL;
	int found_unset = 0, nr = 0;

	for (int pass = 0; pass < 2; pass++) {
		const char *n = name;
		size_t l = len;

		if (pass == 1) {
			if (len <= 3 || strncmp(name, "no-", 3))
				break;
			n += 3;
			l -= 3;
		}
		for (opt = options; opt->type != OPTION_END; opt++) {
			if (!opt->long_name || strncmp(opt->long_name, n, l))
				continue;
			if (opt->long_name[l] == '\0') {
				*unset = pass;
				return opt;
			}
			if (!found || found != opt)
				nr++;
			found = opt;
			found_unset = pass;
		}
	}
	*ambiguous = nr > 1;
	*unset = found_unset;
	return nr == 1 ? found : NULL;
}

void (*parse_options_manual)(const char *cmd);

/* --list-opts: the long options, for shell completion, as perf prints them. */
static void list_opts(const struct option *options)
{
	for (const struct option *opt = options; opt->type != OPTION_END; opt++)
		if (opt->long_name)
			printf("--%s ", opt->long_name);
	putchar('\n');
}

/*
 * @opt, a mode of the command (PARSE_OPT_EXCLUSIVE), after @first: refused
 * as perf refuses it, with the usage of the two (of @first only when
 * @opt was given as --name=value).  0 when there is no conflict.
 */
static int check_exclusive(const struct option *opt, int is_long, int attached,
			   const struct option **first, const char *const usage[])
{
	const struct option *old = *first;

	if (!(opt->flags & PARSE_OPT_EXCLUSIVE))
		return 0;
	if (!old || old == opt) {
		*first = opt;
		return 0;
	}
	if (is_long || !old->short_name)
		fprintf(stderr, " Error: option `%s' cannot be used with %s", opt->long_name,
			old->long_name);
	else
		fprintf(stderr, " Error: switch `%c' cannot be used with switch `%c'",
			opt->short_name, old->short_name);
	print_usage_head(stderr, usage);
	if (!(is_long && attached))
		print_option(stderr, opt);
	print_option(stderr, old);
	return -1;
}

int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usage[], int flags)
{
	const struct option *mode = NULL; /* the first PARSE_OPT_EXCLUSIVE given */
	int kept = 0, i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (arg[0] != '-' || arg[1] == '\0') {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[kept++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "--help") && parse_options_manual) {
			/* "perf NAME [...]": the manual of NAME; returns only when it cannot. */
			const char *name = usage[0] + (strncmp(usage[0], "perf ", 5) ? 0 : 5);
			char *cmd = xstrndup(name, strcspn(name, " "));

			parse_options_manual(cmd);
			free(cmd);
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			print_usage(stdout, usage, options);
			return -2;
		}
		if (!strcmp(arg, "--list-opts")) {
			list_opts(options);
			return -2;
		}
		if (arg[1] == '-') {
			const char *name = arg + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int unset = 0, ambiguous = 0;
			const struct option *opt =
				find_long(options, name, len, &unset, &ambiguous);

			if (!opt) {
				fprintf(stderr, "  Error: %s option `%.*s'\n",
					ambiguous ? "ambiguous" : "unknown", (int)len, name);
				goto bad;
			}
			if (check_exclusive(opt, 1, eq != NULL, &mode, usage))
				return -1;
			if (apply(opt, 1, eq ? eq + 1 : NULL, unset, &i, argc, argv))
				goto bad;
			continue;
		}
		for (const char *p = arg + 1; *p; p++) {
			const struct option *opt;

			for (opt = options; opt->type != OPTION_END; opt++)
				if (opt->short_name == *p)
					break;
			if (opt->type == OPTION_END) {
				fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
				goto bad;
			}
			if (check_exclusive(opt, 0, p[1] != '\0', &mode, usage))
				return -1;
			if (takes_value(opt) || opt->type == OPTION_OPTARG) {
				const char *value = p[1] ? p + 1 : NULL;

				if (apply(opt, 0, value, 0, &i, argc, argv))
					goto bad;
				break;
			}
			if (apply(opt, 0, NULL, 0, &i, argc, argv))
				goto bad;
		}
	}
	while (i < argc)
		argv[kept++] = argv[i++];
	argv[kept] = NULL;
	if (kept && (flags & PARSE_OPT_NO_ARGS)) {
		fprintf(stderr, "  Error: unexpected argument `%s'\n", argv[0]);
		goto bad;
	}
	return kept;
bad:
	print_usage(stderr, usage, options);
	return -1;
}
