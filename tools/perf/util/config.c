// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/config.h"
#include "util/probe-limits.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PERF_SYSTEM_CONFIG "/etc/perfconfig"

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/*
 * A value as git-config reads it: "double quotes" keep spaces, '#' and ';',
 * a backslash escapes \\, \" and \n, \t, \b; outside quotes '#' or ';'
 * starts a comment and the spaces around the value are dropped.  NULL when
 * a quote is not closed on its line.
 */
static char *parse_value(const char *raw)
{
	struct strbuf sb = STRBUF_INIT;
	size_t keep = 0;
	bool quoted = false;

	while (isspace((unsigned char)*raw))
		raw++;
	for (const char *p = raw; *p; p++) {
		char c = *p;

		if (!quoted && (c == '#' || c == ';'))
			break;
		if (c == '"') {
			quoted = !quoted;
			keep = sb.len;
			continue;
		}
		if (c == '\\' && p[1]) {
			static const char from[] = "ntb", to[] = "\n\t\b";
			const char *esc = strchr(from, *++p);

			c = esc ? to[esc - from] : *p;
			strbuf_addch(&sb, c);
			keep = sb.len;
			continue;
		}
		strbuf_addch(&sb, c);
		if (quoted || !isspace((unsigned char)c))
			keep = sb.len;
	}
	if (quoted) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_setlen(&sb, keep);
	return strbuf_detach(&sb, NULL);
}

/* A key name as git takes it: letters, digits and '-', starting with a letter. */
static bool valid_key(const char *key)
{
	if (!isalpha((unsigned char)*key))
		return false;
	for (; *key; key++)
		if (!isalnum((unsigned char)*key) && *key != '-' && *key != '_')
			return false;
	return true;
}

/*
 * Walk @text (the file @file): with @name, the value of its last setting
 * replaces *@found.  0, or -EBADMSG with "FILE:LINE: why" in @err.
 */
static int config_parse(char *text, size_t len, const char *file, const char *name, char **found,
			struct strbuf *err)
{
	const char *dot = name ? strrchr(name, '.') : NULL;
	char *section = NULL, *line = text, *end = text + len;
	const char *why = NULL;
	int lineno = 0;

	if (memchr(text, '\0', len)) {
		strbuf_addf(err, "%s: a NUL byte (not a text file)", file);
		return -EBADMSG;
	}
	for (; line < end && !why; line++) {
		char *nl = memchr(line, '\n', end - line), *p, *eq, *key, *value;

		if (nl)
			*nl = '\0';
		else
			nl = end;
		lineno++;
		p = trim(line);
		line = nl;
		if (*p == '#' || *p == ';' || *p == '\0')
			continue;
		if (*p == '[') {
			char *close = strchr(p, ']'), *rest = close ? trim(close + 1) : NULL;

			if (!close)
				why = "a section header without its ']'";
			else if (*rest && *rest != '#' && *rest != ';')
				why = "text after the section header";
			else if (*(section = (*close = '\0', trim(p + 1))) == '\0')
				why = "an empty section name";
			continue;
		}
		if (!section) {
			why = "a setting before any [section]";
			continue;
		}
		eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		key = trim(p);
		if (!valid_key(key)) {
			why = eq ? "a bad key name before '='"
				 : "neither a [section] nor key = value";
			continue;
		}
		/* A bare key is git's boolean "true": it sets nothing perf reads. */
		value = eq ? parse_value(eq + 1) : NULL;
		if (eq && !value) {
			why = "an unterminated quote";
			continue;
		}
		if (eq && dot && strlen(section) == (size_t)(dot - name) &&
		    !strncasecmp(section, name, dot - name) && !strcasecmp(key, dot + 1)) {
			free(*found);
			*found = value; /* the last one wins */
			value = NULL;
		}
		free(value);
	}
	if (why) {
		strbuf_addf(err, "%s:%d: %s", file, lineno, why);
		return -EBADMSG;
	}
	return 0;
}

/*
 * A character device that reads empty at once (PERF_CONFIG=/dev/null, as
 * perf's own tests set it) is an empty config; /dev/zero or a terminal
 * is not.
 */
static bool empty_char_device(const char *file)
{
	struct stat st;
	char c;
	int fd;
	bool empty;

	if (stat(file, &st) || !S_ISCHR(st.st_mode))
		return false;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return false;
	empty = read(fd, &c, 1) == 0;
	close(fd);
	return empty;
}

/* Read and parse one file; a missing file is empty. */
static int config_file(const char *file, const char *name, char **found, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_regular(&sb, AT_FDCWD, file, PERF_CONFIG_MAX_SIZE);

	if (ret == -ENOENT || (ret == -EINVAL && empty_char_device(file)))
		ret = 0;
	else if (ret)
		strbuf_addf(err, "%s: %s", file, strbuf_read_strerror(ret));
	else
		ret = config_parse(sb.buf, sb.len, file, name, found, err);
	strbuf_release(&sb);
	return ret;
}

/* The files, in the order they are read: the later wins. */
static int config_files(char **files)
{
	const char *env = getenv("PERF_CONFIG");
	const char *home = getenv("HOME");
	int nr = 0;

	if (env && *env) {
		files[nr++] = xstrdup(env);
		return nr;
	}
	if (!getenv("PERF_CONFIG_NOSYSTEM"))
		files[nr++] = xstrdup(PERF_SYSTEM_CONFIG);
	if (home && *home)
		files[nr++] = path_join(home, ".perfconfig");
	return nr;
}

static int config_get(const char *name, char **out, struct strbuf *err)
{
	char *files[2];
	int nr = config_files(files), ret = 0;

	*out = NULL;
	for (int i = 0; i < nr; i++) {
		if (!ret)
			ret = config_file(files[i], name, out, err);
		free(files[i]);
	}
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

char *perf_config_get(const char *name)
{
	struct strbuf err = STRBUF_INIT;
	char *value;

	config_get(name, &value, &err);
	strbuf_release(&err);
	return value;
}

int perf_config_get_path(const char *name, char **out, struct strbuf *err)
{
	const char *home = getenv("HOME");
	char *value;
	int ret = config_get(name, &value, err);

	*out = NULL;
	if (ret || !value || !*value) {
		free(value);
		return ret;
	}
	if (value[0] == '~' && (value[1] == '/' || value[1] == '\0')) {
		char *full;

		if (!home || !*home) {
			strbuf_addf(err, "%s = %s: '~' with no $HOME", name, value);
			free(value);
			return -EINVAL;
		}
		full = value[1] ? path_join(home, value + 2) : xstrdup(home);
		free(value);
		value = full;
	}
	if (value[0] != '/') {
		strbuf_addf(err, "%s = %s: not an absolute path (nor one under '~/')", name, value);
		free(value);
		return -EINVAL;
	}
	*out = value;
	return 0;
}

int perf_config_check(struct strbuf *err)
{
	/* The settings that are paths: their values are checked too. */
	static const char *const paths[] = { "buildid.dir" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char *value;
		int ret = perf_config_get_path(paths[i], &value, err);

		free(value);
		if (ret)
			return ret;
	}
	return 0;
}
