// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF finder driven by an ELF image with debug sections: the file is
 * opened as perf opens a -x binary (libdwfl, debuginfo.c), its functions
 * are listed, and for the first few the finder resolves "FUNC $vars",
 * "FUNC:1", "FUNC%return $retval" and "FUNC;*" (probe-finder.c), -V shows
 * their variables with ranges, -L their lines and -l names their entries
 * (probe-finder-show.c).  Sources are read from tests/workloads only.
 */
#include <elfutils/libdw.h>

#include "tests/fuzz/fuzz.h"
#include "util/debuginfo.h"
#include "util/probe-finder-show.h"
#include "util/probe-finder.h"
#include "util/probe-spec.h"
#include "util/strbuf.h"
#include "util/symbol-elf.h"

static int global_offset(void *ctx, uint64_t vaddr, uint64_t *offset)
{
	return symbol_elf__vaddr_to_offset(ctx, vaddr, offset);
}

static void find(struct debuginfo *dbg, const char *path, const char *spec, bool show,
		 struct probe_finder_opts *opts)
{
	struct perf_probe_event pev = { 0 };
	struct probe_trace_event *tevs = NULL;
	int n;

	if (parse_perf_probe_command(spec, &pev))
		goto out;
	pev.uprobes = true;
	pev.target = strdup(path);
	n = debuginfo__find_trace_events(dbg, &pev, opts, &tevs);
	for (int i = 0; i < n; i++)
		clear_probe_trace_event(&tevs[i]);
	free(tevs);
	if (show)
		debuginfo__show_vars(dbg, &pev, opts, true, true, NULL);
out:
	clear_perf_probe_event(&pev);
}

static void probe_functions(struct debuginfo *dbg, const char *path, struct symbol_elf *layout)
{
	struct probe_finder_opts opts = { .max_probes = 8, .quiet_missing = true };
	struct func_list fl = { 0 };

	if (layout) {
		opts.global_offset = global_offset;
		opts.ctx = layout;
	}
	probe_finder__find_functions(dbg, "*", NULL, false, &fl);
	for (int i = 0; i < fl.nr && i < 3; i++) {
		const char *name = dwarf_diename(&fl.f[i].die);
		struct strbuf spec = STRBUF_INIT;
		Dwarf_Addr entry;
		char *where;

		if (!name || !is_c_func_name(name))
			continue;
		find(dbg, path, name, true, &opts);
		strbuf_addf(&spec, "%s:1", name);
		find(dbg, path, spec.buf, false, &opts);
		strbuf_reset(&spec);
		strbuf_addf(&spec, "%s%%return $retval", name);
		find(dbg, path, spec.buf, false, &opts);
		strbuf_reset(&spec);
		strbuf_addf(&spec, "%s;*", name);
		find(dbg, path, spec.buf, false, &opts);
		strbuf_release(&spec);
		debuginfo__show_lines(dbg, name, NULL, 0, -1);
		if (!dwarf_entrypc(&fl.f[i].die, &entry)) {
			where = debuginfo__probe_point_name(dbg, entry);
			free(where);
		}
	}
	func_list__clear(&fl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool once;
	struct symbol_elf *layout = NULL;
	struct debuginfo *dbg = NULL;
	char path[32];
	int fd;

	if (!once) {
		/* -V and -L print to stdout; never ask a debuginfod server. */
		once = freopen("/dev/null", "w", stdout) != NULL;
		unsetenv("DEBUGINFOD_URLS");
	}
	if (size > (1 << 20))
		return 0;
	fd = fuzz_memfd(data, size, path);
	if (!debuginfo__new(path, &dbg)) {
		debuginfo__set_source_dir(dbg, "tools/perf/tests/workloads");
		if (symbol_elf__load_layout(path, &layout))
			layout = NULL;
		probe_functions(dbg, path, layout);
		symbol_elf__delete(layout);
		debuginfo__delete(dbg);
	}
	close(fd);
	return 0;
}
