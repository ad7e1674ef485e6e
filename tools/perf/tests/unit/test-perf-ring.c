// SPDX-License-Identifier: GPL-2.0
/*
 * perf-ring on memory laid out as the kernel lays out a ring: a header
 * page, then the data area the records wrap around in.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit-test.h"
#include "util/perf-ring.h"

#define PAGE 4096
#define DATA 256

static unsigned char *mem;
static uint64_t written; /* the kernel's head */

static struct perf_event_mmap_page *page(void)
{
	return (struct perf_event_mmap_page *)mem;
}

/* Write one record of @size bytes (a multiple of 8) as the kernel would. */
static void write_record(uint32_t type, uint16_t size, unsigned char fill)
{
	unsigned char rec[512];
	struct perf_event_header hdr = { .type = type, .misc = 0, .size = size };

	memcpy(rec, &hdr, sizeof(hdr));
	memset(rec + sizeof(hdr), fill, size - sizeof(hdr));
	for (int i = 0; i < size; i++)
		mem[PAGE + (written + i) % DATA] = rec[i];
	written += size;
	page()->data_head = written;
}

static void reset(struct perf_ring *ring, uint64_t start)
{
	memset(mem, 0, PAGE + DATA);
	written = start;
	page()->data_tail = start;
	page()->data_head = start;
	perf_ring__init(ring, mem, PAGE, DATA);
}

static void test_records_come_in_order_until_the_snapshot(void)
{
	struct perf_ring ring;
	const struct perf_event_header *h;

	reset(&ring, 0);
	write_record(PERF_RECORD_SAMPLE, 64, 1);
	write_record(PERF_RECORD_LOST, 32, 2);
	CHECK(perf_ring__peek(&ring) == NULL);
	perf_ring__snapshot(&ring);
	write_record(PERF_RECORD_COMM, 40, 3); /* after the snapshot */
	h = perf_ring__peek(&ring);
	CHECK(h && h->type == PERF_RECORD_SAMPLE && h->size == 64);
	/* Peeking again gives the same record until it is consumed. */
	CHECK(perf_ring__peek(&ring) == h);
	perf_ring__consume(&ring);
	h = perf_ring__peek(&ring);
	CHECK(h && h->type == PERF_RECORD_LOST);
	perf_ring__consume(&ring);
	CHECK(perf_ring__peek(&ring) == NULL);
	CHECK_INT(page()->data_tail, ==, 0);
	perf_ring__release(&ring);
	CHECK_INT(page()->data_tail, ==, 96);
	perf_ring__snapshot(&ring);
	h = perf_ring__peek(&ring);
	CHECK(h && h->type == PERF_RECORD_COMM);
	perf_ring__exit(&ring);
}

static void test_a_record_wrapping_the_end_comes_whole(void)
{
	struct perf_ring ring;
	const struct perf_event_header *h;
	const unsigned char *body;
	bool same = true;

	/* Start 40 bytes before the end: a 120-byte record wraps. */
	reset(&ring, 10 * DATA - 40);
	write_record(PERF_RECORD_SAMPLE, 120, 0xab);
	write_record(PERF_RECORD_SAMPLE, 16, 0xcd);
	perf_ring__snapshot(&ring);
	h = perf_ring__peek(&ring);
	CHECK(h && h->size == 120);
	if (h) {
		body = (const unsigned char *)(h + 1);
		for (int i = 0; i < 112; i++)
			same &= body[i] == 0xab;
		CHECK(same);
	}
	perf_ring__consume(&ring);
	h = perf_ring__peek(&ring);
	CHECK(h && h->size == 16 && ((const unsigned char *)(h + 1))[0] == 0xcd);
	perf_ring__consume(&ring);
	perf_ring__release(&ring);
	CHECK_INT(page()->data_tail, ==, 10 * DATA + 96);
	perf_ring__exit(&ring);
}

static void test_an_impossible_size_skips_to_the_snapshot(void)
{
	struct perf_ring ring;

	reset(&ring, 0);
	write_record(PERF_RECORD_SAMPLE, 64, 1);
	page()->data_head = 32; /* a record cut short */
	perf_ring__snapshot(&ring);
	CHECK(perf_ring__peek(&ring) == NULL);
	perf_ring__release(&ring);
	CHECK_INT(page()->data_tail, ==, 32);
	perf_ring__exit(&ring);
}

static void test_samples_and_other_records_parse(void)
{
	unsigned char rec[64] = { 0 };
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = 48 };
	uint32_t pid = 10, tid = 11, cpu = 1, raw_size = 12;
	uint64_t time = 123456789, lost = 7;
	struct perf_ring_sample s;

	memcpy(rec, &hdr, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, &time, 8);
	memcpy(rec + 24, &cpu, 4);
	memcpy(rec + 32, &raw_size, 4);
	memcpy(rec + 36, "rawdata.....", 12);
	CHECK_INT(perf_ring__parse((struct perf_event_header *)rec, &s), ==, 0);
	CHECK_INT(s.pid, ==, 10);
	CHECK_INT(s.tid, ==, 11);
	CHECK_INT(s.time, ==, 123456789);
	CHECK_INT(s.cpu, ==, 1);
	CHECK_INT(s.raw_size, ==, 12);
	CHECK(s.raw && !memcmp(s.raw, "rawdata", 7));
	/* A raw size beyond the record is refused. */
	raw_size = 13;
	memcpy(rec + 32, &raw_size, 4);
	CHECK_INT(perf_ring__parse((struct perf_event_header *)rec, &s), ==, -EINVAL);

	/* PERF_RECORD_LOST: id, lost, then the sample_id trailer. */
	memset(rec, 0, sizeof(rec));
	hdr.type = PERF_RECORD_LOST;
	hdr.size = 8 + 16 + 24;
	memcpy(rec, &hdr, 8);
	memcpy(rec + 16, &lost, 8);
	memcpy(rec + 24, &pid, 4);
	memcpy(rec + 28, &tid, 4);
	memcpy(rec + 32, &time, 8);
	memcpy(rec + 40, &cpu, 4);
	CHECK_INT(perf_ring__parse((struct perf_event_header *)rec, &s), ==, 0);
	CHECK_INT(s.tid, ==, 11);
	CHECK_INT(s.time, ==, 123456789);
	CHECK(s.raw == NULL);
}

static void test_cleanup(void)
{
	free(mem);
}

static void __attribute__((constructor)) setup(void)
{
	mem = aligned_alloc(PAGE, 2 * PAGE);
	if (!mem)
		abort();
}

TESTS(TEST(test_records_come_in_order_until_the_snapshot),
      TEST(test_a_record_wrapping_the_end_comes_whole),
      TEST(test_an_impossible_size_skips_to_the_snapshot),
      TEST(test_samples_and_other_records_parse), TEST(test_cleanup));
