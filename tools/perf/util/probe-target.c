// SPDX-License-Identifier: GPL-2.0
/*
 * The binary or kernel one command is about (see probe-target.h): its
 * path or module, symbols, layout, build-id, its build-id cache entry and
 * probe cache, and the one way every command opens its debuginfo.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/arch-regs.h"
#include "util/btf.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/debuginfo.h"
#include "util/dwarf-aux.h"
#include "util/elf-util.h"
#include "util/insn.h"
#include "util/probe-cache.h"
#include "util/probe-embed.h"
#include "util/probe-target.h"
#include "util/probe-verify.h"
#include "util/strbuf.h"
#include "util/symbol-dyn.h"
#include "util/symbol-elf.h"
#include "util/tracefs.h"
#include "util/target-ns.h"
#include "util/tracefs.h"
#include "util/util.h"

struct probe_conf probe_conf = { .max_probes = MAX_PROBES, .demangle = true };

void probe_target__clear(struct probe_target *t)
{
	free(t->path);
	free(t->module);
	if (t->syms)
		symbol_elf__delete(t->syms);
	if (t->layout)
		symbol_elf__delete(t->layout);
	symbol_dyn__close(t->dyn);
	kbtf__free(t->btf);
	kbtf__free(t->btf_base);
	free(t->btf_path);
	memset(t, 0, sizeof(*t));
}

/* The name of a module from its path: "/x/ext4.ko" -> "ext4". */
static char *module_name(const char *target)
{
	const char *base = strrchr(target, '/');
	size_t n;

	base = base ? base + 1 : target;
	n = strcspn(base, ".");
	return xstrndup(base, n);
}

/* Does @line of modules.dep name module @name ("kernel/fs/ext4/ext4.ko.xz: ...")? */
static bool modules_dep_names(const char *line, const char *name)
{
	const char *colon = strchr(line, ':'), *base;
	size_t n = strlen(name);

	if (!colon)
		return false;
	base = line;
	for (const char *p = line; p < colon; p++)
		if (*p == '/')
			base = p + 1;
	for (size_t i = 0; i < n; i++, base++)
		if (*base != name[i] && !(strchr("-_", *base) && strchr("-_", name[i])))
			return false;
	return !strncmp(base, ".ko", 3);
}

/*
 * Is @name a module of the running kernel: loaded (/sys/module/NAME with
 * an initstate, which built-in parts lack), or installed
 * (/lib/modules/RELEASE/modules.dep)?  '-' and '_' are one, as for modprobe.
 */
static bool module_known(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	char *line = NULL;
	size_t cap = 0;
	bool found;
	FILE *f;

	strbuf_addf(&sb, "/sys/module/%s/initstate", name);
	for (size_t i = strlen("/sys/module/"); i < strlen("/sys/module/") + strlen(name); i++)
		if (sb.buf[i] == '-')
			sb.buf[i] = '_';
	found = access(sb.buf, F_OK) == 0;
	strbuf_reset(&sb);
	if (!found) { /* a loaded module's BTF (PERF_BTF_DIR for tests) */
		strbuf_addf(&sb, "%s/%s", kbtf__sysfs_dir(), name);
		found = access(sb.buf, F_OK) == 0;
		strbuf_reset(&sb);
	}
	if (!found && !uname(&u)) {
		strbuf_addf(&sb, "/lib/modules/%s/modules.dep", u.release);
		f = fopen(sb.buf, "r");
		while (f && !found && getline(&line, &cap, f) > 0)
			found = modules_dep_names(line, name);
		if (f)
			fclose(f);
	}
	free(line);
	strbuf_release(&sb);
	return found;
}

int probe_target__init(struct probe_target *t, const struct perf_probe_event *pev)
{
	memset(t, 0, sizeof(*t));
	t->uprobes = pev->uprobes;
	if (pev->uprobes) {
		struct stat st;

		t->path = target_ns__realpath(pev->target);
		if (!t->path || stat(t->path, &st) < 0) {
			pr_err("Error: target executable %s: %s\n", pev->target, strerror(errno));
			probe_target__clear(t);
			return -ENOENT;
		}
		if (S_ISDIR(st.st_mode)) {
			pr_err("Error: target executable %s is a directory\n", pev->target);
			probe_target__clear(t);
			return -EISDIR;
		}
		/* --target-ns: the file read is the one resolved (and probed) */
		if (!target_ns__same_file(t->path, &st)) {
			pr_err("Error: target executable %s changed while it was being resolved\n",
			       pev->target);
			probe_target__clear(t);
			return -ESTALE;
		}
		t->e_machine = elf_util__machine(t->path);
		if (t->e_machine < 0)
			t->e_machine = 0; /* not ELF: the loaders say so */
		t->arch = t->e_machine ? arch_regs__elf_arch(t->e_machine) : NULL;
		if (t->e_machine && !t->arch) {
			char buf[16];

			pr_err("Error: %s is an ELF file for %s, a machine perf probe has no registers for\n",
			       pev->target, insn__machine_name(t->e_machine, buf, sizeof(buf)));
			probe_target__clear(t);
			return -ENOEXEC;
		}
	} else if (pev->target) {
		t->module = module_name(pev->target);
		if (strchr(pev->target, '/')) {
			t->path = xstrdup(pev->target);
		} else if (!module_known(pev->target)) {
			/* perf's words; it goes on to write "MOD:_text+..." anyway. */
			pr_err("Error: Failed to find module %s.\n", pev->target);
			probe_target__clear(t);
			return -ENOENT;
		}
	}
	return 0;
}

/* The ELF machine of this host. */
static int host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__i386__)
	return EM_386;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__riscv)
	return EM_RISCV;
#else
	return 0;
#endif
}

bool probe_target__foreign(const struct probe_target *t, const char **file, const char **host)
{
	char buf[16]; /* unused: machines with a register table have a name */
	int hm = host_machine();

	if (!t->uprobes || !t->arch || !arch_regs__elf_arch(hm) || t->e_machine == hm ||
	    (t->e_machine == EM_386 && hm == EM_X86_64)) /* 32-bit processes of x86-64 */
		return false;
	*file = insn__machine_name(t->e_machine, buf, sizeof(buf));
	*host = insn__machine_name(hm, buf, sizeof(buf));
	return true;
}

const char *probe_target__file_arch(const char *path)
{
	int m = elf_util__machine(path);

	return m > 0 ? arch_regs__elf_arch(m) : NULL;
}

int probe_target__is_foreign(const struct perf_probe_event *pev, const char **file,
			     const char **host)
{
	struct probe_target t;
	int ret;

	if (!pev->uprobes || !pev->target)
		return 0;
	ret = probe_target__init(&t, pev);
	if (ret)
		return ret;
	ret = probe_target__foreign(&t, file, host);
	probe_target__clear(&t);
	return ret;
}

/* DIR/PATH under --symfs DIR, joined as perf joins them; a new string. */
static char *symfs_join(const char *dir, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", probe_conf.symfs, dir);
	strbuf_addstr(&sb, path);
	return strbuf_detach(&sb, NULL);
}

char *probe_target__symbol_file(const char *path)
{
	static const char *const where[][2] = {
		{ "", "" },
		{ "usr/lib/debug", ".debug" },
		{ "usr/lib/debug", "" },
	};
	struct strbuf sb = STRBUF_INIT;

	if (!probe_conf.symfs || !*probe_conf.symfs)
		return xstrdup(path);
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char *file = symfs_join(where[i][0], path);

		strbuf_addf(&sb, "%s%s", file, where[i][1]);
		free(file);
		if (access(sb.buf, R_OK) == 0)
			return strbuf_detach(&sb, NULL);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
	return symfs_join("", path);
}

int probe_target__try_symbols(struct probe_target *t)
{
	if (t->syms)
		return 0;
	if (t->path) {
		char *file = probe_target__symbol_file(t->path);
		int ret = t->names_only ? symbol_elf__load_names(file, &t->syms)
					: symbol_elf__load(file, &t->syms);

		if (!ret && t->syms->mdi_err)
			pr_warning("Warning: %s: %s; only its .dynsym is read\n", file,
				   symbol_elf__strerror(t->syms->mdi_err));
		/*
		 * The probes name the path resolved, not symbol_elf's realpath():
		 * under --symfs the path they run at; with --target-ns
		 * /proc/PID/root/..., whose realpath() is the container's root as
		 * the host names it, a walk the container can steer.
		 */
		if (!ret && strcmp(t->syms->path, t->path)) {
			free(t->syms->path);
			t->syms->path = xstrdup(t->path);
		}
		free(file);
		return ret;
	}
	if (probe_conf.vmlinux)
		return symbol_elf__load(probe_conf.vmlinux, &t->syms);
	return symbol_elf__load_kallsyms(NULL, &t->syms);
}

bool probe_target__may_have_versions(struct probe_target *t, const char *name)
{
	char *file;
	bool may;

	if (t->syms || !t->path)
		return true;
	file = probe_target__symbol_file(t->path);
	may = symbol_elf__may_have_versions(file, name);
	free(file);
	return may;
}

int probe_target__symbols(struct probe_target *t)
{
	const char *what;
	int ret;

	if (t->syms)
		return 0;
	ret = probe_target__try_symbols(t);
	if (!ret)
		return 0;
	what = t->path ? t->path : probe_conf.vmlinux ? probe_conf.vmlinux : "/proc/kallsyms";
	if (ret == -ENODATA) /* perf's words */
		pr_err("Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
		       what);
	else
		pr_err("Error: Failed to load symbols from %s: %s\n", what,
		       symbol_elf__strerror(ret));
	/* A stripped file has no such symbol: perf's status, 254. */
	return ret == -ENODATA ? -ENOENT : ret;
}

static void kprobe_point_on_text(struct probe_trace_point *tp, uint64_t off)
{
	if (tp->realname)
		free(tp->symbol);
	else
		tp->realname = tp->symbol;
	tp->symbol = xstrdup("_text");
	tp->offset = off;
}

void probe_target__kprobe_on_text(struct probe_target *t, struct probe_trace_point *tp)
{
	uint64_t off, addr = 0;

	if (t->uprobes || t->module || !tp->symbol ||
	    (tp->retprobe ? tracefs__has_kretprobe_offset() != 1 : probe_conf.vmlinux != NULL))
		return;
	if (!tp->address && !t->syms && !probe_conf.vmlinux) {
		if (!symbol_elf__kallsyms_text_offset(NULL, tp->symbol, &off))
			kprobe_point_on_text(tp, off + tp->offset);
		return;
	}
	if (!tp->address && !probe_target__try_symbols(t)) {
		/* A function the kernel has once. */
		const struct elf_symbol **syms = NULL;
		int n = symbol_elf__find_name(t->syms, tp->symbol, &syms), nfuncs = 0;

		for (int i = 0; i < n; i++)
			if (syms[i]->type == STT_FUNC && nfuncs++ == 0)
				addr = syms[i]->addr;
		free(syms);
		if (nfuncs == 1)
			tp->address = addr + tp->offset;
	}
	if (t->syms && tp->address && !symbol_elf__kernel_text_offset(t->syms, tp->address, &off))
		kprobe_point_on_text(tp, off);
}

/*
 * The file layout of a uprobe target (segments, to turn addresses into file
 * offsets): the loaded symbols' when there are, else the layout alone,
 * which spares reading and sorting a large symbol table.
 */
const struct symbol_elf *probe_target__layout(struct probe_target *t)
{
	int ret;

	if (t->syms)
		return t->syms;
	if (!t->layout) {
		ret = symbol_elf__load_layout(t->path, &t->layout);
		if (ret) {
			pr_err("Error: Failed to read %s: %s\n", t->path,
			       symbol_elf__strerror(ret));
			return NULL;
		}
	}
	return t->layout;
}

const struct symbol_dyn *probe_target__dynamic(struct probe_target *t)
{
	if (!t->dyn && !t->dyn_err && t->uprobes && t->path)
		t->dyn_err = symbol_dyn__open(t->path, &t->dyn);
	return t->dyn;
}

const char *probe_target__name(const struct probe_target *t)
{
	return t->path ? t->path : t->module ? t->module : "the kernel";
}

void probe_target__say_not_found(const struct probe_target *t, const struct perf_probe_point *pp)
{
	char *point;

	if (!t->had_debuginfo) {
		pr_err("Failed to find symbol %s in %s\n", pp->function,
		       t->path || t->module ? probe_target__name(t) : "kernel");
		return;
	}
	point = synthesize_perf_probe_point(pp);
	pr_err("Probe point '%s' not found.\n", point);
	free(point);
}

/*
 * The probe cache of a target: the `probes` file of its build-id cache
 * entry.  The build-id of the file on disk decides, so a rebuilt binary
 * never gets another build's definitions; a copy of the same build at
 * another path finds them through the .build-id link.
 */
bool probe_target__lacks_dwarf(struct probe_target *t, struct debuginfo *dbg,
			       const struct perf_probe_point *pp)
{
	const struct elf_symbol **syms = NULL;
	Dwarf_Die cu;
	uint64_t off;
	char *point;
	int n = probe_target__try_symbols(t) ? 0
					     : symbol_elf__find_name(t->syms, pp->function, &syms);
	bool lacks = n > 0 && !die_cu_of_addr(debuginfo__dwarf(dbg), syms[0]->addr, &cu);

	if (lacks) {
		if (probe_target__global_offset((void *)t->syms, syms[0]->addr, &off))
			off = syms[0]->addr;
		point = synthesize_perf_probe_point(pp);
		pr_err("Failed to find debug information for address %" PRIx64
		       "\nProbe point '%s' not found.\n",
		       off, point);
		free(point);
	}
	free(syms);
	return lacks;
}

int probe_target__check_vmlinux(void)
{
	struct build_id file, running;
	char hf[SBUILD_ID_SIZE], hr[SBUILD_ID_SIZE];

	if (!probe_conf.vmlinux || tracefs__is_standin() ||
	    filename__read_build_id(probe_conf.vmlinux, &file) || kernel__read_build_id(&running) ||
	    build_id__equal(&file, &running))
		return 0;
	build_id__sprintf(&file, hf);
	build_id__sprintf(&running, hr);
	pr_err("Error: %s is not the running kernel's vmlinux: its build-id is %s, the kernel's %s\n",
	       probe_conf.vmlinux, hf, hr);
	return -ENOENT;
}

int probe_target__cache_id(const struct probe_target *t, char **name, struct build_id *bid)
{
	int ret;

	if (t->path) {
		*name = xstrdup(target_ns__inside(t->path)); /* the container's name */
		ret = filename__read_build_id(t->path, bid);
	} else if (probe_conf.vmlinux) {
		*name = xstrdup(KERNEL_CACHE_NAME);
		ret = filename__read_build_id(probe_conf.vmlinux, bid);
	} else if (t->module) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "[%s]", t->module);
		*name = strbuf_detach(&sb, NULL);
		ret = module__read_build_id(t->module, bid);
	} else {
		*name = xstrdup(KERNEL_CACHE_NAME);
		ret = kernel__read_build_id(bid);
	}
	if (ret) {
		free(*name);
		*name = NULL;
	}
	return ret;
}

/*
 * The build-id cache entry of the target's build-id that holds @file
 * ("probes", "debug"): the one of the target's own path, else the one the
 * .build-id link leads to (a copy of the same build elsewhere).  A new
 * string, or NULL when neither has it.
 */
char *probe_target__cache_entry(const struct probe_target *t, const char *file)
{
	struct build_id bid;
	char *name, *dir, *path;

	if (probe_target__cache_id(t, &name, &bid))
		return NULL;
	dir = build_id_cache__dirname(name, &bid);
	free(name);
	for (int i = 0; dir && i < 2; i++) {
		path = path_join(dir, file);
		if (access(path, R_OK) == 0) {
			free(path);
			return dir;
		}
		free(path);
		free(dir);
		dir = NULL;
		if (i == 0)
			dir = build_id_cache__link_dir(&bid);
	}
	return NULL;
}

/* A fetched entry is checked as a cached one is before it is placed. */
static int check_fetched_entry(void *ctx, const struct probe_cache_entry *e, int *line,
			       struct strbuf *why)
{
	return probe_verifier__check(ctx, e, line, why);
}

/*
 * No local probe cache: the one embedded in its debuginfo, from
 * debuginfod, of which only the entries that check out on this target
 * are kept.
 */
static int fetch_embedded_cache(const struct probe_target *t)
{
	struct probe_verifier v = { 0 };
	struct build_id bid;
	char *name;
	int ret;

	if (probe_target__cache_id(t, &name, &bid))
		return 1;
	v.uprobes = t->uprobes;
	v.path = t->uprobes ? t->path : probe_conf.vmlinux;
	v.owner = name[0] == '/' ? name : NULL; /* the path it is cached for */
	ret = probe_embed__fetch(name, t->path ? t->path : probe_conf.vmlinux, &bid,
				 check_fetched_entry, &v);
	probe_verifier__clear(&v);
	free(name);
	return ret;
}

/*
 * The target's cache, for reading: 0 with *@pc (kept, not to be closed by
 * the caller), or 1 when there is none or it is corrupt (then it is
 * reported once and not used).
 */
int probe_target__open_cache(const struct probe_target *t, struct probe_cache **pc)
{
	/* One command resolves all its specs on one target: read its cache once. */
	static struct {
		char *key;
		struct probe_cache *pc;
		int refused;
	} memo;
	const char *key = t->path ? t->path : t->module ? t->module : "";
	struct strbuf err = STRBUF_INIT;
	char *dir;
	int ret;

	if (memo.key && !strcmp(memo.key, key)) {
		*pc = memo.pc;
		return memo.refused ? memo.refused : memo.pc ? 0 : 1;
	}
	free(memo.key);
	probe_cache__close(memo.pc);
	memo.key = xstrdup(key);
	memo.pc = NULL;
	memo.refused = 0;
	*pc = NULL;
	dir = probe_target__cache_entry(t, "probes");
	if (!dir && !fetch_embedded_cache(t))
		dir = probe_target__cache_entry(t, "probes");
	if (!dir)
		return 1;
	ret = probe_cache__open(dir, false, &memo.pc, &err);
	/* With --cache, the store reports it as an error. */
	if (ret == -EBADMSG && !probe_conf.cache) {
		struct strbuf msg = STRBUF_INIT;

		probe_cache__strerror(PROBE_CACHE_USE, ret, dir, err.buf, &msg);
		pr_warning("Warning: %s\n", msg.buf);
		strbuf_release(&msg);
	}
	/* The cache of this very target, another's to steer: not a miss. */
	if (ret == -CACHE_FS_REFUSED) {
		pr_err("Error: %s\n", err.buf);
		memo.refused = ret;
	}
	strbuf_release(&err);
	free(dir);
	if (ret)
		memo.pc = NULL;
	*pc = memo.pc;
	return memo.refused ? memo.refused : ret ? 1 : 0;
}

/*
 * Uprobes: the "@+0xOFF" of a global.  The kernel adds OFF to where the
 * probed file offset 0 would be in memory (probe address - probe file
 * offset), so OFF is the global's virtual address less the delta between
 * vaddr and file offset of the executable segment the probes are in.
 */
int probe_target__global_offset(void *ctx, uint64_t vaddr, uint64_t *offset)
{
	const struct symbol_elf *se = ctx;

	for (int i = 0; i < se->nr_loads; i++) {
		const struct elf_load_segment *l = &se->loads[i];

		if (l->exec) {
			*offset = vaddr - (l->vaddr - l->offset);
			return 0;
		}
	}
	return -ERANGE;
}

/*
 * --symfs DIR: the debug files of @path in the sysroot, in perf's order
 * (see probe-target.h); 0 with *@dbg, or -ENODATA when none serves.
 */
static int open_symfs_debuginfo(const char *path, struct debuginfo **dbg)
{
	const char *base = strrchr(path, '/');
	char hex[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;
	struct build_id bid;
	char *files[4];
	int n = 0, ret = -ENODATA;

	base = base ? base + 1 : path;
	strbuf_addf(&sb, "%s/usr/lib/debug%s.debug", probe_conf.symfs, path);
	files[n++] = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/usr/lib/debug%s", probe_conf.symfs, path);
	files[n++] = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/%.*s.debug/%s", probe_conf.symfs, (int)(base - path), path, base);
	files[n++] = strbuf_detach(&sb, NULL);
	if (!filename__read_build_id(path, &bid) && build_id__sprintf(&bid, hex) > 2) {
		strbuf_addf(&sb, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", probe_conf.symfs, hex,
			    hex + 2);
		files[n++] = strbuf_detach(&sb, NULL);
	}
	for (int i = 0; i < n; i++) {
		if (ret && access(files[i], R_OK) == 0) {
			pr_debug("symfs: trying %s for %s\n", files[i], path);
			ret = debuginfo__new_with(path, files[i], dbg);
			if (ret == -ESTALE)
				pr_debug("symfs: %s is of another build than %s\n", files[i], path);
			if (ret)
				*dbg = NULL;
		}
		free(files[i]);
	}
	return ret ? -ENODATA : 0;
}

int probe_target__open_debuginfo(struct probe_target *t, struct debuginfo **dbg)
{
	const char *path = t->path ? t->path : probe_conf.vmlinux;
	struct strbuf why = STRBUF_INIT;
	char *entry, *debug;
	int ret;

	*dbg = NULL;
	if (!path)
		return -ENODATA;
	ret = -ENODATA;
	if (probe_conf.symfs && *probe_conf.symfs)
		ret = open_symfs_debuginfo(path, dbg);
	if (ret)
		ret = debuginfo__open(path, NULL, dbg, &why);
	if (ret == -ENODATA || ret == -ESTALE) {
		/* Kept in the build-id cache, e.g. by buildid-cache --debuginfod. */
		entry = probe_target__cache_entry(t, "debug");
		if (entry) {
			int r;

			debug = path_join(entry, "debug");
			r = debuginfo__open(path, debug, dbg, &why);
			/* One of another build found before is still refused. */
			if (r != -ENODATA || ret != -ESTALE)
				ret = r;
			free(debug);
			free(entry);
		}
	}
	/* A debuginfo file of another build: never used, said in one line. */
	if (ret == -ESTALE)
		pr_err("Error: not using the debuginfo of %s: %s\n", path, why.buf);
	strbuf_release(&why);
	if (!ret) {
		t->had_debuginfo = true;
		pr_debug("Open Debuginfo file: %s\n", path);
		debuginfo__set_source_dir(*dbg, probe_conf.source);
	}
	return ret;
}

/* Open the BTF at @path (split from @base) into *@out, noting the path. */
static int open_btf_file(struct probe_target *t, const char *path, struct kbtf *base,
			 struct kbtf **out)
{
	free(t->btf_path);
	t->btf_path = xstrdup(path);
	return kbtf__open(path, base, out);
}

int probe_target__open_btf(struct probe_target *t, const struct kbtf **b)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (t->btf) {
		*b = t->btf;
		return 0;
	}
	if (probe_conf.vmlinux) {
		ret = open_btf_file(t, probe_conf.vmlinux, NULL,
				    t->module ? &t->btf_base : &t->btf);
	} else {
		strbuf_addf(&sb, "%s/vmlinux", kbtf__sysfs_dir());
		ret = open_btf_file(t, sb.buf, NULL, t->module ? &t->btf_base : &t->btf);
		strbuf_release(&sb);
	}
	if (!ret && t->module) {
		if (t->path) {
			ret = open_btf_file(t, t->path, t->btf_base, &t->btf);
		} else {
			strbuf_addf(&sb, "%s/%s", kbtf__sysfs_dir(), t->module);
			ret = open_btf_file(t, sb.buf, t->btf_base, &t->btf);
			strbuf_release(&sb);
		}
	}
	if (!ret)
		*b = t->btf;
	return ret;
}
