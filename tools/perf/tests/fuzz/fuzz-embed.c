// SPDX-License-Identifier: GPL-2.0
/*
 * A .perf.probes section as a debuginfod server sends it, through the
 * check a host makes before it keeps anything: the "perf-probes 1 ID"
 * line against the build-id asked for, then the probes file after it.
 * A section that passes has its body where the first line ends and parses
 * again alone to the same entries; one refused says why.
 */
#include "tests/fuzz/fuzz.h"
#include "util/build-id.h"
#include "util/probe-cache.h"
#include "util/probe-embed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_cache *pc = probe_cache__new(), *body_pc = probe_cache__new();
	struct build_id bid;
	const char *body = NULL, *reason = NULL;
	char why[256] = "", *text = fuzz_strndup(data, size);
	int line;

	/* The id of the seeds; any other the input names is refused. */
	if (build_id__from_hex(&bid, "0123456789abcdef0123456789abcdef01234567"))
		abort();
	if (probe_embed__parse(text, size, &bid, pc, &body, why, sizeof(why))) {
		if (!why[0])
			abort();
		goto out;
	}
	if (!body || body < text || body > text + size || body[-1] != '\n' ||
	    memchr(text, '\n', size) != body - 1)
		abort();
	if (probe_cache__parse(body_pc, body, size - (body - text), &line, &reason))
		fuzz_mismatch("an accepted section's body does not parse alone", body, reason);
	if (body_pc->nr != pc->nr)
		fuzz_mismatch("an accepted section's body parses to other entries", body, "");
out:
	free(text);
	probe_cache__close(pc);
	probe_cache__close(body_pc);
	return 0;
}
