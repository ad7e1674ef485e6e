// SPDX-License-Identifier: GPL-2.0
/*
 * trace-fields.c over what libtraceevent makes of a format file: the
 * input is a format file, a NUL, then a raw sample; or, not starting with
 * "name:", a byte choosing one of the formats below (parsed once, which is
 * much faster) and the sample.  The fields are printed as perf trace
 * prints them, never reading past the sample.
 */
#include <traceevent/event-parse.h>

#include "tests/fuzz/fuzz.h"
#include "util/strbuf.h"
#include "util/trace-fields.h"

static const char *comm_of(int pid, void *priv)
{
	return pid == 1 ? "init" : NULL;
}

/*
 * libtraceevent's own parser leaks on some malformed formats (libtraceevent
 * 1.7): not ours to fix, so LeakSanitizer leaves out what it allocated.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

#define COMMON                                                                         \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* A uprobe as perf probe makes it, and every other kind of field. */
static const char *const formats[] = {
	"name: ev\nID: 1\nformat:\n" COMMON
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 arg1;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] arg2;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"(%lx) arg1=%d\", REC->__probe_ip, REC->arg1\n",
	"name: mixed\nID: 2\nformat:\n" COMMON
	"\tfield:const void * ptr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n"
	"\tfield:s64 big;\toffset:36;\tsize:8;\tsigned:1;\n"
	"\tfield:s8 small;\toffset:44;\tsize:1;\tsigned:1;\n"
	"\tfield:s32 arr[];\toffset:45;\tsize:12;\tsigned:1;\n"
	"\tfield:__rel_loc char[] rel;\toffset:57;\tsize:4;\tsigned:1;\n"
	"\tfield:u16 shorts[3];\toffset:61;\tsize:6;\tsigned:0;\n"
	"\tfield:__data_loc u8[] bytes;\toffset:67;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%p\", REC->ptr\n",
};

static void print(struct tep_event *event, const uint8_t *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	/* An exact copy, so that ASan sees any read past the sample. */
	uint8_t *sample = malloc(len ? len : 1);

	memcpy(sample, data, len);
	trace_fields__format(&sb, event, sample, (int)len, comm_of, NULL);
	free(sample);
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tep_event *builtin[sizeof(formats) / sizeof(formats[0])];
	static struct tep_handle *fixed;
	const uint8_t *nul = memchr(data, '\0', size);
	struct tep_event *event = NULL;
	struct tep_handle *tep;

	if (size > 65536)
		return 0;
	if (!fixed) {
		fixed = tep_alloc();
		tep_set_long_size(fixed, sizeof(long));
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (tep_parse_format(fixed, &builtin[i], formats[i], strlen(formats[i]),
					     "fuzz"))
				abort();
	}
	if (size < 5 || memcmp(data, "name:", 5)) {
		if (size)
			print(builtin[data[0] % (sizeof(formats) / sizeof(formats[0]))], data + 1,
			      size - 1);
		return 0;
	}
	if (!nul)
		return 0;
	tep = tep_alloc();
	if (!tep)
		abort();
	tep_set_long_size(tep, sizeof(long));
	if (!tep_parse_format(tep, &event, (const char *)data, nul - data, "fuzz"))
		print(event, nul + 1, size - (nul + 1 - data));
	tep_free(tep);
	return 0;
}
