// SPDX-License-Identifier: GPL-2.0
/*
 * trace-fields: samples built by hand for formats as the kernel writes
 * them, printed as perf trace prints them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tests/unit/unit-test.h"
#include "util/strbuf.h"
#include "util/trace-fields.h"

#define COMMON                                                                         \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* A uprobe with an int and a string, as perf probe makes it. */
static const char uprobe_format[] =
	"name: ev\nID: 2326\nformat:\n" COMMON
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 arg1;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] arg2;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"(%lx) arg1=%d arg2=\\\"%s\\\"\", REC->__probe_ip, REC->arg1, "
	"__get_str(arg2)\n";

/* Every other kind of field. */
static const char mixed_format[] = "name: mixed\nID: 77\nformat:\n" COMMON
				   "\tfield:const void * ptr;\toffset:8;\tsize:8;\tsigned:0;\n"
				   "\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n"
				   "\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n"
				   "\tfield:s64 big;\toffset:36;\tsize:8;\tsigned:1;\n"
				   "\tfield:s8 small;\toffset:44;\tsize:1;\tsigned:1;\n"
				   "\tfield:s32 arr[];\toffset:45;\tsize:12;\tsigned:1;\n"
				   "\tfield:__rel_loc char[] rel;\toffset:57;\tsize:4;\tsigned:1;\n"
				   "\tfield:pid_t stranger;\toffset:61;\tsize:4;\tsigned:1;\n\n"
				   "print fmt: \"%p\", REC->ptr\n";

static struct tep_handle *tep;

static struct tep_event *parse(const char *format)
{
	struct tep_event *event = NULL;

	if (tep_parse_format(tep, &event, format, strlen(format), "grp"))
		return NULL;
	return event;
}

static const char *comm_of(int pid, void *priv)
{
	return pid == 42 ? "prog" : NULL;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void format(struct tep_event *event, const unsigned char *data, int size, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	trace_fields__format(&sb, event, data, size, comm_of, NULL);
	CHECK_STR(sb.buf, want);
	strbuf_release(&sb);
}

static void test_a_probe_prints_as_perf_trace(void)
{
	struct tep_event *event = parse(uprobe_format);
	unsigned char data[32] = { 0 };

	CHECK(event != NULL);
	if (!event)
		return;
	put64(data + 8, 94729693655353ULL);
	put32(data + 16, (uint32_t)-1);
	put32(data + 20, 24 | 6 << 16);
	memcpy(data + 24, "hello", 6);
	format(event, data, 30, "__probe_ip: 94729693655353, arg1: 4294967295, arg2: \"hello\"");
	/* perf leaves zeros out; strings, empty ones too, stay. */
	put32(data + 16, 0);
	put32(data + 20, 24 | 1 << 16);
	data[24] = '\0';
	format(event, data, 30, "__probe_ip: 94729693655353, arg2: \"\"");
}

static void test_a_string_beyond_the_sample_is_left_out(void)
{
	struct tep_event *event = parse(uprobe_format);
	unsigned char data[32] = { 0 };

	if (!event)
		return;
	put64(data + 8, 1);
	put32(data + 16, 5);
	put32(data + 20, 24 | 200 << 16);
	format(event, data, 30, "__probe_ip: 1, arg1: 5");
	/* And a sample too short for the fields has none of them. */
	format(event, data, 12, "");
}

static void test_each_kind_of_field_prints_its_way(void)
{
	struct tep_event *event = parse(mixed_format);
	unsigned char data[80] = { 0 };

	CHECK(event != NULL);
	if (!event)
		return;
	put64(data + 8, 0xffff888104266600ULL);
	put32(data + 16, 42);
	memcpy(data + 20, "kworker", 8);
	put64(data + 36, (uint64_t)-5);
	data[44] = (unsigned char)-5;
	put32(data + 45, 1);
	put32(data + 49, (uint32_t)-2);
	put32(data + 53, 3);
	/* __rel_loc: from the end of the field (61), here at 69. */
	put32(data + 57, 8 | 3 << 16);
	memcpy(data + 69, "ab", 3);
	put32(data + 61, 7);
	format(event, data, 72,
	       "ptr: 0xffff888104266600, pid: 42 (prog), comm: \"kworker\", big: -5, "
	       "small: 251, arr: {1,-2,3}, rel: \"ab\", stranger: 7");
}

static void test_milliseconds_read_as_printf_would(void)
{
	static const uint64_t ns[] = { 0,
				       1,
				       499,
				       999,
				       1000,
				       51234,
				       999999,
				       1000000,
				       123456789,
				       1789980848000ULL,
				       99999999999999ULL };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		char want[64];

		snprintf(want, sizeof(want), "%10.3f", ns[i] / 1e6);
		trace_fields__add_msecs(&sb, ns[i]);
		CHECK_STR(sb.buf, want);
		strbuf_release(&sb);
	}
}

static void test_cleanup(void)
{
	tep_free(tep);
}

static void __attribute__((constructor)) setup(void)
{
	tep = tep_alloc();
	tep_set_long_size(tep, sizeof(long));
}

TESTS(TEST(test_a_probe_prints_as_perf_trace), TEST(test_a_string_beyond_the_sample_is_left_out),
      TEST(test_each_kind_of_field_prints_its_way), TEST(test_milliseconds_read_as_printf_would),
      TEST(test_cleanup));
