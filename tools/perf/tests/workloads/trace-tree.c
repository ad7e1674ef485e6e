#define _GNU_SOURCE
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
__attribute__((noinline)) int work(int n, const char *s) { return n * 3 + s[0]; }
volatile int sink;
static void *run(void *name)
{
	pthread_setname_np(pthread_self(), name);
	sink += work(1, name);
	return NULL;
}
int main(void)
{
	pthread_t t;
	pid_t kid;

	pthread_create(&t, NULL, run, "worker");
	pthread_join(t, NULL);
	kid = fork();
	if (kid == 0) {
		sink += work(2, "kid");
		_exit(0);
	}
	waitpid(kid, NULL, 0);
	sink += work(3, "main");
	return 0;
}
