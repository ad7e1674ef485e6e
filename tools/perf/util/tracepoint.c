// SPDX-License-Identifier: GPL-2.0
/* Tracefs events by "GROUP:EVENT" name or glob: their id and format. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/probe-file.h"
#include "util/tracefs.h"
#include "util/tracepoint.h"
#include "util/util.h"

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

/* Check one part of a spec; @what is "group" or "event". */
static int check_part(const char *part, size_t len, const char *what, struct strbuf *why)
{
	if (!len) {
		if (why)
			strbuf_addf(why, "malformed: empty %s name", what);
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++) {
		char c = part[i];

		if (c == '[') {
			size_t j = i + 1;

			if (j < len && (part[j] == '!' || part[j] == '^'))
				j++;
			/* A ']' right after the opening one is a member, as fnmatch reads it. */
			if (j < len && part[j] == ']')
				j++;
			while (j < len && part[j] != ']')
				j++;
			if (j >= len) {
				if (why)
					strbuf_addf(why, "malformed: unclosed '[' in the %s name",
						    what);
				return -EINVAL;
			}
			i = j;
		} else if (c == ']') {
			if (why)
				strbuf_addf(why, "malformed: ']' without '[' in the %s name", what);
			return -EINVAL;
		} else if (!name_char(c) && c != '*' && c != '?') {
			if (why)
				strbuf_addf(why, "malformed: invalid character '%c' in the %s name",
					    c, what);
			return -EINVAL;
		}
	}
	return 0;
}

int tracepoint__check_spec(const char *spec, struct strbuf *why)
{
	const char *colon = strchr(spec, ':');
	int err;

	if (!colon) {
		if (why)
			strbuf_addstr(why, "malformed: not GROUP:EVENT");
		return -EINVAL;
	}
	if (strchr(colon + 1, ':')) {
		if (why)
			strbuf_addstr(why, "malformed: more than one ':'");
		return -EINVAL;
	}
	err = check_part(spec, colon - spec, "group", why);
	if (!err)
		err = check_part(colon + 1, strlen(colon + 1), "event", why);
	return err;
}

static bool is_dir_filter(const char *dir, const char *name, unsigned char d_type)
{
	struct stat st;
	char *path;
	bool ret;

	if (name[0] == '.')
		return false;
	if (d_type != DT_UNKNOWN)
		return d_type == DT_DIR;
	path = path_join(dir, name);
	ret = !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	return ret;
}

static bool in_list(const struct tracepoint_list *list, const char *group, const char *name)
{
	for (int i = 0; i < list->nr; i++)
		if (!strcmp(list->tps[i].group, group) && !strcmp(list->tps[i].name, name))
			return true;
	return false;
}

/* Read events/@group/@name/{id,format} into a new entry of @list. */
static int add_event(struct tracepoint_list *list, const char *dir, const char *group,
		     const char *name)
{
	struct strbuf path = STRBUF_INIT, id = STRBUF_INIT, format = STRBUF_INIT;
	struct tracepoint *tp;
	char *end;
	long val;
	int err;

	strbuf_addf(&path, "%s/%s/%s/id", dir, group, name);
	err = strbuf_read_file(&id, path.buf);
	if (err)
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/%s/format", dir, group, name);
	err = strbuf_read_file(&format, path.buf);
	if (err)
		goto out;
	errno = 0;
	val = strtol(id.buf, &end, 10);
	if (errno || end == id.buf || val < 0 || val > 0x7fffffff) {
		err = -EINVAL;
		goto out;
	}
	list->tps = xrealloc(list->tps, (list->nr + 1) * sizeof(*list->tps));
	tp = &list->tps[list->nr++];
	tp->group = xstrdup(group);
	tp->name = xstrdup(name);
	tp->id = val;
	tp->format_len = format.len;
	tp->format = strbuf_detach(&format, NULL);
out:
	strbuf_release(&path);
	strbuf_release(&id);
	strbuf_release(&format);
	return err;
}

/* Add the events of @group matching @event_glob; count or -errno. */
static int add_group(struct tracepoint_list *list, const char *dir, const char *group,
		     const char *event_glob)
{
	char *group_dir = path_join(dir, group);
	char **names;
	int nr = lsdir(group_dir, is_dir_filter, &names), added = 0, err = 0;

	for (int i = 0; i < nr && !err; i++) {
		if (fnmatch(event_glob, names[i], 0))
			continue;
		added++;
		if (in_list(list, group, names[i]))
			continue;
		err = add_event(list, dir, group, names[i]);
		/* A directory without an id (not an event) is no match. */
		if (err == -ENOENT) {
			added--;
			err = 0;
		}
	}
	if (nr < 0 && nr != -ENOENT)
		err = nr;
	lsdir_free(names, nr > 0 ? nr : 0);
	free(group_dir);
	return err ? err : added;
}

int tracepoint_list__add(struct tracepoint_list *list, const char *spec, struct strbuf *why)
{
	char *group_glob = NULL, *dir = NULL, **groups = NULL;
	const char *event_glob;
	int nr = 0, added = 0, err;

	err = tracepoint__check_spec(spec, why);
	if (err)
		return err;
	group_glob = xstrdup(spec);
	*strchr(group_glob, ':') = '\0';
	event_glob = group_glob + strlen(group_glob) + 1;
	dir = tracefs__path("events");
	if (!dir) {
		err = -errno;
		if (why)
			strbuf_addstr(why, probe_file__strerror(err));
		goto out;
	}
	nr = lsdir(dir, is_dir_filter, &groups);
	if (nr < 0) {
		err = nr;
		if (why)
			strbuf_addf(why, "cannot read %s: %s", dir, strerror(-err));
		goto out;
	}
	for (int i = 0; i < nr; i++) {
		if (fnmatch(group_glob, groups[i], 0))
			continue;
		err = add_group(list, dir, groups[i], event_glob);
		if (err < 0) {
			if (why)
				strbuf_addf(why, "cannot read %s/%s: %s", dir, groups[i],
					    strerror(-err));
			goto out;
		}
		added += err;
	}
	err = added;
	if (!added) {
		err = -ENOENT;
		if (why)
			strbuf_addf(why, "unknown tracepoint (nothing matches in %s)", dir);
	}
out:
	lsdir_free(groups, nr > 0 ? nr : 0);
	free(group_glob);
	free(dir);
	return err;
}

void tracepoint_list__clear(struct tracepoint_list *list)
{
	for (int i = 0; i < list->nr; i++) {
		free(list->tps[i].group);
		free(list->tps[i].name);
		free(list->tps[i].format);
	}
	free(list->tps);
	list->tps = NULL;
	list->nr = 0;
}
