// SPDX-License-Identifier: GPL-2.0
/*
 * The strfilter parser: the first line of the input is the rules, each
 * further line a name to compare.
 */
#include "tests/fuzz/fuzz.h"
#include "util/strfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *names, *name, *save = NULL;
	struct strfilter *filter;
	const char *err = NULL;

	names = strchr(text, '\n');
	if (names)
		*names++ = '\0';
	filter = strfilter__new(text, &err);
	if (!filter) {
		/* The error points into the rules, at most at their end. */
		if (err && (err < text || err > text + strlen(text)))
			abort();
		goto out;
	}
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name;
	     name = strtok_r(NULL, "\n", &save))
		strfilter__compare(filter, name);
	strfilter__delete(filter);
out:
	free(text);
	return 0;
}
