// SPDX-License-Identifier: GPL-2.0
/*
 * perf: the entry point.  Global options, then one subcommand from the
 * table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/util.h"

#define PERF_VERSION "0.1.0"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int, const char **);
	const char *help;
};

static const struct cmd_struct commands[] = {
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids of an ELF file or the kernel" },
	{ "help", cmd_help, "Display help information about perf" },
	{ "list", cmd_list, "List all symbolic event types" },
	{ "probe", cmd_probe, "Define new dynamic tracepoints" },
	{ "trace", cmd_trace, "Show probe and trace events as they fire" },
	{ "version", cmd_version, "display the version of perf binary" },
};

static const char perf_usage_string[] = "perf [--version] [--help] [OPTIONS] COMMAND [ARGS]";

static void list_commands(FILE *fp)
{
	fprintf(fp, "\n usage: %s\n\n The most commonly used perf commands are:\n",
		perf_usage_string);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-15s %s\n", commands[i].cmd, commands[i].help);
	fprintf(fp, "\n See 'perf help COMMAND' for more information on a specific command.\n\n");
}

int cmd_version(int argc, const char **argv)
{
	printf("perf version %s\n", PERF_VERSION);
	return 0;
}

int cmd_help(int argc, const char **argv)
{
	if (argc > 1) {
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
			if (!strcmp(argv[1], commands[i].cmd)) {
				const char *sub[] = { argv[1], "-h", NULL };

				commands[i].fn(2, sub);
				return 0;
			}
		}
		fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", argv[1]);
		return 1;
	}
	list_commands(stdout);
	return 0;
}

int main(int argc, const char **argv)
{
	argv++;
	argc--;
	/* Global options before the command. */
	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-v")) {
			argv[0] = "version";
			break;
		} else if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
			argv[0] = "help";
			break;
		}
		fprintf(stderr, "Unknown option: %s\n", argv[0]);
		fprintf(stderr, "\n Usage: %s\n", perf_usage_string);
		return 129;
	}
	if (argc == 0) {
		list_commands(stdout);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[0], commands[i].cmd)) {
			int ret = commands[i].fn(argc, argv);

			if (fflush(stdout) || ferror(stdout)) {
				perror("perf: write error on standard output");
				return 1;
			}
			return ret;
		}
	}
	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", argv[0]);
	return 1;
}
