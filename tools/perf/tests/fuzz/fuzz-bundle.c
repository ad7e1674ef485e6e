// SPDX-License-Identifier: GPL-2.0
/*
 * The probe-cache bundle reader: any input is refused with a reason or
 * decoded; a decoded bundle encodes again and decodes to the same entries.
 */
#include "tests/fuzz/fuzz.h"
#include "util/probe-bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT, again = STRBUF_INIT;
	struct probe_bundle b, c;

	if (probe_bundle__decode(data, size, &b, &why)) {
		if (!why.len)
			abort(); /* a refusal always says why */
		strbuf_release(&why);
		return 0;
	}
	if (probe_bundle__encode(&b, &again) ||
	    probe_bundle__decode(again.buf, again.len, &c, &why) || c.nr != b.nr)
		abort();
	for (int i = 0; i < b.nr; i++)
		if (strcmp(b.entries[i].name, c.entries[i].name) ||
		    b.entries[i].probes_len != c.entries[i].probes_len ||
		    memcmp(b.entries[i].probes, c.entries[i].probes, b.entries[i].probes_len))
			abort();
	probe_bundle__clear(&b);
	probe_bundle__clear(&c);
	strbuf_release(&why);
	strbuf_release(&again);
	return 0;
}
