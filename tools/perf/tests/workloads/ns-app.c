// SPDX-License-Identifier: GPL-2.0
/* A server in a container: one handle() call per SIGUSR1 (t0830). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#ifndef SCALE
#define SCALE 10
#endif

static volatile sig_atomic_t pending;

static void on_usr1(int sig)
{
	pending++;
}

#ifdef HOST_BUILD
/* The host's build of the same name: handle() at another offset. */
__attribute__((noinline)) long host_only(long x)
{
	printf("host %ld\n", x);
	return x * 3;
}
#endif

__attribute__((noinline)) long handle(int req, long len)
{
	printf("handle req=%d len=%ld\n", req, len);
	fflush(stdout);
	return req + len;
}

int main(void)
{
	int n = 0;

	signal(SIGUSR1, on_usr1);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		while (pending) {
			pending--;
			n++;
			handle(n, (long)n * SCALE);
		}
		sleep(1);
	}
	return 0;
}
