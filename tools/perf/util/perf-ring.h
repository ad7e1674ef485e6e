/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PERF_RING_H
#define PERF_UTIL_PERF_RING_H

/*
 * perf_event_open(2) and the ring buffer the kernel writes records into:
 * one header page (struct perf_event_mmap_page) and 2^n data pages.  The
 * reader takes a snapshot of data_head, looks at the records before it one
 * by one (a record wrapping around the end is handed out as a copy), and
 * gives the space back by writing data_tail.  Records not yet given back
 * stay where they are: the memory a reader uses is the ring's own.
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* perf_event_open(2): the fd or -1 with errno set. */
int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

struct perf_ring {
	struct perf_event_mmap_page *page; /* NULL: no ring */
	unsigned char *data;
	uint64_t size;	     /* of the data area, a power of two */
	uint64_t head;	     /* the snapshot of data_head */
	uint64_t tail;	     /* where the next record starts */
	size_t map_size;     /* 0 when the memory is not ours to munmap */
	unsigned char *copy; /* a wrapped record, put together */
	size_t copy_size;
	int fd;
};

/*
 * Map the ring of @fd with @data_pages (a power of two) data pages.
 * 0 or -errno (e.g. -EPERM beyond perf_event_mlock_kb).
 */
int perf_ring__mmap(struct perf_ring *ring, int fd, size_t data_pages);

/*
 * Use @base (a header page of @page_size bytes followed by @data_size
 * bytes, a power of two) as a ring, e.g. memory a test fills.
 */
void perf_ring__init(struct perf_ring *ring, void *base, size_t page_size, size_t data_size);

/* Unmap (when mapped) and free the copy; the ring is then empty. */
void perf_ring__exit(struct perf_ring *ring);

/* Take a snapshot of data_head: the records before it can be read. */
void perf_ring__snapshot(struct perf_ring *ring);

/*
 * The next record before the snapshot, or NULL.  It stays valid until
 * perf_ring__consume() or perf_ring__release().  A record whose size is
 * impossible (0, or past the snapshot) ends the reading: everything up to
 * the snapshot is skipped.
 */
const struct perf_event_header *perf_ring__peek(struct perf_ring *ring);

/* Step past the record perf_ring__peek() returned. */
void perf_ring__consume(struct perf_ring *ring);

/* Give the space of the consumed records back to the kernel. */
void perf_ring__release(struct perf_ring *ring);

/*
 * The records of the rings perf trace opens carry PERF_RING_SAMPLE_TYPE, and
 * with sample_id_all the other records end with the same {pid, tid, time,
 * cpu}.
 */
#define PERF_RING_SAMPLE_TYPE \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)

struct perf_ring_sample {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	const void *raw; /* NULL but for PERF_RECORD_SAMPLE */
	uint32_t raw_size;
};

/*
 * Fill @sample from @event: a PERF_RECORD_SAMPLE's fields, or the
 * sample_id trailer of any other record.  0, or -EINVAL when the record is
 * too short for them.
 */
int perf_ring__parse(const struct perf_event_header *event, struct perf_ring_sample *sample);

#endif
