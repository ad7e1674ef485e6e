// SPDX-License-Identifier: GPL-2.0
/*
 * perf list: the events this perf can trace, in perf's layout.  Only two
 * kinds exist here: tracepoints (the events of tracefs, probe events
 * among them, as perf lists them) and SDT markers cached in the build-id
 * cache (perf buildid-cache --add, perf probe --cache).
 *
 *	perf list			tracepoints, then SDT events
 *	perf list tracepoint		tracepoints
 *	perf list sdt			SDT events
 *	perf list [GROUP:]EVENT		both, matching the globs
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/probe-cache.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/tracepoint.h"
#include "util/util.h"

static const char *const list_usage[] = {
	"perf list [<options>] [tracepoint|sdt|event_glob]",
	NULL,
};

static void print_event(const char *name, const char *kind)
{
	printf("  %-50s [%s]\n", name, kind);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The events of tracefs -- the kernel's tracepoints and the uprobe and
 * kprobe events among them -- matching the "[GROUP:]EVENT" glob @filter
 * (NULL: all), as perf lists tracepoints: "GROUP:EVENT" sorted by strcmp.
 */
static void list_tracepoints(const char *filter)
{
	struct tracepoint_list list = { 0 };
	char **names;
	int nr = 0;

	if (tracepoint_list__add(&list, "*:*", NULL) <= 0)
		return;
	names = xzalloc(sizeof(*names) * list.nr);
	for (int i = 0; i < list.nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!probe_event_match_filter(filter, list.tps[i].group, list.tps[i].name))
			continue;
		strbuf_addf(&sb, "%s:%s", list.tps[i].group, list.tps[i].name);
		names[nr++] = strbuf_detach(&sb, NULL);
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (int i = 0; i < nr; i++) {
		print_event(names[i], "Tracepoint event");
		free(names[i]);
	}
	free(names);
	tracepoint_list__clear(&list);
}

/*
 * The cached SDT events (probe_cache__sdt_event_names()): an event cached
 * for several files or builds is listed once for each, with the file and
 * the build-id's first 12 digits: "sdt_app:start@/usr/bin/app(0123456789ab)",
 * as perf does.
 */
static void list_sdt_events(const char *filter)
{
	char **names;
	int nr = probe_cache__sdt_event_names(filter, &names);

	for (int i = 0; i < nr; i++) {
		print_event(names[i], "SDT event");
		free(names[i]);
	}
	if (nr >= 0)
		free(names);
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
		list_tracepoints(NULL);
		list_sdt_events(NULL);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "sdt")) {
			list_sdt_events(NULL);
			continue;
		}
		if (!strcmp(argv[i], "tracepoint")) {
			list_tracepoints(NULL);
			continue;
		}
		/* An empty glob matches no name (a NULL filter would match all). */
		if (!*argv[i])
			continue;
		list_tracepoints(argv[i]);
		list_sdt_events(argv[i]);
	}
	return 0;
}
