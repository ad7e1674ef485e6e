// SPDX-License-Identifier: GPL-2.0
/*
 * perf: the entry point.  Global options, then one subcommand from the
 * table below; any other command is run by the system's perf behind this
 * one (util/system-perf.h), with the same arguments, environment and exit
 * status.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/config.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/system-perf.h"
#include "util/util.h"

#define PERF_VERSION "0.1.0"
#define LOOP_MARK "this perf again (a loop)"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int, const char **);
	const char *help;
};

static const struct cmd_struct commands[] = {
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids of an ELF file or the kernel" },
	{ "check", cmd_check, "check if features are present in perf" },
	{ "help", cmd_help, "Display help information about perf" },
	{ "list", cmd_list, "List all symbolic event types" },
	{ "probe", cmd_probe, "Define new dynamic tracepoints" },
	{ "trace", cmd_trace, "Show probe and trace events as they fire" },
	{ "version", cmd_version, "display the version of perf binary" },
};

static const char perf_usage_string[] = "perf [--version] [--help] [OPTIONS] COMMAND [ARGS]";

static const struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].cmd))
			return &commands[i];
	return NULL;
}

/*
 * The output of `SYSTEM_PERF ARGS...` in @out (emptied first); false when
 * there is no system perf or it fails.  @path (may be NULL) gets its path.
 */
static bool run_system_perf(struct strbuf *out, char **path, const char *arg1, const char *arg2)
{
	const char *argv[] = { NULL, arg1, arg2, NULL };
	char *sys = system_perf__find();
	int ret;

	strbuf_reset(out);
	if (!sys)
		return false;
	ret = system_perf__run(sys, argv, out);
	if (path)
		*path = sys;
	else
		free(sys);
	return ret == 0;
}

/*
 * The commands of `perf help`: ours, then those of the system perf (the
 * "   NAME   HELP" lines of its `perf help`) that are not ours.
 */
static void list_commands(FILE *fp)
{
	struct strbuf sys = STRBUF_INIT;
	char *path = NULL;

	fprintf(fp, "\n usage: %s\n\n The most commonly used perf commands are:\n",
		perf_usage_string);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-15s %s\n", commands[i].cmd, commands[i].help);
	if (run_system_perf(&sys, &path, "help", NULL)) {
		bool header = false;

		char *save = NULL;

		for (char *line = strtok_r(sys.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char name[64];

			if (strncmp(line, "   ", 3) || line[3] == ' ' ||
			    sscanf(line, "%63s", name) != 1 || find_command(name))
				continue;
			if (!header)
				fprintf(fp, "\n Run by the system perf (%s):\n", path);
			header = true;
			fprintf(fp, "%s\n", line);
		}
	} else {
		fprintf(fp,
			"\n No system perf was found: other commands (record, report, stat, ...)\n"
			" are not available.\n");
	}
	free(path);
	strbuf_release(&sys);
	fprintf(fp, "\n See 'perf help COMMAND' for more information on a specific command.\n\n");
}

/* `perf --list-cmds`: every command, ours and the system perf's, on one line. */
static void list_cmds(void)
{
	struct strbuf sys = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		printf("%s ", commands[i].cmd);
	if (run_system_perf(&sys, NULL, "--list-cmds", NULL)) {
		char *save = NULL;

		for (char *w = strtok_r(sys.buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
			if (!find_command(w))
				printf("%s ", w);
	}
	putchar('\n');
	strbuf_release(&sys);
}

/* @name is a command of the system perf (its `perf --list-cmds`). */
static bool system_has_command(const char *name)
{
	struct strbuf sys = STRBUF_INIT;
	bool found = false;

	if (run_system_perf(&sys, NULL, "--list-cmds", NULL)) {
		char *save = NULL;

		for (char *w = strtok_r(sys.buf, " \n", &save); w && !found;
		     w = strtok_r(NULL, " \n", &save))
			found = !strcmp(w, name);
	}
	strbuf_release(&sys);
	return found;
}

/*
 * The manual of our command @cmd, as perf opens it: `man perf-CMD`, with
 * the man pages installed beside this binary (BINDIR/../share/man) first
 * on MANPATH.  Returns only when there is no such page or man cannot run.
 */
static void show_manual(const char *cmd)
{
	char exe[4096], *page, *mandir;
	struct strbuf sb = STRBUF_INIT;
	const char *old = getenv("MANPATH");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return;
	exe[n] = '\0';
	strbuf_addf(&sb, "%s/../share/man", dirname(exe));
	mandir = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/man1/perf-%s.1", mandir, cmd);
	page = strbuf_detach(&sb, NULL);
	if (access(page, R_OK)) {
		fprintf(stderr,
			"perf: no manual page %s (`make install` puts them there); the options:\n",
			page);
		free(page);
		free(mandir);
		return;
	}
	/* A trailing ':' keeps man's own search path after ours. */
	strbuf_addf(&sb, "%s:%s", mandir, old ? old : "");
	setenv("MANPATH", sb.buf, 1);
	strbuf_release(&sb);
	strbuf_addf(&sb, "perf-%s", cmd);
	fflush(stdout);
	execlp("man", "man", sb.buf, (char *)NULL);
	fprintf(stderr, "perf: cannot run man: %s; the options:\n", strerror(errno));
	strbuf_release(&sb);
	free(page);
	free(mandir);
}

int cmd_version(int argc, const char **argv)
{
	struct strbuf sys = STRBUF_INIT;
	char *path = NULL;
	bool ok;

	printf("perf version %s\n", PERF_VERSION);
	/* Run by our own fallback: the perf asking knows by this line. */
	if (system_perf__looping()) {
		printf("system perf: " LOOP_MARK "\n");
		return 0;
	}
	ok = run_system_perf(&sys, &path, "version", NULL);
	if (!path) {
		printf("system perf: none found; the other commands are not available\n");
	} else if (ok && strstr(sys.buf, LOOP_MARK)) {
		printf("system perf: %s runs this perf again; the other commands are not available\n",
		       path);
	} else if (ok) {
		strbuf_setlen(&sys, strcspn(sys.buf, "\n"));
		printf("system perf: %s (%s), for the other commands\n", path, sys.buf);
	} else {
		printf("system perf: %s (its `perf version` fails), for the other commands\n",
		       path);
	}
	free(path);
	strbuf_release(&sys);
	return 0;
}

static void unknown_command(const char *name)
{
	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", name);
}

int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *cmd;

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (cmd) {
		const char *sub[] = { argv[1], "-h", NULL };

		show_manual(cmd->cmd);
		cmd->fn(2, sub);
		return 0;
	}
	if (system_has_command(argv[1])) {
		char *sys = system_perf__find();
		const char *sub[] = { NULL, "help", argv[1], NULL };

		if (sys)
			system_perf__exec(sys, sub);
		free(sys);
	}
	unknown_command(argv[1]);
	return 1;
}

/*
 * A command we do not implement, argv[1]: the system perf runs argv in our
 * place (system_perf__exec()), or one line says why it cannot.
 */
static int fallback(const char **argv)
{
	char *sys = system_perf__find();
	int err;

	if (!sys) {
		if (system_perf__looping())
			fprintf(stderr,
				"perf: '%s' is not a command of this perf, and the system perf found "
				"runs this perf again\n",
				argv[1]);
		else
			fprintf(stderr,
				"perf: '%s' is not a command of this perf, and no system perf was "
				"found (no other perf on PATH, no /usr/bin/perf_X.Y)\n",
				argv[1]);
		return 1;
	}
	err = system_perf__exec(sys, argv);
	fprintf(stderr, "perf: cannot run the system perf %s: %s\n", sys, strerror(-err));
	free(sys);
	return 127;
}

static bool is_global_option(const char *arg)
{
	return !strcmp(arg, "--version") || !strcmp(arg, "-v") || !strcmp(arg, "--help") ||
	       !strcmp(arg, "-h") || !strcmp(arg, "--list-cmds") || !strcmp(arg, "--list-opts");
}

int main(int argc, const char **argv)
{
	const char **all = argv;
	const struct cmd_struct *cmd;

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
		} else if (!strcmp(argv[0], "--list-cmds")) {
			list_cmds();
			return 0;
		} else if (!strcmp(argv[0], "--list-opts")) {
			printf("--help --version --list-cmds --list-opts \n");
			return 0;
		}
		/* Global options of the system perf (--no-pager, --debug ...) are its. */
		if (!is_global_option(argv[0])) {
			char *sys = system_perf__find();

			if (sys) {
				system_perf__exec(sys, all);
				free(sys);
			}
		}
		fprintf(stderr, "Unknown option: %s\n", argv[0]);
		fprintf(stderr, "\n Usage: %s\n", perf_usage_string);
		return 129;
	}
	if (argc == 0) {
		list_commands(stdout);
		return 1;
	}
	cmd = find_command(argv[0]);
	/* argv[-1] is a word before the command: its slot for the path. */
	if (!cmd)
		return fallback(argv - 1);
	parse_options_manual = show_manual;
	/* A bad perf config stops every command that reads it, before it does anything. */
	if (cmd->fn != cmd_help && cmd->fn != cmd_version) {
		struct strbuf err = STRBUF_INIT;

		if (perf_config_check(&err)) {
			fprintf(stderr, "Error: bad perf config: %s\n", err.buf);
			strbuf_release(&err);
			return 1;
		}
	}
	{
		int ret = cmd->fn(argc, argv);

		if (fflush(stdout) || ferror(stdout)) {
			perror("perf: write error on standard output");
			return 1;
		}
		return ret;
	}
}
