// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options.c: a command line (words split at NULs) against a table
 * holding every kind of option.  The words kept are those of argv, in
 * order, and the string values point into argv.
 */
#include "tests/fuzz/fuzz.h"
#include "util/parse-options.h"

#define MAX_WORDS 64

static int callback(const struct option *opt, const char *arg, int unset)
{
	int *calls = opt->value;

	(*calls)++;
	return arg && !strcmp(arg, "fail") ? -1 : 0;
}

static bool in_argv(const char *s, const char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (s >= argv[i] && s <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const usage[] = { "perf fuzz [<options>] ARG...", "perf fuzz -x", NULL };
	const char *argv[MAX_WORDS + 2], *words[MAX_WORDS + 2], *str = NULL, *opt = NULL;
	int boolean = 0, incr = 0, integer = 0, calls = 0, optcalls = 0, argc = 1, n;
	struct str_list list = { 0 }, split = { 0 };
	char *text;
	const struct option options[] = {
		OPT_BOOLEAN('a', "all", &boolean, "a boolean"),
		OPT_INCR('v', "verbose", &incr, "incremented"),
		OPT_STRING('x', "exec", &str, "path", "a string"),
		OPT_STRING_LIST('s', "source", &list, "dir", "every value", 0),
		OPT_STRING_LIST('e', "event", &split, "events", "comma-split",
				PARSE_OPT_SPLIT_COMMA),
		OPT_INTEGER('n', "max-probes", &integer, "n", "an integer"),
		OPT_OPTARG('o', "output", &opt, "file", "an optional value", "default"),
		OPT_OPTARG_CALLBACK('L', "line", &optcalls, "line", "optional, next word",
				    callback),
		OPT_CALLBACK('D', "definition", &calls, "spec", "a callback", callback),
		OPT_BOOLEAN(0, "all-users", &boolean, "a prefix of another"),
		OPT_END(),
	};
	static bool once;

	if (!once)
		once = freopen("/dev/null", "w", stdout) != NULL;
	if (size > 4096)
		return 0;
	text = fuzz_strndup(data, size);
	argv[0] = "fuzz";
	for (char *p = text; p < text + size && argc <= MAX_WORDS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	memcpy(words, argv, sizeof(argv));
	n = parse_options(argc, argv, options, usage, size && data[0] & 1 ? PARSE_OPT_NO_ARGS : 0);
	if (n >= argc)
		abort();
	for (int i = 0, j = 1; i < n; i++, j++) {
		/* The words kept, in the order of the command line. */
		while (j < argc && words[j] != argv[i])
			j++;
		if (j == argc)
			abort();
	}
	if ((str && !in_argv(str, words, argc)) ||
	    (opt && opt != options[6].defval && !in_argv(opt, words, argc)))
		abort();
	for (int i = 0; i < list.nr; i++)
		if (!in_argv(list.items[i], words, argc))
			abort();
	str_list_clear(&list);
	str_list_clear(&split);
	free(text);
	return 0;
}
