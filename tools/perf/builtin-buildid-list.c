// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-list: the build-id of an ELF file (-i), of the running kernel
 * (-k), or of the kernel and its loaded modules (-m).
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const buildid_list_usage[] = {
	"perf buildid-list [<options>]",
	NULL,
};

static void print_build_id(const struct build_id *bid, const char *name)
{
	char sbid[SBUILD_ID_SIZE];

	build_id__sprintf(bid, sbid);
	if (name)
		printf("%s %s\n", sbid, name);
	else
		printf("%s\n", sbid);
}

static int list_kernel_and_modules(void)
{
	struct build_id bid;
	char **mods;
	int nr, ret = kernel__read_build_id(&bid);

	if (ret) {
		pr_err("Couldn't read the kernel's build-id: %s\n", build_id__strerror(ret));
		return 1;
	}
	print_build_id(&bid, KERNEL_CACHE_NAME);
	nr = lsdir("/sys/module", NULL, &mods);
	for (int i = 0; i < nr; i++) {
		char name[512];

		if (module__read_build_id(mods[i], &bid))
			continue;
		snprintf(name, sizeof(name), "[%s]", mods[i]);
		print_build_id(&bid, name);
	}
	if (nr > 0)
		lsdir_free(mods, nr);
	return 0;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = NULL;
	int kernel = 0, kernel_maps = 0, force = 0, with_hits = 0, ret;
	struct build_id bid;
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		/* an ELF file or the kernel is its own only DSO, hit or not */
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_BOOLEAN('m', "kernel-maps", &kernel_maps,
			    "Show build id of current kernel + modules"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, buildid_list_usage, PARSE_OPT_NO_ARGS);
	if (argc < 0)
		return argc == -2 ? 0 : 129;
	if (kernel_maps)
		return list_kernel_and_modules();
	if (kernel) {
		ret = kernel__read_build_id(&bid);
		if (ret) {
			pr_err("Couldn't read the kernel's build-id: %s\n",
			       build_id__strerror(ret));
			return 1;
		}
		print_build_id(&bid, NULL);
		return 0;
	}
	if (!input) {
		pr_err("perf.data files are not supported: name an ELF file with -i, or use -k or -m\n");
		return 1;
	}
	ret = filename__read_build_id(input, &bid);
	if (ret) {
		pr_err("Couldn't read a build-id in %s: %s\n", input, build_id__strerror(ret));
		return 1;
	}
	print_build_id(&bid, NULL);
	return 0;
}
