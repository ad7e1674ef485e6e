// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strfilter.h"
#include "util/util.h"

/*
 * A small expression tree.  Grammar:
 *	or   := and ( '|' and )*
 *	and  := not ( '&' not )*
 *	not  := '!' not | '(' or ')' | GLOB
 */
enum strfilter_op { SF_GLOB, SF_NOT, SF_AND, SF_OR };

/*
 * A glob that is a word with at most a '*' at either end is compared as
 * that: -F's default filter meets every name of a program (56,528 in
 * libjvm), and fnmatch() was an eighth of the command.
 */
enum sf_glob_kind { SF_FNMATCH, SF_EXACT, SF_PREFIX, SF_SUFFIX, SF_INFIX };

struct strfilter_node {
	enum strfilter_op op;
	enum sf_glob_kind kind;
	char *glob;
	char *word; /* the glob's word, for every kind but SF_FNMATCH */
	size_t len; /* of word */
	struct strfilter_node *l, *r;
};

struct strfilter {
	struct strfilter_node *root;
};

struct sf_parser {
	const char *p;
	const char *err;
};

static void node_delete(struct strfilter_node *n)
{
	if (!n)
		return;
	node_delete(n->l);
	node_delete(n->r);
	free(n->glob);
	free(n->word);
	free(n);
}

static struct strfilter_node *node_new(enum strfilter_op op, struct strfilter_node *l,
				       struct strfilter_node *r)
{
	struct strfilter_node *n = xzalloc(sizeof(*n));

	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static void skip_blanks(struct sf_parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct strfilter_node *parse_or(struct sf_parser *ps);

static void glob_classify(struct strfilter_node *n)
{
	const char *g = n->glob;
	size_t len = strlen(g), from = 0, to = len;

	if (len && g[0] == '*')
		from = 1;
	if (to > from && g[to - 1] == '*')
		to--;
	if (strcspn(g + from, "*?[\\") < to - from)
		return; /* SF_FNMATCH */
	n->word = xstrndup(g + from, to - from);
	n->len = to - from;
	if (from && to < len)
		n->kind = SF_INFIX;
	else if (from)
		n->kind = SF_SUFFIX;
	else if (to < len)
		n->kind = SF_PREFIX;
	else
		n->kind = SF_EXACT;
}

static struct strfilter_node *parse_not(struct sf_parser *ps)
{
	struct strfilter_node *n;
	const char *start;

	skip_blanks(ps);
	if (*ps->p == '!') {
		ps->p++;
		n = parse_not(ps);
		return n ? node_new(SF_NOT, n, NULL) : NULL;
	}
	if (*ps->p == '(') {
		ps->p++;
		n = parse_or(ps);
		if (!n)
			return NULL;
		skip_blanks(ps);
		if (*ps->p != ')') {
			ps->err = ps->p;
			node_delete(n);
			return NULL;
		}
		ps->p++;
		return n;
	}
	start = ps->p;
	while (*ps->p && !strchr("!&|()", *ps->p) && !isspace((unsigned char)*ps->p))
		ps->p++;
	if (ps->p == start) {
		ps->err = ps->p;
		return NULL;
	}
	n = node_new(SF_GLOB, NULL, NULL);
	n->glob = xstrndup(start, ps->p - start);
	glob_classify(n);
	return n;
}

static struct strfilter_node *parse_binary(struct sf_parser *ps, char opch, enum strfilter_op op,
					   struct strfilter_node *(*sub)(struct sf_parser *))
{
	struct strfilter_node *n = sub(ps), *r;

	while (n) {
		skip_blanks(ps);
		if (*ps->p != opch)
			break;
		ps->p++;
		r = sub(ps);
		if (!r) {
			node_delete(n);
			return NULL;
		}
		n = node_new(op, n, r);
	}
	return n;
}

static struct strfilter_node *parse_and(struct sf_parser *ps)
{
	return parse_binary(ps, '&', SF_AND, parse_not);
}

static struct strfilter_node *parse_or(struct sf_parser *ps)
{
	return parse_binary(ps, '|', SF_OR, parse_and);
}

struct strfilter *strfilter__new(const char *rules, const char **err)
{
	struct sf_parser ps = { .p = rules, .err = NULL };
	struct strfilter_node *root = parse_or(&ps);
	struct strfilter *filter;

	if (root) {
		skip_blanks(&ps);
		if (*ps.p) {
			ps.err = ps.p;
			node_delete(root);
			root = NULL;
		}
	}
	if (!root) {
		if (err)
			*err = ps.err ? ps.err : ps.p;
		return NULL;
	}
	filter = xmalloc(sizeof(*filter));
	filter->root = root;
	return filter;
}

void strfilter__delete(struct strfilter *filter)
{
	if (!filter)
		return;
	node_delete(filter->root);
	free(filter);
}

static bool glob_match(const struct strfilter_node *n, const char *name)
{
	size_t len;

	switch (n->kind) {
	case SF_EXACT:
		return !strcmp(name, n->word);
	case SF_PREFIX:
		return !strncmp(name, n->word, n->len);
	case SF_SUFFIX:
		len = strlen(name);
		return len >= n->len && !memcmp(name + len - n->len, n->word, n->len);
	case SF_INFIX:
		return strstr(name, n->word) != NULL;
	case SF_FNMATCH:
		break;
	}
	return fnmatch(n->glob, name, 0) == 0;
}

static bool node_match(const struct strfilter_node *n, const char *name)
{
	switch (n->op) {
	case SF_GLOB:
		return glob_match(n, name);
	case SF_NOT:
		return !node_match(n->l, name);
	case SF_AND:
		return node_match(n->l, name) && node_match(n->r, name);
	case SF_OR:
		return node_match(n->l, name) || node_match(n->r, name);
	}
	return false;
}

bool strfilter__compare(const struct strfilter *filter, const char *name)
{
	return !filter || node_match(filter->root, name);
}

bool probe_event_match(const char *group_glob, const char *event_glob, const char *group,
		       const char *event)
{
	if (group_glob && fnmatch(group_glob, group, 0))
		return false;
	return !fnmatch(event_glob, event, 0);
}

bool probe_event_match_filter(const char *filter, const char *group, const char *event)
{
	const char *colon;
	char *g;
	bool ok;

	if (!filter || !*filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon)
		return probe_event_match(NULL, filter, group, event);
	g = xstrndup(filter, colon - filter);
	ok = probe_event_match(g, colon + 1, group, event);
	free(g);
	return ok;
}
