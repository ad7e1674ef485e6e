// SPDX-License-Identifier: GPL-2.0
/*
 * The probe-spec parser: the input is one -a/-D definition, and also one
 * argument word.  A spec that parses is synthesized back to text.
 */
#include "tests/fuzz/fuzz.h"
#include "util/probe-event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_probe_event pev = { 0 };
	struct perf_probe_arg pa = { 0 };
	char *cmd, *text;

	if (size > 2 * PROBE_SPEC_MAX_LEN)
		return 0;
	cmd = fuzz_strndup(data, size);
	if (!parse_perf_probe_command(cmd, &pev)) {
		text = synthesize_perf_probe_command(&pev);
		free(text);
	}
	clear_perf_probe_event(&pev);
	parse_perf_probe_arg(cmd, &pa);
	clear_perf_probe_arg(&pa);
	free(cmd);
	return 0;
}
