// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/strbuf.h"
#include "util/target.h"
#include "util/workload.h"

static void test_pids_are_positive_decimal_numbers(void)
{
	pid_t pid = 7;

	CHECK_INT(target__parse_pid("1234", &pid), ==, 0);
	CHECK_INT(pid, ==, 1234);
	CHECK_INT(target__parse_pid("0", &pid), ==, -EINVAL);
	CHECK_INT(target__parse_pid("-5", &pid), ==, -EINVAL);
	CHECK_INT(target__parse_pid("12x", &pid), ==, -EINVAL);
	CHECK_INT(target__parse_pid("", &pid), ==, -EINVAL);
	CHECK_INT(target__parse_pid("1073741824", &pid), ==, -EINVAL);
	CHECK_INT(target__parse_pid("99999999999999999999", &pid), ==, -EINVAL);
	CHECK_INT(pid, ==, 1234);
}

static void test_a_cpu_list_has_ranges_and_singles(void)
{
	struct target t = TARGET_INIT;

	CHECK_INT(target__parse_cpus(&t, "0-3,5,7-8\n"), ==, 0);
	CHECK_INT(t.nr_cpus, ==, 7);
	if (t.nr_cpus == 7) {
		CHECK_INT(t.cpus[0], ==, 0);
		CHECK_INT(t.cpus[3], ==, 3);
		CHECK_INT(t.cpus[4], ==, 5);
		CHECK_INT(t.cpus[6], ==, 8);
	}
	target__exit(&t);
	CHECK_INT(t.nr_cpus, ==, 0);
	CHECK(!t.cpus);
}

static void test_a_cpu_list_stops_at_garbage(void)
{
	struct target t = TARGET_INIT;

	CHECK_INT(target__parse_cpus(&t, "2,x,4"), ==, 0);
	CHECK_INT(t.nr_cpus, ==, 1);
	CHECK_INT(target__parse_cpus(&t, ""), ==, -EINVAL);
	CHECK_INT(target__parse_cpus(&t, "\n"), ==, -EINVAL);
	CHECK_INT(target__parse_cpus(&t, "abc"), ==, -EINVAL);
	CHECK_INT(t.nr_cpus, ==, 1);
	target__exit(&t);
}

static void test_the_online_cpus_are_there(void)
{
	struct target t = TARGET_INIT;

	CHECK_INT(target__read_cpus(&t), ==, 0);
	CHECK_INT(t.nr_cpus, >=, 1);
	target__exit(&t);
}

static void test_task_lists_of_ids(void)
{
	struct target t = TARGET_INIT;
	struct strbuf why = STRBUF_INIT, list = STRBUF_INIT;

	strbuf_addf(&list, "%d", getpid());
	CHECK_INT(target__add_tasks(&t, list.buf, true, &why), ==, 0);
	CHECK_INT(t.nr_tasks, ==, 1);
	CHECK_INT(t.tasks[0], ==, getpid());
	/* A process: its threads, this one only. */
	CHECK_INT(target__add_tasks(&t, list.buf, false, &why), ==, 0);
	CHECK_INT(t.nr_tasks, ==, 2);
	CHECK(!target__tasks_gone(&t));

	/* The ids before a bad one stay added. */
	strbuf_addstr(&list, ",abc");
	CHECK_INT(target__add_tasks(&t, list.buf, false, &why), ==, -EINVAL);
	CHECK_STR(why.buf, "'abc' is not a process id");
	CHECK_INT(t.nr_tasks, ==, 3);
	strbuf_reset(&why);
	CHECK_INT(target__add_tasks(&t, "1073741823", true, &why), ==, -ESRCH);
	CHECK_STR(why.buf, "no thread with id 1073741823");
	strbuf_release(&why);
	strbuf_release(&list);
	target__exit(&t);
	CHECK(target__tasks_gone(&t));
}

static void test_wait_statuses_in_the_shells_words(void)
{
	CHECK_INT(wait_status__exit_code(0), ==, 0);
	CHECK_INT(wait_status__exit_code(3 << 8), ==, 3);
	CHECK_INT(wait_status__exit_code(SIGKILL), ==, 128 + SIGKILL);
}

/* Run @argv through the workload; its exit code, or -1. */
static int run(const char **argv, int *exec_err)
{
	struct workload w = WORKLOAD_INIT;
	sigset_t mask;
	int ret;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	if (workload__start(&w, argv, &mask, NULL))
		return -1;
	CHECK_INT(w.pid, >, 0);
	CHECK(!workload__reap(&w, false));
	*exec_err = workload__release(&w);
	CHECK(workload__reap(&w, true));
	ret = workload__exit_code(&w);
	return ret;
}

static void test_the_workload_reports_the_exit_status(void)
{
	const char *yes[] = { "/bin/true", NULL };
	const char *no[] = { "/bin/false", NULL };
	const char *killed[] = { "/bin/sh", "-c", "kill -TERM $$", NULL };
	const char *missing[] = { "/nonexistent/perf-test-command", NULL };
	int err = -1;

	CHECK_INT(run(yes, &err), ==, 0);
	CHECK_INT(err, ==, 0);
	CHECK_INT(run(no, &err), ==, 1);
	CHECK_INT(err, ==, 0);
	CHECK_INT(run(killed, &err), ==, 128 + SIGTERM);
	CHECK_INT(run(missing, &err), ==, 127);
	CHECK_INT(err, ==, ENOENT);
}

static void test_an_aborted_workload_never_runs(void)
{
	const char *argv[] = { "/bin/true", NULL };
	struct workload w = WORKLOAD_INIT;
	sigset_t mask;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	CHECK_INT(workload__start(&w, argv, &mask, NULL), ==, 0);
	workload__abort(&w);
	CHECK(w.done);
	CHECK_INT(workload__exit_code(&w), ==, 127);
}

static void test_no_workload_is_a_no_op(void)
{
	struct workload w = WORKLOAD_INIT;

	CHECK_INT(workload__release(&w), ==, 0);
	CHECK(!workload__reap(&w, true));
	workload__end(&w);
	workload__abort(&w);
	CHECK_INT(workload__exit_code(&w), ==, 0);
}

static void test_end_stops_a_running_workload(void)
{
	const char *argv[] = { "/bin/sleep", "30", NULL };
	struct workload w = WORKLOAD_INIT;
	sigset_t mask;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	CHECK_INT(workload__start(&w, argv, &mask, NULL), ==, 0);
	CHECK_INT(workload__release(&w), ==, 0);
	workload__end(&w);
	CHECK(w.done);
	CHECK_INT(workload__exit_code(&w), ==, 128 + SIGINT);
}

TESTS(TEST(test_pids_are_positive_decimal_numbers), TEST(test_a_cpu_list_has_ranges_and_singles),
      TEST(test_a_cpu_list_stops_at_garbage), TEST(test_the_online_cpus_are_there),
      TEST(test_task_lists_of_ids), TEST(test_wait_statuses_in_the_shells_words),
      TEST(test_the_workload_reports_the_exit_status), TEST(test_an_aborted_workload_never_runs),
      TEST(test_no_workload_is_a_no_op), TEST(test_end_stops_a_running_workload));
