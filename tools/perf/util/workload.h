/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_WORKLOAD_H
#define PERF_UTIL_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct strbuf;

/*
 * The command perf trace runs (`perf trace -e EV -- prog args`).  It is
 * forked first and held before exec, so that the tracer can open its
 * events on the child's pid; workload__release() lets it exec.  Then the
 * tracer reaps it and ends with its exit status in the shell's words.
 *
 * A workload initialised with WORKLOAD_INIT has no child (pid 0): every
 * function is then a no-op, and workload__exit_code() says 0.  After
 * workload__start() succeeded, exactly one of workload__release() and
 * workload__abort() must follow; the child is reaped once done is set,
 * by workload__reap() or a function that blocks.  Nothing else must reap it
 * (no waitpid(-1) in the caller).
 */
struct workload {
	pid_t pid; /* the child, 0 when none */
	bool done; /* reaped: status holds its wait status */
	int status;
	int exec_errno;	 /* why its exec failed, or 0 */
	int go_fd;	 /* written once the tracer is ready */
	int exec_err_fd; /* close-on-exec: read errno of a failed exec */
};

#define WORKLOAD_INIT                          \
	{                                      \
		.go_fd = -1, .exec_err_fd = -1 \
	}

/*
 * Fork the child for @argv (argv[0] found on PATH) and hold it before exec.
 * The child takes the default action of SIGINT, SIGTERM and SIGCHLD and
 * the signal mask @mask (the one to run the command with).  0, or -errno
 * with the failing call in @why ("fork: ...") and no child.
 */
int workload__start(struct workload *w, const char **argv, const sigset_t *mask,
		    struct strbuf *why);

/*
 * Let the child exec.  0, or the errno of its failed exec (it then exits
 * 127 at once; workload__exit_code() says 127 for ENOENT, else 126).
 */
int workload__release(struct workload *w);

/* Instead of releasing it: the child exits without exec; reap it. */
void workload__abort(struct workload *w);

/* Reap the child if it ended (wait for that when @block); true once done. */
bool workload__reap(struct workload *w, bool block);

/* Wait up to @ms for the child to end, reaping it. */
void workload__wait(struct workload *w, int ms);

/*
 * After Ctrl-C: a terminal sent SIGINT to the child too, so give it 200 ms
 * to end; else pass SIGINT on, give it a second more, then send SIGTERM,
 * and reap it.
 */
void workload__end(struct workload *w);

/*
 * The exit status of a wait status as a shell gives it: the exit code, or
 * 128 + the signal that killed it; 1 for anything else.
 */
int wait_status__exit_code(int status);

/*
 * What the shell would say the command exited with, once done: 127 or 126
 * when exec failed (see workload__release()), else
 * wait_status__exit_code() of its status; 0 with no child.
 */
int workload__exit_code(const struct workload *w);

#endif
