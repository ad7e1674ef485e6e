// SPDX-License-Identifier: GPL-2.0
/*
 * probe-file and symbol-elf against the real tracefs: uprobes on
 * /bin/true, in a group of their own (perftest_pf).  Skipped (passing,
 * with a "# skip" note) unless root with a writable uprobe_events.  Every
 * test removes what it added, pass or fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/probe-spec.h"
#include "util/probe-file.h"
#include "util/tracefs.h"
#include "util/strbuf.h"
#include "util/symbol-elf.h"
#include "util/util.h"

#define GROUP "perftest_pf"

static bool live;
static char *true_path;
static unsigned long entry_off;

static void cleanup(void)
{
	probe_file__del_events(true, GROUP ":*", NULL, NULL, NULL);
}

static bool event_exists(const char *name)
{
	char **names = NULL;
	int nr = probe_file__get_event_names(true, &names);
	bool found = false;

	for (int i = 0; i < nr; i++)
		found |= !strcmp(names[i], name);
	probe_file__free_lines(names, nr);
	return found;
}

/* The file offset of /bin/true's entry point, through our PT_LOAD mapping. */
static int find_entry(void)
{
	struct symbol_elf *se = NULL;
	GElf_Ehdr ehdr;
	uint64_t off;
	Elf *elf;
	int fd, ret = -1;

	fd = open(true_path, O_RDONLY);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && gelf_getehdr(elf, &ehdr) && symbol_elf__load(true_path, &se) == 0 &&
	    symbol_elf__vaddr_to_offset(se, ehdr.e_entry, &off) == 0) {
		entry_off = off;
		ret = 0;
	}
	symbol_elf__delete(se);
	elf_end(elf);
	close(fd);
	return ret;
}

static bool skip(const char *test)
{
	if (!live)
		printf("# skip %s: needs root and a writable tracefs uprobe_events\n", test);
	return !live;
}

static void test_a_uprobe_is_added_and_deleted(void)
{
	struct strbuf line = STRBUF_INIT;
	char *lines[1], **removed = NULL;
	int fd, nr = 0;

	if (skip(__func__))
		return;
	strbuf_addf(&line, "p:" GROUP "/entry %s:0x%lx", true_path, entry_off);
	lines[0] = line.buf;
	fd = probe_file__open(true, O_WRONLY);
	CHECK(fd >= 0);
	CHECK_INT(probe_file__add_lines(fd, lines, 1, NULL, NULL), ==, 0);
	close(fd);
	CHECK(event_exists(GROUP ":entry"));
	CHECK_INT(probe_file__del_events(true, GROUP ":entry", &removed, &nr, NULL), ==, 1);
	CHECK_INT(nr, ==, 1);
	CHECK(!event_exists(GROUP ":entry"));
	probe_file__free_lines(removed, nr);
	strbuf_release(&line);
	cleanup();
}

static void test_the_kernel_refusing_a_line_rolls_back(void)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, reason = STRBUF_INIT;
	char *lines[2];
	int fd, failed = -1;

	if (skip(__func__))
		return;
	strbuf_addf(&a, "p:" GROUP "/good %s:0x%lx", true_path, entry_off);
	strbuf_addf(&b, "p:" GROUP "/bad %s:0x%lx v=%%zz", true_path, entry_off);
	lines[0] = a.buf;
	lines[1] = b.buf;
	fd = probe_file__open(true, O_WRONLY);
	CHECK_INT(probe_file__add_lines(fd, lines, 2, &failed, &reason), ==, -EINVAL);
	close(fd);
	CHECK_INT(failed, ==, 1);
	CHECK_STR(reason.buf, "Invalid register name");
	CHECK(!event_exists(GROUP ":good"));
	CHECK(!event_exists(GROUP ":bad"));
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&reason);
	cleanup();
}

static void test_an_enabled_event_cannot_be_deleted(void)
{
	struct strbuf line = STRBUF_INIT;
	char *lines[1], *enable = NULL, *busy = NULL;
	int fd;

	if (skip(__func__))
		return;
	strbuf_addf(&line, "p:" GROUP "/busy %s:0x%lx", true_path, entry_off);
	lines[0] = line.buf;
	fd = probe_file__open(true, O_WRONLY);
	CHECK_INT(probe_file__add_lines(fd, lines, 1, NULL, NULL), ==, 0);
	close(fd);
	enable = tracefs__path("events/" GROUP "/busy/enable");
	fd = open(enable, O_WRONLY);
	CHECK(fd >= 0 && write(fd, "1", 1) == 1);
	CHECK_INT(probe_file__del_events(true, GROUP ":busy", NULL, NULL, &busy), ==, -EBUSY);
	CHECK_STR(busy, GROUP ":busy");
	if (fd >= 0) {
		CHECK(write(fd, "0", 1) == 1);
		close(fd);
	}
	CHECK_INT(probe_file__del_events(true, GROUP ":busy", NULL, NULL, NULL), ==, 1);
	free(enable);
	free(busy);
	strbuf_release(&line);
	cleanup();
}

static void test_nothing_of_the_group_is_left(void)
{
	char **names = NULL;
	int nr;

	if (skip(__func__))
		return;
	cleanup();
	nr = probe_file__get_event_names(true, &names);
	CHECK(nr >= 0);
	for (int i = 0; i < nr; i++)
		CHECK(strncmp(names[i], GROUP ":", strlen(GROUP) + 1));
	probe_file__free_lines(names, nr);
}

static void __attribute__((constructor)) setup(void)
{
	int fd;

	unsetenv("PERF_TRACEFS_DIR");
	true_path = realpath("/bin/true", NULL);
	if (geteuid() != 0 || !true_path || find_entry() < 0)
		return;
	fd = probe_file__open(true, O_WRONLY);
	if (fd < 0)
		return;
	close(fd);
	live = true;
	cleanup();
}

TESTS(TEST(test_a_uprobe_is_added_and_deleted), TEST(test_the_kernel_refusing_a_line_rolls_back),
      TEST(test_an_enabled_event_cannot_be_deleted), TEST(test_nothing_of_the_group_is_left));
