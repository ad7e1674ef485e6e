// SPDX-License-Identifier: GPL-2.0
/*
 * The attacker of t0831, in a container as uid 65534: in DIR, swap the
 * names A and B (a file and a link to a host file) every US microseconds,
 * each swap one renameat2(RENAME_EXCHANGE).  Built -static: it runs
 * chrooted.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 0 };

	if (argc != 5 || chdir(argv[1]))
		return 2;
	pause.tv_nsec = atol(argv[4]) % 1000000 * 1000;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if (renameat2(AT_FDCWD, argv[2], AT_FDCWD, argv[3], RENAME_EXCHANGE))
			return 1;
		nanosleep(&pause, NULL);
	}
}
