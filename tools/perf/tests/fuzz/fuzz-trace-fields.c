// SPDX-License-Identifier: GPL-2.0
/*
 * trace-fields.c over what libtraceevent makes of a format file.  The
 * first byte of the input chooses: below 0x80 one of the formats below
 * (parsed once), and the rest is a raw sample; else the next byte is a
 * number of fields, each made of 4 bytes (type, offset, size, array
 * length), written as a well-formed format file the way the kernel writes
 * one, and the rest is the sample.  The fields are printed as perf trace
 * prints them, never reading past the sample.
 *
 * Format files themselves are not fuzzed here: they come from the kernel,
 * and libtraceevent 1.7's parser crashes on some malformed ones (strcmp of
 * NULL in tep_parse_format()), which is not ours to fix.
 */
#include <traceevent/event-parse.h>

#include "tests/fuzz/fuzz.h"
#include "util/strbuf.h"
#include "util/trace-fields.h"

static const char *comm_of(int pid, void *priv)
{
	return pid == 1 ? "init" : NULL;
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

/* The types a field may have, as format files write them. */
static const char *const types[] = {
	"unsigned long",
	"long",
	"s32",
	"u32",
	"int",
	"unsigned int",
	"s8",
	"u8",
	"s16",
	"u16",
	"s64",
	"u64",
	"pid_t",
	"char",
	"const char *",
	"void *",
	"__data_loc char[]",
	"__rel_loc char[]",
	"__data_loc u8[]",
	"__data_loc s32[]",
	"unsigned char",
	"bool",
};

#define NTYPES (sizeof(types) / sizeof(types[0]))

/* A format file of @nr fields from the 4-byte records at @rec. */
static void make_format(struct strbuf *sb, const uint8_t *rec, int nr)
{
	strbuf_addstr(sb, "name: gen\nID: 9\nformat:\n" COMMON);
	for (int i = 0; i < nr; i++, rec += 4) {
		const char *type = types[rec[0] % NTYPES];
		bool dyn = !strncmp(type, "__", 2);

		strbuf_addf(sb, "\tfield:%s f%d", type, i);
		if (!dyn && rec[3] % 4 == 3)
			strbuf_addf(sb, "[%u]", rec[3] / 4 % 17);
		strbuf_addf(sb, ";\toffset:%u;\tsize:%u;\tsigned:%u;\n", 8 + rec[1] % 120,
			    dyn ? 4 : 1 + rec[2] % 16, (unsigned)(rec[0] / NTYPES % 2));
	}
	strbuf_addstr(sb, "\nprint fmt: \"x\"\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tep_event *builtin[sizeof(formats) / sizeof(formats[0])];
	static struct tep_handle *fixed;
	struct strbuf format = STRBUF_INIT;
	struct tep_event *event = NULL;
	struct tep_handle *tep;
	int nr;

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
	if (!size)
		return 0;
	if (data[0] < 0x80) {
		print(builtin[data[0] % (sizeof(formats) / sizeof(formats[0]))], data + 1,
		      size - 1);
		return 0;
	}
	if (size < 2)
		return 0;
	nr = data[1] % 24;
	if (size < 2 + 4 * (size_t)nr)
		return 0;
	make_format(&format, data + 2, nr);
	tep = tep_alloc();
	if (!tep)
		abort();
	tep_set_long_size(tep, sizeof(long));
	if (!tep_parse_format(tep, &event, format.buf, format.len, "fuzz"))
		print(event, data + 2 + 4 * nr, size - 2 - 4 * nr);
	tep_free(tep);
	strbuf_release(&format);
	return 0;
}
