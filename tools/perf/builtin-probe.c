// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe: define, list and delete dynamic trace events.  This file parses
 * the command line and picks the mode; util/probe-event.c resolves and
 * applies, util/probe-show.c shows (-l -d -F -V -L), util/probe-cache-cmd.c
 * runs the --cache subcommands (tools/perf/DESIGN.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/probe-cache-cmd.h"
#include "util/probe-embed.h"
#include "util/probe-event.h"
#include "util/probe-show.h"
#include "util/probe-target.h"
#include "util/strbuf.h"
#include "util/strfilter.h"
#include "util/target-ns.h"
#include "util/util.h"

#define DEFAULT_FUNC_FILTER "!_* & !*@plt"

static const char *const probe_usage[] = {
	"perf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"perf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"perf probe [<options>] --del '[GROUP:]EVENT' ...",
	"perf probe --list [GROUP:]EVENT ...",
	"perf probe [<options>] --line 'LINEDESC'",
	"perf probe [<options>] --vars 'PROBEPOINT'",
	"perf probe [<options>] --funcs",
	NULL,
};

#define PROBEDEF_HELP "[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]"
#define ADD_HELP                                               \
	"probe point definition, where\n"                      \
	"\t\tGROUP:\tGroup name (optional)\n"                  \
	"\t\tEVENT:\tEvent name\n"                             \
	"\t\tFUNC:\tFunction name\n"                           \
	"\t\tOFF:\tOffset from function entry (in byte)\n"     \
	"\t\t%return:\tPut the probe at function return\n"     \
	"\t\tSRC:\tSource code path\n"                         \
	"\t\tRL:\tRelative line number from function entry.\n" \
	"\t\tAL:\tAbsolute line number in file.\n"             \
	"\t\tPT:\tLazy expression of line code.\n"             \
	"\t\tARG:\tProbe argument (local variable name or\n"   \
	"\t\t\tkprobe-tracer argument format.)\n"
#define DEFAULT_VAR_FILTER "!__k???tab_* & !__crc_*"

struct probe_params {
	struct str_list add;	      /* -a values: one spec each */
	struct str_list defs;	      /* -D values */
	struct str_list del;	      /* -d values */
	struct str_list vars;	      /* -V values */
	const char *line;	      /* -L, the first one */
	int nlines;		      /* how many -L */
	int list;		      /* -l given */
	struct str_list lists;	      /* -l FILTER values, or'ed */
	int funcs;		      /* -F given */
	struct str_list func_filters; /* -F FILTER, -F (the default), --filter: or'ed */
	const char *filter;	      /* --filter, the last one (for -V) */
	const char *exec;	      /* -x */
	struct str_list execs;	      /* every -x, for --export */
	const char *export_file, *import_file, *embed_file;
	const char *module;    /* -m */
	const char *target_ns; /* --target-ns PID */
	char *ns_exec;	       /* -x as the host reaches it with --target-ns */
	int dry_run, force, cache, no_inlines, externs, range, bootconfig, btf;
	int bare; /* the index in add of the spec of the bare words, or -1 */
};

/* perf parses -a and -D points as options: a bad one is a usage error. */
#define STATUS_USAGE 129

/*
 * Parse every spec before anything is resolved: a bad point stops all.
 * A bad argument word is told later, once its point resolves, as perf.
 */
static int parse_specs(struct str_list *specs, const struct probe_params *p,
		       struct perf_probe_event **pevs_out)
{
	struct perf_probe_event *pevs = xzalloc(specs->nr * sizeof(*pevs));
	/* %REG of a -x file of another architecture: its registers */
	const char *arch = p->exec ? probe_target__file_arch(p->exec) : NULL;
	int ret = 0, i;

	for (i = 0; i < specs->nr && !ret; i++) {
		const struct perf_probe_point *pp = &pevs[i].point;

		pevs[i].arch = arch;
		/* perf's -v lines of a parsed spec */
		pr_debug("probe-definition(%d): %s\n", i, specs->items[i]);
		ret = parse_perf_probe_command_late(specs->items[i], &pevs[i]);
		if (ret)
			continue;
		pr_debug("symbol:%s file:%s line:%d offset:%lu return:%d lazy:%s\n",
			 pp->function ? pp->function : "(null)", pp->file ? pp->file : "(null)",
			 pp->line, pp->offset, pp->retprobe,
			 pp->lazy_line ? pp->lazy_line : "(null)");
		pr_debug("%d arguments\n", pevs[i].nargs);
	}
	if (ret) {
		for (int j = 0; j < i; j++)
			clear_perf_probe_event(&pevs[j]);
		free(pevs);
		return ret;
	}
	*pevs_out = pevs;
	return 0;
}

static void set_targets(struct perf_probe_event *pevs, int n, const struct probe_params *p)
{
	for (int i = 0; i < n; i++) {
		if (p->exec) {
			pevs[i].target = xstrdup(p->exec);
			pevs[i].uprobes = true;
		} else if (p->module) {
			pevs[i].target = xstrdup(p->module);
		}
	}
}

/*
 * A spec of -a or -D that does not parse is a usage error (perf parses
 * them as options); the bare words alone are perf's "Command Parse Error".
 */
static int run_add(struct str_list *specs, const struct probe_params *p, bool definition,
		   const char **failed)
{
	struct perf_probe_event *pevs;
	int ret = parse_specs(specs, p, &pevs);

	if (ret && (definition || p->bare < 0 || specs->nr > 1))
		return STATUS_USAGE;
	if (ret) {
		*failed = "Command Parse Error.";
		return ret;
	}
	set_targets(pevs, specs->nr, p);
	if (quiet) /* nothing at all once the specs parsed, as perf */
		quiet = 2;
	/* Kernel probes from another kernel's vmlinux: refused as by perf
	 * (only --cache -n writes a cache for that kernel, and no tracefs). */
	ret = !definition && !p->exec && !(p->dry_run && p->cache) ? probe_target__check_vmlinux()
								   : 0;
	if (!ret)
		ret = definition ? show_probe_trace_definitions(pevs, specs->nr)
				 : add_perf_probe_events(pevs, specs->nr);
	for (int i = 0; i < specs->nr; i++)
		clear_perf_probe_event(&pevs[i]);
	free(pevs);
	return ret;
}

/* -x: the last one is the target; --export takes them all. */
static int opt_exec(const struct option *opt, const char *arg, int unset)
{
	struct probe_params *p = opt->value;

	p->exec = arg;
	str_list_append(&p->execs, arg);
	return 0;
}

/* -l [FILTER]: every filter given is one more alternative. */
static int opt_list(const struct option *opt, const char *arg, int unset)
{
	struct probe_params *p = opt->value;

	p->list = 1;
	if (arg)
		str_list_append(&p->lists, arg);
	return 0;
}

/* -L: perf takes the first and warns of the others. */
static int opt_line(const struct option *opt, const char *arg, int unset)
{
	struct probe_params *p = opt->value;

	if (!p->nlines++)
		p->line = arg;
	return 0;
}

/* -F [FILTER]: perf or's each filter, the default one for a bare -F. */
static int opt_funcs(const struct option *opt, const char *arg, int unset)
{
	struct probe_params *p = opt->value;

	p->funcs = 1;
	str_list_append(&p->func_filters, arg ? arg : DEFAULT_FUNC_FILTER);
	return 0;
}

/* --filter: the filter of -V, and one more alternative for -F. */
static int opt_filter(const struct option *opt, const char *arg, int unset)
{
	struct probe_params *p = opt->value;

	p->filter = arg;
	str_list_append(&p->func_filters, arg);
	return 0;
}

/* Filters or'ed into one ("(a)|(b)"), NULL for none; free it. */
static char *or_filters(const struct str_list *l)
{
	struct strbuf sb = STRBUF_INIT;

	if (!l->nr)
		return NULL;
	if (l->nr == 1)
		return xstrdup(l->items[0]);
	for (int i = 0; i < l->nr; i++)
		strbuf_addf(&sb, "%s(%s)", i ? "|" : "", l->items[i]);
	return strbuf_detach(&sb, NULL);
}

/*
 * A filter that does not parse is a usage error, as in perf: where and
 * what, then the usage (exit 129).
 */
static bool filter_ok(const char *filter)
{
	const char *err = NULL;
	struct strfilter *sf;
	int pos;

	if (!filter)
		return true;
	sf = strfilter__new(filter, &err);
	if (sf) {
		strfilter__delete(sf);
		return true;
	}
	pos = err ? (int)(err - filter) + 1 : 1;
	pr_err("Filter parse error at %d.\nSource: \"%s\"\n%*s^\n", pos, filter, 8 + pos, "");
	return false;
}

/* 0 stays 0, -errno becomes 256 - errno as perf exits, a status stays. */
static int exit_status(int ret)
{
	if (ret >= 0)
		return ret;
	ret = (256 + ret) & 0xff;
	return ret ? ret : 1;
}

static int run_vars(const struct probe_params *p)
{
	struct perf_probe_event *pevs;
	struct str_list specs = p->vars;
	int ret = parse_specs(&specs, p, &pevs);

	if (ret)
		return STATUS_USAGE;
	set_targets(pevs, specs.nr, p);
	if (quiet)
		quiet = 2;
	ret = show_available_vars(pevs, specs.nr, p->externs, p->range,
				  p->filter ? p->filter : DEFAULT_VAR_FILTER);
	for (int i = 0; i < specs.nr; i++)
		clear_perf_probe_event(&pevs[i]);
	free(pevs);
	return ret;
}

/*
 * perf's last line of a failed mode, with the reason under -v:
 * "  Error: Failed to add events. Reason: No such file or directory (Code: -2)".
 */
static void print_failed(const char *failed, int ret)
{
	if (verbose > 0)
		pr_err("  Error: %s Reason: %s (Code: %d)\n", failed, strerror(-ret), ret);
	else
		pr_err("  Error: %s\n", failed);
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_params p = { .bare = -1 };
	struct strbuf bare = STRBUF_INIT;
	char *list_filter = NULL, *funcs_filter = NULL;
	/* perf's last line when the mode fails */
	const char *failed = NULL;
	int modes, ret = 0;
	const struct option options[] = {
		OPT_STRING_LIST('a', "add", &p.add, PROBEDEF_HELP, ADD_HELP, PARSE_OPT_EXCLUSIVE),
		OPT_STRING_LIST(
			'D', "definition", &p.defs, PROBEDEF_HELP,
			"Show trace event definition of given traceevent for k/uprobe_events.",
			PARSE_OPT_EXCLUSIVE),
		OPT_STRING_LIST('d', "del", &p.del, "[GROUP:]EVENT", "delete a probe event.",
				PARSE_OPT_EXCLUSIVE),
		OPT_STRING_LIST('V', "vars", &p.vars,
				"FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
				"Show accessible variables on PROBEDEF", PARSE_OPT_EXCLUSIVE),
		OPT_BOOLEAN(0, "externs", &p.externs,
			    "Show external variables too (with --vars only)"),
		OPT_BOOLEAN(0, "range", &p.range,
			    "Show variables location range in scope (with --vars only)"),
		OPT_CALLBACK_F('L', "line", &p, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			       "Show source code lines.", opt_line, PARSE_OPT_EXCLUSIVE),
		OPT_BOOLEAN('f', "force", &p.force, "forcibly add events with existing name"),
		OPT_OPTARG_CALLBACK_F('F', "funcs", &p, "[FILTER]",
				      "Show potential probe-able functions.", opt_funcs,
				      PARSE_OPT_EXCLUSIVE),
		OPT_STRING('k', "vmlinux", &probe_conf.vmlinux, "file", "vmlinux pathname"),
		OPT_OPTARG_CALLBACK_F('l', "list", &p, "[GROUP:]EVENT", "list up probe events",
				      opt_list, PARSE_OPT_EXCLUSIVE),
		OPT_STRING('m', "module", &p.module, "modname|path",
			   "target module name (for online) or path (for offline)"),
		OPT_BOOLEAN('n', "dry-run", &p.dry_run, "dry run"),
		OPT_STRING('s', "source", &probe_conf.source, "directory", "path to kernel source"),
		OPT_BOOLEAN('q', "quiet", &quiet,
			    "be quiet (do not show any warnings or messages)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show parsed arguments, etc)"),
		OPT_CALLBACK('x', "exec", &p, "executable|path", "target executable name or path",
			     opt_exec),
		OPT_BOOLEAN(0, "cache", &p.cache, "Manipulate probe cache"),
		OPT_STRING(0, "export", &p.export_file, "file",
			   "Write the probe cache (of the -x binaries) to a bundle (with --cache)"),
		OPT_STRING(
			0, "embed", &p.embed_file, "file",
			"Write the probe cache of the file's build-id into it as a section (with --cache)"),
		OPT_STRING(0, "import", &p.import_file, "file",
			   "Merge a probe-cache bundle into the probe cache (with --cache)"),
		OPT_CALLBACK(0, "filter", &p, "[!]FILTER",
			     "Set a filter (with --vars/funcs only)\n"
			     "\t\t\t(default: \"" DEFAULT_VAR_FILTER "\" for --vars,\n"
			     "\t\t\t \"" DEFAULT_FUNC_FILTER "\" for --funcs)",
			     opt_filter),
		OPT_BOOLEAN(0, "no-inlines", &p.no_inlines, "Don't search inlined functions"),
		OPT_INTEGER(0, "max-probes", &probe_conf.max_probes, "n",
			    "Set how many probe points can be found for a probe."),
		OPT_STRING(0, "symfs", &probe_conf.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN(0, "bootconfig", &p.bootconfig,
			    "Output probe definition with bootconfig format"),
		OPT_BOOLEAN(0, "demangle", &probe_conf.demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &probe_conf.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "btf", &p.btf, "Resolve kernel probes from BTF, not DWARF"),
		OPT_STRING(0, "target-ns", &p.target_ns, "pid",
			   "target pid for namespace contexts"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, probe_usage, 0);
	if (argc < 0) {
		/* -h (-2), or refused: what the options collected is freed all the same */
		ret = argc == -2 ? 0 : 129;
		goto out;
	}
	if (quiet && verbose) {
		pr_err("  Error: -v and -q are exclusive.\n");
		ret = exit_status(-EINVAL);
		goto out;
	}
	if (p.nlines > 1)
		pr_warning(
			"Warning: more than one --line options are detected. Only the first one is valid.\n");
	probe_conf.force_add = p.force;
	probe_conf.dry_run = p.dry_run;
	probe_conf.cache = p.cache;
	probe_conf.no_inlines = p.no_inlines;
	probe_conf.bootconfig = p.bootconfig;
	probe_conf.btf = p.btf;

	/* Bare words form one spec, as `perf probe -x prog func arg1 arg2`;
	 * with another mode that is two modes, as perf says. */
	if (argc > 0) {
		for (int i = 0; i < argc; i++)
			strbuf_addf(&bare, "%s%s", i ? " " : "", argv[i]);
		p.bare = p.add.nr;
		str_list_append(&p.add, bare.buf);
	}

	modes = !!p.add.nr + !!p.defs.nr + !!p.del.nr + !!p.list + !!p.funcs + !!p.vars.nr +
		!!p.line + !!p.export_file + !!p.import_file + !!p.embed_file;
	if (modes > 1 && p.bare == 0) {
		/* Bare words beside another mode than --add, in perf's words. */
		pr_err("  Error: another command except --add is set.\n\n");
		usage_with_options(probe_usage, options);
		ret = 129;
		goto out;
	}
	if (modes > 1) {
		pr_err("  Error: choose one of --add, --definition, --del, --list, --funcs, --vars, --line, --export, --import and --embed\n");
		usage_with_options(probe_usage, options);
		ret = 129;
		goto out;
	}
	if (modes == 0) {
		usage_with_options(probe_usage, options);
		ret = 129;
		goto out;
	}
	if (p.exec && p.module) {
		pr_err("  Error: --exec and --module are exclusive\n");
		ret = 129;
		goto out;
	}
	list_filter = or_filters(&p.lists);
	funcs_filter = or_filters(&p.func_filters);
	if ((p.list && !filter_ok(list_filter)) || (p.funcs && !filter_ok(funcs_filter))) {
		usage_with_options(probe_usage, options);
		ret = 129;
		goto out;
	}
	for (int i = 0; i < p.del.nr; i++) {
		if (!filter_ok(p.del.items[i])) {
			usage_with_options(probe_usage, options);
			ret = 129;
			goto out;
		}
	}
	if (target_ns__set(p.target_ns)) {
		ret = 129;
		goto out;
	}
	/* --target-ns: -x is the container's file, reached through /proc/PID/root. */
	if (p.exec && p.target_ns && !p.export_file && !p.import_file) {
		p.ns_exec = target_ns__realpath(p.exec);
		if (!p.ns_exec) {
			pr_err("Error: target executable %s in the namespace of %s: %s\n", p.exec,
			       p.target_ns, strerror(errno));
			ret = 129;
			goto out;
		}
		p.exec = p.ns_exec;
	}
	/* perf resolves -x when it parses it: a missing file is a usage error. */
	if (p.exec && !p.export_file && !p.import_file && access(p.exec, F_OK)) {
		pr_err("Error: target executable %s: %s\n", p.exec, strerror(errno));
		ret = 129;
		goto out;
	}

	if ((p.export_file || p.import_file || p.embed_file) && !p.cache) {
		pr_err("  Error: --export, --import and --embed work on the probe cache: add --cache\n");
		ret = 129;
	} else if (p.embed_file) {
		ret = probe_embed__write(p.embed_file);
	} else if (p.export_file) {
		ret = export_probe_cache(p.export_file, p.execs.items, p.execs.nr);
	} else if (p.import_file) {
		ret = import_probe_cache(p.import_file);
	} else if (p.list && p.cache) {
		struct perf_probe_event target = { 0 };

		set_targets(&target, 1, &p);
		ret = show_probe_cache(&target, list_filter);
		clear_perf_probe_event(&target);
	} else if (p.del.nr && p.cache) {
		struct perf_probe_event target = { 0 };

		set_targets(&target, 1, &p);
		for (int i = 0; i < p.del.nr && !ret; i++)
			ret = del_probe_cache(&target, p.del.items[i]);
		clear_perf_probe_event(&target);
	} else if (p.vars.nr) {
		failed = "Failed to show vars.";
		ret = run_vars(&p);
	} else if (p.line) {
		failed = "Failed to show lines.";
		if (quiet)
			quiet = 2;
		ret = show_line_range(p.line, p.exec ? p.exec : p.module, p.exec != NULL);
		if (ret == 1) /* a range that does not parse: perf's usage error */
			ret = STATUS_USAGE;
	} else if (p.list) {
		ret = show_perf_probe_events(list_filter, p.exec);
	} else if (p.funcs) {
		failed = "Failed to show functions.";
		if (quiet)
			quiet = 2;
		ret = show_available_funcs(p.exec ? p.exec : p.module, p.exec != NULL,
					   funcs_filter);
	} else if (p.del.nr) {
		failed = "Failed to delete events.";
		if (quiet)
			quiet = 2;
		ret = del_perf_probe_events(p.del.items, p.del.nr);
		if (ret == -EBUSY) /* perf 6.1 exits 254 for an enabled event too */
			ret = -ENOENT;
	} else if (p.defs.nr && p.bootconfig && p.exec) {
		/* Boot-time probes are kprobes: perf refuses, exit 234. */
		pr_err("  Error: --bootconfig doesn't support uprobes.\n");
		ret = -EINVAL;
	} else if (p.defs.nr) {
		failed = "Failed to add events.";
		ret = run_add(&p.defs, &p, true, &failed);
	} else {
		failed = "Failed to add events.";
		ret = run_add(&p.add, &p, false, &failed);
	}
	if (ret == STATUS_USAGE)
		usage_with_options(probe_usage, options);
	else if (ret < 0 && failed)
		print_failed(failed, ret);
	ret = exit_status(ret);
out:
	strbuf_release(&bare);
	free(list_filter);
	free(funcs_filter);
	str_list_clear(&p.lists);
	str_list_clear(&p.func_filters);
	str_list_clear(&p.add);
	str_list_clear(&p.defs);
	str_list_clear(&p.del);
	str_list_clear(&p.execs);
	free(p.ns_exec);
	str_list_clear(&p.vars);
	return ret;
}
