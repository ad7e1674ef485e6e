// SPDX-License-Identifier: GPL-2.0
/*
 * inode-floor ROOT N DIR: the files a bundle import of N new binaries
 * DIR/b0 .. DIR/bN-1 makes in the build-id cache ROOT, made with nothing
 * else (no reading, checking or locking): per entry two directories
 * (ROOT/DIR/bI/ and its build-id's), the probes file written as a
 * temporary and renamed, the .build-id/XX/REST link; then one syncfs().
 * The floor of the import on this filesystem (bench/run.sh, 5e).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			exit(1);
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		exit(1);
}

int main(int argc, char **argv)
{
	char path[4096], tmp[8192], dst[8192], bid[41];
	const char *body =
		"#main\np:probe_b/main /b:0x1139\n#main%return\nr:probe_b/main__return /b:0x1139\n";
	int n, fd;

	if (argc != 4 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: inode-floor ROOT N DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/.build-id", argv[1]);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s%s", argv[1], argv[3]);
	mkdirs(path);
	for (int i = 0; i < n; i++) {
		unsigned int h = (unsigned int)i * 2654435761u;

		snprintf(bid, sizeof(bid), "%08x%032d", h, i);
		snprintf(path, sizeof(path), "%s%s/b%d", argv[1], argv[3], i);
		if (mkdir(path, 0755) < 0)
			return 1;
		snprintf(path, sizeof(path), "%s%s/b%d/%s", argv[1], argv[3], i, bid);
		if (mkdir(path, 0755) < 0)
			return 1;
		snprintf(tmp, sizeof(tmp), "%s/probes.tmp", path);
		snprintf(dst, sizeof(dst), "%s/probes", path);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, body, strlen(body)) < 0 || close(fd) < 0 ||
		    rename(tmp, dst) < 0)
			return 1;
		snprintf(tmp, sizeof(tmp), "%s/.build-id/%.2s", argv[1], bid);
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return 1;
		snprintf(tmp, sizeof(tmp), "%s/.build-id/%.2s/%s", argv[1], bid, bid + 2);
		if (symlink(path, tmp) < 0)
			return 1;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	return fd < 0 || syncfs(fd) < 0;
}
