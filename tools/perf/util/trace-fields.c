// SPDX-License-Identifier: GPL-2.0
/* Tracepoint sample fields printed the way perf trace prints them. */
#include <stdint.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "util/trace-fields.h"

/* The unsigned value of @size bytes at @p, in the host's byte order. */
static uint64_t read_uint(const unsigned char *p, int size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	case 8:
		memcpy(&u64, p, 8);
		return u64;
	}
	return 0;
}

/* strbuf_addf("%llu") without printf: this runs for every field of every event. */
static void add_u64(struct strbuf *sb, uint64_t val)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = '0' + val % 10;
		val /= 10;
	} while (val);
	strbuf_add(sb, p, buf + sizeof(buf) - p);
}

static void add_s64(struct strbuf *sb, int64_t val)
{
	if (val < 0) {
		strbuf_addch(sb, '-');
		add_u64(sb, -(uint64_t)val);
	} else {
		add_u64(sb, val);
	}
}

void trace_fields__add_msecs(struct strbuf *sb, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;
	char buf[32], *p = buf + sizeof(buf);
	int width;

	for (int i = 0; i < 3; i++) {
		*--p = '0' + us % 10;
		us /= 10;
	}
	*--p = '.';
	do {
		*--p = '0' + us % 10;
		us /= 10;
	} while (us);
	width = buf + sizeof(buf) - p;
	for (; width < 10; width++)
		strbuf_addch(sb, ' ');
	strbuf_add(sb, p, buf + sizeof(buf) - p);
}

static int64_t sign_extend(uint64_t val, int size)
{
	int shift = 64 - 8 * size;

	return shift > 0 && shift < 64 ? (int64_t)(val << shift) >> shift : (int64_t)val;
}

static void add_string(struct strbuf *sb, const unsigned char *p, int len)
{
	const unsigned char *nul = memchr(p, '\0', len);

	strbuf_addch(sb, '"');
	strbuf_add(sb, p, nul ? nul - p : len);
	strbuf_addch(sb, '"');
}

/*
 * The size of one element of an array field.  Probe arrays come as
 * "s32 arg1[]" of size 16, where libtraceevent knows no element size:
 * the type's name tells it then.
 */
static int element_size(const struct tep_format_field *field)
{
	static const struct {
		const char *type;
		int size;
	} types[] = {
		{ "s8", 1 },  { "u8", 1 },  { "x8", 1 },  { "char", 1 },
		{ "s16", 2 }, { "u16", 2 }, { "x16", 2 }, { "short", 2 },
		{ "s32", 4 }, { "u32", 4 }, { "x32", 4 }, { "int", 4 },
		{ "s64", 8 }, { "u64", 8 }, { "x64", 8 }, { "long", sizeof(long) },
	};
	const char *type = field->type, *end;
	size_t len;

	if (field->arraylen && field->size % field->arraylen == 0)
		return field->size / field->arraylen;
	if (!strncmp(type, "__data_loc ", 11))
		type += 11;
	else if (!strncmp(type, "__rel_loc ", 10))
		type += 10;
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	else if (!strncmp(type, "signed ", 7))
		type += 7;
	end = strchr(type, '[');
	len = end ? (size_t)(end - type) : strlen(type);
	while (len && type[len - 1] == ' ')
		len--;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].type) == len && !strncmp(types[i].type, type, len))
			return types[i].size;
	return 1;
}

static void add_array(struct strbuf *sb, const struct tep_format_field *field,
		      const unsigned char *p, int len)
{
	int elem = element_size(field);

	if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
		elem = 1;
	strbuf_addch(sb, '{');
	for (int i = 0; i + elem <= len; i += elem) {
		uint64_t val = read_uint(p + i, elem);

		if (i)
			strbuf_addch(sb, ',');
		if (field->flags & TEP_FIELD_IS_SIGNED)
			add_s64(sb, sign_extend(val, elem));
		else
			add_u64(sb, val);
	}
	strbuf_addch(sb, '}');
}

/*
 * Where the data of a __data_loc/__rel_loc field is: 0 and *@start, *@len
 * set, or -1 when it lies outside the sample.
 */
static int dynamic_data(const struct tep_format_field *field, const unsigned char *data, int size,
			int *start, int *len)
{
	uint32_t loc;

	if (field->size != 4)
		return -1;
	loc = read_uint(data + field->offset, 4);
	*start = loc & 0xffff;
	*len = loc >> 16;
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		*start += field->offset + field->size;
	return *start + *len <= size ? 0 : -1;
}

/* Append @sep and "NAME: VALUE" unless perf would leave the field out; false then. */
static bool add_field(struct strbuf *sb, const char *sep, const struct tep_format_field *field,
		      const unsigned char *data, int size, trace_fields__comm_fn comm, void *priv)
{
	size_t mark = sb->len;
	int start = field->offset, len = field->size;
	uint64_t val;

	if (field->offset < 0 || field->size <= 0 || field->offset + field->size > size)
		return false;
	strbuf_addstr(sb, sep);
	strbuf_addstr(sb, field->name);
	strbuf_addstr(sb, ": ");

	if (field->flags & TEP_FIELD_IS_DYNAMIC) {
		if (dynamic_data(field, data, size, &start, &len))
			goto drop;
	}
	if (field->flags & TEP_FIELD_IS_STRING) {
		add_string(sb, data + start, len);
		return true;
	}
	if (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		add_array(sb, field, data + start, len);
		return true;
	}
	if (len != 1 && len != 2 && len != 4 && len != 8)
		goto drop;
	val = read_uint(data + start, len);
	if (!val)
		goto drop;
	if (field->flags & TEP_FIELD_IS_POINTER) {
		strbuf_addf(sb, "%#llx", (unsigned long long)val);
	} else if (len == 8) {
		add_s64(sb, (int64_t)val);
	} else {
		add_u64(sb, val);
		if (comm && !strcmp(field->type, "pid_t")) {
			const char *name = comm((int)val, priv);

			if (name)
				strbuf_addf(sb, " (%s)", name);
		}
	}
	return true;
drop:
	strbuf_setlen(sb, mark);
	return false;
}

void trace_fields__format(struct strbuf *sb, struct tep_event *event, const void *data, int size,
			  trace_fields__comm_fn comm, void *priv)
{
	bool printed = false;

	for (struct tep_format_field *f = event->format.fields; f; f = f->next)
		if (add_field(sb, printed ? ", " : "", f, data, size, comm, priv))
			printed = true;
}
