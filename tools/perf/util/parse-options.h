/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PARSE_OPTIONS_H
#define PERF_UTIL_PARSE_OPTIONS_H

/*
 * Command-line options in perf's (and git's) style: a table of struct option
 * ending with OPT_END(), short and long names, `--name=value`, `--name value`,
 * `-nvalue`, bundled short flags, `--no-name` for booleans, unique prefixes of
 * long names, and `--` to end the options.
 */

enum parse_opt_type {
	OPTION_END,
	OPTION_BOOLEAN,	    /* int *: set to 1, or 0 with --no- */
	OPTION_INCR,	    /* int *: incremented each time */
	OPTION_STRING,	    /* const char **: last value wins */
	OPTION_STRING_LIST, /* struct str_list *: every value, comma-split if asked */
	OPTION_INTEGER,	    /* int * */
	OPTION_OPTARG,	    /* const char **: optional value, defval without one;
			     * with a callback: callback(opt, value or NULL, unset) */
	OPTION_CALLBACK,    /* callback(opt, arg, unset) */
};

/* Flags of one option. */
#define PARSE_OPT_SPLIT_COMMA 1 /* OPTION_STRING_LIST: "a,b" is two values */
#define PARSE_OPT_OPTARG_NEXT 2 /* OPTION_OPTARG: a next word not starting with '-' is the value */
#define PARSE_OPT_EXCLUSIVE 4	/* a mode: another such option after it is refused, as perf */

/* Flags of parse_options(). */
#define PARSE_OPT_STOP_AT_NON_OPTION 1 /* the first non-option ends the options */
#define PARSE_OPT_NO_ARGS 2	       /* a non-option argument is an error */

/* A list of strings gathered from the command line; items point into argv. */
struct str_list {
	const char **items;
	int nr;
};
void str_list_append(struct str_list *list, const char *s);
void str_list_clear(struct str_list *list);

struct option;
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb *callback;
	const char *defval;
};

#define OPT_END()                  \
	{                          \
		.type = OPTION_END \
	}
/*
 * The value of an OPT_BOOLEAN, OPT_INCR or OPT_INTEGER is an int: anything
 * else (a bool, which is one byte) is refused by the compiler, not
 * overwritten by four bytes at run time.
 */
#define OPT_INT_PTR(v) (1 ? (v) : (int *)0)

#define OPT_BOOLEAN(s, l, v, h)                                              \
	{                                                                    \
		.type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), \
		.value = OPT_INT_PTR(v), .help = (h)                         \
	}
#define OPT_INCR(s, l, v, h)                                                                       \
	{                                                                                          \
		.type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = OPT_INT_PTR(v), \
		.help = (h)                                                                        \
	}
#define OPT_STRING(s, l, v, a, h)                                                         \
	{                                                                                 \
		.type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                  \
	}
#define OPT_STRING_LIST(s, l, v, a, h, f)                                                      \
	{                                                                                      \
		.type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .flags = (f)                                         \
	}
#define OPT_INTEGER(s, l, v, a, h)                                           \
	{                                                                    \
		.type = OPTION_INTEGER, .short_name = (s), .long_name = (l), \
		.value = OPT_INT_PTR(v), .argh = (a), .help = (h)            \
	}
#define OPT_OPTARG(s, l, v, a, h, d)                                                      \
	{                                                                                 \
		.type = OPTION_OPTARG, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .defval = (d)                                   \
	}
#define OPT_OPTARG_CALLBACK_F(s, l, v, a, h, cb, f)                                              \
	{                                                                                        \
		.type = OPTION_OPTARG, .short_name = (s), .long_name = (l), .value = (v),        \
		.argh = (a), .help = (h), .callback = (cb), .flags = PARSE_OPT_OPTARG_NEXT | (f) \
	}
#define OPT_OPTARG_CALLBACK(s, l, v, a, h, cb) OPT_OPTARG_CALLBACK_F(s, l, v, a, h, cb, 0)
#define OPT_CALLBACK_F(s, l, v, a, h, cb, f)                                                \
	{                                                                                   \
		.type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .callback = (cb), .flags = (f)                    \
	}
#define OPT_CALLBACK(s, l, v, a, h, cb) OPT_CALLBACK_F(s, l, v, a, h, cb, 0)

/*
 * Parse argv[1..argc-1] against @options.  Non-option arguments are kept, in
 * order, at the front of argv; their count is returned.  On a bad option the
 * error and the usage are printed to stderr and -1 is returned (perf exits
 * with 129 then).  `-h`/`--help` prints the usage to stdout and returns -2.
 */
/*
 * `--help` (not `-h`) calls this, when set, with the command's name (the
 * word after "perf " in usage[0]): it opens the command's manual and returns
 * only when it cannot; the usage is printed then, as for `-h`.
 * `--list-opts` prints the long options on one line (for shell completion)
 * and returns -2 too.
 */
extern void (*parse_options_manual)(const char *cmd);

int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usage[], int flags);

/* Print the usage lines and the option table (sorted as perf sorts it) to stderr. */
void usage_with_options(const char *const usage[], const struct option *options);

#endif
