// SPDX-License-Identifier: GPL-2.0
/* perf_event_open(2) and reading the records of its ring buffer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/perf-ring.h"
#include "util/util.h"

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

void perf_ring__init(struct perf_ring *ring, void *base, size_t page_size, size_t data_size)
{
	memset(ring, 0, sizeof(*ring));
	ring->fd = -1;
	ring->page = base;
	ring->data = (unsigned char *)base + page_size;
	ring->size = data_size;
	ring->tail = ring->head = __atomic_load_n(&ring->page->data_tail, __ATOMIC_RELAXED);
}

int perf_ring__mmap(struct perf_ring *ring, int fd, size_t data_pages)
{
	size_t page_size = sysconf(_SC_PAGESIZE);
	size_t len = (data_pages + 1) * page_size;
	void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (base == MAP_FAILED)
		return -errno;
	perf_ring__init(ring, base, page_size, data_pages * page_size);
	ring->map_size = len;
	ring->fd = fd;
	return 0;
}

void perf_ring__exit(struct perf_ring *ring)
{
	if (ring->map_size)
		munmap(ring->page, ring->map_size);
	free(ring->copy);
	memset(ring, 0, sizeof(*ring));
	ring->fd = -1;
}

void perf_ring__snapshot(struct perf_ring *ring)
{
	/* Pairs with the kernel's barrier after writing the records. */
	ring->head = __atomic_load_n(&ring->page->data_head, __ATOMIC_ACQUIRE);
}

const struct perf_event_header *perf_ring__peek(struct perf_ring *ring)
{
	uint64_t avail = ring->head - ring->tail, off = ring->tail & (ring->size - 1);
	struct perf_event_header hdr;
	size_t first;

	if (avail < sizeof(hdr))
		return NULL;
	/* The header itself may wrap: it is 8 bytes and records are 8-aligned, but be safe. */
	first = ring->size - off;
	if (first >= sizeof(hdr)) {
		memcpy(&hdr, ring->data + off, sizeof(hdr));
	} else {
		memcpy(&hdr, ring->data + off, first);
		memcpy((char *)&hdr + first, ring->data, sizeof(hdr) - first);
	}
	if (hdr.size < sizeof(hdr) || hdr.size > avail) {
		ring->tail = ring->head;
		return NULL;
	}
	if (first >= hdr.size)
		return (const struct perf_event_header *)(ring->data + off);
	if (ring->copy_size < hdr.size) {
		free(ring->copy);
		ring->copy = xmalloc(hdr.size);
		ring->copy_size = hdr.size;
	}
	memcpy(ring->copy, ring->data + off, first);
	memcpy(ring->copy + first, ring->data, hdr.size - first);
	return (const struct perf_event_header *)ring->copy;
}

void perf_ring__consume(struct perf_ring *ring)
{
	const struct perf_event_header *hdr = perf_ring__peek(ring);

	if (hdr)
		ring->tail += hdr->size;
}

void perf_ring__release(struct perf_ring *ring)
{
	/* The kernel may overwrite the space once it sees the new tail. */
	__atomic_store_n(&ring->page->data_tail, ring->tail, __ATOMIC_RELEASE);
}

/* The {pid, tid, time, cpu} of PERF_RING_SAMPLE_TYPE, at @p. */
static void parse_id(const unsigned char *p, struct perf_ring_sample *sample)
{
	uint32_t cpu_res[2];

	memcpy(&sample->pid, p, 4);
	memcpy(&sample->tid, p + 4, 4);
	memcpy(&sample->time, p + 8, 8);
	memcpy(cpu_res, p + 16, 8);
	sample->cpu = cpu_res[0];
}

#define ID_SIZE 24

int perf_ring__parse(const struct perf_event_header *event, struct perf_ring_sample *sample)
{
	const unsigned char *p = (const unsigned char *)(event + 1);
	size_t len = event->size - sizeof(*event);

	memset(sample, 0, sizeof(*sample));
	if (len < ID_SIZE)
		return -EINVAL;
	if (event->type != PERF_RECORD_SAMPLE) {
		parse_id(p + len - ID_SIZE, sample);
		return 0;
	}
	parse_id(p, sample);
	if (len < ID_SIZE + 4)
		return -EINVAL;
	memcpy(&sample->raw_size, p + ID_SIZE, 4);
	if (sample->raw_size > len - ID_SIZE - 4)
		return -EINVAL;
	sample->raw = p + ID_SIZE + 4;
	return 0;
}
