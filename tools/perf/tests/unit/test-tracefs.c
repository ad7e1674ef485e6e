// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs's parsers over text (the seams fuzz-mounts and fuzz-tracefs
 * use): /proc/mounts, the README and error_log.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/strbuf.h"
#include "util/tracefs.h"
#include "util/util.h"

static char *mounts(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char *dir;

	if (!f)
		return NULL;
	dir = tracefs__parse_mounts(f);
	fclose(f);
	return dir;
}

static void test_the_tracefs_mount_is_found_unescaped(void)
{
	char *dir = mounts("sysfs /sys sysfs rw 0 0\n"
			   "nodev /sys/kernel/tracing tracefs rw 0 0\n"
			   "nodev /other tracefs rw 0 0\n");

	CHECK_STR(dir, "/sys/kernel/tracing");
	free(dir);
	dir = mounts("none /tmp/with\\040blank\\134back tracefs rw 0 0\n");
	CHECK_STR(dir, "/tmp/with blank\\back");
	free(dir);
	/* fuzz-mounts: \400 wrapped to a NUL and the path came back empty. */
	dir = mounts("n \\400u\\134 tracefs \n");
	CHECK_STR(dir, "\\400u\\");
	free(dir);
	dir = mounts("n /a\\000b tracefs rw 0 0\n");
	CHECK_STR(dir, "/a\\000b");
	free(dir);
	CHECK(mounts("") == NULL);
	CHECK(mounts("garbage\n\n") == NULL);
}

static void test_debugfs_serves_only_when_its_tracing_directory_exists(void)
{
	char tmp[] = "/tmp/test-tracefs.XXXXXX", line[256], *want, *dir;

	if (!mkdtemp(tmp)) {
		CHECK(0);
		return;
	}
	snprintf(line, sizeof(line), "debugfs %s debugfs rw 0 0\n", tmp);
	CHECK(mounts(line) == NULL);
	want = path_join(tmp, "tracing");
	mkdir(want, 0755);
	dir = mounts(line);
	CHECK_STR(dir, want);
	free(dir);
	rmdir(want);
	rmdir(tmp);
	free(want);
}

static void test_readme_lines_match_whole(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "tracing mini-HOWTO:\n"
			   "  place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
			   "\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, char, string");
	CHECK_INT(tracefs__readme_text_has(&sb, "*place (uprobe):*(ref_ctr_offset)*"), ==, 1);
	CHECK_INT(tracefs__readme_text_has(&sb, "*x8/16/32/64*"), ==, 1);
	CHECK_INT(tracefs__readme_text_has(&sb, "place*"), ==, 0);
	CHECK_INT(tracefs__readme_text_has(&sb, "*HOWTO:\n*"), ==, 0);
	/* Where kretprobes take an offset (6.1's README has the line unindented). */
	CHECK_INT(tracefs__readme_text_has(&sb, "*place (kretprobe): *"), ==, 0);
	strbuf_addstr(&sb, "\nplace (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>");
	CHECK_INT(tracefs__readme_text_has(&sb, "*place (kretprobe): *"), ==, 1);
	/* The text is as it was after the search. */
	CHECK(strstr(sb.buf, "HOWTO:\n  place") && strstr(sb.buf, "]\n\t     type"));
	strbuf_release(&sb);
}

/* Patterns of text and '*' are matched without fnmatch(): the same answers. */
static void test_readme_star_patterns_match_as_fnmatch_does(void)
{
	static const char *const pats[] = { "",	     "*",    "**",  "a",    "ab",    "*a",
					    "a*",    "*a*",  "a*b", "*ab*", "a*a",   "*b*a*",
					    "ab*ab", "a**b", "*aa", "b*",   "*a*b*a" };
	static const char *const lines[] = { "a",    "b",   "ab",   "ba",  "aa",  "aab",
					     "abab", "bab", "abba", "aba", "baa", "abaa" };
	int wrong = 0;

	for (size_t i = 0; i < ARRAY_SIZE(pats); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(lines); j++) {
			struct strbuf sb = STRBUF_INIT;
			int want = fnmatch(pats[i], lines[j], 0) == 0;

			strbuf_addstr(&sb, lines[j]);
			if (tracefs__readme_text_has(&sb, pats[i]) != want) {
				printf("#   %s against %s: not %d\n", pats[i], lines[j], want);
				wrong++;
			}
			strbuf_release(&sb);
		}
	}
	CHECK_INT(wrong, ==, 0);
}

static void test_the_newest_error_log_reason_is_given_when_the_log_changed(void)
{
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT, reason = STRBUF_INIT;
	const char *one = "[ 603.82] trace_uprobe: error: Invalid argument\n"
			  "  Command: p:g/e /x:0x1 %foo\n                  ^\n";

	strbuf_addstr(&before, one);
	strbuf_addstr(&after, one);
	tracefs__error_log_diff(&before, &after, &reason);
	CHECK_STR(reason.buf, "");
	strbuf_addstr(&after, "[ 604.00] trace_uprobe: error: Failed to parse address or file.\n"
			      "  Command: p:g/e nosuch:0\n           ^\n");
	tracefs__error_log_diff(&before, &after, &reason);
	CHECK_STR(reason.buf, "Failed to parse address or file.");
	strbuf_reset(&reason);
	strbuf_reset(&after);
	tracefs__error_log_diff(&before, &after, &reason);
	CHECK_STR(reason.buf, "");
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&reason);
}

TESTS(TEST(test_the_tracefs_mount_is_found_unescaped),
      TEST(test_debugfs_serves_only_when_its_tracing_directory_exists),
      TEST(test_readme_lines_match_whole), TEST(test_readme_star_patterns_match_as_fnmatch_does),
      TEST(test_the_newest_error_log_reason_is_given_when_the_log_changed));
