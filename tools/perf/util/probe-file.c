// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/probe-spec.h"
#include "util/probe-file.h"
#include "util/sdt-arg.h"
#include "util/sdt-note.h"
#include "util/util.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"
#define MAX_EVENT_INDEX 1024

ssize_t (*probe_file__write_fn)(int fd, const void *buf, size_t len) = write;

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* /proc/mounts escapes blanks and backslashes as \ooo. */
static void unescape_mount_path(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* The tracefs mount, else debugfs's tracing/, from /proc/mounts; new string. */
static char *tracefs__from_mounts(void)
{
	char *line = NULL, *tracefs = NULL, *debugfs = NULL;
	size_t sz = 0;
	FILE *f = fopen("/proc/mounts", "r");

	if (!f)
		return NULL;
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
	fclose(f);
	if (!tracefs && debugfs && is_dir(debugfs))
		tracefs = debugfs;
	else
		free(debugfs);
	return tracefs;
}

const char *tracefs__mountpoint(void)
{
	static char *mountpoint;
	const char *env = getenv("PERF_TRACEFS_DIR");

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
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				v = realloc(v, alloc * sizeof(*v));
				if (!v)
					abort();
			}
			v[nr] = strndup(p, end - p);
			if (!v[nr])
				abort();
			nr++;
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
	*group = strndup(colon + 1, slash - colon - 1);
	*event = strndup(slash + 1, end - slash - 1);
	if (!*group || !*event)
		abort();
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

/* Write one line and its newline in a single write(); 0 or -errno. */
static int write_line(int fd, const char *line)
{
	struct strbuf sb = STRBUF_INIT;
	ssize_t ret;
	int err = 0;

	strbuf_addf(&sb, "%s\n", line);
	pr_debug("Writing event: %s\n", line);
	ret = probe_file__write_fn(fd, sb.buf, sb.len);
	if (ret < 0)
		err = -errno;
	else if ((size_t)ret != sb.len)
		err = -EIO;
	strbuf_release(&sb);
	return err;
}

/*
 * A stand-in tracefs ($PERF_TRACEFS_DIR) has plain files where the kernel
 * has uprobe_events/kprobe_events: there a deletion is done as the kernel
 * would do it, by removing the event's line.
 */
static int delete_event_in_plain_file(int fd, const char *group, const char *event)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, kept = STRBUF_INIT;
	char **lines = NULL;
	int nr, ret;

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
	if (!ret && kept.len && probe_file__write_fn(fd, kept.buf, kept.len) != (ssize_t)kept.len)
		ret = -EIO;
	if (nr > 0)
		probe_file__free_lines(lines, nr);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&kept);
	return ret;
}

static int delete_event(int fd, const char *group, const char *event)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret;

	if (probe_file__write_fn == write && getenv("PERF_TRACEFS_DIR") && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode))
		return delete_event_in_plain_file(fd, group, event);
	strbuf_addf(&sb, "-:%s/%s", group, event);
	ret = write_line(fd, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static void read_error_log(struct strbuf *sb)
{
	char *path = tracefs__path("error_log");

	if (path)
		strbuf_read_file(sb, path);
	free(path);
}

/*
 * The reason of the newest entry of error_log, when the log changed since
 * @before: entries look like "[ 603.82] trace_uprobe: error: REASON\n
 *   Command: ...\n   ^\n".
 */
static void error_log_reason(const struct strbuf *before, struct strbuf *reason)
{
	struct strbuf after = STRBUF_INIT;
	const char *p, *last = NULL;

	read_error_log(&after);
	if (after.len && strcmp(after.buf, before->buf)) {
		for (p = after.buf; (p = strstr(p, "error: ")); p++)
			last = p;
		if (last) {
			last += strlen("error: ");
			strbuf_add(reason, last, strchrnul(last, '\n') - last);
		}
	}
	strbuf_release(&after);
}

int probe_file__add_lines(int fd, char *const *lines, int nr, int *failed, struct strbuf *reason)
{
	struct strbuf log = STRBUF_INIT;
	int i, ret = 0;

	if (reason)
		read_error_log(&log);
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
			error_log_reason(&log, reason);
		/* Undo, newest first, what this call added. */
		while (--i >= 0) {
			char *group, *event;

			if (probe_file__line_event(lines[i], &group, &event) < 0)
				continue;
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

int probe_file__readme_has(const char *pattern)
{
	char *path = tracefs__path("README"), **lines = NULL;
	struct strbuf sb = STRBUF_INIT;
	int ret, nr;

	if (!path)
		return -errno;
	ret = strbuf_read_file(&sb, path);
	free(path);
	if (ret < 0)
		goto out;
	nr = split_lines(sb.buf, &lines);
	for (int i = 0; i < nr && !ret; i++)
		ret = fnmatch(pattern, lines[i], 0) == 0;
	probe_file__free_lines(lines, nr);
out:
	strbuf_release(&sb);
	return ret;
}

static void list_append(char ***list, int *nr, char *s)
{
	*list = realloc(*list, (*nr + 1) * sizeof(**list));
	if (!*list)
		abort();
	(*list)[(*nr)++] = s;
}

int probe_file__del_events(bool uprobe, const char *filter, char ***removed, int *nr_removed,
			   char **busy)
{
	char **lines = NULL, *gpat, *epat;
	/* Like perf, "GROUP/EVENT" is not a group: it matches nothing. */
	const char *sep = strchr(filter, ':');
	int nr, fd = -1, ret = 0, count = 0;

	if (sep) {
		gpat = strndup(filter, sep - filter);
		epat = xstrdup(sep + 1);
	} else {
		gpat = xstrdup("*");
		epat = xstrdup(filter);
	}
	if (!gpat)
		abort();
	nr = probe_file__get_lines(uprobe, &lines);
	if (nr < 0) {
		ret = nr;
		goto out;
	}
	for (int i = 0; i < nr; i++) {
		char *group, *event, *name;

		if (probe_file__line_event(lines[i], &group, &event) < 0)
			continue;
		if (fnmatch(gpat, group, 0) || fnmatch(epat, event, 0))
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
			if (removed)
				list_append(removed, nr_removed, name);
			else
				free(name);
		}
	next:
		free(group);
		free(event);
		if (ret < 0)
			break;
	}
out:
	if (fd >= 0)
		close(fd);
	probe_file__free_lines(lines, nr);
	free(gpat);
	free(epat);
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

/* The probe cache. */

static void probe_cache_entry__clear(struct probe_cache_entry *e)
{
	free(e->spec);
	for (int i = 0; i < e->nr_lines; i++)
		free(e->lines[i]);
	free(e->lines);
	memset(e, 0, sizeof(*e));
}

static struct probe_cache_entry *probe_cache__new_entry(struct probe_cache *pc)
{
	struct probe_cache_entry *e = realloc(pc->entries, sizeof(*e) * (pc->nr + 1));

	if (!e) {
		pr_err("fatal: out of memory\n");
		abort();
	}
	pc->entries = e;
	e = &pc->entries[pc->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

static void entry_add_line(struct probe_cache_entry *e, const char *line, size_t len)
{
	char **lines = realloc(e->lines, sizeof(*lines) * (e->nr_lines + 1));

	if (!lines) {
		pr_err("fatal: out of memory\n");
		abort();
	}
	e->lines = lines;
	e->lines[e->nr_lines] = xmalloc(len + 1);
	memcpy(e->lines[e->nr_lines], line, len);
	e->lines[e->nr_lines][len] = '\0';
	e->nr_lines++;
}

/* Is this a trace-event line: "p:", "r:", or "p"/"r" with a maxactive count? */
static bool is_trace_line(const char *line, size_t len)
{
	size_t i = 1;

	if (len < 2 || (line[0] != 'p' && line[0] != 'r'))
		return false;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	return i < len && line[i] == ':';
}

int probe_cache__parse(struct probe_cache *pc, const char *text, size_t len, int *bad_line,
		       const char **why)
{
	struct probe_cache_entry *cur = NULL;
	size_t pos = 0;
	int lineno = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		lineno++;
		*bad_line = lineno;
		if (!nl) {
			*why = "the last line has no newline (a truncated file?)";
			return -EBADMSG;
		}
		if (n > PROBE_CACHE_MAX_LINE) {
			*why = "a line is too long";
			return -EBADMSG;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char c = line[i];

			if ((c < 0x20 && c != '\t') || c == 0x7f) {
				*why = "a control character (not a text file)";
				return -EBADMSG;
			}
		}
		pos += n + 1;
		if (n == 0)
			continue;
		if (line[0] == '#' || line[0] == '%') {
			if (n == 1) {
				*why = "an entry header without a spec";
				return -EBADMSG;
			}
			cur = probe_cache__new_entry(pc);
			cur->sdt = line[0] == '%';
			cur->spec = xmalloc(n);
			memcpy(cur->spec, line + 1, n - 1);
			cur->spec[n - 1] = '\0';
		} else if (is_trace_line(line, n)) {
			if (!cur) {
				*why = "a trace-event line before any '#' or '%' entry header";
				return -EBADMSG;
			}
			entry_add_line(cur, line, n);
		} else {
			*why = "neither an entry header ('#', '%') nor a trace-event line ('p:', 'r:')";
			return -EBADMSG;
		}
	}
	*bad_line = 0;
	return 0;
}

static void probe_cache__free(struct probe_cache *pc)
{
	for (int i = 0; i < pc->nr; i++)
		probe_cache_entry__clear(&pc->entries[i]);
	free(pc->entries);
	free(pc->path);
	free(pc);
}

int probe_cache__open(const char *dir, bool update, struct probe_cache **out, struct strbuf *err)
{
	struct probe_cache *pc = xzalloc(sizeof(*pc));
	struct strbuf text = STRBUF_INIT;
	const char *why = NULL;
	int ret, bad_line = 0;

	pc->path = path_join(dir, "probes");
	pc->dir_fd = -1;
	if (update) {
		pc->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pc->dir_fd < 0 || flock(pc->dir_fd, LOCK_EX) < 0) {
			ret = -errno;
			goto fail;
		}
	}
	ret = strbuf_read_file(&text, pc->path);
	if (ret == -ENOENT && update)
		ret = 0;
	if (!ret)
		ret = probe_cache__parse(pc, text.buf, text.len, &bad_line, &why);
	if (ret == -EBADMSG && err)
		strbuf_addf(err, "%s:%d: %s", pc->path, bad_line, why);
	strbuf_release(&text);
	if (ret)
		goto fail;
	*out = pc;
	return 0;
fail:
	if (pc->dir_fd >= 0)
		close(pc->dir_fd);
	probe_cache__free(pc);
	return ret;
}

struct probe_cache *probe_cache__new(void)
{
	struct probe_cache *pc = xzalloc(sizeof(*pc));

	pc->dir_fd = -1;
	return pc;
}

void probe_cache__format(const struct probe_cache *pc, struct strbuf *sb)
{
	for (int i = 0; i < pc->nr; i++) {
		const struct probe_cache_entry *e = &pc->entries[i];

		strbuf_addf(sb, "%c%s\n", e->sdt ? '%' : '#', e->spec);
		for (int j = 0; j < e->nr_lines; j++)
			strbuf_addf(sb, "%s\n", e->lines[j]);
	}
}

/* Remove the temporary files of writers killed before their rename. */
static void remove_stale_tmp(const char *path)
{
	char *dir = xstrdup(path), *base = strrchr(dir, '/');
	struct strbuf prefix = STRBUF_INIT;
	char **names;
	int nr;

	if (!base) {
		free(dir);
		return;
	}
	*base++ = '\0';
	strbuf_addf(&prefix, "%s.tmp.", base);
	nr = lsdir(dir, NULL, &names);
	for (int i = 0; i < nr; i++) {
		if (!strncmp(names[i], prefix.buf, prefix.len)) {
			char *p = path_join(dir, names[i]);

			unlink(p);
			free(p);
		}
	}
	if (nr > 0)
		lsdir_free(names, nr);
	strbuf_release(&prefix);
	free(dir);
}

int probe_cache__commit(struct probe_cache *pc)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (pc->dir_fd < 0)
		return -EBADF;
	remove_stale_tmp(pc->path);
	probe_cache__format(pc, &sb);
	ret = write_file_atomic(pc->path, sb.buf, sb.len, 0644);
	if (!ret)
		fsync(pc->dir_fd);
	strbuf_release(&sb);
	return ret;
}

void probe_cache__close(struct probe_cache *pc)
{
	if (!pc)
		return;
	if (pc->dir_fd >= 0)
		close(pc->dir_fd); /* releases the lock */
	probe_cache__free(pc);
}

struct probe_cache_entry *probe_cache__find(struct probe_cache *pc, bool sdt, const char *spec)
{
	for (int i = 0; i < pc->nr; i++)
		if (pc->entries[i].sdt == sdt && !strcmp(pc->entries[i].spec, spec))
			return &pc->entries[i];
	return NULL;
}

void probe_cache__add_entry(struct probe_cache *pc, bool sdt, const char *spec, char *const *lines,
			    int nr_lines)
{
	struct probe_cache_entry *e = probe_cache__find(pc, sdt, spec);

	if (e)
		probe_cache_entry__clear(e);
	else
		e = probe_cache__new_entry(pc);
	e->sdt = sdt;
	e->spec = xstrdup(spec);
	for (int i = 0; i < nr_lines; i++)
		entry_add_line(e, lines[i], strlen(lines[i]));
}

void probe_cache__remove_entry(struct probe_cache *pc, int index)
{
	if (index < 0 || index >= pc->nr)
		return;
	probe_cache_entry__clear(&pc->entries[index]);
	memmove(&pc->entries[index], &pc->entries[index + 1],
		sizeof(*pc->entries) * (pc->nr - index - 1));
	pc->nr--;
}

/* SDT markers in the cache. */

struct sdt_line {
	char *spec; /* "sdt_PROVIDER:NAME=NAME" */
	char *line;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool entry_has_line(const struct probe_cache_entry *e, const char *line)
{
	for (int i = 0; e && i < e->nr_lines; i++)
		if (!strcmp(e->lines[i], line))
			return true;
	return false;
}

/* The lines of the markers, checked against @pc and each other; 0 or -errno. */
static int sdt_lines(struct probe_cache *pc, const char *path, const struct sdt_note *notes, int nr,
		     struct sdt_line *out, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		char *bad = NULL;

		strbuf_reset(&sb);
		ret = sdt_note__synthesize(&notes[i], path, &sb, &bad);
		if (ret) {
			if (err)
				strbuf_addf(err,
					    "SDT marker %s:%s of %s: invalid argument size in '%s'",
					    notes[i].provider, notes[i].name, path, bad);
			free(bad);
			break;
		}
		out[i].line = strbuf_detach(&sb, NULL);
		strbuf_addf(&sb, "sdt_%s:%s=%s", notes[i].provider, notes[i].name, notes[i].name);
		out[i].spec = strbuf_detach(&sb, NULL);
		if (entry_has_line(probe_cache__find(pc, true, out[i].spec), out[i].line)) {
			ret = -EEXIST;
			if (err)
				strbuf_addf(err, "SDT marker %s:%s of %s is already in the cache",
					    notes[i].provider, notes[i].name, path);
		}
		for (int j = 0; j < i && !ret; j++) {
			if (strcmp(out[j].line, out[i].line) || strcmp(out[j].spec, out[i].spec))
				continue;
			/* perf keeps an entry's lines in a set: it fails the same way. */
			ret = -EEXIST;
			if (err)
				strbuf_addf(err, "SDT marker %s:%s of %s has two identical notes",
					    notes[i].provider, notes[i].name, path);
		}
	}
	strbuf_release(&sb);
	return ret;
}

int probe_cache__add_sdt_entries(struct probe_cache *pc, const char *path, struct strbuf *err)
{
	struct sdt_note *notes = NULL;
	struct sdt_line *lines;
	const char *why = NULL;
	int nr, ret;

	nr = sdt_notes__read(path, &notes, &why);
	if (nr < 0) {
		if (err)
			strbuf_addf(err, "Cannot read the SDT markers of %s: %s", path,
				    why ? why : strerror(-nr));
		return nr;
	}
	lines = xzalloc((nr + 1) * sizeof(*lines));
	ret = sdt_lines(pc, path, notes, nr, lines, err);
	for (int i = 0; i < nr && !ret; i++) {
		struct probe_cache_entry *e = probe_cache__find(pc, true, lines[i].spec);

		if (!e) {
			probe_cache__add_entry(pc, true, lines[i].spec, &lines[i].line, 1);
			continue;
		}
		entry_add_line(e, lines[i].line, strlen(lines[i].line));
		qsort(e->lines, e->nr_lines, sizeof(*e->lines), cmp_str);
	}
	for (int i = 0; i < nr; i++) {
		free(lines[i].spec);
		free(lines[i].line);
	}
	free(lines);
	sdt_notes__free(notes, nr);
	return ret ? ret : nr;
}

int probe_cache__remove_sdt_entries(struct probe_cache *pc)
{
	int removed = 0;

	for (int i = pc->nr - 1; i >= 0; i--) {
		if (pc->entries[i].sdt) {
			probe_cache__remove_entry(pc, i);
			removed++;
		}
	}
	return removed;
}

int probe_file__has_ref_ctr_offset(void)
{
	return probe_file__readme_has("*place (uprobe):*(ref_ctr_offset)*");
}

static void sdt_event_append(struct probe_cache_sdt_event **v, int *nr, const char *spec,
			     const struct build_id_cache_entry *ent)
{
	const char *colon = strchr(spec, ':');
	size_t end = strcspn(spec, "=");
	struct probe_cache_sdt_event *e;

	if (!colon || (size_t)(colon - spec) >= end || colon == spec || colon + 1 == spec + end)
		return;
	*v = realloc(*v, (*nr + 1) * sizeof(**v));
	if (!*v)
		abort();
	e = &(*v)[(*nr)++];
	e->group = strndup(spec, colon - spec);
	e->event = strndup(colon + 1, spec + end - colon - 1);
	if (!e->group || !e->event)
		abort();
	e->name = xstrdup(ent->name);
	build_id__sprintf(&ent->bid, e->sbid);
}

static int cmp_sdt_event(const void *a, const void *b)
{
	const struct probe_cache_sdt_event *x = a, *y = b;
	struct strbuf kx = STRBUF_INIT, ky = STRBUF_INIT;
	int ret;

	strbuf_addf(&kx, "%s:%s@%s", x->group, x->event, x->sbid);
	strbuf_addf(&ky, "%s:%s@%s", y->group, y->event, y->sbid);
	ret = strcmp(kx.buf, ky.buf);
	strbuf_release(&kx);
	strbuf_release(&ky);
	return ret;
}

int probe_cache__list_sdt_events(struct probe_cache_sdt_event **events)
{
	struct build_id_cache_entry *ents;
	struct probe_cache_sdt_event *v = NULL;
	int nr = 0, nents = build_id_cache__list(&ents);

	*events = NULL;
	if (nents < 0)
		return nents == -ENOENT ? 0 : nents;
	for (int i = 0; i < nents; i++) {
		char *dir = build_id_cache__dirname(ents[i].name, &ents[i].bid);
		struct strbuf err = STRBUF_INIT;
		struct probe_cache *pc;
		int ret = probe_cache__open(dir, false, &pc, &err);

		if (ret == -EBADMSG)
			pr_warning("Warning: %s: the probe cache is corrupt, skipped\n", err.buf);
		for (int j = 0; !ret && j < pc->nr; j++)
			if (pc->entries[j].sdt)
				sdt_event_append(&v, &nr, pc->entries[j].spec, &ents[i]);
		if (!ret)
			probe_cache__close(pc);
		strbuf_release(&err);
		free(dir);
	}
	build_id_cache__free_entries(ents, nents);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_sdt_event);
	*events = v;
	return nr;
}

void probe_cache__free_sdt_events(struct probe_cache_sdt_event *events, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(events[i].group);
		free(events[i].event);
		free(events[i].name);
	}
	free(events);
}
