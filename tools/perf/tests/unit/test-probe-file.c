// SPDX-License-Identifier: GPL-2.0
/*
 * probe-file on a plain directory standing in for tracefs
 * ($PERF_TRACEFS_DIR).  Its ops (probe_file__set_ops()) play the kernel: it appends event
 * lines, removes events on "-:GROUP/EVENT", refuses lines holding "%zz"
 * (with an error_log entry) and refuses to delete events named busy*.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/probe-file.h"
#include "util/tracefs.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The fake tracefs is BASE/tracing, so BASE/kprobes/blacklist is as in debugfs. */
static char base[] = "/tmp/perf-test-probe-file.XXXXXX";
static char *dir, *uprobe_events, *error_log;

static ssize_t fake_kernel_write(int fd, const void *buf, size_t len)
{
	struct strbuf line = STRBUF_INIT, file = STRBUF_INIT, out = STRBUF_INIT;
	ssize_t ret = len;

	strbuf_add(&line, buf, len);
	if (line.len && line.buf[line.len - 1] == '\n')
		strbuf_setlen(&line, line.len - 1);
	if (strstr(line.buf, "%zz")) {
		FILE *log = fopen(error_log, "a");

		fprintf(log,
			"[  1.000000] trace_uprobe: error: Invalid register name\n"
			"  Command: %s\n             ^\n",
			line.buf);
		fclose(log);
		errno = EINVAL;
		ret = -1;
	} else if (!strncmp(line.buf, "-:", 2)) {
		const char *ev = line.buf + 2, *p;
		bool found = false;

		if (strstr(ev, "/busy")) {
			errno = EBUSY;
			ret = -1;
			goto out;
		}
		strbuf_read_file(&file, uprobe_events);
		for (p = file.buf; *p;) {
			const char *end = strchrnul(p, '\n'), *name = strchr(p, ':') + 1;
			size_t n = strcspn(name, " \n");

			if (n == strlen(ev) && !strncmp(name, ev, n))
				found = true;
			else
				strbuf_add(&out, p, end - p + 1);
			p = *end ? end + 1 : end;
		}
		if (!found) {
			errno = ENOENT;
			ret = -1;
			goto out;
		}
		if (ftruncate(fd, 0) < 0 || write(fd, out.buf, out.len) != (ssize_t)out.len)
			ret = -1;
	} else {
		ret = write(fd, buf, len);
	}
out:
	strbuf_release(&line);
	strbuf_release(&file);
	strbuf_release(&out);
	return ret;
}

/* The kernel stand-in: deletions are "-:GROUP/EVENT" lines for fake_kernel_write. */
static const struct probe_file_ops fake_kernel = {
	.write = fake_kernel_write,
};

static void set_events(const char *text)
{
	CHECK_INT(write_file_atomic(uprobe_events, text, strlen(text), 0644), ==, 0);
}

static char *events(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_read_file(&sb, uprobe_events);
	return strbuf_detach(&sb, NULL);
}

static void test_the_tracefs_dir_comes_from_the_environment(void)
{
	char *path = tracefs__path("uprobe_events");

	CHECK_STR(tracefs__mountpoint(), dir);
	CHECK_STR(path, uprobe_events);
	free(path);
}

static void test_lines_are_read_without_blanks(void)
{
	char **lines;
	int nr;

	set_events("p:g/a /bin/x:0x10\n\nr:g/b /bin/x:0x20\n");
	nr = probe_file__get_lines(true, &lines);
	CHECK_INT(nr, ==, 2);
	if (nr == 2) {
		CHECK_STR(lines[0], "p:g/a /bin/x:0x10");
		CHECK_STR(lines[1], "r:g/b /bin/x:0x20");
	}
	probe_file__free_lines(lines, nr);
}

static void test_a_missing_events_file_is_enoent(void)
{
	char **lines = NULL;

	CHECK_INT(probe_file__get_lines(false, &lines), ==, -ENOENT);
}

static void test_the_event_head_of_a_line_splits(void)
{
	char *g = NULL, *e = NULL;

	CHECK_INT(probe_file__line_event("p:probe_x/work /x:0x1126 a=%di", &g, &e), ==, 0);
	CHECK_STR(g, "probe_x");
	CHECK_STR(e, "work");
	free(g);
	free(e);
	CHECK_INT(probe_file__line_event("r10:grp/ev /x:0x1", &g, &e), ==, 0);
	CHECK_STR(e, "ev");
	free(g);
	free(e);
	CHECK_INT(probe_file__line_event("-:grp/ev", &g, &e), ==, 0);
	free(g);
	free(e);
	CHECK_INT(probe_file__line_event("x:grp/ev", &g, &e), ==, -EINVAL);
	CHECK_INT(probe_file__line_event("p:grpev /x:0x1", &g, &e), ==, -EINVAL);
	CHECK_INT(probe_file__line_event("p:/ev /x:0x1", &g, &e), ==, -EINVAL);
	CHECK_INT(probe_file__line_event("pq:g/ev /x:0x1", &g, &e), ==, -EINVAL);
}

static void test_event_names_are_group_colon_event(void)
{
	char **names;
	int nr;

	set_events("p:g/a /bin/x:0x10\nr:h/b /bin/x:0x20\n");
	nr = probe_file__get_event_names(true, &names);
	CHECK_INT(nr, ==, 2);
	if (nr == 2) {
		CHECK_STR(names[0], "g:a");
		CHECK_STR(names[1], "h:b");
	}
	probe_file__free_lines(names, nr);
}

static void test_added_lines_are_written_one_per_line(void)
{
	char *lines[] = { "p:g/a /bin/x:0x10", "r:g/b /bin/x:0x20" }, *text;
	int fd;

	set_events("");
	fd = probe_file__open(true, O_WRONLY);
	CHECK(fd >= 0);
	CHECK_INT(probe_file__add_lines(fd, lines, 2, NULL, NULL), ==, 0);
	close(fd);
	text = events();
	CHECK_STR(text, "p:g/a /bin/x:0x10\nr:g/b /bin/x:0x20\n");
	free(text);
}

static void test_a_rejected_line_undoes_the_lines_before_it(void)
{
	char *lines[] = { "p:g/a /bin/x:0x10", "p:g/b /bin/x:0x20", "p:g/c /bin/x:0x30 v=%zz",
			  "p:g/d /bin/x:0x40" },
	     *text;
	struct strbuf reason = STRBUF_INIT;
	int fd, failed = -1;

	set_events("p:old/keep /bin/y:0x1\n");
	fd = probe_file__open(true, O_WRONLY);
	CHECK_INT(probe_file__add_lines(fd, lines, 4, &failed, &reason), ==, -EINVAL);
	close(fd);
	CHECK_INT(failed, ==, 2);
	CHECK_STR(reason.buf, "Invalid register name");
	text = events();
	CHECK_STR(text, "p:old/keep /bin/y:0x1\n");
	free(text);
	strbuf_release(&reason);
}

static void test_a_stale_error_log_entry_is_not_quoted(void)
{
	char *lines[] = { "p:g/a /bin/x:0x10" };
	struct strbuf reason = STRBUF_INIT;
	int fd;

	/* error_log already holds an entry from an earlier failure. */
	set_events("");
	fd = probe_file__open(true, O_WRONLY);
	CHECK_INT(probe_file__add_lines(fd, lines, 1, NULL, &reason), ==, 0);
	CHECK_INT(reason.len, ==, 0);
	close(fd);
	strbuf_release(&reason);
}

static void test_deleting_matches_group_and_event_globs(void)
{
	char **removed = NULL, *text;
	int nr = 0;

	set_events("p:g/work /x:0x1\np:g/work_1 /x:0x1\np:h/work /x:0x1\np:g/main /x:0x2\n");
	CHECK_INT(probe_file__del_events(true, "g:work*", &removed, &nr, NULL), ==, 2);
	CHECK_INT(nr, ==, 2);
	if (nr == 2) {
		CHECK_STR(removed[0], "g:work");
		CHECK_STR(removed[1], "g:work_1");
	}
	probe_file__free_lines(removed, nr);
	text = events();
	CHECK_STR(text, "p:h/work /x:0x1\np:g/main /x:0x2\n");
	free(text);
}

static void test_deleting_without_group_matches_any_group(void)
{
	set_events("p:g/work /x:0x1\np:h/work /x:0x1\np:g/main /x:0x2\n");
	CHECK_INT(probe_file__del_events(true, "work", NULL, NULL, NULL), ==, 2);
	/* perf: '"g/main" does not hit any event.' */
	CHECK_INT(probe_file__del_events(true, "g/main", NULL, NULL, NULL), ==, 0);
	CHECK_INT(probe_file__del_events(true, "g:main", NULL, NULL, NULL), ==, 1);
	CHECK_INT(probe_file__del_events(true, "nosuch", NULL, NULL, NULL), ==, 0);
}

static void test_an_enabled_event_is_not_deleted_and_named(void)
{
	char *busy = NULL, **removed = NULL;
	int nr = 0;

	set_events("p:g/a /x:0x1\np:g/busy /x:0x1\np:g/c /x:0x2\n");
	CHECK_INT(probe_file__del_events(true, "g:*", &removed, &nr, &busy), ==, -EBUSY);
	CHECK_STR(busy, "g:busy");
	CHECK_INT(nr, ==, 1);
	probe_file__free_lines(removed, nr);
	free(busy);
}

static void test_unique_names_follow_perf_force_suffixes(void)
{
	char *existing[] = { "probe_t:work", "probe_t:work_1", "other:main", "main_x" };
	char *name;
	int err = 0;

	name = probe_file__unique_event_name("probe_t", "helper", existing, 4, false, &err);
	CHECK_STR(name, "helper");
	free(name);
	name = probe_file__unique_event_name("probe_t", "work", existing, 4, false, &err);
	CHECK(name == NULL);
	CHECK_INT(err, ==, -EEXIST);
	name = probe_file__unique_event_name("probe_t", "work", existing, 4, true, &err);
	CHECK_STR(name, "work_2");
	free(name);
	/* Another group's event does not take the name. */
	name = probe_file__unique_event_name("probe_t", "main", existing, 3, false, &err);
	CHECK_STR(name, "main");
	free(name);
	/* A bare name counts in every group. */
	name = probe_file__unique_event_name("probe_t", "main_x", existing, 4, true, &err);
	CHECK_STR(name, "main_x_1");
	free(name);
}

static void test_too_long_event_names_are_refused(void)
{
	char longname[80];
	int err = 0;

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK(probe_file__unique_event_name("g", longname, NULL, 0, true, &err) == NULL);
	CHECK_INT(err, ==, -E2BIG);
}

static void test_the_blacklist_is_found_beside_tracing(void)
{
	static const char text[] = "0xffffffff81000000-0xffffffff81000010\tdo_one\n"
				   "garbage\n"
				   "0xffffffff82000000-0xffffffff82000100\tdo_two\n";
	struct kprobe_blacklist bl = { 0 };
	char *kdir = path_join(base, "kprobes"), *file = path_join(kdir, "blacklist");
	const struct kprobe_blacklist_entry *e;

	CHECK_INT(kprobe_blacklist__load(&bl, NULL), ==, -ENOENT);
	mkdir_p(kdir, 0755);
	write_file_atomic(file, text, strlen(text), 0644);
	CHECK_INT(kprobe_blacklist__load(&bl, NULL), ==, 0);
	CHECK_INT(bl.nr, ==, 2);
	e = kprobe_blacklist__find_addr(&bl, 0xffffffff8100000fULL);
	CHECK(e && !strcmp(e->symbol, "do_one"));
	CHECK(kprobe_blacklist__find_addr(&bl, 0xffffffff81000010ULL) == NULL);
	e = kprobe_blacklist__find_symbol(&bl, "do_two");
	CHECK(e && e->start == 0xffffffff82000000ULL);
	CHECK(kprobe_blacklist__find_symbol(&bl, "do_three") == NULL);
	kprobe_blacklist__clear(&bl);
	free(kdir);
	free(file);
}

static void test_readme_features_are_found_by_glob(void)
{
	static const char text[] = "  place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
				   "\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, string\n";
	char *readme = path_join(dir, "README");

	CHECK_INT(tracefs__readme_has("*x8/16/32/64*"), ==, -ENOENT);
	write_file_atomic(readme, text, strlen(text), 0644);
	CHECK_INT(tracefs__readme_has("*place (uprobe):*(ref_ctr_offset)*"), ==, 1);
	CHECK_INT(tracefs__readme_has("*x8/16/32/64*"), ==, 1);
	CHECK_INT(tracefs__readme_has("*symstr*"), ==, 0);
	free(readme);
}

static void test_add_events_opens_the_file_itself(void)
{
	char *lines[] = { "p:g/a /bin/x:0x10" }, *text;

	set_events("");
	CHECK_INT(probe_file__add_events(true, lines, 1, NULL, NULL), ==, 0);
	text = events();
	CHECK_STR(text, "p:g/a /bin/x:0x10\n");
	free(text);
	CHECK_INT(probe_file__add_events(false, lines, 1, NULL, NULL), ==, -ENOENT);
}

static void test_open_errors_read_as_perf_words_them(void)
{
	struct strbuf msg = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;

	probe_file__open_strerror(false, true, -ENOENT, &msg);
	strbuf_addf(&want,
		    "%s//kprobe_events does not exist.\n"
		    "Please rebuild kernel with CONFIG_KPROBE_EVENTS=y.",
		    dir);
	CHECK_STR(msg.buf, want.buf);
	strbuf_reset(&msg);
	probe_file__open_strerror(true, true, -EACCES, &msg);
	CHECK_STR(msg.buf,
		  "No permission to write tracefs.\nPlease run this command again with sudo.");
	strbuf_release(&msg);
	strbuf_release(&want);
}

static void test_cleanup(void)
{
	CHECK_INT(rm_rf(base), ==, 0);
}

static void __attribute__((constructor)) setup(void)
{
	if (!mkdtemp(base))
		abort();
	dir = path_join(base, "tracing");
	mkdir_p(dir, 0755);
	setenv("PERF_TRACEFS_DIR", dir, 1);
	uprobe_events = path_join(dir, "uprobe_events");
	error_log = path_join(dir, "error_log");
	write_file_atomic(error_log, "[  0.5] trace_uprobe: error: Old\n", 33, 0644);
	probe_file__set_ops(&fake_kernel);
}

TESTS(TEST(test_the_tracefs_dir_comes_from_the_environment),
      TEST(test_lines_are_read_without_blanks), TEST(test_a_missing_events_file_is_enoent),
      TEST(test_the_event_head_of_a_line_splits), TEST(test_event_names_are_group_colon_event),
      TEST(test_added_lines_are_written_one_per_line),
      TEST(test_a_rejected_line_undoes_the_lines_before_it),
      TEST(test_a_stale_error_log_entry_is_not_quoted),
      TEST(test_deleting_matches_group_and_event_globs),
      TEST(test_deleting_without_group_matches_any_group),
      TEST(test_an_enabled_event_is_not_deleted_and_named),
      TEST(test_unique_names_follow_perf_force_suffixes),
      TEST(test_too_long_event_names_are_refused), TEST(test_the_blacklist_is_found_beside_tracing),
      TEST(test_readme_features_are_found_by_glob), TEST(test_add_events_opens_the_file_itself),
      TEST(test_open_errors_read_as_perf_words_them), TEST(test_cleanup));
