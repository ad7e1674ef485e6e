/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

/*
 * One command, one builtin-<cmd>.c with its cmd_<name>() entry.  argv[0] is
 * the command's name; the return value is the exit code.
 */
int cmd_buildid_cache(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_check(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_help(int argc, const char **argv);

#endif
