/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_TARGET_H
#define PERF_UTIL_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

struct strbuf;

/*
 * What perf trace opens its events on: a list of tasks (thread ids, or the
 * one -1 of system wide) and a list of CPUs.  A target initialised with
 * TARGET_INIT is valid and empty; target__exit() frees it and leaves it so.
 * Lists only grow; growth failures abort.  The functions that can fail
 * return 0 or -errno and, when given @why, say why in it for the caller to
 * print.
 */
struct target {
	pid_t *tasks;
	int nr_tasks;
	int *cpus;
	int nr_cpus;
};

#define TARGET_INIT \
	{           \
		0   \
	}

/* Free both lists; @t is left empty and valid. */
void target__exit(struct target *t);

/* Append @tid (or -1, every task) to the tasks. */
void target__add_task(struct target *t, pid_t tid);

/*
 * Parse a process or thread id: a decimal number in 1..0x3fffffff and
 * nothing else.  0, or -EINVAL with *@pid untouched.
 */
int target__parse_pid(const char *s, pid_t *pid);

/*
 * Append the tasks of a comma-separated list of ids (-p, -t): with
 * @threads each id itself, else every thread of each process, as
 * /proc/PID/task lists them.  Stops at the first bad id (-EINVAL) or
 * missing task (-ESRCH); the ids before it stay added.
 */
int target__add_tasks(struct target *t, const char *list, bool threads, struct strbuf *why);

/*
 * Append the CPUs of a sysfs CPU list ("0-3,5", a newline ends it).
 * Parsing stops at the first thing that is not a number or a range; 0 when
 * it found a CPU, else -EINVAL.
 */
int target__parse_cpus(struct target *t, const char *list);

/*
 * Append the online CPUs (/sys/devices/system/cpu/online, else 0..the
 * number sysconf() counts).  0, or -ENODEV when there is none.
 */
int target__read_cpus(struct target *t);

/* Is @tid gone: no /proc entry, or a zombie? */
bool task_gone(pid_t tid);

/* Are all the tasks gone (see task_gone())?  True for an empty list. */
bool target__tasks_gone(const struct target *t);

#endif
