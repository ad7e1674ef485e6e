#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char buf[256];
int mount_it(const char *name, int flags)
{
	int ret = 0;

	if (!name)
		return -1;
	for (int i = 0; i < flags; i++) {
		ret += snprintf(buf, sizeof(buf), "%s:%d", name, i);
		if (strlen(buf) > 200)
			ret -= 3;
		puts(buf);
	}
	return ret;
}
int main(int argc, char **argv)
{
	int r = mount_it(argc > 1 ? argv[1] : NULL, argc);

	r += mount_it("two", 2);
	printf("r=%d\n", r);
	return 0;
}
