// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into perf and the unit tests of `make SANITIZE=1` only.
 *
 * GCC's UndefinedBehaviorSanitizer, built together with AddressSanitizer,
 * ignores the log_path of UBSAN_OPTIONS: its reports go to stderr, which a
 * test redirects and a test_must_fail case then passes.  UBSan calls
 * __ubsan_on_report() before each report; this one writes the report's
 * gist to LOG_PATH.PID, the file UBSan itself would have written, so that
 * tests/run.sh finds it as it finds ASan's reports.  abort_on_error=1 then
 * kills the process with SIGABRT, which test_must_fail refuses too.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void __ubsan_on_report(void);
void __ubsan_get_current_report_data(const char **kind, const char **msg, const char **file,
				     unsigned *line, unsigned *col, char **addr);

/* The log_path=VALUE of UBSAN_OPTIONS ("a:b=c" pairs) into @buf, or NULL. */
static const char *ubsan_log_path(char *buf, size_t size)
{
	const char *opts = getenv("UBSAN_OPTIONS"), *p;
	size_t len;

	if (!opts)
		return NULL;
	for (p = opts; (p = strstr(p, "log_path=")); p++) {
		if (p != opts && p[-1] != ':' && p[-1] != ' ')
			continue;
		p += strlen("log_path=");
		len = strcspn(p, ": ");
		if (!len || len >= size)
			return NULL;
		memcpy(buf, p, len);
		buf[len] = '\0';
		return buf;
	}
	return NULL;
}

/* What the process was run as, its NULs as blanks, into @buf. */
static void cmdline(char *buf, size_t size)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (ssize_t i = 0; i + 1 < n; i++)
		if (!buf[i])
			buf[i] = ' ';
}

void __ubsan_on_report(void)
{
	const char *kind = "?", *msg = "?", *file = "?";
	char path[4096], name[4200], cmd[1024], *addr = NULL;
	unsigned line = 0, col = 0;
	FILE *f;

	if (!ubsan_log_path(path, sizeof(path)))
		return;
	__ubsan_get_current_report_data(&kind, &msg, &file, &line, &col, &addr);
	snprintf(name, sizeof(name), "%s.%d", path, (int)getpid());
	f = fopen(name, "a");
	if (!f)
		return;
	cmdline(cmd, sizeof(cmd));
	fprintf(f, "%s:%u:%u: runtime error: %s (%s)\n  in: %s\n", file ? file : "?", line, col,
		msg ? msg : "?", kind ? kind : "?", cmd);
	fclose(f);
}
