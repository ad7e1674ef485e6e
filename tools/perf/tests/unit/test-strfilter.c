// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <stdlib.h>

#include "tests/unit/unit-test.h"
#include "util/strfilter.h"

static bool passes(const char *rules, const char *name)
{
	struct strfilter *f = strfilter__new(rules, NULL);
	bool ret;

	if (!f)
		return false;
	ret = strfilter__compare(f, name);
	strfilter__delete(f);
	return ret;
}

static void test_a_glob_matches_like_fnmatch(void)
{
	CHECK(passes("w*", "work"));
	CHECK(!passes("w*", "main"));
	CHECK(passes("ma?n", "main"));
	CHECK(passes("[a-m]ain", "main"));
}

static void test_word_globs_match_as_fnmatch_does(void)
{
	static const char *const globs[] = { "main", "ma*", "*in",  "*ai*", "*",
					     "**",   "m*n", "a\\*", "*\\*", "ma[i]n" };
	static const char *const names[] = { "main", "ma",   "in",   "xmainx", "",
					     "a*",   "a\\x", "maim", "m" };

	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		for (size_t j = 0; j < sizeof(names) / sizeof(names[0]); j++)
			CHECK_INT(passes(globs[i], names[j]), ==, !fnmatch(globs[i], names[j], 0));
	}
}

static void test_the_default_funcs_filter_hides_underscores_and_plt(void)
{
	CHECK(passes(STRFILTER_DEFAULT_FUNCS, "main"));
	CHECK(!passes(STRFILTER_DEFAULT_FUNCS, "_start"));
	CHECK(!passes(STRFILTER_DEFAULT_FUNCS, "__libc_malloc"));
	CHECK(!passes(STRFILTER_DEFAULT_FUNCS, "printf@plt"));
}

static void test_and_binds_tighter_than_or(void)
{
	/* a* | b* & *z  ==  a* | (b* & *z) */
	CHECK(passes("a* | b* & *z", "apple"));
	CHECK(!passes("a* | b* & *z", "bar"));
	CHECK(passes("a* | b* & *z", "baz"));
}

static void test_parentheses_group_rules(void)
{
	CHECK(passes("(w*|m*)&!main", "work"));
	CHECK(!passes("(w*|m*)&!main", "main"));
	CHECK(!passes("(w*|m*)&!main", "helper"));
	CHECK(passes("!(a*|b*)", "cat"));
	CHECK(!passes("!(a*|b*)", "bat"));
}

static void test_double_negation_and_blanks(void)
{
	CHECK(passes("  !  ! foo  ", "foo"));
	CHECK(passes("!foo* & *bar", "fizzbar"));
	CHECK(!passes("!foo* & *bar", "foobar"));
}

static void test_a_null_filter_passes_everything(void)
{
	CHECK(strfilter__compare(NULL, "anything"));
}

static void test_syntax_errors_point_at_the_offending_character(void)
{
	static const struct {
		const char *rules;
		int pos;
	} bad[] = {
		{ "", 0 },    { "a &", 3 }, { "(a|b", 4 }, { "a)", 1 },
		{ "| a", 0 }, { "!", 1 },   { "a b", 2 },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *err = NULL;
		struct strfilter *f = strfilter__new(bad[i].rules, &err);

		CHECK(f == NULL);
		strfilter__delete(f);
		CHECK(err != NULL);
		if (err)
			CHECK_INT(err - bad[i].rules, ==, bad[i].pos);
	}
}

TESTS(TEST(test_a_glob_matches_like_fnmatch), TEST(test_word_globs_match_as_fnmatch_does),
      TEST(test_the_default_funcs_filter_hides_underscores_and_plt),
      TEST(test_and_binds_tighter_than_or), TEST(test_parentheses_group_rules),
      TEST(test_double_negation_and_blanks), TEST(test_a_null_filter_passes_everything),
      TEST(test_syntax_errors_point_at_the_offending_character));
