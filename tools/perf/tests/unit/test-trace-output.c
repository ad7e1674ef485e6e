// SPDX-License-Identifier: GPL-2.0
/* perf trace's output: which events were written when a write fails. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/strbuf.h"
#include "util/trace-output.h"

static void test_every_event_is_written_and_counted(void)
{
	char path[] = "/tmp/test-trace-output.XXXXXX";
	int fd = mkstemp(path);
	struct trace_output o;
	struct strbuf sb = STRBUF_INIT;

	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(trace_output__open(&o, path), ==, 0);
	for (int i = 0; i < 100000; i++) {
		char line[32];
		int n = snprintf(line, sizeof(line), "event %d\n", i);

		trace_output__add_event(&o, line, n);
		if (i == 5)
			trace_output__add_note(&o, "LOST 3 events!\n", 15);
	}
	CHECK_INT(trace_output__close(&o), ==, 0);
	CHECK_INT(o.written, ==, 100000);
	CHECK_INT(o.unwritten, ==, 0);
	CHECK_INT(strbuf_read_file(&sb, path), ==, 0);
	CHECK(!strncmp(sb.buf, "event 0\nevent 1\n", 16));
	CHECK(strstr(sb.buf, "event 5\nLOST 3 events!\nevent 6\n") != NULL);
	CHECK(sb.len > 8 && !strcmp(sb.buf + sb.len - 12, "event 99999\n"));
	strbuf_release(&sb);
	unlink(path);
}

static void test_a_full_device_counts_every_event_as_not_written(void)
{
	struct trace_output o;
	int errors = 0;

	CHECK_INT(trace_output__open(&o, "/dev/full"), ==, 0);
	for (int i = 0; i < 1000; i++) {
		trace_output__add_event(&o, "an event line\n", 14);
		if (i % 100 == 99)
			errors += trace_output__flush(&o) != 0;
	}
	/* Said once: the first failure only. */
	CHECK_INT(errors, ==, 1);
	CHECK_INT(o.err, ==, -ENOSPC);
	CHECK_INT(trace_output__close(&o), ==, 0);
	CHECK_INT(o.written, ==, 0);
	CHECK_INT(o.unwritten, ==, 1000);
}

static void test_a_closed_pipe_counts_what_went_through(void)
{
	struct trace_output o;
	int p[2];
	char buf[64];

	signal(SIGPIPE, SIG_IGN); /* a write to it gives EPIPE instead */
	CHECK_INT(pipe(p), ==, 0);
	CHECK_INT(trace_output__open(&o, NULL), ==, 0);
	close(o.fd);
	o.fd = p[1];
	trace_output__add_event(&o, "one\n", 4);
	trace_output__add_event(&o, "two\n", 4);
	CHECK_INT(trace_output__flush(&o), ==, 0);
	CHECK_INT(read(p[0], buf, sizeof(buf)), ==, 8);
	close(p[0]);
	trace_output__add_event(&o, "three\n", 6);
	CHECK_INT(trace_output__flush(&o), ==, -EPIPE);
	trace_output__add_event(&o, "four\n", 5);
	trace_output__close(&o);
	CHECK_INT(o.written, ==, 2);
	CHECK_INT(o.unwritten, ==, 2);
}

TESTS(TEST(test_every_event_is_written_and_counted),
      TEST(test_a_full_device_counts_every_event_as_not_written),
      TEST(test_a_closed_pipe_counts_what_went_through));
