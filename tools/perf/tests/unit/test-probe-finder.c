// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF probe finder on this very test program (built with -g): places
 * and fetchargs of functions defined here, and the errors of bad input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/probe-spec.h"
#include "util/debuginfo.h"
#include "util/dwarf-aux.h"
#include "util/probe-finder-show.h"
#include "util/probe-finder.h"
#include "unit-test.h"

struct finder_thing {
	int id;
	long len;
	const char *name;
};

int finder_target_one(int a, struct finder_thing *t);
int finder_target_two(int b);

__attribute__((noinline)) int finder_target_one(int a, struct finder_thing *t)
{
	__asm__ volatile("" ::: "memory");
	return a + (int)t->len;
}

__attribute__((noinline)) int finder_target_two(int b)
{
	__asm__ volatile("" ::: "memory");
	return b * 2;
}

static struct probe_finder_opts opts = { .max_probes = 128 };

static int resolve(const char *spec, struct probe_trace_event **tevs)
{
	struct perf_probe_event pev = { 0 };
	struct debuginfo *dbg = NULL;
	int ret;

	ret = parse_perf_probe_command(spec, &pev);
	if (ret)
		return ret;
	ret = debuginfo__new("/proc/self/exe", &dbg);
	if (!ret)
		ret = debuginfo__find_trace_events(dbg, &pev, &opts, tevs);
	debuginfo__delete(dbg);
	clear_perf_probe_event(&pev);
	return ret;
}

static void free_tevs(struct probe_trace_event *tevs, int n)
{
	for (int i = 0; i < n; i++)
		clear_probe_trace_event(&tevs[i]);
	free(tevs);
}

static void test_missing_and_non_elf_files_have_no_debuginfo(void)
{
	struct debuginfo *dbg = NULL;

	CHECK_INT(debuginfo__new("/nonexistent/file", &dbg), ==, -ENOENT);
	CHECK_INT(debuginfo__new("/etc/hostname", &dbg), ==, -ENODATA);
	CHECK(dbg == NULL);
}

static void test_a_preferred_debug_file_of_another_build_is_refused(void)
{
	struct debuginfo *dbg = NULL, *with = NULL;

	/* A file without DWARF (unless its debuginfo is installed here)... */
	if (!debuginfo__new("/bin/true", &dbg)) {
		debuginfo__delete(dbg);
		return;
	}
	/* ...never takes the debuginfo of another build (this program's)... */
	{
		struct strbuf why = STRBUF_INIT;

		CHECK_INT(debuginfo__open("/bin/true", "/proc/self/exe", &with, &why), ==, -ESTALE);
		CHECK(strstr(why.buf, "/proc/self/exe has build-id ") != NULL);
		CHECK(strstr(why.buf, ", not ") != NULL);
		strbuf_release(&why);
	}
	CHECK_INT(debuginfo__new_with("/bin/true", "/proc/self/exe", &with), ==, -ESTALE);
	/* ...and the next open searches as usual. */
	CHECK_INT(debuginfo__new("/bin/true", &dbg), ==, -ENODATA);
	CHECK_INT(debuginfo__new_with("/bin/true", "/nonexistent", &dbg), ==, -ENODATA);
}

static void test_a_function_resolves_to_its_entry_with_arguments(void)
{
	struct probe_trace_event *tevs = NULL;
	int n = resolve("finder_target_one a t->len t->name:string", &tevs);

	CHECK_INT(n, ==, 1);
	if (n != 1)
		return;
	CHECK(tevs[0].point.address != 0);
	CHECK_STR(tevs[0].point.realname, "finder_target_one");
	CHECK_INT(tevs[0].nargs, ==, 3);
	CHECK_STR(tevs[0].args[0].name, "a");
	CHECK_STR(tevs[0].args[0].type, "s32");
	CHECK_STR(tevs[0].args[1].name, "len");
	CHECK_STR(tevs[0].args[1].type, "s64");
	CHECK(tevs[0].args[1].ref && tevs[0].args[1].ref->offset == 8);
	CHECK_STR(tevs[0].args[2].name, "name");
	CHECK_STR(tevs[0].args[2].type, "string");
	free_tevs(tevs, n);
}

static void test_a_return_probe_passes_retval(void)
{
	struct probe_trace_event *tevs = NULL;
	int n = resolve("finder_target_two%return $retval", &tevs);

	CHECK_INT(n, ==, 1);
	if (n == 1) {
		CHECK(tevs[0].point.retprobe);
		CHECK_STR(tevs[0].args[0].value, "$retval");
	}
	free_tevs(tevs, n > 0 ? n : 0);
}

static void test_bad_arguments_fail_with_errno(void)
{
	struct probe_trace_event *tevs = NULL;

	/* Each prints its one line on stderr. */
	CHECK_INT(resolve("finder_target_one nosuch", &tevs), ==, -ENOENT);
	CHECK_INT(resolve("finder_target_one a->x", &tevs), ==, -EINVAL);
	CHECK_INT(resolve("finder_target_one t->nosuch", &tevs), ==, -EINVAL);
	CHECK_INT(resolve("finder_target_one a[1]", &tevs), ==, -EINVAL);
	CHECK_INT(resolve("finder_target_one a:string", &tevs), ==, -EINVAL);
	CHECK_INT(resolve("finder_target_one $retval", &tevs), ==, -EINVAL);
	CHECK_INT(resolve("finder_no_such_function", &tevs), ==, -ENOENT);
}

static void test_max_probes_bounds_a_glob(void)
{
	struct probe_trace_event *tevs = NULL;
	int n;

	n = resolve("finder_target_*", &tevs);
	CHECK_INT(n, ==, 2);
	free_tevs(tevs, n > 0 ? n : 0);
	opts.max_probes = 1;
	CHECK_INT(resolve("finder_target_*", &tevs), ==, -E2BIG);
	opts.max_probes = 128;
}

static void test_an_address_names_its_source_place(void)
{
	struct probe_trace_event *tevs = NULL;
	struct debuginfo *dbg = NULL;
	int n = resolve("finder_target_two", &tevs);
	char *name;

	CHECK_INT(n, ==, 1);
	CHECK_INT(debuginfo__new("/proc/self/exe", &dbg), ==, 0);
	if (n != 1 || !dbg)
		goto out;
	name = debuginfo__probe_point_name(dbg, tevs[0].point.address);
	CHECK(name && !strncmp(name, "finder_target_two@", 18) &&
	      strstr(name, "test-probe-finder.c"));
	free(name);
	name = debuginfo__probe_point_name(dbg, tevs[0].point.address + 3);
	CHECK(name && !strncmp(name, "finder_target_two:", 18));
	free(name);
	CHECK(debuginfo__probe_point_name(dbg, 1) == NULL);
out:
	debuginfo__delete(dbg);
	free_tevs(tevs, n > 0 ? n : 0);
}

/*
 * fuzz-dwarf's input: functions whose DW_AT_decl_file names no file of the
 * line table.  A lazy pattern and -L on them read no source (a NULL path
 * went to open(2)) and fail with one line.
 */
#define NO_DECL_FILE "tools/perf/tests/fuzz/corpus/dwarf/regress-no-decl-file"

static void test_a_function_without_its_source_file_fails_lazy_and_lines(void)
{
	struct debuginfo *dbg = NULL;
	struct func_list fl = { 0 };
	int tried = 0;

	CHECK_INT(debuginfo__new(NO_DECL_FILE, &dbg), ==, 0);
	if (!dbg)
		return;
	probe_finder__find_functions(dbg, "*", NULL, false, &fl);
	for (int i = 0; i < fl.nr; i++) {
		const char *name = dwarf_diename(&fl.f[i].die);
		struct perf_probe_event pev = { 0 };
		struct probe_trace_event *tevs = NULL;
		char spec[128];

		if (!name || die_decl_file(&fl.f[i].die))
			continue;
		tried++;
		snprintf(spec, sizeof(spec), "%s;*", name);
		CHECK_INT(parse_perf_probe_command(spec, &pev), ==, 0);
		CHECK_INT(debuginfo__find_trace_events(dbg, &pev, &opts, &tevs), ==, -ENOENT);
		clear_perf_probe_event(&pev);
		CHECK_INT(debuginfo__show_lines(dbg, name, NULL, 0, -1), ==, -ENOENT);
	}
	CHECK(tried > 0);
	func_list__clear(&fl);
	debuginfo__delete(dbg);
}

/*
 * fuzz-dwarf's input: a line table whose rows name files it does not
 * have.  -L of each function skips those rows (strcmp() got NULL).
 */
#define LINE_WITHOUT_FILE "tools/perf/tests/fuzz/corpus/dwarf/regress-line-without-file"

static void test_line_rows_naming_no_file_are_no_code(void)
{
	struct debuginfo *dbg = NULL;
	struct func_list fl = { 0 };

	CHECK_INT(debuginfo__new(LINE_WITHOUT_FILE, &dbg), ==, 0);
	if (!dbg)
		return;
	probe_finder__find_functions(dbg, "*", NULL, false, &fl);
	CHECK(fl.nr > 0);
	for (int i = 0; i < fl.nr; i++) {
		const char *name = dwarf_diename(&fl.f[i].die);

		if (name)
			CHECK_INT(debuginfo__show_lines(dbg, name, NULL, 0, -1), <=, 0);
	}
	func_list__clear(&fl);
	debuginfo__delete(dbg);
}

TESTS(TEST(test_missing_and_non_elf_files_have_no_debuginfo),
      TEST(test_a_preferred_debug_file_of_another_build_is_refused),
      TEST(test_a_function_resolves_to_its_entry_with_arguments),
      TEST(test_a_return_probe_passes_retval), TEST(test_bad_arguments_fail_with_errno),
      TEST(test_max_probes_bounds_a_glob), TEST(test_an_address_names_its_source_place),
      TEST(test_a_function_without_its_source_file_fails_lazy_and_lines),
      TEST(test_line_rows_naming_no_file_are_no_code));
