// SPDX-License-Identifier: GPL-2.0
/* tracefs: mount discovery, paths, README features, error_log (see tracefs.h). */
#include <errno.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/debug.h"
#include "util/tracefs.h"
#include "util/util.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * /proc/mounts escapes blanks and backslashes as \ooo.  What no byte is
 * (\000, or over \377) stays as written: it would cut or wrap the path.
 */
static void unescape_mount_path(char *s)
{
	char *d = s;

	while (*s) {
		int v = s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
					s[3] >= '0' && s[3] <= '7'
				? (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0')
				: 0;

		if (v) {
			*d++ = (char)v;
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

char *tracefs__parse_mounts(FILE *f)
{
	char *line = NULL, *tracefs = NULL, *debugfs = NULL;
	size_t sz = 0;

	while (!tracefs && getline(&line, &sz, f) > 0) {
		char dev[256], dir[4096], type[64];

		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) != 3)
			continue;
		unescape_mount_path(dir);
		if (!strcmp(type, "tracefs"))
			tracefs = xstrdup(dir);
		else if (!strcmp(type, "debugfs") && !debugfs)
			debugfs = path_join(dir, "tracing");
	}
	free(line);
	if (!tracefs && debugfs && is_dir(debugfs))
		tracefs = debugfs;
	else
		free(debugfs);
	return tracefs;
}

/* The tracefs mount, else debugfs's tracing/, from /proc/mounts; new string. */
static char *tracefs__from_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char *tracefs;

	if (!f)
		return NULL;
	tracefs = tracefs__parse_mounts(f);
	fclose(f);
	return tracefs;
}

bool tracefs__is_standin(void)
{
	const char *env = getenv("PERF_TRACEFS_DIR");

	return env && *env;
}

const char *tracefs__mountpoint(void)
{
	static char *mountpoint;
	const char *env = getenv("PERF_TRACEFS_DIR");
	struct statfs sfs;

	if (mountpoint)
		return mountpoint;
	if (env && *env) {
		if (!is_dir(env)) {
			errno = ENODEV;
			return NULL;
		}
		mountpoint = xstrdup(env);
		return mountpoint;
	}
	/* Where it is almost always: one statfs() instead of reading /proc/mounts. */
	if (!statfs(TRACEFS_DEFAULT, &sfs) && sfs.f_type == TRACEFS_MAGIC) {
		mountpoint = xstrdup(TRACEFS_DEFAULT);
		return mountpoint;
	}
	mountpoint = tracefs__from_mounts();
	if (mountpoint)
		return mountpoint;
	if (geteuid() != 0) {
		errno = EACCES;
		return NULL;
	}
	if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) < 0) {
		pr_debug("mounting tracefs on %s: %s\n", TRACEFS_DEFAULT, strerror(errno));
		errno = ENODEV;
		return NULL;
	}
	mountpoint = xstrdup(TRACEFS_DEFAULT);
	return mountpoint;
}

char *tracefs__path(const char *name)
{
	const char *dir = tracefs__mountpoint();

	return dir ? path_join(dir, name) : NULL;
}

/*
 * fnmatch(@pattern, @line, 0) == 0 for a pattern of literal text and '*'
 * only (every pattern perf asks the README for): the literals found in
 * order, the first at the start and the last at the end unless a '*' is
 * there.  fnmatch() on each of the README's lines was a tenth of a cached
 * add's instructions.
 */
static bool star_match(const char *pattern, const char *line)
{
	const char *end = line + strlen(line);
	bool star = false; /* a '*' before the literal at @pattern */

	for (;;) {
		const char *lit_end = strchrnul(pattern, '*');
		size_t len = lit_end - pattern;

		if (*pattern == '*') {
			star = true;
			pattern++;
			continue;
		}
		if (!*pattern) /* all matched: the rest of the line is the last '*''s */
			return star || line == end;
		if (!*lit_end) /* the last literal: it ends the line */
			return (size_t)(end - line) >= len && !memcmp(end - len, pattern, len) &&
			       (star || (size_t)(end - line) == len);
		if (star) {
			line = memmem(line, end - line, pattern, len);
			if (!line)
				return false;
		} else if ((size_t)(end - line) < len || memcmp(line, pattern, len)) {
			return false;
		}
		line += len;
		pattern = lit_end;
		star = false;
	}
}

int tracefs__readme_text_has(struct strbuf *readme, const char *pattern)
{
	bool plain = !*pattern || !strpbrk(pattern, "?[\\");
	/* A plain pattern's first literal: only the lines holding it can match. */
	const char *lit = pattern + strspn(pattern, "*");
	size_t lit_len = plain ? strcspn(lit, "*") : 0;
	int ret = 0;

	for (char *p = readme->buf; !ret && *p;) {
		char *end, c;

		if (lit_len) {
			char *at = memmem(p, readme->buf + readme->len - p, lit, lit_len);

			if (!at)
				break;
			while (at > p && at[-1] != '\n')
				at--;
			p = at;
		}
		end = strchrnul(p, '\n');
		c = *end;

		*end = '\0';
		if (end > p)
			ret = plain ? star_match(pattern, p) : fnmatch(pattern, p, 0) == 0;
		*end = c;
		p = c ? end + 1 : end;
	}
	return ret;
}

int tracefs__readme_has(const char *pattern)
{
	char *path = tracefs__path("README");
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!path)
		return -errno;
	ret = strbuf_read_file(&sb, path);
	free(path);
	if (!ret)
		ret = tracefs__readme_text_has(&sb, pattern);
	strbuf_release(&sb);
	return ret;
}

int tracefs__has_ref_ctr_offset(void)
{
	return tracefs__readme_has("*place (uprobe):*(ref_ctr_offset)*");
}

int tracefs__has_kretprobe_offset(void)
{
	return tracefs__readme_has("*place (kretprobe): *");
}

void tracefs__read_error_log(struct strbuf *sb)
{
	char *path = tracefs__path("error_log");

	if (path)
		strbuf_read_file(sb, path);
	free(path);
}

void tracefs__error_log_diff(const struct strbuf *before, const struct strbuf *after,
			     struct strbuf *reason)
{
	const char *p, *last = NULL;

	if (after->len && strcmp(after->buf, before->buf)) {
		for (p = after->buf; (p = strstr(p, "error: ")); p++)
			last = p;
		if (last) {
			last += strlen("error: ");
			strbuf_add(reason, last, strchrnul(last, '\n') - last);
		}
	}
}

void tracefs__error_log_reason(const struct strbuf *before, struct strbuf *reason)
{
	struct strbuf after = STRBUF_INIT;

	tracefs__read_error_log(&after);
	tracefs__error_log_diff(before, &after, reason);
	strbuf_release(&after);
}
