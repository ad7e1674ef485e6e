// SPDX-License-Identifier: GPL-2.0
/* The command perf trace runs: see workload.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/workload.h"

int workload__start(struct workload *w, const char **argv, const sigset_t *mask, struct strbuf *why)
{
	int go[2], exec_err[2], err;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		goto pipe_failed;
	if (pipe2(exec_err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		goto pipe_failed;
	}
	pid = fork();
	if (pid < 0) {
		err = errno;
		if (why)
			strbuf_addf(why, "fork: %s", strerror(err));
		close(go[0]);
		close(go[1]);
		close(exec_err[0]);
		close(exec_err[1]);
		return -err;
	}
	if (pid == 0) {
		char c;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		close(go[1]);
		close(exec_err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		err = errno;
		if (write(exec_err[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	w->pid = pid;
	w->done = false;
	w->status = 0;
	w->exec_errno = 0;
	w->go_fd = go[1];
	w->exec_err_fd = exec_err[0];
	return 0;

pipe_failed:
	err = errno;
	if (why)
		strbuf_addf(why, "pipe: %s", strerror(err));
	return -err;
}

static void close_pipes(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->exec_err_fd >= 0)
		close(w->exec_err_fd);
	w->go_fd = w->exec_err_fd = -1;
}

int workload__release(struct workload *w)
{
	ssize_t n = 0;
	int err = 0;

	if (!w->pid || w->go_fd < 0)
		return 0;
	if (write(w->go_fd, "g", 1) != 1)
		err = errno;
	close(w->go_fd);
	w->go_fd = -1;
	do {
		n = read(w->exec_err_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close_pipes(w);
	w->exec_errno = n == sizeof(err) ? err : 0;
	return w->exec_errno;
}

void workload__abort(struct workload *w)
{
	if (!w->pid)
		return;
	/* Closing the go pipe unread makes the child exit at once. */
	close_pipes(w);
	workload__reap(w, true);
}

bool workload__reap(struct workload *w, bool block)
{
	int status;

	if (!w->pid || w->done)
		return w->done;
	if (waitpid(w->pid, &status, block ? 0 : WNOHANG) == w->pid) {
		w->status = status;
		w->done = true;
	}
	return w->done;
}

void workload__wait(struct workload *w, int ms)
{
	for (int i = 0; i < ms / 10 && !workload__reap(w, false); i++)
		usleep(10000);
}

void workload__end(struct workload *w)
{
	if (!w->pid)
		return;
	workload__wait(w, 200);
	if (!w->done)
		kill(w->pid, SIGINT);
	workload__wait(w, 1000);
	if (!w->done)
		kill(w->pid, SIGTERM);
	workload__reap(w, true);
}

int wait_status__exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

int workload__exit_code(const struct workload *w)
{
	if (!w->pid)
		return 0;
	if (w->exec_errno)
		return w->exec_errno == ENOENT ? 127 : 126;
	return wait_status__exit_code(w->status);
}
