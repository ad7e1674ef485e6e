/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DEMANGLE_H
#define PERF_UTIL_DEMANGLE_H

/*
 * Source-level names of functions: C++ and Rust symbols demangled by
 * libiberty (cplus_demangle(): Itanium C++, Rust legacy "_ZN...17h<hash>E"
 * and v0 "_R..."), Go symbols as they are ("main.(*Server).poll"), and
 * the matching of a name a user wrote against a symbol.
 *
 * Owns: the two demangled forms of a symbol, the name pattern rule, and
 * turning a source name into identifier characters.
 * May call: strbuf, alloc.
 */

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * The demangled name of @sym, a new string, or NULL when @sym is not a
 * mangled name.  With @params the C++ parameter list (and a template's
 * return type) as the demangler writes them: "shop::Cart::add(int, int)";
 * without, the name perf lists: "shop::Cart::add", "shop::Cart::scale<long>".
 * A Rust legacy name never shows its hash: "app::server::handle".
 */
char *demangle_sym(const char *sym, bool params);

/*
 * The name to show for symbol @sym: demangled without parameters when
 * @demangle and it is mangled, else @sym itself; a new string.  An "@plt"
 * suffix is kept: "operator delete@plt".
 */
char *demangle_display(const char *sym, bool demangle);

/* The same appended to @sb, with no string of its own. */
void demangle_display_add(struct strbuf *sb, const char *sym, bool demangle);

/* Is @pattern a glob (one of "*?[")? */
bool demangle_is_glob(const char *pattern);

/*
 * Does the function name @pattern mean symbol @sym?  Either @sym itself
 * (equal, or a match of the glob), or its demangled name: without a
 * parameter list in @pattern the name alone (every overload), with one the
 * full signature, blanks normalised ("add(int,int)" = "add(int, int)").
 */
bool demangle_match(const char *pattern, const char *sym);

/*
 * Does @pattern name a function by its source-level spelling, which only
 * the demangled name can match ("::", a parameter list or template
 * arguments)?
 */
bool demangle_is_source_name(const char *pattern);

/*
 * @name with blanks dropped except between two identifier characters
 * ("unsigned int" keeps its one blank); a new string.
 */
char *demangle_normalize(const char *name);

/*
 * Append @name as identifier characters to @out (at most @max of them):
 * every run of other characters becomes one '_', none at either end
 * ("shop::Cart::add" -> "shop_Cart_add", "main.(*Server).poll" ->
 * "main_Server_poll"), a name starting with a digit gets '_' first.  A
 * longer result is cut and ends in '_' and 8 hex digits of a hash of all
 * of @name.  Names of identifier characters only are kept as they are.
 */
void demangle_to_ident(struct strbuf *out, const char *name, size_t max);

/*
 * The own name of a source-level name, its last component after the last
 * "::" outside <...> and (...), when that is an identifier: "depth" of
 * "shop::deep::inner::depth", "greet" of "<a::Plain as a::Greeter>::greet";
 * NULL for "a::largest<f64>" or "a::main::{closure#0}".  Points into @name.
 */
const char *demangle_own_name(const char *name);

/*
 * Cut the parameter list (and a " const" after it) off the C++ signature
 * @name in place: "shop::Cart::add(int)" -> "shop::Cart::add".  A name
 * not ending in one is kept ("main.(*Server).poll").
 */
void demangle_strip_params(char *name);

/*
 * The length of the point word at @s: up to a blank outside "...", (...)
 * and <...>, so that "(anonymous namespace)::helper" and
 * "shop::Cart::add(int, int)" are one word.  An unbalanced quote or
 * parenthesis takes the rest (demangle_scan_name() refuses it).
 */
size_t demangle_word_len(const char *s);

/*
 * The function name at @p of a probe point, up to the first '@', ':',
 * '+', '%' or ';' that is not part of it, appended to @name unescaped.
 * Part of the name are: a quoted "NAME" whole, an escaped character
 * ("\\:"), a "::", everything inside (...) and <...> (C++ signatures and
 * templates, Go's "(*Server)").  *@source tells that the name is a
 * source-level one (one of those was seen).  Returns the length of the
 * name in @p, or DEMANGLE_SCAN_QUOTE (an unbalanced quote),
 * DEMANGLE_SCAN_PAREN (parenthesis).  A '\\' at the end is a character of
 * the name (not a valid one).
 */
#define DEMANGLE_SCAN_QUOTE (-1)
#define DEMANGLE_SCAN_PAREN (-2)
int demangle_scan_name(const char *p, struct strbuf *name, bool *source);

/*
 * Append function name @name to @sb in a form demangle_scan_name() reads
 * back whole, as a source-level name: as it is when it is one
 * ("shop::Cart::add"), else quoted ("\"a@b\""), else with every other
 * character than letters and digits escaped.
 */
void demangle_quote_name(struct strbuf *sb, const char *name);

#endif
