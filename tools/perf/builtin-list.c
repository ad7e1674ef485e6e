// SPDX-License-Identifier: GPL-2.0
/*
 * perf list: the events this perf can trace, in perf's layout.  Two kinds
 * are ours: tracepoints (the events of tracefs, probe events among them, as
 * perf lists them) and SDT markers cached in the build-id cache (perf
 * buildid-cache --add, perf probe --cache).  The other kinds (hardware,
 * software, cache, PMU events, metrics) are the system perf's, listed beside
 * ours in perf's order when there is one (util/system-perf.h).
 *
 *	perf list			the system perf's kinds, with ours in their place
 *	perf list tracepoint		tracepoints
 *	perf list sdt			SDT events
 *	perf list hw|sw|cache|pmu|...	the system perf's events of that kind
 *	perf list [GROUP:]EVENT		all kinds, matching the globs
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
#include "util/strfilter.h"
#include "util/system-perf.h"
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

/* Nothing of ours: `perf list hw` and the like. */
static void list_none(const char *filter)
{
}

/* A line of an event of ours: tracepoints and SDT events are listed by us. */
static bool is_ours(const char *line, size_t len)
{
	static const char *const kinds[] = { "[Tracepoint event]", "[SDT event]" };

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t k = strlen(kinds[i]);

		if (len >= k && !memcmp(line + len - k, kinds[i], k))
			return true;
	}
	return false;
}

/* "  NAME ... [KIND]": a line of an event, not a header or a blank line. */
static bool is_event_line(const char *line, size_t len)
{
	return len > 3 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' &&
	       line[len - 1] == ']';
}

/*
 * The events of both perfs, as perf lists them: the system perf's
 * `perf list [@what]` lines of the kinds we do not produce (hardware,
 * software, cache, PMU events, metrics), with ours (tracepoints, then SDT
 * events; list_ours) where the system perf has its tracepoints: before its
 * first tracepoint or SDT line, else before its first line that is not an
 * event (a header such as "Metric Groups:"), else at the end.
 */
static void list_beside_system(const char *what, void (*list_ours)(const char *), const char *arg)
{
	const char *argv[] = { NULL, "list", what, NULL };
	struct strbuf sys = STRBUF_INIT;
	char *path = system_perf__find();
	size_t at = 0;
	bool placed = false;

	if (!path || system_perf__run(path, argv, &sys) != 0)
		strbuf_reset(&sys);
	if (!path && list_ours == list_none)
		fprintf(stderr, "perf list: '%s' events are the system perf's, and there is none\n",
			what);
	free(path);
	while (at < sys.len) {
		const char *line = sys.buf + at;
		size_t len = strchrnul(line, '\n') - line;

		if (!placed && (is_ours(line, len) || !is_event_line(line, len))) {
			fflush(stdout);
			list_ours(arg);
			placed = true;
		}
		if (!is_ours(line, len))
			printf("%.*s\n", (int)len, line);
		at += len + 1;
	}
	if (!placed)
		list_ours(arg);
	strbuf_release(&sys);
}

static void list_all(const char *filter)
{
	list_tracepoints(filter);
	list_sdt_events(filter);
}

/* The kinds of events perf lists that only the system perf knows. */
static bool system_kind(const char *arg)
{
	static const char *const kinds[] = { "hw",	    "hardware", "sw",  "software",
					     "cache",	    "hwcache",	"pmu", "metric",
					     "metricgroup", "tool" };

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(arg, kinds[i]))
			return true;
	return false;
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
		list_beside_system(NULL, list_all, NULL);
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
		if (system_kind(argv[i])) {
			list_beside_system(argv[i], list_none, NULL);
			continue;
		}
		/* An empty glob matches no name (a NULL filter would match all). */
		if (!*argv[i])
			continue;
		list_beside_system(argv[i], list_all, argv[i]);
	}
	return 0;
}
