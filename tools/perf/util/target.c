// SPDX-License-Identifier: GPL-2.0
/* The tasks and CPUs of perf trace: see target.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/target.h"
#include "util/util.h"

void target__exit(struct target *t)
{
	free(t->tasks);
	free(t->cpus);
	memset(t, 0, sizeof(*t));
}

void target__add_task(struct target *t, pid_t tid)
{
	t->tasks = xrealloc(t->tasks, (t->nr_tasks + 1) * sizeof(pid_t));
	t->tasks[t->nr_tasks++] = tid;
}

static void add_cpu(struct target *t, int cpu)
{
	t->cpus = xrealloc(t->cpus, (t->nr_cpus + 1) * sizeof(int));
	t->cpus[t->nr_cpus++] = cpu;
}

int target__parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n <= 0 || n > 0x3fffffff)
		return -EINVAL;
	*pid = n;
	return 0;
}

int target__add_tasks(struct target *t, const char *list, bool threads, struct strbuf *why)
{
	const char *what = threads ? "thread" : "process";
	char *copy = xstrdup(list), *save = NULL;
	int err = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		struct strbuf path = STRBUF_INIT;
		char **tids;
		pid_t pid;
		int nr;

		if (target__parse_pid(tok, &pid)) {
			if (why)
				strbuf_addf(why, "'%s' is not a %s id", tok, what);
			err = -EINVAL;
			break;
		}
		strbuf_addf(&path, "/proc/%d/task", pid);
		nr = lsdir(path.buf, lsdir_no_dot_filter, &tids);
		if (nr <= 0) {
			if (why)
				strbuf_addf(why, "no %s with id %d", what, pid);
			err = -ESRCH;
		}
		for (int i = 0; i < nr && !threads; i++)
			target__add_task(t, atoi(tids[i]));
		if (nr > 0 && threads)
			target__add_task(t, pid);
		lsdir_free(tids, nr > 0 ? nr : 0);
		strbuf_release(&path);
	}
	free(copy);
	return err;
}

int target__parse_cpus(struct target *t, const char *list)
{
	int before = t->nr_cpus;

	for (const char *p = list; *p && *p != '\n';) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi; c++)
			add_cpu(t, c);
		p = *end == ',' ? end + 1 : end;
	}
	return t->nr_cpus > before ? 0 : -EINVAL;
}

int target__read_cpus(struct target *t)
{
	struct strbuf list = STRBUF_INIT;
	int err = strbuf_read_file(&list, "/sys/devices/system/cpu/online");

	if (err) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		strbuf_reset(&list);
		strbuf_addf(&list, "0-%ld", n > 0 ? n - 1 : 0);
	}
	err = target__parse_cpus(t, list.buf);
	strbuf_release(&list);
	return err ? -ENODEV : 0;
}

bool task_gone(pid_t tid)
{
	struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
	const char *paren;
	bool gone;

	strbuf_addf(&path, "/proc/%d/stat", tid);
	gone = strbuf_read_file(&stat, path.buf) != 0;
	paren = strrchr(stat.buf, ')');
	if (!gone && paren && (paren[1] && (paren[2] == 'Z' || paren[2] == 'X')))
		gone = true;
	strbuf_release(&path);
	strbuf_release(&stat);
	return gone;
}

bool target__tasks_gone(const struct target *t)
{
	for (int i = 0; i < t->nr_tasks; i++)
		if (!task_gone(t->tasks[i]))
			return false;
	return true;
}
