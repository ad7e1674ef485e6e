// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the small helpers: parse-options, strbuf, the perf config
 * lookup and the directory helpers of util.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/config.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const usage[] = { "test [<options>]", NULL };

/* The option values one parse fills in. */
struct opts {
	int flag, flat, verbose, number;
	const char *string;
	struct str_list list, plain;
};

/* Parse @args (NULL-terminated, without argv[0]) into @o; stderr is muted. */
static int parse(struct opts *o, const char **args, const char ***rest)
{
	static const char *argv[32];
	const struct option options[] = {
		OPT_BOOLEAN('f', "flag", &o->flag, "a flag"),
		OPT_BOOLEAN(0, "flat", &o->flat, "a flag with a near name"),
		OPT_INCR('v', "verbose", &o->verbose, "more"),
		OPT_INTEGER('n', "number", &o->number, "n", "a number"),
		OPT_STRING('s', "string", &o->string, "str", "a string"),
		OPT_STRING_LIST('a', "add", &o->list, "list", "a list", PARSE_OPT_SPLIT_COMMA),
		OPT_STRING_LIST('p', "plain", &o->plain, "list", "no split", 0),
		OPT_END(),
	};
	int argc = 1, saved, null, ret;

	memset(o, 0, sizeof(*o));
	argv[0] = "test";
	while (*args)
		argv[argc++] = *args++;
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	close(null);
	ret = parse_options(argc, argv, options, usage, 0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (rest)
		*rest = argv;
	return ret;
}

static void opts_clear(struct opts *o)
{
	str_list_clear(&o->list);
	str_list_clear(&o->plain);
}

static void test_parses_short_and_long_options(void)
{
	const char *args[] = { "-f", "--string", "x", "-n", "42", "--verbose", "-v", NULL };
	struct opts o;

	CHECK_INT(parse(&o, args, NULL), ==, 0);
	CHECK_INT(o.flag, ==, 1);
	CHECK_STR(o.string, "x");
	CHECK_INT(o.number, ==, 42);
	CHECK_INT(o.verbose, ==, 2);
	opts_clear(&o);
}

static void test_takes_attached_and_equals_values(void)
{
	const char *args[] = { "-sfoo", "--number=7", "-n8", "--add=a", NULL };
	struct opts o;

	CHECK_INT(parse(&o, args, NULL), ==, 0);
	CHECK_STR(o.string, "foo");
	CHECK_INT(o.number, ==, 8);
	CHECK_INT(o.list.nr, ==, 1);
	if (o.list.nr == 1)
		CHECK_STR(o.list.items[0], "a");
	opts_clear(&o);
}

static void test_bundles_short_flags_and_a_last_value(void)
{
	const char *args[] = { "-fvvs", "val", NULL };
	const char *attached[] = { "-vfsval", NULL };
	struct opts o;

	CHECK_INT(parse(&o, args, NULL), ==, 0);
	CHECK_INT(o.flag, ==, 1);
	CHECK_INT(o.verbose, ==, 2);
	CHECK_STR(o.string, "val");
	opts_clear(&o);
	CHECK_INT(parse(&o, attached, NULL), ==, 0);
	CHECK_INT(o.flag, ==, 1);
	CHECK_INT(o.verbose, ==, 1);
	CHECK_STR(o.string, "val");
	opts_clear(&o);
}

static void test_negates_with_no_and_accepts_unique_prefixes(void)
{
	const char *args[] = { "--flag", "--no-flag", "--str", "s", "--no-string", NULL };
	const char *prefix[] = { "--flag", "--verb", "--num=3", NULL };
	struct opts o;

	CHECK_INT(parse(&o, args, NULL), ==, 0);
	CHECK_INT(o.flag, ==, 0);
	CHECK(o.string == NULL);
	opts_clear(&o);
	CHECK_INT(parse(&o, prefix, NULL), ==, 0);
	CHECK_INT(o.flag, ==, 1);
	CHECK_INT(o.flat, ==, 0);
	CHECK_INT(o.verbose, ==, 1);
	CHECK_INT(o.number, ==, 3);
	opts_clear(&o);
}

static void test_splits_comma_lists_only_when_asked(void)
{
	const char *args[] = { "-a", "x,y", "--add", "z", "-a", "a,,b", "-p", "c,d", NULL };
	struct opts o;

	CHECK_INT(parse(&o, args, NULL), ==, 0);
	CHECK_INT(o.list.nr, ==, 5);
	if (o.list.nr == 5) {
		CHECK_STR(o.list.items[0], "x");
		CHECK_STR(o.list.items[1], "y");
		CHECK_STR(o.list.items[2], "z");
		CHECK_STR(o.list.items[3], "a");
		CHECK_STR(o.list.items[4], "b");
	}
	CHECK_INT(o.plain.nr, ==, 1);
	if (o.plain.nr == 1)
		CHECK_STR(o.plain.items[0], "c,d");
	opts_clear(&o);
}

static void test_keeps_non_options_and_stops_at_double_dash(void)
{
	const char *args[] = { "one", "-f", "two", "--", "-v", "--flag", NULL };
	const char **rest;
	struct opts o;

	CHECK_INT(parse(&o, args, &rest), ==, 4);
	CHECK_STR(rest[0], "one");
	CHECK_STR(rest[1], "two");
	CHECK_STR(rest[2], "-v");
	CHECK_STR(rest[3], "--flag");
	CHECK(rest[4] == NULL);
	CHECK_INT(o.flag, ==, 1);
	CHECK_INT(o.verbose, ==, 0);
	opts_clear(&o);
}

static void test_fails_on_bad_options_with_minus_one(void)
{
	const char *unknown_long[] = { "--bogus", NULL };
	const char *unknown_short[] = { "-fx", NULL };
	const char *ambiguous[] = { "--fla", NULL }; /* --flag or --flat */
	const char *missing[] = { "-s", NULL };
	const char *bad_int[] = { "-n", "12abc", NULL };
	const char *value_on_flag[] = { "--flag=1", NULL };
	const char *negated_list[] = { "--no-add", NULL };
	const char *help[] = { "-h", NULL };
	struct opts o;
	int saved, null;

	CHECK_INT(parse(&o, unknown_long, NULL), ==, -1);
	CHECK_INT(parse(&o, unknown_short, NULL), ==, -1);
	opts_clear(&o);
	CHECK_INT(parse(&o, missing, NULL), ==, -1);
	CHECK_INT(parse(&o, bad_int, NULL), ==, -1);
	CHECK_INT(parse(&o, value_on_flag, NULL), ==, -1);
	CHECK_INT(parse(&o, negated_list, NULL), ==, -1);
	CHECK_INT(parse(&o, ambiguous, NULL), ==, -1);
	/* -h prints the usage on stdout: keep it out of the TAP stream. */
	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	close(null);
	CHECK_INT(parse(&o, help, NULL), ==, -2);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
}

static void test_grows_a_strbuf_and_hands_it_over(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	CHECK_STR(sb.buf, "");
	CHECK_INT(sb.len, ==, 0);
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d/%s", 42, "x");
	CHECK_STR(sb.buf, "abc-42/x");
	CHECK_INT(sb.len, ==, 8);
	for (int i = 0; i < 1000; i++)
		strbuf_addstr(&sb, "0123456789");
	CHECK_INT(sb.len, ==, 10008);
	CHECK_INT(strlen(sb.buf), ==, 10008);
	strbuf_setlen(&sb, 3);
	CHECK_STR(sb.buf, "abc");
	strbuf_reset(&sb);
	CHECK_STR(sb.buf, "");
	strbuf_add(&sb, "xyz", 2);
	s = strbuf_detach(&sb, &len);
	CHECK_STR(s, "xy");
	CHECK_INT(len, ==, 2);
	CHECK_STR(sb.buf, "");
	free(s);
	/* An empty strbuf still gives a string the caller may free. */
	s = strbuf_detach(&sb, NULL);
	CHECK_STR(s, "");
	free(s);
	strbuf_release(&sb);
}

static char tmpdir[] = "/tmp/perf-unit-util.XXXXXX";

static char *tmp_path(const char *name)
{
	return path_join(tmpdir, name);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

static void test_reads_a_file_into_a_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = tmp_path("read-me");

	write_file(path, "line one\nline two\n");
	CHECK_INT(strbuf_read_file(&sb, path), ==, 0);
	CHECK_STR(sb.buf, "line one\nline two\n");
	strbuf_release(&sb);
	CHECK_INT(strbuf_read_file(&sb, "/nonexistent/file"), ==, -ENOENT);
	free(path);
}

static void check_config(const char *name, const char *want)
{
	char *got = perf_config_get(name);

	if (want)
		CHECK_STR(got, want);
	else
		CHECK(got == NULL);
	free(got);
}

static void test_looks_up_values_in_the_perf_config(void)
{
	char *path = tmp_path("perfconfig");

	write_file(path, "# a comment\n"
			 "; another one\n"
			 "[core]\n"
			 "\tdir = /not/this\n"
			 "[buildid]\n"
			 "\tdir = /first\n"
			 "  Dir=  /tmp/cache dir   # trailing comment\n"
			 "[probe]\n"
			 "\tnothing\n"
			 "\tempty =\n"
			 "[quotes]\n"
			 "\tdir = \"/tmp/a b # c\"  # a comment\n"
			 "\tescaped = a\\\"b\\\\c\\td\n"
			 "\tinner = x   y  ; comment\n"
			 "\tmixed = \" lead\"ing \n");
	setenv("PERF_CONFIG", path, 1);
	check_config("buildid.dir", "/tmp/cache dir");
	check_config("BuildId.DIR", "/tmp/cache dir");
	check_config("core.dir", "/not/this");
	check_config("probe.empty", "");
	check_config("probe.nothing", NULL);
	check_config("quotes.dir", "/tmp/a b # c");
	check_config("quotes.escaped", "a\"b\\c\td");
	check_config("quotes.inner", "x   y");
	check_config("quotes.mixed", " leading");
	check_config("buildid.missing", NULL);
	check_config("nodot", NULL);
	setenv("PERF_CONFIG", "/nonexistent/perfconfig", 1);
	check_config("buildid.dir", NULL);
	unsetenv("PERF_CONFIG");
	free(path);
}

/* @text as $PERF_CONFIG: perf_config_check()'s return, its message in @msg. */
static int check_config_file(const char *text, struct strbuf *msg)
{
	char *path = tmp_path("perfconfig");
	int ret;

	write_file(path, text);
	setenv("PERF_CONFIG", path, 1);
	strbuf_setlen(msg, 0);
	ret = perf_config_check(msg);
	free(path);
	return ret;
}

static void test_refuses_a_malformed_perf_config_with_its_line(void)
{
	struct strbuf msg = STRBUF_INIT;
	char *want = tmp_path("perfconfig");

	CHECK_INT(check_config_file("[buildid]\n\tdir = /ok\n[probe]\n\tflag\n", &msg), ==, 0);
	CHECK_INT(check_config_file("[buildid]\n\n\tdir = \"/tmp/a b\n", &msg), ==, -EBADMSG);
	CHECK(strstr(msg.buf, ":3: an unterminated quote") != NULL);
	CHECK(!strncmp(msg.buf, want, strlen(want)));
	/* None of a bad file is used. */
	check_config("buildid.dir", NULL);
	CHECK_INT(check_config_file("[buildid]\nfoo bar baz\n", &msg), ==, -EBADMSG);
	CHECK(strstr(msg.buf, ":2: neither a [section] nor key = value") != NULL);
	CHECK_INT(check_config_file("dir = /x\n", &msg), ==, -EBADMSG);
	CHECK(strstr(msg.buf, ":1: a setting before any [section]") != NULL);
	CHECK_INT(check_config_file("[buildid\ndir = /x\n", &msg), ==, -EBADMSG);
	CHECK(strstr(msg.buf, ":1: a section header without its ']'") != NULL);
	CHECK_INT(check_config_file("[]\n", &msg), ==, -EBADMSG);
	CHECK_INT(check_config_file("[a] junk\n", &msg), ==, -EBADMSG);
	CHECK_INT(check_config_file("[a]\nb c = d\n", &msg), ==, -EBADMSG);
	setenv("PERF_CONFIG", "/dev/zero", 1);
	strbuf_setlen(&msg, 0);
	CHECK_INT(perf_config_check(&msg), ==, -EINVAL);
	CHECK_STR(msg.buf, "/dev/zero: not a regular file");
	/* A missing file is an empty one. */
	setenv("PERF_CONFIG", "/nonexistent/perfconfig", 1);
	CHECK_INT(perf_config_check(&msg), ==, 0);
	unsetenv("PERF_CONFIG");
	strbuf_release(&msg);
	free(want);
}

static void test_expands_a_tilde_and_refuses_a_relative_buildid_dir(void)
{
	struct strbuf msg = STRBUF_INIT;
	const char *old = getenv("HOME");
	char *home = old ? xstrdup(old) : NULL, *dir = NULL;

	setenv("HOME", "/home/someone", 1);
	check_config_file("[buildid]\n\tdir = ~/cache\n", &msg);
	CHECK_INT(perf_config_get_path("buildid.dir", &dir, &msg), ==, 0);
	CHECK_STR(dir, "/home/someone/cache");
	free(dir);
	check_config_file("[buildid]\n\tdir = ~\n", &msg);
	CHECK_INT(perf_config_get_path("buildid.dir", &dir, &msg), ==, 0);
	CHECK_STR(dir, "/home/someone");
	free(dir);
	/* ~user is not expanded: it is a relative path. */
	CHECK_INT(check_config_file("[buildid]\n\tdir = ~root/x\n", &msg), ==, -EINVAL);
	CHECK_INT(check_config_file("[buildid]\n\tdir = cache\n", &msg), ==, -EINVAL);
	CHECK_STR(msg.buf, "buildid.dir = cache: not an absolute path (nor one under '~/')");
	CHECK_INT(perf_config_get_path("buildid.dir", &dir, &msg), ==, -EINVAL);
	CHECK(dir == NULL);
	CHECK_INT(check_config_file("[probe]\n\tdir = cache\n", &msg), ==, 0);
	CHECK_INT(perf_config_get_path("buildid.dir", &dir, &msg), ==, 0);
	CHECK(dir == NULL);
	unsetenv("PERF_CONFIG");
	if (home)
		setenv("HOME", home, 1);
	free(home);
	strbuf_release(&msg);
}

static void test_falls_back_to_perfconfig_in_home(void)
{
	char *path = tmp_path(".perfconfig");
	const char *old = getenv("HOME");
	char *home = old ? xstrdup(old) : NULL;

	write_file(path, "[buildid]\ndir = /from/home\n");
	unsetenv("PERF_CONFIG");
	setenv("HOME", tmpdir, 1);
	check_config("buildid.dir", "/from/home");
	/* An empty PERF_CONFIG is as if unset. */
	setenv("PERF_CONFIG", "", 1);
	check_config("buildid.dir", "/from/home");
	unsetenv("PERF_CONFIG");
	if (home)
		setenv("HOME", home, 1);
	free(home);
	unlink(path);
	free(path);
}

static bool only_txt(const char *dir, const char *name, unsigned char d_type)
{
	size_t len = strlen(name);

	return len > 4 && !strcmp(name + len - 4, ".txt");
}

static void test_lists_a_directory_sorted_and_filtered(void)
{
	static const char *files[] = { "b.txt", "a", ".hidden", "c.txt", "B" };
	char *dir = tmp_path("ls"), **names;
	int nr;

	CHECK_INT(mkdir_p(dir, 0755), ==, 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = path_join(dir, files[i]);

		write_file(p, "");
		free(p);
	}
	nr = lsdir(dir, NULL, &names);
	CHECK_INT(nr, ==, 5);
	if (nr == 5) {
		CHECK_STR(names[0], ".hidden");
		CHECK_STR(names[1], "B");
		CHECK_STR(names[2], "a");
		CHECK_STR(names[3], "b.txt");
		CHECK_STR(names[4], "c.txt");
	}
	lsdir_free(names, nr > 0 ? nr : 0);
	nr = lsdir(dir, lsdir_no_dot_filter, &names);
	CHECK_INT(nr, ==, 4);
	if (nr == 4)
		CHECK_STR(names[0], "B");
	lsdir_free(names, nr > 0 ? nr : 0);
	nr = lsdir(dir, only_txt, &names);
	CHECK_INT(nr, ==, 2);
	if (nr == 2) {
		CHECK_STR(names[0], "b.txt");
		CHECK_STR(names[1], "c.txt");
	}
	lsdir_free(names, nr > 0 ? nr : 0);
	CHECK_INT(lsdir("/nonexistent/dir", NULL, &names), ==, -ENOENT);
	CHECK(names == NULL);
	free(dir);
}

static void test_makes_and_removes_directory_trees(void)
{
	char *deep = tmp_path("t/a/b/c"), *top = tmp_path("t"), *file = tmp_path("t/a/f");
	char *mid = tmp_path("t/a/b"), **names;
	struct stat st;
	int nr;

	CHECK_INT(mkdir_p(deep, 0755), ==, 0);
	CHECK_INT(mkdir_p(deep, 0755), ==, 0);
	CHECK(stat(deep, &st) == 0 && S_ISDIR(st.st_mode));
	write_file(file, "x");
	CHECK_INT(mkdir_p(file, 0755), ==, -ENOTDIR);
	/* Empty parents go, up to the first one that is not empty. */
	rmdir_parents(deep, top);
	CHECK(stat(mid, &st) < 0);
	CHECK(stat(file, &st) == 0);
	CHECK_INT(rm_rf(top), ==, 0);
	CHECK(lstat(top, &st) < 0);
	CHECK_INT(rm_rf(top), ==, 0);
	nr = lsdir(tmpdir, NULL, &names);
	for (int i = 0; i < nr; i++)
		CHECK(strcmp(names[i], "t"));
	lsdir_free(names, nr > 0 ? nr : 0);
	free(mid);
	free(file);
	free(top);
	free(deep);
}

static void test_writes_files_whole_and_joins_paths(void)
{
	char *path = tmp_path("atomic"), *copy = tmp_path("atomic-copy");
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char *p;

	CHECK_INT(write_file_atomic(path, "hello\n", 6, 0600), ==, 0);
	CHECK_INT(write_file_atomic(path, "bye\n", 4, 0640), ==, 0);
	CHECK_INT(strbuf_read_file(&sb, path), ==, 0);
	CHECK_STR(sb.buf, "bye\n");
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
	CHECK_INT(copyfile_atomic(path, copy, 0755), ==, 0);
	strbuf_reset(&sb);
	CHECK_INT(strbuf_read_file(&sb, copy), ==, 0);
	CHECK_STR(sb.buf, "bye\n");
	CHECK(stat(copy, &st) == 0 && (st.st_mode & 0777) == 0755);
	CHECK_INT(copyfile_atomic("/nonexistent", copy, 0644), ==, -ENOENT);
	strbuf_release(&sb);

	p = path_join("/a/b/", "/c");
	CHECK_STR(p, "/a/b/c");
	free(p);
	p = path_join("/", "usr/bin");
	CHECK_STR(p, "/usr/bin");
	free(p);
	p = path_join("rel", "x");
	CHECK_STR(p, "rel/x");
	free(p);
	unlink(copy);
	unlink(path);
	free(copy);
	free(path);
}

static void test_grows_arrays_and_sorts_strings(void)
{
	char **v = NULL, *sorted[] = { "b", "a", "c", "a" };
	size_t nr = 0, alloc = 0;
	char *s;

	for (int i = 0; i < 1000; i++) {
		ALLOC_GROW(v, nr + 1, alloc);
		CHECK(alloc >= nr + 1);
		v[nr++] = sorted[i % 4];
	}
	CHECK_INT(nr, ==, 1000);
	CHECK_STR(v[998], "c");
	/* one step can ask for much more than the next capacity */
	ALLOC_GROW(v, 5000, alloc);
	CHECK_INT(alloc, >=, 5000);
	free(v);
	qsort(sorted, 4, sizeof(*sorted), strcmp_ptr);
	CHECK_STR(sorted[0], "a");
	CHECK_STR(sorted[1], "a");
	CHECK_STR(sorted[3], "c");
	s = xstrndup("abcdef", 3);
	CHECK_STR(s, "abc");
	free(s);
	s = xstrndup("ab", 10);
	CHECK_STR(s, "ab");
	s = xrealloc(s, 0);
	CHECK(s != NULL);
	free(s);
}

/* strings_sort() orders as qsort() with strcmp_ptr(), over its 8-byte keys' edges. */
static void test_sorts_strings_as_strcmp_does(void)
{
	static const char *const words[] = {
		"", "a", "abcdefg", "abcdefgh", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefgh\xff",
		"\xff", "\x7f", "zzzzzzzzz", "abcdefghab",
		/* C++ names: long shared prefixes, past 8 and 16 bytes */
		"ShenandoahHeap::heap", "ShenandoahHeap::heap_region",
		"ShenandoahHeap::heap_region_containing",
		"ShenandoahHeap::", "ShenandoahHeapRegion::make_trash",
		"ShenandoahHeapRegion::make_trash_immediate", "ShenandoahHeapRegion::make_trash",
		"ShenandoahHeap::heap_region_containing2"
	};
	char *v[600], *w[600];
	unsigned int seed = 1;

	/* a few (insertion sort), then many (partitions at each depth) */
	for (size_t n = 5; n <= 600; n += 595) {
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			v[i] = w[i] = (char *)words[(seed >> 16) % ARRAY_SIZE(words)];
		}
		strings_sort(v, n);
		qsort(w, n, sizeof(*w), strcmp_ptr);
		for (size_t i = 0; i < n; i++)
			CHECK_STR(v[i], w[i]);
	}
	strings_sort(v, 0);
}

/*
 * strings_sort_padded() orders alike, reading 8 bytes at once: each word
 * in an allocation of its own with 8 bytes of 0xff or 'x' after its NUL,
 * which must not count nor be read past (AddressSanitizer, make test
 * SANITIZE=1: a key not cut at the NUL sorts on past the padding).
 */
static void test_sorts_padded_strings_as_strcmp_does(void)
{
	static const char *const words[] = { "",
					     "a",
					     "abc",
					     "abcdefg",
					     "abcdefgh",
					     "abcdefghi",
					     "abcdefgi",
					     "abcdefgh\xff",
					     "\xff",
					     "\x7f",
					     "b\x01",
					     "ShenandoahHeap::heap",
					     "ShenandoahHeap::heap_region",
					     "ShenandoahHeap::",
					     "ShenandoahHeapRegion::make_trash" };
	char *copies[ARRAY_SIZE(words)], *v[400], *w[400];
	void *keys = xmalloc(STRINGS_SORT_SCRATCH(400));
	unsigned int seed = 3;

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t len = strlen(words[i]);

		copies[i] = xmalloc(len + 1 + 8);
		memcpy(copies[i], words[i], len + 1);
		memset(copies[i] + len + 1, (int)(i % 2 ? 0xff : 'x'), 8);
	}
	for (size_t i = 0; i < 400; i++) {
		seed = seed * 1103515245 + 12345;
		v[i] = w[i] = copies[(seed >> 16) % ARRAY_SIZE(words)];
	}
	strings_sort_padded(v, 400, keys);
	qsort(w, 400, sizeof(*w), strcmp_ptr);
	for (size_t i = 0; i < 400; i++)
		CHECK_STR(v[i], w[i]);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		free(copies[i]);
	free(keys);
}

static int addr_name_cmp(const void *a, const void *b)
{
	const struct addr_name_key *x = a, *y = b;
	int c = x->addr != y->addr ? (x->addr < y->addr ? -1 : 1) : strcmp(x->name, y->name);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/*
 * addr_name_sort() orders as a comparison of address, name and order:
 * addresses past a byte's worth, runs of one address long and short.
 */
static void test_sorts_symbols_by_address_then_name(void)
{
	static const char *const names[] = { "main", "_start", "main", "f", "g@plt", "" };
	static const uint64_t addrs[] = { 0x401000, 0x401000, 0xffffffff81000000, 0x10, 0x401100 };
	struct addr_name_key v[500], w[500];
	unsigned int seed = 7;

	for (size_t i = 0; i < 500; i++) {
		seed = seed * 1103515245 + 12345;
		/* one address for the 40 first: a run merged, not insertion-sorted */
		v[i] = (struct addr_name_key){ i < 40 ? 0x1234
						      : addrs[(seed >> 8) % ARRAY_SIZE(addrs)],
					       names[(seed >> 16) % ARRAY_SIZE(names)], i };
		w[i] = v[i];
	}
	addr_name_sort(v, 500);
	qsort(w, 500, sizeof(*w), addr_name_cmp);
	for (size_t i = 0; i < 500; i++)
		CHECK_INT(v[i].order, ==, w[i].order);
	addr_name_sort(v, 0);
}

/* Untrusted input: a FIFO does not block, a big file is not read whole. */
static void test_reads_only_bounded_regular_files(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *fifo = tmp_path("fifo"), *file = tmp_path("small");

	CHECK_INT(write_file_atomic(file, "0123456789", 10, 0644), ==, 0);
	CHECK_INT(strbuf_read_regular(&sb, AT_FDCWD, file, 10), ==, 0);
	CHECK_STR(sb.buf, "0123456789");
	strbuf_reset(&sb);
	CHECK_INT(strbuf_read_regular(&sb, AT_FDCWD, file, 9), ==, -EFBIG);
	CHECK_STR(strbuf_read_strerror(-EFBIG), "file too large");
	CHECK_INT(mkfifo(fifo, 0600), ==, 0);
	strbuf_reset(&sb);
	CHECK_INT(strbuf_read_regular(&sb, AT_FDCWD, fifo, 100), ==, -EINVAL);
	CHECK_STR(strbuf_read_strerror(-EINVAL), "not a regular file");
	strbuf_reset(&sb);
	CHECK_INT(strbuf_read_regular(&sb, AT_FDCWD, "/dev/zero", 100), ==, -EINVAL);
	CHECK_INT(strbuf_read_regular(&sb, AT_FDCWD, "/nonexistent/x", 100), ==, -ENOENT);
	strbuf_release(&sb);
	free(fifo);
	free(file);
}

static void test_removes_its_temporary_directory(void)
{
	CHECK_INT(rm_rf(tmpdir), ==, 0);
	CHECK(access(tmpdir, F_OK) < 0);
}

/* Runs first: every later test works under tmpdir. */
static void test_makes_a_temporary_directory(void)
{
	CHECK(mkdtemp(tmpdir) != NULL);
}

TESTS(TEST(test_makes_a_temporary_directory), TEST(test_parses_short_and_long_options),
      TEST(test_takes_attached_and_equals_values), TEST(test_bundles_short_flags_and_a_last_value),
      TEST(test_negates_with_no_and_accepts_unique_prefixes),
      TEST(test_splits_comma_lists_only_when_asked),
      TEST(test_keeps_non_options_and_stops_at_double_dash),
      TEST(test_fails_on_bad_options_with_minus_one), TEST(test_grows_a_strbuf_and_hands_it_over),
      TEST(test_reads_a_file_into_a_strbuf), TEST(test_looks_up_values_in_the_perf_config),
      TEST(test_refuses_a_malformed_perf_config_with_its_line),
      TEST(test_expands_a_tilde_and_refuses_a_relative_buildid_dir),
      TEST(test_falls_back_to_perfconfig_in_home), TEST(test_lists_a_directory_sorted_and_filtered),
      TEST(test_makes_and_removes_directory_trees), TEST(test_writes_files_whole_and_joins_paths),
      TEST(test_grows_arrays_and_sorts_strings), TEST(test_sorts_strings_as_strcmp_does),
      TEST(test_sorts_padded_strings_as_strcmp_does), TEST(test_sorts_symbols_by_address_then_name),
      TEST(test_reads_only_bounded_regular_files), TEST(test_removes_its_temporary_directory));
