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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/probe-cache.h"
#include "util/probe-file.h"
#include "util/probe-spec.h"
#include "util/util.h"

static const char *const list_usage[] = {
	"perf list [<options>] [tracepoint|sdt|event_glob]",
	NULL,
};

static void print_event(const char *name, const char *kind)
{
	printf("  %-50s [%s]\n", name, kind);
}

/*
 * The uprobe and kprobe events of tracefs matching the "[GROUP:]EVENT" glob
 * @filter (NULL: all), as perf lists tracepoints.
 */
static void list_probe_events(const char *filter)
{
	char **names = NULL;
	int nr = 0, alloc = 0;

	for (int k = 0; k < 2; k++) {
		char **part;
		int n = probe_file__get_event_names(k == 0, &part);

		if (n <= 0)
			continue;
		ALLOC_GROW(names, nr + n, alloc);
		memcpy(names + nr, part, n * sizeof(*part));
		nr += n;
		free(part);
	}
	if (nr)
		qsort(names, nr, sizeof(*names), strcmp_ptr);
	for (int i = 0; i < nr; i++) {
		char *colon = strchr(names[i], ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (probe_event_match_filter(filter, names[i], colon + 1)) {
			*colon = ':';
			print_event(names[i], "Tracepoint event");
		}
	}
	probe_file__free_lines(names, nr);
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
		list_probe_events(NULL);
		list_sdt_events(NULL);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "sdt")) {
			list_sdt_events(NULL);
			continue;
		}
		if (!strcmp(argv[i], "tracepoint")) {
			list_probe_events(NULL);
			continue;
		}
		/* An empty glob matches no name (a NULL filter would match all). */
		if (!*argv[i])
			continue;
		list_probe_events(argv[i]);
		list_sdt_events(argv[i]);
	}
	return 0;
}
