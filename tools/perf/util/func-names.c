// SPDX-License-Identifier: GPL-2.0
/* The names -F shows (see func-names.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
	char *buf;    /* the names kept, one after another */
	char **names; /* those, sorted */
	size_t nr;
};

static void *half_run(void *arg)
{
	struct half *h = arg;
	struct strbuf sb = STRBUF_INIT;
	/* offsets into sb first (it may move as it grows), pointers once it is done */
	uintptr_t *at = xmalloc(sizeof(*at) * (h->n / 2 + CHUNK + 1));

	strbuf_grow(&sb, h->n * 24);
	for (size_t c = h->first * CHUNK; c < h->n; c += 2 * CHUNK) {
		for (size_t i = c; i < c + CHUNK && i < h->n; i++) {
			size_t from = sb.len;

			demangle_display_add(&sb, h->syms[i], h->demangle);
			strbuf_addch(&sb, '\0');
			if (strfilter__compare(h->filter, sb.buf + from))
				at[h->nr++] = from;
			else
				strbuf_setlen(&sb, from);
		}
	}
	h->buf = strbuf_detach(&sb, NULL);
	h->names = (char **)at;
	for (size_t i = 0; i < h->nr; i++)
		h->names[i] = h->buf + at[i];
	strings_sort(h->names, h->nr);
	return NULL;
}

void func_names__show(const char *const *syms, size_t n, const struct strfilter *filter,
		      bool demangle, struct func_names *out)
{
	struct half a = { syms, n, 0, filter, demangle, NULL, NULL, 0 }, b = a;
	size_t i = 0, j = 0, o = 0;
	pthread_t tid;
	bool two = demangle && n >= THREADED_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1;
	char **v;

	b.first = 1;
	if (two && pthread_create(&tid, NULL, half_run, &b))
		two = false;
	half_run(&a);
	if (two)
		pthread_join(tid, NULL);
	else
		half_run(&b);
	v = xmalloc(sizeof(*v) * (a.nr + b.nr + 1));
	while (i < a.nr && j < b.nr)
		v[o++] = strcmp(b.names[j], a.names[i]) < 0 ? b.names[j++] : a.names[i++];
	while (i < a.nr)
		v[o++] = a.names[i++];
	while (j < b.nr)
		v[o++] = b.names[j++];
	free(a.names);
	free(b.names);
	*out = (struct func_names){ .names = v, .nr = o, .bufs = { a.buf, b.buf } };
}

void func_names__release(struct func_names *fn)
{
	free(fn->names);
	free(fn->bufs[0]);
	free(fn->bufs[1]);
	*fn = (struct func_names){ 0 };
}
