// SPDX-License-Identifier: GPL-2.0
/*
 * The SDT argument parser: each input line is one marker argument
 * ("-4@%edi", "8@-16(%rbp)" ...).  A converted argument must be a fetcharg
 * the trace-event parser takes back: "p:g/e /x:0x1 arg1=FETCHARG".  The
 * same bytes also go through the note parser as a .note.stapsdt section.
 */
#include "tests/fuzz/fuzz.h"
#include "util/arch-regs.h"
#include "util/probe-spec.h"
#include "util/probe-trace.h"
#include "util/sdt-arg.h"
#include "util/sdt-note.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *line, *save = NULL;
	struct sdt_note *notes;
	int nr;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct strbuf fa = STRBUF_INIT, cmd = STRBUF_INIT;

		if (sdt_arg__to_fetcharg(line, &fa) == 1) {
			struct probe_trace_event tev = { 0 };

			const char *reg = strchr(fa.buf, '%');
			char name[16] = "";

			/* perf keeps register names it does not know; a known one
			 * must give a fetcharg the trace-event grammar takes. */
			if (reg)
				sscanf(reg + 1, "%15[a-z0-9]", name);
			strbuf_addf(&cmd, "p:g/e /x:0x1 arg1=%s", fa.buf);
			if (parse_probe_trace_command(cmd.buf, &tev) &&
			    arch_regs__is_valid(arch_regs__host_arch(), name))
				abort();
			clear_probe_trace_event(&tev);
		}
		strbuf_release(&fa);
		strbuf_release(&cmd);
	}
	free(text);
	for (int variant = 0; variant < 4; variant++) {
		nr = sdt_notes__parse(data, size, variant & 1, variant & 2, 4, &notes, NULL);
		if (nr > 0)
			sdt_notes__free(notes, nr);
	}
	return 0;
}
