// SPDX-License-Identifier: GPL-2.0
/*
 * The probe cache file parser: a file that parses is formatted again; that
 * text must parse too, and format to itself.  The trace-event lines of its
 * entries then go through the parser a cached add uses.
 */
#include "tests/fuzz/fuzz.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/probe-cache.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_cache *pc = probe_cache__new(), *again = probe_cache__new();
	struct strbuf first = STRBUF_INIT, second = STRBUF_INIT;
	const char *why = NULL;
	int bad_line = -1;

	if (probe_cache__parse(pc, (const char *)data, size, &bad_line, &why)) {
		if (!why || bad_line <= 0)
			abort();
		goto out;
	}
	probe_cache__format(pc, &first);
	if (probe_cache__parse(again, first.buf ? first.buf : "", first.len, &bad_line, &why))
		fuzz_mismatch("a formatted cache does not parse", first.buf, why);
	probe_cache__format(again, &second);
	if (first.len != second.len || memcmp(first.buf, second.buf, first.len))
		fuzz_mismatch("a formatted cache does not format to itself", first.buf, second.buf);
	for (int i = 0; i < pc->nr; i++) {
		for (int j = 0; j < pc->entries[i].nr_lines; j++) {
			struct probe_trace_event tev = { 0 };

			parse_probe_trace_command(pc->entries[i].lines[j], &tev);
			clear_probe_trace_event(&tev);
		}
	}
out:
	strbuf_release(&first);
	strbuf_release(&second);
	probe_cache__close(pc);
	probe_cache__close(again);
	return 0;
}
