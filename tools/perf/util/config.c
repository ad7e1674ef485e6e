// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/config.h"
#include "util/strbuf.h"
#include "util/util.h"

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
 * starts a comment and the spaces around the value are dropped.
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
	strbuf_setlen(&sb, keep);
	return strbuf_detach(&sb, NULL);
}

static char *config_lookup(char *text, const char *name)
{
	const char *dot = strrchr(name, '.');
	char *section = NULL, *line, *save = NULL, *found = NULL;

	if (!dot)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = trim(line), *eq;

		if (*p == '#' || *p == ';' || *p == '\0')
			continue;
		if (*p == '[') {
			char *close = strchr(p, ']');

			section = close ? (*close = '\0', trim(p + 1)) : NULL;
			continue;
		}
		eq = strchr(p, '=');
		if (!section || !eq)
			continue;
		*eq = '\0';
		if (strlen(section) == (size_t)(dot - name) &&
		    !strncasecmp(section, name, dot - name) && !strcasecmp(trim(p), dot + 1)) {
			free(found);
			found = parse_value(eq + 1); /* the last one wins */
		}
	}
	return found;
}

char *perf_config_get(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *file = getenv("PERF_CONFIG");
	const char *home = getenv("HOME");
	char *path = NULL, *value = NULL;

	if (!file || !*file) {
		if (!home || !*home)
			return NULL;
		path = path_join(home, ".perfconfig");
		file = path;
	}
	if (strbuf_read_file(&sb, file) == 0)
		value = config_lookup(sb.buf, name);
	strbuf_release(&sb);
	free(path);
	return value;
}
