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
#include <errno.h>
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
	"perf list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
	NULL,
};

/*
 * How events are printed: perf's lines, --raw-dump's names (each followed
 * by a space, for shell completion), or -j's JSON objects (perf 6.12) in
 * one array; to stdout or the -o file.
 */
struct list_out {
	FILE *fp;
	bool raw, json;
	int nr; /* JSON objects printed */
};

static struct list_out out;

static void print_event(const char *name, const char *kind, int id)
{
	if (out.raw) {
		fprintf(out.fp, "%s ", name);
	} else if (out.json) {
		fprintf(out.fp, "%s{\n\t\"EventName\": \"%s\",\n\t\"EventType\": \"%s\"",
			out.nr++ ? ",\n" : "[\n", name, kind);
		if (id >= 0)
			fprintf(out.fp, ",\n\t\"Encoding\": \"tracepoint/config=0x%x/\"", id);
		fputs("\n}", out.fp);
	} else {
		fprintf(out.fp, "  %-50s [%s]\n", name, kind);
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf 6.12's order of -j: by group, then by event ("fib" before "fib6"). */
static int cmp_group_event(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t gx = strcspn(x, ":"), gy = strcspn(y, ":");
	int c = strncmp(x, y, gx < gy ? gx : gy);

	if (c || gx == gy)
		return c ? c : strcmp(x + gx, y + gy);
	return gx < gy ? -1 : 1;
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
		/* the id after a NUL, for -j's Encoding */
		strbuf_addf(&sb, "%s:%s%c%d", list.tps[i].group, list.tps[i].name, '\0',
			    list.tps[i].id);
		names[nr++] = strbuf_detach(&sb, NULL);
	}
	if (nr)
		qsort(names, nr, sizeof(*names), out.json ? cmp_group_event : cmp_name);
	for (int i = 0; i < nr; i++) {
		print_event(names[i], "Tracepoint event", atoi(names[i] + strlen(names[i]) + 1));
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
		/* --raw-dump and -j name an event once, without its files */
		if (out.raw || out.json)
			names[i][strcspn(names[i], "@")] = '\0';
		if (!((out.raw || out.json) && i && !strcmp(names[i], names[i - 1])))
			print_event(names[i], "SDT event", -1);
		if (i)
			free(names[i - 1]);
	}
	if (nr > 0)
		free(names[nr - 1]);
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

/* -j and --raw-dump over the system perf's kinds: theirs, as they print them. */
static int list_system(const char **argv)
{
	char *path = system_perf__find();
	int ret;

	if (!path) {
		fprintf(stderr,
			"perf list: those events are the system perf's, and there is none\n");
		return 1;
	}
	ret = system_perf__exec(path, argv);
	free(path);
	return ret;
}

int cmd_list(int argc, const char **argv)
{
	const char *output = NULL;
	int raw = 0, json = 0, ret = 0;
	const char **all;
	const struct option options[] = {
		OPT_BOOLEAN('j', "json", &json, "JSON encode events and metrics"),
		OPT_STRING('o', "output", &output, "file", "output file name"),
		OPT_BOOLEAN(0, "raw-dump", &raw, "Dump raw events"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};

	/* "perf list ARGS" as given, for the system perf: argv[0] is "list" */
	all = xzalloc((argc + 2) * sizeof(*all));
	memcpy(all + 1, argv, argc * sizeof(*all));
	argc = parse_options(argc, argv, options, list_usage, 0);
	if (argc == -2 || argc < 0) {
		free(all);
		return argc == -2 ? 0 : 129;
	}
	out.fp = stdout;
	out.raw = raw;
	out.json = json && !raw;
	if ((raw || json) && (argc == 0 || system_kind(argv[0]))) {
		/* every kind, or one only the system perf knows */
		ret = list_system(all);
		free(all);
		return ret;
	}
	free(all);
	if (output) {
		out.fp = fopen(output, "w");
		if (!out.fp) {
			pr_err("Error: cannot open %s: %s\n", output, strerror(errno));
			return 1;
		}
	}
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
		if (raw || json)
			list_all(argv[i]);
		else
			list_beside_system(argv[i], list_all, argv[i]);
	}
	if (out.json)
		fputs(out.nr ? "\n]\n" : "[\n]\n", out.fp);
	if (out.fp != stdout && fclose(out.fp)) {
		pr_err("Error: cannot write %s: %s\n", output, strerror(errno));
		return 1;
	}
	return 0;
}
