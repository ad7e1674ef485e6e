#include <stdio.h>
struct msg { int id; const char *who; };
const char *greeting = "hello-global";
const char *names[3] = { "zero", "one", "two" };
__attribute__((noinline)) int greet(const char *who, struct msg *m)
{
	printf("who=%s m->who=%s names[1]=%s greeting=%s\n", who, m->who, names[1], greeting);
	return m->id;
}
int main(int argc, char **argv)
{
	struct msg m = { .id = 7, .who = "member-str" };
	return greet(argc > 1 ? argv[1] : "param-str", &m) != 7;
}
