// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint.c: "GROUP:EVENT" specs and the id and format files of the
 * events they match.  The input is a spec, a newline, the id file, a
 * newline, then the format file of the event grp:ev in a tracefs of the
 * target's own (PERF_TRACEFS_DIR).  A format read is the file's text,
 * whole.  (What libtraceevent makes of it is fuzz-trace-fields' part.)
 */
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"
#include "util/strbuf.h"
#include "util/tracepoint.h"
#include "util/util.h"

static char dir[64];

static void put(const char *name, const char *text, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		abort();
}

static void cleanup(void)
{
	rm_rf(dir);
}

static void setup(void)
{
	static const char *const dirs[] = { "events", "events/grp", "events/grp/ev",
					    "events/grp/other", "events/sched" };
	char path[128];

	snprintf(dir, sizeof(dir), "/tmp/fuzz-tracepoint.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		if (mkdir(path, 0755))
			abort();
	}
	put("grp/other/id", "12\n", 3);
	put("grp/other/format", "name: other\nID: 12\n", 19);
	setenv("PERF_TRACEFS_DIR", dir, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracepoint_list list = { 0 };
	struct strbuf why = STRBUF_INIT;
	char *text, *spec, *id, *format;

	if (!*dir)
		setup();
	if (size > 65536)
		return 0;
	text = fuzz_strndup(data, size);
	spec = text;
	id = strchr(spec, '\n');
	if (!id)
		goto out;
	*id++ = '\0';
	format = strchr(id, '\n');
	if (!format)
		goto out;
	*format++ = '\0';
	put("grp/ev/id", id, strlen(id));
	put("grp/ev/format", format, strlen(format));
	if (tracepoint_list__add(&list, spec, &why) <= 0)
		goto out;
	for (int i = 0; i < list.nr; i++) {
		struct tracepoint *tp = &list.tps[i];

		if (!strcmp(tp->name, "ev") && (tp->format_len != strlen(format) ||
						memcmp(tp->format, format, tp->format_len)))
			fuzz_mismatch("a format read is not the file", format, tp->format);
	}
out:
	tracepoint_list__clear(&list);
	strbuf_release(&why);
	free(text);
	return 0;
}
