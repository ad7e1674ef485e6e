// SPDX-License-Identifier: GPL-2.0
/*
 * The events files of tracefs, all-or-nothing adds and deletes, unique
 * event names, the kprobe blacklist (see probe-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/debug.h"
#include "util/probe-file.h"
#include "util/probe-limits.h"
/* For probe_event_match_filter(), the one [GROUP:]EVENT glob rule. */
#include "util/probe-spec.h"
#include "util/strfilter.h"
#include "util/target-ns.h"
#include "util/tracefs.h"
#include "util/util.h"

#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"
#define MAX_EVENT_INDEX 1024

int probe_file__open(bool uprobe, int flags)
{
	char *path = tracefs__path(uprobe ? "uprobe_events" : "kprobe_events");
	int fd, err;

	if (!path)
		return -errno;
	if ((flags & O_ACCMODE) != O_RDONLY)
		flags |= O_APPEND;
	fd = open(path, flags | O_CLOEXEC);
	err = errno;
	pr_debug("Opening %s write=%d\n", path, (flags & O_ACCMODE) != O_RDONLY);
	free(path);
	return fd < 0 ? -err : fd;
}

void probe_file__free_lines(char **lines, int nr)
{
	if (!lines)
		return;
	for (int i = 0; i < nr; i++)
		free(lines[i]);
	free(lines);
}

/* Split @text into its non-empty lines. */
static int split_lines(const char *text, char ***lines)
{
	char **v = NULL;
	int nr = 0, alloc = 0;
	const char *p = text;

	while (*p) {
		const char *end = strchrnul(p, '\n');

		if (end > p) {
			ALLOC_GROW(v, nr + 1, alloc);
			v[nr++] = xstrndup(p, end - p);
		}
		p = *end ? end + 1 : end;
	}
	*lines = v;
	return nr;
}

int probe_file__read_lines(int fd, char ***lines)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_fd(&sb, fd);

	if (!ret)
		ret = split_lines(sb.buf, lines);
	strbuf_release(&sb);
	return ret;
}

int probe_file__get_lines(bool uprobe, char ***lines)
{
	int fd = probe_file__open(uprobe, O_RDONLY), ret;

	if (fd < 0)
		return fd;
	ret = probe_file__read_lines(fd, lines);
	close(fd);
	return ret;
}

int probe_file__line_event(const char *line, char **group, char **event)
{
	const char *p = line, *colon, *slash, *end;

	if (*p != 'p' && *p != 'r' && *p != '-')
		return -EINVAL;
	colon = strchr(p, ':');
	if (!colon)
		return -EINVAL;
	/* Between the type letter and ':' only a maxactive count may stand. */
	for (p = line + 1; p < colon; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	slash = strchr(colon, '/');
	end = colon + strcspn(colon, " \t");
	if (!slash || slash > end || slash == colon + 1 || end == slash + 1)
		return -EINVAL;
	*group = xstrndup(colon + 1, slash - colon - 1);
	*event = xstrndup(slash + 1, end - slash - 1);
	return 0;
}

int probe_file__get_event_names(bool uprobe, char ***names)
{
	char **lines = NULL;
	int nr = probe_file__get_lines(uprobe, &lines), n = 0;

	if (nr < 0)
		return nr;
	for (int i = 0; i < nr; i++) {
		char *group, *event;

		if (probe_file__line_event(lines[i], &group, &event) < 0) {
			free(lines[i]);
			continue;
		}
		free(lines[i]);
		if (asprintf(&lines[n], "%s:%s", group, event) < 0)
			abort();
		n++;
		free(group);
		free(event);
	}
	*names = lines;
	return n;
}

static int delete_event_in_plain_file(int fd, const char *group, const char *event);

/* --target-ns: a container's file is reached through what was pinned. */
const struct probe_file_ops probe_file__tracefs_ops = {
	.write = target_ns__write,
};

const struct probe_file_ops probe_file__plain_ops = {
	.write = write,
	.del = delete_event_in_plain_file,
};

static const struct probe_file_ops *ops;

void probe_file__set_ops(const struct probe_file_ops *new_ops)
{
	ops = new_ops;
}

/* The ops in use: those set, else chosen once from $PERF_TRACEFS_DIR. */
static const struct probe_file_ops *probe_file__ops(void)
{
	if (!ops) {
		const char *env = getenv("PERF_TRACEFS_DIR");

		ops = env && *env ? &probe_file__plain_ops : &probe_file__tracefs_ops;
	}
	return ops;
}

/* Write one line and its newline in a single write(); 0 or -errno. */
static int write_line(int fd, const char *line)
{
	struct strbuf sb = STRBUF_INIT;
	ssize_t ret;
	int err = 0;

	strbuf_addf(&sb, "%s\n", line);
	pr_debug("Writing event: %s\n", line);
	ret = probe_file__ops()->write(fd, sb.buf, sb.len);
	if (ret < 0)
		err = -errno;
	else if ((size_t)ret != sb.len)
		err = -EIO;
	strbuf_release(&sb);
	return err;
}

/* What the kernel takes: the line "-:GROUP/EVENT". */
static int delete_event_line(int fd, const char *group, const char *event)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "-:%s/%s", group, event);
	ret = write_line(fd, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/*
 * A stand-in tracefs ($PERF_TRACEFS_DIR) has plain files where the kernel
 * has uprobe_events/kprobe_events: there a deletion is done as the kernel
 * would do it, by removing the event's line.  Anything but a regular file
 * is given the kernel's "-:GROUP/EVENT".
 */
static int delete_event_in_plain_file(int fd, const char *group, const char *event)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, kept = STRBUF_INIT;
	char **lines = NULL;
	struct stat st;
	int nr, ret;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return delete_event_line(fd, group, event);
	strbuf_addf(&path, "/proc/self/fd/%d", fd);
	ret = strbuf_read_file(&text, path.buf);
	nr = ret ? 0 : split_lines(text.buf, &lines);
	for (int i = 0; i < nr; i++) {
		char *g, *e;
		bool match = false;

		if (!probe_file__line_event(lines[i], &g, &e)) {
			match = !strcmp(g, group) && !strcmp(e, event);
			free(g);
			free(e);
		}
		if (!match)
			strbuf_addf(&kept, "%s\n", lines[i]);
	}
	if (!ret && ftruncate(fd, 0) < 0)
		ret = -errno;
	if (!ret && kept.len &&
	    probe_file__ops()->write(fd, kept.buf, kept.len) != (ssize_t)kept.len)
		ret = -EIO;
	if (nr > 0)
		probe_file__free_lines(lines, nr);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&kept);
	return ret;
}

/*
 * Does a line before @i define GROUP:EVENT too?  The kernel appends probes
 * to an event of the same name (README "Create/append/"): one "-:" removes
 * them all, so the event is deleted once.
 */
static bool event_seen_before(char *const *lines, int i, const char *group, const char *event)
{
	for (int j = 0; j < i; j++) {
		char *g, *e;
		bool same;

		if (probe_file__line_event(lines[j], &g, &e) < 0)
			continue;
		same = !strcmp(g, group) && !strcmp(e, event);
		free(g);
		free(e);
		if (same)
			return true;
	}
	return false;
}

static int delete_event(int fd, const char *group, const char *event)
{
	const struct probe_file_ops *o = probe_file__ops();

	return o->del ? o->del(fd, group, event) : delete_event_line(fd, group, event);
}

int probe_file__add_lines(int fd, char *const *lines, int nr, int *failed, struct strbuf *reason)
{
	struct strbuf log = STRBUF_INIT;
	int i, ret = 0;

	if (reason)
		tracefs__read_error_log(&log);
	for (i = 0; i < nr; i++) {
		ret = write_line(fd, lines[i]);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		pr_debug("Failed to write event: %s\n", strerror(-ret));
		if (failed)
			*failed = i;
		if (reason)
			tracefs__error_log_reason(&log, reason);
		/* Undo, newest first, what this call added. */
		while (--i >= 0) {
			char *group, *event;

			if (probe_file__line_event(lines[i], &group, &event) < 0)
				continue;
			if (event_seen_before(lines, i, group, event)) {
				free(group);
				free(event);
				continue;
			}
			if (delete_event(fd, group, event) < 0)
				pr_warning("Failed to remove event %s:%s again\n", group, event);
			free(group);
			free(event);
		}
	}
	strbuf_release(&log);
	return ret;
}

int probe_file__add_events(bool uprobe, char *const *lines, int nr, int *failed,
			   struct strbuf *reason)
{
	int fd = probe_file__open(uprobe, O_WRONLY), ret;

	if (fd < 0)
		return fd;
	ret = probe_file__add_lines(fd, lines, nr, failed, reason);
	close(fd);
	return ret;
}

int probe_file__del_events(bool uprobe, const char *filter, char ***removed, int *nr_removed,
			   char **busy)
{
	char **lines = NULL;
	int nr, fd = -1, ret = 0, count = 0, alloc = removed && *removed ? *nr_removed : 0;

	/* An empty filter names no event (probe_event_match_filter() takes it for all). */
	if (!*filter)
		return 0;
	nr = probe_file__get_lines(uprobe, &lines);
	if (nr < 0)
		return nr;
	for (int i = 0; i < nr; i++) {
		char *group, *event, *name;

		if (probe_file__line_event(lines[i], &group, &event) < 0)
			continue;
		if (!probe_event_match_filter(filter, group, event) ||
		    event_seen_before(lines, i, group, event))
			goto next;
		if (fd < 0) {
			fd = probe_file__open(uprobe, O_WRONLY);
			if (fd < 0) {
				ret = fd;
				goto next;
			}
		}
		ret = delete_event(fd, group, event);
		if (asprintf(&name, "%s:%s", group, event) < 0)
			abort();
		if (ret < 0) {
			if (ret == -EBUSY && busy)
				*busy = name;
			else
				free(name);
		} else {
			count++;
			if (removed) {
				ALLOC_GROW(*removed, *nr_removed + 1, alloc);
				(*removed)[(*nr_removed)++] = name;
			} else {
				free(name);
			}
		}
	next:
		free(group);
		free(event);
		if (ret < 0)
			break;
	}
	if (fd >= 0)
		close(fd);
	probe_file__free_lines(lines, nr);
	return ret < 0 ? ret : count;
}

static bool event_name_taken(const char *group, const char *name, char *const *existing, int nr)
{
	size_t glen = strlen(group);

	for (int i = 0; i < nr; i++) {
		const char *e = existing[i], *colon = strchr(e, ':');

		if (colon) {
			if ((size_t)(colon - e) != glen || strncmp(e, group, glen))
				continue;
			e = colon + 1;
		}
		if (!strcmp(e, name))
			return true;
	}
	return false;
}

char *probe_file__unique_event_name(const char *group, const char *base, char *const *existing,
				    int nr, bool force, int *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (strlen(base) >= MAX_EVENT_NAME_LEN) {
		*err = -E2BIG;
		return NULL;
	}
	if (!event_name_taken(group, base, existing, nr))
		return xstrdup(base);
	if (!force) {
		*err = -EEXIST;
		return NULL;
	}
	for (int i = 1; i < MAX_EVENT_INDEX; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s_%d", base, i);
		if (sb.len >= MAX_EVENT_NAME_LEN) {
			*err = -E2BIG;
			break;
		}
		if (!event_name_taken(group, sb.buf, existing, nr))
			return strbuf_detach(&sb, NULL);
	}
	if (sb.len < MAX_EVENT_NAME_LEN)
		*err = -EBUSY;
	strbuf_release(&sb);
	return NULL;
}

const char *probe_file__strerror(int err)
{
	switch (-err) {
	case ENODEV:
		return "tracefs is not mounted and could not be mounted on " TRACEFS_DEFAULT;
	case ENOENT:
		return "the events file does not exist (a kernel without this probe type)";
	case EACCES:
	case EPERM:
		return "Permission denied: tracefs needs root";
	case EBUSY:
		return "the event is in use (enabled): disable it before deleting it";
	case EEXIST:
		return "the event already exists";
	case E2BIG:
		return "the event name is too long";
	default:
		return strerror(-err);
	}
}

void probe_file__open_strerror(bool uprobe, bool write, int err, struct strbuf *msg)
{
	const char *dir = tracefs__mountpoint();

	switch (-err) {
	case ENOENT:
		/* perf joins "DIR/" and "/NAME": the double slash is its own. */
		strbuf_addf(msg, "%s//%s does not exist.\nPlease rebuild kernel with CONFIG_%s=y.",
			    dir ? dir : TRACEFS_DEFAULT, uprobe ? "uprobe_events" : "kprobe_events",
			    uprobe ? "UPROBE_EVENTS" : "KPROBE_EVENTS");
		break;
	case EACCES:
	case EPERM:
		if (write)
			strbuf_addstr(msg, "No permission to write tracefs.\n"
					   "Please run this command again with sudo.");
		else
			strbuf_addf(msg,
				    "No permission to read tracefs.\n"
				    "Please try 'sudo mount -o remount,mode=755 %s/'",
				    dir ? dir : TRACEFS_DEFAULT);
		break;
	default:
		strbuf_addf(msg, "Failed to open %s: %s",
			    uprobe ? "uprobe_events" : "kprobe_events", probe_file__strerror(err));
		break;
	}
}

int kprobe_blacklist__load(struct kprobe_blacklist *bl, const char *path)
{
	const char *env = getenv("PERF_TRACEFS_DIR");
	char *own = NULL, **lines = NULL;
	struct strbuf sb = STRBUF_INIT;
	int nr, ret;

	if (!path) {
		if (env && *env)
			path = own = path_join(env, "../kprobes/blacklist");
		else
			path = KPROBE_BLACKLIST;
	}
	ret = strbuf_read_file(&sb, path);
	free(own);
	if (ret < 0)
		goto out;
	nr = split_lines(sb.buf, &lines);
	bl->entries = nr ? xzalloc(nr * sizeof(*bl->entries)) : NULL;
	bl->nr = 0;
	for (int i = 0; i < nr; i++) {
		struct kprobe_blacklist_entry *e = &bl->entries[bl->nr];
		char sym[256];

		if (sscanf(lines[i], "0x%" SCNx64 "-0x%" SCNx64 " %255s", &e->start, &e->end,
			   sym) != 3)
			continue;
		e->symbol = xstrdup(sym);
		bl->nr++;
	}
	probe_file__free_lines(lines, nr);
out:
	strbuf_release(&sb);
	return ret;
}

void kprobe_blacklist__clear(struct kprobe_blacklist *bl)
{
	for (int i = 0; i < bl->nr; i++)
		free(bl->entries[i].symbol);
	free(bl->entries);
	bl->entries = NULL;
	bl->nr = 0;
}

const struct kprobe_blacklist_entry *kprobe_blacklist__find_addr(const struct kprobe_blacklist *bl,
								 uint64_t addr)
{
	for (int i = 0; i < bl->nr; i++)
		if (addr >= bl->entries[i].start && addr < bl->entries[i].end)
			return &bl->entries[i];
	return NULL;
}

const struct kprobe_blacklist_entry *
kprobe_blacklist__find_symbol(const struct kprobe_blacklist *bl, const char *symbol)
{
	for (int i = 0; i < bl->nr; i++)
		if (!strcmp(bl->entries[i].symbol, symbol))
			return &bl->entries[i];
	return NULL;
}
