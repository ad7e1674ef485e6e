// SPDX-License-Identifier: GPL-2.0
/*
 * The trace-event line parser: a line that parses is synthesized again;
 * that text must parse too, and synthesize to itself.
 */
#include "tests/fuzz/fuzz.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_trace_event tev = { 0 }, again = { 0 };
	char *line, *first, *second;

	if (size > 65536)
		return 0;
	line = fuzz_strndup(data, size);
	if (parse_probe_trace_command(line, &tev))
		goto out;
	first = synthesize_probe_trace_command(&tev);
	if (!first)
		goto out;
	if (parse_probe_trace_command(first, &again))
		fuzz_mismatch("a synthesized line does not parse", line, first);
	second = synthesize_probe_trace_command(&again);
	if (!second || strcmp(first, second))
		fuzz_mismatch("a synthesized line does not synthesize to itself", first,
			      second ? second : "(null)");
	free(first);
	free(second);
out:
	clear_probe_trace_event(&tev);
	clear_probe_trace_event(&again);
	free(line);
	return 0;
}
