/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_CONFIG_H
#define PERF_UTIL_CONFIG_H

/*
 * perf's configuration file: $PERF_CONFIG if set, else ~/.perfconfig, in the
 * git-config syntax ("[section]" then "key = value", '#' and ';' comments,
 * "double-quoted" values with git's backslash escapes).
 * Returns a new string with the value of "section.key" (e.g. "buildid.dir"),
 * or NULL when it is not set or the file cannot be read.
 */
char *perf_config_get(const char *name);

#endif
