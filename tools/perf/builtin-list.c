// SPDX-License-Identifier: GPL-2.0
/*
 * perf list: the events this perf can trace, in perf's layout.  Only two
 * kinds exist here: probe events (uprobe/kprobe events of tracefs, which
 * perf lists among its tracepoints) and SDT markers cached in the
 * build-id cache (perf buildid-cache --add, perf probe --cache).
 *
 *	perf list			probe events, then SDT events
 *	perf list tracepoint		probe events
 *	perf list sdt			SDT events
 *	perf list [GROUP:]EVENT		both, matching the globs
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/probe-file.h"
#include "util/util.h"

static const char *const list_usage[] = {
	"perf list [<options>] [tracepoint|sdt|event_glob]",
	NULL,
};

/* A "[GROUP:]EVENT" glob; without GROUP: any group. */
struct event_glob {
	char *group;
	const char *event;
	char *buf;
};

static void event_glob__init(struct event_glob *g, const char *word)
{
	char *colon;

	g->buf = xstrdup(word);
	colon = strchr(g->buf, ':');
	if (colon) {
		*colon = '\0';
		g->group = g->buf;
		g->event = colon + 1;
	} else {
		g->group = NULL;
		g->event = g->buf;
	}
}

static bool event_glob__match(const struct event_glob *g, const char *group, const char *event)
{
	if (!g)
		return true;
	if (g->group && fnmatch(g->group, group, 0))
		return false;
	return !fnmatch(g->event, event, 0);
}

static void print_event(const char *name, const char *kind)
{
	printf("  %-50s [%s]\n", name, kind);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The uprobe and kprobe events of tracefs, as perf lists tracepoints. */
static void list_probe_events(const struct event_glob *g)
{
	char **names = NULL;
	int nr = 0;

	for (int k = 0; k < 2; k++) {
		char **part;
		int n = probe_file__get_event_names(k == 0, &part);

		if (n <= 0)
			continue;
		names = realloc(names, (nr + n) * sizeof(*names));
		if (!names)
			abort();
		memcpy(names + nr, part, n * sizeof(*part));
		nr += n;
		free(part);
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (int i = 0; i < nr; i++) {
		char *colon = strchr(names[i], ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (event_glob__match(g, names[i], colon + 1)) {
			*colon = ':';
			print_event(names[i], "Tracepoint event");
		}
	}
	probe_file__free_lines(names, nr);
}

static bool same_event(const struct probe_cache_sdt_event *a, const struct probe_cache_sdt_event *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->event, b->event);
}

/*
 * The cached SDT events.  An event cached for several files or builds
 * is listed once for each, with the file and the build-id's first 12
 * digits: "sdt_app:start@/usr/bin/app(0123456789ab)", as perf does.
 */
static void list_sdt_events(const struct event_glob *g)
{
	struct probe_cache_sdt_event *ev;
	struct strbuf sb = STRBUF_INIT;
	int nr = probe_cache__list_sdt_events(&ev);

	for (int i = 0; i < nr; i++) {
		bool dup = (i > 0 && same_event(&ev[i - 1], &ev[i])) ||
			   (i + 1 < nr && same_event(&ev[i], &ev[i + 1]));

		if (!event_glob__match(g, ev[i].group, ev[i].event))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s:%s", ev[i].group, ev[i].event);
		if (dup)
			strbuf_addf(&sb, "@%s(%.12s)", ev[i].name, ev[i].sbid);
		print_event(sb.buf, "SDT event");
	}
	strbuf_release(&sb);
	if (nr > 0)
		probe_cache__free_sdt_events(ev, nr);
}

int cmd_list(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, list_usage, 0);
	if (argc == -2)
		return 0;
	if (argc < 0)
		return 129;
	if (argc == 0) {
		list_probe_events(NULL);
		list_sdt_events(NULL);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		struct event_glob g;

		if (!strcmp(argv[i], "sdt")) {
			list_sdt_events(NULL);
			continue;
		}
		if (!strcmp(argv[i], "tracepoint")) {
			list_probe_events(NULL);
			continue;
		}
		event_glob__init(&g, argv[i]);
		list_probe_events(&g);
		list_sdt_events(&g);
		free(g.buf);
	}
	return 0;
}
