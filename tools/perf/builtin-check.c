// SPDX-License-Identifier: GPL-2.0
/*
 * perf check feature NAME[,NAME...]: whether this perf was built with a
 * feature, in perf 6.12's words and statuses (0: all on, 1: one is off or
 * unknown), for the features of the commands implemented here.  A perf
 * older than 6.12 behind this one would not know the command at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/parse-options.h"
#include "util/util.h"

struct feature {
	const char *name, *macro;
	bool on;
};

/* perf's names; what probe, buildid-*, list and trace here are built with */
static const struct feature features[] = {
	{ "bpf", "HAVE_LIBBPF_SUPPORT", true }, /* BTF, loaded on first use */
	{ "debuginfod", "HAVE_DEBUGINFOD_SUPPORT", true },
	{ "dwarf", "HAVE_DWARF_SUPPORT", true },
	{ "dwarf_getlocations", "HAVE_DWARF_GETLOCATIONS_SUPPORT", true },
	{ "libcapstone", "HAVE_LIBCAPSTONE_SUPPORT", true },
	{ "libdw-dwarf-unwind", "HAVE_DWARF_SUPPORT", true },
	{ "libelf", "HAVE_LIBELF_SUPPORT", true },
	{ "libtraceevent", "HAVE_LIBTRACEEVENT", true },
	{ "lzma", "HAVE_LZMA_SUPPORT", true },
	{ "zlib", "HAVE_ZLIB_SUPPORT", true },
	/* the system perf's (record, report, script...), not ours */
	{ "aio", "HAVE_AIO_SUPPORT", false },
	{ "auxtrace", "HAVE_AUXTRACE_SUPPORT", false },
	{ "bpf_skeletons", "HAVE_BPF_SKEL", false },
	{ "dwarf-unwind", "HAVE_DWARF_UNWIND_SUPPORT", false },
	{ "libaudit", "HAVE_LIBAUDIT_SUPPORT", false },
	{ "libbfd", "HAVE_LIBBFD_SUPPORT", false },
	{ "libcrypto", "HAVE_LIBCRYPTO_SUPPORT", false },
	{ "libnuma", "HAVE_LIBNUMA_SUPPORT", false },
	{ "libopencsd", "HAVE_CSTRACE_SUPPORT", false },
	{ "libperl", "HAVE_LIBPERL_SUPPORT", false },
	{ "libpfm4", "HAVE_LIBPFM", false },
	{ "libpython", "HAVE_LIBPYTHON_SUPPORT", false },
	{ "libslang", "HAVE_SLANG_SUPPORT", false },
	{ "libunwind", "HAVE_LIBUNWIND_SUPPORT", false },
	{ "numa_num_possible_cpus", "HAVE_LIBNUMA_SUPPORT", false },
	{ "syscall_table", "HAVE_SYSCALL_TABLE_SUPPORT", false },
	{ "zstd", "HAVE_ZSTD_SUPPORT", false },
};

static const char *const check_usage[] = {
	"perf check [<options>] {feature}",
	NULL,
};

static const char *const feature_usage[] = {
	"perf check feature <feature_list>",
	NULL,
};

/* One NAME: its line unless @quiet; 1 when it is off or unknown. */
static int check_one(const char *name, int quiet)
{
	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		const struct feature *f = &features[i];

		if (strcmp(name, f->name))
			continue;
		if (!quiet)
			printf("%22s: [ %s ]  # %s\n", f->name, f->on ? "on " : "OFF", f->macro);
		return f->on ? 0 : 1;
	}
	if (!quiet)
		printf("Unknown feature '%s', please use 'perf version --build-options' to see which ones are available.\n",
		       name);
	return 1;
}

int cmd_check(int argc, const char **argv)
{
	int quiet = 0, ret = 0;
	const struct option options[] = {
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_END(),
	};
	char *list, *save = NULL;

	argc = parse_options(argc, argv, options, check_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return argc == -2 ? 0 : 129;
	if (argc < 1 || strcmp(argv[0], "feature")) {
		usage_with_options(check_usage, options);
		return 129;
	}
	if (argc > 2) {
		fprintf(stderr, "Too many arguments passed to 'perf check feature'\n");
		return 255;
	}
	if (argc != 2) {
		usage_with_options(feature_usage, options);
		return 129;
	}
	list = xstrdup(argv[1]);
	for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		ret |= check_one(name, quiet);
	free(list);
	return ret;
}
