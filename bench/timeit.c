// SPDX-License-Identifier: GPL-2.0
/*
 * timeit REPS CMD ARGS...: run CMD REPS times (stdout/stderr to /dev/null)
 * and print "seconds maxrss_kb" of each run, from clock_gettime around
 * fork/exec/wait4 and wait4's rusage.  "fail" for a run that exits non-zero.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[1]) : 0;

	if (reps <= 0) {
		fprintf(stderr, "usage: timeit REPS CMD [ARGS...]\n");
		return 2;
	}
	for (int i = 0; i < reps; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		int status;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			if (!getenv("TIMEIT_STDERR"))
				dup2(fd, 2);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
			perror("timeit");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			printf("fail\n");
		else
			printf("%.6f %ld\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			       ru.ru_maxrss);
		fflush(stdout);
	}
	return 0;
}
