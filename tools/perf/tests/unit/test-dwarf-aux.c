// SPDX-License-Identifier: GPL-2.0
/*
 * The generic libdw helpers on this very test program (built with -g):
 * the CU iterators, the CU of an address, the one scopes walk (from a CU
 * and from a function, through an inlined instance), and the name
 * matchers.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/debuginfo.h"
#include "util/dwarf-aux.h"
#include "unit-test.h"

int aux_outer(int a);
volatile int aux_sink;

static inline __attribute__((always_inline)) int aux_inlined(int v)
{
	aux_sink = v;
	return v * 3 + aux_sink;
}

__attribute__((noinline)) int aux_outer(int a)
{
	aux_sink = a;
	return aux_inlined(a + aux_sink) + 1;
}

static struct debuginfo *dbg;

static Dwarf *dw(void)
{
	if (!dbg && debuginfo__new("/proc/self/exe", &dbg))
		return NULL;
	return debuginfo__dwarf(dbg);
}

struct this_cu {
	Dwarf_Die cu;
	int cus, seen;
	bool found;
};

static int find_this_cu(Dwarf_Die *cu, void *arg)
{
	struct this_cu *w = arg;

	w->cus++;
	if (!w->found && source_file_matches(dwarf_diename(cu), "test-dwarf-aux.c")) {
		w->cu = *cu;
		w->found = true;
	}
	return 0;
}

static int stop_at_second(Dwarf_Die *cu, void *arg)
{
	return ++((struct this_cu *)arg)->seen == 2 ? 7 : 0;
}

struct func_find {
	const char *name;
	Dwarf_Die func;
	bool found;
};

static int match_func(Dwarf_Die *func, void *arg)
{
	struct func_find *f = arg;

	if (die_name_match(func, f->name)) {
		f->func = *func;
		f->found = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* The CU of this file and the subprogram aux_outer in it. */
static bool outer_func(Dwarf_Die *cu, Dwarf_Die *func)
{
	struct this_cu w = { 0 };
	struct func_find f = { .name = "aux_outer" };

	if (!dw())
		return false;
	die_for_each_cu(dw(), find_this_cu, &w);
	if (!w.found)
		return false;
	*cu = w.cu;
	dwarf_getfuncs(cu, match_func, &f, 0);
	*func = f.func;
	return f.found;
}

/* The first inlined instance below @die, depth first. */
static bool first_inlined(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child))
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_inlined_subroutine) {
			*out = child;
			return true;
		}
		if (first_inlined(&child, out))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static void test_the_cu_iterator_visits_every_cu_and_stops_on_request(void)
{
	struct this_cu w = { 0 };

	CHECK(dw() != NULL);
	if (!dw())
		return;
	CHECK_INT(die_for_each_cu(dw(), find_this_cu, &w), ==, 0);
	CHECK(w.found);
	CHECK_INT(w.cus, >=, 1);
	if (w.cus >= 2)
		CHECK_INT(die_for_each_cu(dw(), stop_at_second, &w), ==, 7);
}

static int count_file_cu(Dwarf_Die *cu, const char *path, void *arg)
{
	++*(int *)arg;
	return strstr(path, "test-dwarf-aux.c") ? 0 : -1;
}

static void test_the_cus_of_a_file_are_found_by_name_first(void)
{
	int calls = 0;

	if (!dw())
		return;
	CHECK_INT(die_for_each_cu_with_file(dw(), "test-dwarf-aux.c", count_file_cu, &calls), ==,
		  1);
	CHECK_INT(calls, ==, 1);
	calls = 0;
	CHECK_INT(die_for_each_cu_with_file(dw(), "no-such-file.c", count_file_cu, &calls), ==, 0);
	CHECK_INT(calls, ==, 0);
}

static void test_an_address_finds_its_cu_and_function(void)
{
	Dwarf_Die cu, func, got, gotcu;
	Dwarf_Addr entry;

	if (!outer_func(&cu, &func))
		return;
	CHECK(die_func_entry(&func, &entry));
	CHECK_STR(die_func_name(&func), "aux_outer");
	CHECK(die_cu_of_addr(dw(), entry, &gotcu) != NULL);
	CHECK_INT(dwarf_dieoffset(&gotcu), ==, dwarf_dieoffset(&cu));
	CHECK(die_find_subprogram_at(&cu, entry, &got));
	CHECK_INT(dwarf_dieoffset(&got), ==, dwarf_dieoffset(&func));
	CHECK(!die_find_subprogram_at(&cu, 1, &got));
	CHECK(die_in_file(&func, "test-dwarf-aux.c"));
	CHECK(die_in_file(&func, NULL));
	CHECK(!die_in_file(&func, "aux.c"));
}

static void test_one_scopes_walk_from_the_cu_or_from_the_function(void)
{
	Dwarf_Die cu, func, inl, *scopes = NULL;
	Dwarf_Addr addr;
	int n;

	if (!outer_func(&cu, &func))
		return;
	CHECK(first_inlined(&func, &inl));
	if (!die_func_entry(&inl, &addr))
		return;
	CHECK_INT(die_origin_offset(&inl), !=, dwarf_dieoffset(&inl));
	/* From the CU: the inlined instance innermost, the CU last. */
	n = die_scopes(&cu, addr, &scopes);
	CHECK_INT(n, >=, 3);
	CHECK_INT(dwarf_tag(&scopes[0]), ==, DW_TAG_inlined_subroutine);
	CHECK_INT(dwarf_dieoffset(&scopes[n - 1]), ==, dwarf_dieoffset(&cu));
	CHECK_INT(dwarf_dieoffset(&scopes[n - 2]), ==, dwarf_dieoffset(&func));
	free(scopes);
	/* From the function: the same, ending with the function. */
	n = die_scopes(&func, addr, &scopes);
	CHECK_INT(n, >=, 2);
	CHECK_INT(dwarf_tag(&scopes[0]), ==, DW_TAG_inlined_subroutine);
	CHECK_INT(dwarf_dieoffset(&scopes[n - 1]), ==, dwarf_dieoffset(&func));
	free(scopes);
	/* An address outside: only the start. */
	n = die_scopes(&func, 1, &scopes);
	CHECK_INT(n, ==, 1);
	free(scopes);
}

static void test_names_and_paths_match_as_perf_matches_them(void)
{
	Dwarf_Die cu, func;

	CHECK(source_file_matches("/src/a/b.c", "b.c"));
	CHECK(source_file_matches("/src/a/b.c", "a/b.c"));
	CHECK(source_file_matches("b.c", "b.c"));
	CHECK(!source_file_matches("/src/a/xb.c", "b.c"));
	CHECK(!source_file_matches("b.c", "/src/b.c"));
	CHECK(!source_file_matches(NULL, "b.c"));
	CHECK(dwarf_op_is_location(DW_OP_fbreg));
	CHECK(dwarf_op_is_location(DW_OP_breg31));
	CHECK(!dwarf_op_is_location(DW_OP_lit0));
	CHECK_STR(dwarf_reg_name(NULL, 5), "%di");
	CHECK(dwarf_reg_name(NULL, 99) == NULL);
	if (!outer_func(&cu, &func))
		return;
	CHECK(die_name_match(&func, "aux_outer"));
	CHECK(die_name_match(&func, "aux_*"));
	CHECK(die_name_match(&func, "aux_?uter"));
	CHECK(!die_name_match(&func, "aux"));
}

static void test_closing_the_debuginfo_frees_it(void)
{
	debuginfo__delete(dbg);
	dbg = NULL;
	CHECK(aux_outer(1) > 0);
}

TESTS(TEST(test_the_cu_iterator_visits_every_cu_and_stops_on_request),
      TEST(test_the_cus_of_a_file_are_found_by_name_first),
      TEST(test_an_address_finds_its_cu_and_function),
      TEST(test_one_scopes_walk_from_the_cu_or_from_the_function),
      TEST(test_names_and_paths_match_as_perf_matches_them),
      TEST(test_closing_the_debuginfo_frees_it));
