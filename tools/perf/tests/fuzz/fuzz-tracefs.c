// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs's README and error_log parsers (tracefs.c).  The input is a
 * README (searched for the features perf asks about; the search leaves
 * the text as it was), then, after a NUL, an error_log before and, after
 * another NUL, one after a command: the reason found is one line of it.
 */
#include "tests/fuzz/fuzz.h"
#include "util/strbuf.h"
#include "util/tracefs.h"

static const char *const patterns[] = {
	"*place (uprobe):*(ref_ctr_offset)*", "*x8/16/32/64*", "*char*", "*u]<offset>*", "*[!a-z]*",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf readme = STRBUF_INIT, before = STRBUF_INIT, after = STRBUF_INIT;
	struct strbuf reason = STRBUF_INIT;
	const char *end = (const char *)data + size, *p = (const char *)data, *nul;
	char *copy;

	if (size > 65536)
		return 0;
	nul = memchr(p, '\0', end - p);
	strbuf_add(&readme, p, (nul ? nul : end) - p);
	copy = strdup(readme.buf);
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (tracefs__readme_text_has(&readme, patterns[i]) < 0)
			abort();
	if (strcmp(copy, readme.buf))
		fuzz_mismatch("the README search changed the text", copy, readme.buf);
	free(copy);
	if (nul) {
		p = nul + 1;
		nul = memchr(p, '\0', end - p);
		strbuf_add(&before, p, (nul ? nul : end) - p);
		if (nul)
			strbuf_add(&after, nul + 1, end - nul - 1);
		tracefs__error_log_diff(&before, &after, &reason);
		if (strchr(reason.buf, '\n') || (reason.len && !strstr(after.buf, reason.buf)))
			abort();
	}
	strbuf_release(&readme);
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&reason);
	return 0;
}
