// SPDX-License-Identifier: GPL-2.0
/* The names -F shows (see func-names.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/demangle.h"
#include "util/func-names.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/util.h"

#define CHUNK 64 /* symbols: the two halves take chunks in turn */
#define THREADED_MIN 4096

struct half {
	const char *const *syms;
	size_t n, first; /* chunks first, first + 2, ... of the @n symbols */
	const struct strfilter *filter;
	bool demangle;
	/*
	 * One mapping (huge_map(); malloc()'s when map_size is 0): first the
	 * names kept, sorted, then the sort's keys (names_room bytes in all),
	 * then their text one after another.  One, not two: each 2 MiB page
	 * is zeroed at its first touch, which was a third of -F's time on
	 * this VM, and a half's names and text fit one (libjvm's 28,000).
	 */
	char *map;
	size_t map_size, names_room;
	char **names; /* map */
	char *text;   /* map + names_room */
	size_t text_room, text_used, nr;
};

#define HUGE_PAGE (2UL << 20)

/*
 * @h's mapping with room for @text_room bytes of text, never failing (as
 * xmalloc()): malloc()'s where no mapping is to be had.
 */
static void half_room(struct half *h, size_t text_room)
{
	size_t size = h->names_room + text_room;
	char *p = NULL;

	if (!h->map) {
		p = huge_map(&size);
		h->map_size = p ? size : 0;
	} else if (h->map_size) {
		/* more room, by moving it: the names are offsets until the end */
		size = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		p = mremap(h->map, h->map_size, size, MREMAP_MAYMOVE);
		if (p == MAP_FAILED) {
			p = memcpy(xmalloc(size), h->map, h->names_room + h->text_used);
			huge_unmap(h->map, h->map_size);
			h->map_size = 0;
		} else {
			madvise(p, size, MADV_HUGEPAGE);
			h->map_size = size;
		}
	} else {
		p = xrealloc(h->map, size);
	}
	if (!p)
		p = xmalloc(size);
	h->map = p;
	h->names = (char **)p;
	h->text = p + h->names_room;
	h->text_room = size - h->names_room;
}

/* @s (@len bytes and its NUL) into @h's text: its offset there. */
static size_t half_keep(struct half *h, const char *s, size_t len)
{
	size_t at = h->text_used;

	/* 8 bytes past each name may be read (strings_sort_padded()) */
	if (h->text_room - at < len + 1 + 8)
		half_room(h, 2 * (h->text_room + len + 1 + 8));
	memcpy(h->text + at, s, len + 1);
	h->text_used += len + 1;
	return at;
}

static void *half_run(void *arg)
{
	struct half *h = arg;
	struct strbuf sb = STRBUF_INIT;
	size_t max = h->n / 2 + CHUNK + 1;

	/* the names' offsets, then pointers, then the sort's keys after them */
	h->names_room = max * sizeof(char *) + STRINGS_SORT_SCRATCH(max);
	half_room(h, HUGE_PAGE - h->names_room % HUGE_PAGE);
	strbuf_grow(&sb, 256);
	for (size_t c = h->first * CHUNK; c < h->n; c += 2 * CHUNK) {
		for (size_t i = c; i < c + CHUNK && i < h->n; i++) {
			strbuf_reset(&sb);
			demangle_display_add(&sb, h->syms[i], h->demangle);
			if (strfilter__compare(h->filter, sb.buf)) {
				/* kept first: the mapping may move */
				size_t off = half_keep(h, sb.buf, sb.len);

				((uintptr_t *)h->names)[h->nr++] = off;
			}
		}
	}
	strbuf_release(&sb);
	for (size_t i = 0; i < h->nr; i++)
		h->names[i] = h->text + ((uintptr_t *)h->names)[i];
	strings_sort_padded(h->names, h->nr, h->names + max);
	return NULL;
}

/*
 * The second thread, started before the names are loaded: a thread comes
 * up on the other CPU of this VM in 0.03 to 4 ms, which the load hides.
 * It spins for the names (a wake-up from a sleep costs as much), then
 * sleeps past SPIN_NS.
 */
#define SPIN_NS 50000000L

struct func_names_job {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state; /* 0 waiting, 1 the names are in b, 2 none are coming */
	struct half b;
};

static long elapsed_ns(const struct timespec *from)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - from->tv_sec) * 1000000000L + (t.tv_nsec - from->tv_nsec);
}

static void *job_run(void *arg)
{
	struct func_names_job *job = arg;
	struct timespec from;
	int state;

	clock_gettime(CLOCK_MONOTONIC, &from);
	while (!(state = __atomic_load_n(&job->state, __ATOMIC_ACQUIRE)) &&
	       elapsed_ns(&from) < SPIN_NS)
		;
	if (!state) {
		pthread_mutex_lock(&job->lock);
		while (!(state = job->state))
			pthread_cond_wait(&job->cond, &job->lock);
		pthread_mutex_unlock(&job->lock);
	}
	if (state == 1)
		half_run(&job->b);
	return NULL;
}

struct func_names_job *func_names__begin(bool demangle)
{
	struct func_names_job *job;

	if (!demangle || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	job = xzalloc(sizeof(*job));
	pthread_mutex_init(&job->lock, NULL);
	pthread_cond_init(&job->cond, NULL);
	if (pthread_create(&job->tid, NULL, job_run, job)) {
		free(job);
		return NULL;
	}
	return job;
}

static void job_free(struct func_names_job *job)
{
	pthread_mutex_destroy(&job->lock);
	pthread_cond_destroy(&job->cond);
	free(job);
}

static void job_join(struct func_names_job *job)
{
	pthread_join(job->tid, NULL);
	job_free(job);
}

/* Hand @job its names (@state 1, b set), or none (2: and it is gone). */
static void job_end(struct func_names_job *job, int state)
{
	pthread_mutex_lock(&job->lock);
	__atomic_store_n(&job->state, state, __ATOMIC_RELEASE);
	pthread_cond_signal(&job->cond);
	pthread_mutex_unlock(&job->lock);
	if (state == 2)
		job_join(job);
}

void func_names__cancel(struct func_names_job *job)
{
	if (job)
		job_end(job, 2);
}

void func_names__show(struct func_names_job *job, const char *const *syms, size_t n,
		      const struct strfilter *filter, bool demangle, struct func_names *out)
{
	struct half a = { .syms = syms, .n = n, .filter = filter, .demangle = demangle }, b = a;
	size_t i = 0, j = 0, o = 0;
	char **v;

	b.first = 1;
	/* a few names: all here */
	if (job && n < THREADED_MIN) {
		func_names__cancel(job);
		job = NULL;
	}
	if (job) {
		job->b = b;
		job_end(job, 1);
	}
	half_run(&a);
	if (job) {
		pthread_join(job->tid, NULL);
		b = job->b;
		job_free(job);
	} else {
		half_run(&b);
	}
	/* merged into a's keys, which the sort is done with: no more memory */
	v = a.names + (a.n / 2 + CHUNK + 1);
	while (i < a.nr && j < b.nr)
		v[o++] = strcmp(b.names[j], a.names[i]) < 0 ? b.names[j++] : a.names[i++];
	while (i < a.nr)
		v[o++] = a.names[i++];
	while (j < b.nr)
		v[o++] = b.names[j++];
	*out = (struct func_names){ .names = v,
				    .nr = o,
				    .maps = { { a.map, a.map_size }, { b.map, b.map_size } } };
}

void func_names__print(const struct func_names *fn, FILE *f)
{
	static char buf[1 << 16];
	size_t used = 0;

	for (size_t i = 0; i < fn->nr; i++) {
		size_t len = strlen(fn->names[i]);

		if (sizeof(buf) - used < len + 1) {
			fwrite_unlocked(buf, 1, used, f);
			used = 0;
		}
		if (len + 1 > sizeof(buf)) {
			fwrite_unlocked(fn->names[i], 1, len, f);
			putc_unlocked('\n', f);
			continue;
		}
		memcpy(buf + used, fn->names[i], len);
		buf[used + len] = '\n';
		used += len + 1;
	}
	fwrite_unlocked(buf, 1, used, f);
}

void func_names__release(struct func_names *fn)
{
	for (int i = 0; i < 2; i++) {
		if (fn->maps[i].size)
			huge_unmap(fn->maps[i].p, fn->maps[i].size);
		else
			free(fn->maps[i].p); /* malloc()'s, or NULL */
	}
	*fn = (struct func_names){ 0 };
}
