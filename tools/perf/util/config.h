/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_CONFIG_H
#define PERF_UTIL_CONFIG_H

#include "util/strbuf.h"

/*
 * perf's configuration files: $PERF_CONFIG alone if set, else
 * /etc/perfconfig (unless $PERF_CONFIG_NOSYSTEM is set) then ~/.perfconfig,
 * the later setting winning; a missing file is empty.  The git-config
 * syntax: "[section]" then "key = value" (a bare "key" is allowed and sets
 * nothing), '#' and ';' comments, "double-quoted" values with git's
 * backslash escapes.  A file that is not regular, larger than
 * PERF_CONFIG_MAX_SIZE (probe-limits.h), or with a line that breaks this
 * shape (an unterminated quote, a line neither section nor setting) is an
 * error: "FILE:LINE: why", and none of the configuration is used.
 */

/*
 * A new string with the value of "section.key" (e.g. "buildid.dir"), or
 * NULL when it is not set or a file is bad (see perf_config_check()).
 */
char *perf_config_get(const char *name);

/*
 * The value of a setting that is a path: a leading "~/" is $HOME's, and a
 * relative path is refused.  0 with the path in *@out (NULL: unset), or
 * -EBADMSG / -EINVAL / -errno with one line (no newline) in @err.
 */
int perf_config_get_path(const char *name, char **out, struct strbuf *err);

/*
 * Check the configuration files and the settings perf reads from them
 * (the paths), for a command to refuse to start with a bad one.  0, or
 * -errno with one line (no newline) in @err.
 */
int perf_config_check(struct strbuf *err);

#endif
