// SPDX-License-Identifier: GPL-2.0
/*
 * The names -F shows: the two threads' merged list is the one demangling,
 * filtering and sorting every name in turn gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit-test.h"
#include "util/demangle.h"
#include "util/func-names.h"
#include "util/strfilter.h"
#include "util/util.h"

#define NR 6000 /* past the threaded minimum */

/* C++ names of several shapes, plain ones, PLT entries, underscores, copies. */
static char **make_syms(void)
{
	char **syms = malloc(sizeof(*syms) * NR);

	for (int i = 0; i < NR; i++) {
		char buf[128];

		switch (i % 6) {
		case 0:
			snprintf(buf, sizeof(buf), "_ZN2ns%dC%d4workEi", i % 10, 100 + i % 900);
			break;
		case 1:
			snprintf(buf, sizeof(buf), "_ZN4shop4Cart5scaleIlEET_S%d_", i % 3);
			break;
		case 2:
			snprintf(buf, sizeof(buf), "plain_%d", i % 1000);
			break;
		case 3:
			snprintf(buf, sizeof(buf), "_ZdlPv@plt");
			break;
		case 4:
			snprintf(buf, sizeof(buf), "_hidden_%d", i);
			break;
		default:
			snprintf(buf, sizeof(buf), "_Znot_mangled_%d", i); /* fails to demangle */
			break;
		}
		syms[i] = strdup(buf);
	}
	return syms;
}

static void check_same_as_one_by_one(char **syms, const struct strfilter *filter, bool demangle)
{
	struct func_names fn;
	char **want = malloc(sizeof(*want) * NR);
	size_t nr = 0;

	for (int i = 0; i < NR; i++) {
		char *name = demangle_display(syms[i], demangle);

		if (strfilter__compare(filter, name))
			want[nr++] = name;
		else
			free(name);
	}
	qsort(want, nr, sizeof(*want), strcmp_ptr);
	func_names__show(func_names__begin(demangle), (const char *const *)syms, NR, filter,
			 demangle, &fn);
	CHECK_INT(fn.nr, ==, nr);
	for (size_t i = 0; i < nr && i < fn.nr; i++)
		CHECK_STR(fn.names[i], want[i]);
	func_names__release(&fn);
	for (size_t i = 0; i < nr; i++)
		free(want[i]);
	free(want);
}

static void test_the_merged_halves_are_the_list_made_one_by_one(void)
{
	struct strfilter *filter = strfilter__new(STRFILTER_DEFAULT_FUNCS, NULL);
	char **syms = make_syms();

	check_same_as_one_by_one(syms, filter, true);
	check_same_as_one_by_one(syms, NULL, true);
	check_same_as_one_by_one(syms, filter, false);
	for (int i = 0; i < NR; i++)
		free(syms[i]);
	free(syms);
	strfilter__delete(filter);
}

static void test_no_symbols_make_an_empty_list(void)
{
	struct func_names fn;

	func_names__show(func_names__begin(true), NULL, 0, NULL, true, &fn);
	CHECK_INT(fn.nr, ==, 0);
	func_names__release(&fn);
}

TESTS(TEST(test_the_merged_halves_are_the_list_made_one_by_one),
      TEST(test_no_symbols_make_an_empty_list));
