// SPDX-License-Identifier: GPL-2.0
/* The DWARF of one ELF file through libdwfl (see debuginfo.h). */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/debuginfo.h"
#include "util/debuginfod.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/lazy-section.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The SHF_COMPRESSED sections of one debuginfo inflated a page at a time. */
#define LAZY_INFLATED_MAX 12

struct debuginfo {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	char *path;
	char *source_dir;	       /* -s: where the sources are */
	char *debug_file;	       /* the preferred debuginfo file */
	struct strbuf refused;	       /* why a debuginfo file found was of another build */
	struct lazy_region *lazy_info; /* a large .debug_info, read page by page */
	struct lazy_region *inflated[LAZY_INFLATED_MAX]; /* compressed sections, inflated lazily */
	int ninflated;
	bool said_corrupt; /* debuginfo__check() said it once */
	bool verified;	   /* and read its compressed streams whole */
};

/*
 * A compressed section that inflates to at least this many bytes is
 * inflated a page at a time (lazy-section.h), the others whole by libelf;
 * PERF_DEBUGINFO_LAZY_MIN lowers it too.
 */
#define LAZY_INFLATE_MIN (1UL << 20)

/*
 * A .debug_info of at least this many bytes is read one page at a time
 * (lazy-section.h): a vmlinux's is 164 MB, of which a lookup by name
 * reads a few.  PERF_DEBUGINFO_LAZY_MIN (bytes) lowers it for the tests.
 */
#define LAZY_DEBUG_INFO_MIN (64UL << 20)

static size_t lazy_debug_info_min(void)
{
	const char *env = getenv("PERF_DEBUGINFO_LAZY_MIN");
	char *end;
	unsigned long long v;

	if (!env || !*env)
		return LAZY_DEBUG_INFO_MIN;
	errno = 0;
	v = strtoull(env, &end, 0);
	return errno || *end ? LAZY_DEBUG_INFO_MIN : (size_t)v;
}

/*
 * Before libdw first asks libelf for it: the .debug_info of the module's
 * own file (@fd: another descriptor of it, taken) made lazy when large.
 * Any failure leaves the section as libelf mapped it.
 */
static void debuginfo_lazy_info(struct debuginfo *dbg, int fd)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(dbg->mod, &bias);

	if (!elf) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (lazy_section__attach(elf, ".debug_info", fd, lazy_debug_info_min(), &dbg->lazy_info))
		dbg->lazy_info = NULL;
}

/*
 * Is the debuginfo file @name (open as @fd) of @mod's build?  When not,
 * the reason goes to dbg->refused and @fd is closed: it is never used.
 * libdwfl itself does not check what debuginfod gives it.
 */
static bool same_build(struct debuginfo *dbg, Dwfl_Module *mod, const char *name, int fd)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	struct build_id want;
	char fdpath[64], real[PATH_MAX];
	int n = dwfl_module_build_id(mod, &bits, &vaddr);

	if (n <= 0 || n > BUILD_ID_SIZE || (!name && fd < 0))
		return true; /* nothing to check it against */
	if (!name) {
		/* libdwfl names no file for what debuginfod gave: its descriptor's. */
		ssize_t len;

		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		len = readlink(fdpath, real, sizeof(real) - 1);
		real[len > 0 ? len : 0] = '\0';
		name = len > 0 && real[0] == '/' ? real : fdpath;
	}
	memcpy(want.data, bits, n);
	want.size = n;
	strbuf_reset(&dbg->refused);
	if (build_id__check_file(name, &want, &dbg->refused) != -ESTALE) {
		strbuf_reset(&dbg->refused);
		return true;
	}
	if (fd >= 0)
		close(fd);
	return false;
}

/*
 * libdwfl's search, after the module's preferred debuginfo file: its
 * userdata slot holds the struct debuginfo.  Whatever is found, the
 * preferred file or libdwfl's (.gnu_debuglink, /usr/lib/debug,
 * debuginfod), must have the module's build-id.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct debuginfo *dbg = userdata ? *userdata : NULL;
	const char *preferred = dbg ? dbg->debug_file : NULL;
	const unsigned char *bits;
	GElf_Addr vaddr;
	/* A client cache with a FIFO in it would have libdwfl's client wait for ever. */
	int n = dwfl_module_build_id(mod, &bits, &vaddr), fd;
	char *guard;

	if (preferred) {
		if (!same_build(dbg, mod, preferred, -1))
			return -1;
		fd = open(preferred, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			*debuginfo_file_name = xstrdup(preferred);
			return fd;
		}
	}
	guard = n > 0 ? debuginfod__guard_dwfl(bits, n) : NULL;
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	debuginfod__unguard_dwfl(guard);
	if (fd >= 0 && dbg && !same_build(dbg, mod, *debuginfo_file_name, fd)) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = NULL;
		return -1;
	}
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool has_debug_info(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Shdr shdr;

	return elf && elf_find_section(elf, SHT_NULL, ".debug_info", &shdr) &&
	       shdr.sh_type != SHT_NOBITS;
}

/* Is the module's file ET_REL (a kernel module)? */
static bool relocatable(struct debuginfo *dbg)
{
	GElf_Addr bias;
	GElf_Ehdr ehdr;
	Elf *elf = dwfl_module_getelf(dbg->mod, &bias);

	return !elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_type == ET_REL;
}

/* Open @path, its DWARF taken from @debug_file first when not NULL. */
static int debuginfo_open(const char *path, const char *debug_file, struct debuginfo **out,
			  struct strbuf *why)
{
	struct debuginfo *dbg;
	int fd, lazy_fd, refused = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	/* For a lazy .debug_info: dwfl_report_offline takes fd. */
	lazy_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	dbg = xzalloc(sizeof(*dbg));
	strbuf_init(&dbg->refused, 0);
	dbg->dwfl = dwfl_begin(&offline_callbacks);
	if (!dbg->dwfl)
		goto nodata;
	debuginfod__watch_dwfl(dbg->dwfl);
	dwfl_report_begin(dbg->dwfl);
	/* dwfl_report_offline takes the descriptor. */
	dbg->mod = dwfl_report_offline(dbg->dwfl, "", path, fd);
	fd = -1;
	if (dbg->mod) {
		void **userdata = NULL;

		/* Before the DWARF is first asked for: find_debuginfo reads it. */
		if (debug_file)
			dbg->debug_file = xstrdup(debug_file);
		dwfl_module_info(dbg->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		if (userdata)
			*userdata = dbg;
	}
	if (!dbg->mod || dwfl_report_end(dbg->dwfl, NULL, NULL))
		goto nodata;
	debuginfo_lazy_info(dbg, lazy_fd);
	lazy_fd = -1;
	/* libdwfl relocates an ET_REL file's DWARF in place: not in a read-only region. */
	if (!relocatable(dbg))
		lazy_section__inflate_begin(getenv("PERF_DEBUGINFO_LAZY_MIN")
						    ? lazy_debug_info_min()
						    : LAZY_INFLATE_MIN);
	dbg->dw = dwfl_module_getdwarf(dbg->mod, &dbg->bias);
	dbg->ninflated = lazy_section__inflate_end(dbg->inflated, LAZY_INFLATED_MAX, &refused);
	debuginfod__progress_end();
	if (refused) {
		debuginfo__delete(dbg);
		return -EBADMSG;
	}
	if (!dbg->dw) {
		/* A .debug_info that is there but unreadable is not "no DWARF". */
		int err = dbg->refused.len	     ? -ESTALE
			  : has_debug_info(dbg->mod) ? -EBADMSG
						     : -ENODATA;

		if (err == -ESTALE && why)
			strbuf_addstr(why, dbg->refused.buf);
		debuginfo__delete(dbg);
		return err;
	}
	{
		/* A unit header libdw can not read: the .debug_info is corrupt. */
		Dwarf_Off next;
		size_t hsize;
		Dwarf_Die cu;

		if (dwarf_nextcu(dbg->dw, 0, &next, &hsize, NULL, NULL, NULL) != 0 ||
		    !dwarf_offdie(dbg->dw, hsize, &cu)) {
			debuginfo__delete(dbg);
			return -EBADMSG;
		}
	}
	dbg->path = xstrdup(path);
	*out = dbg;
	return 0;
nodata:
	if (fd >= 0)
		close(fd);
	if (lazy_fd >= 0)
		close(lazy_fd);
	debuginfo__delete(dbg);
	return -ENODATA;
}

int debuginfo__new(const char *path, struct debuginfo **out)
{
	return debuginfo_open(path, NULL, out, NULL);
}

int debuginfo__new_with(const char *path, const char *debug_file, struct debuginfo **out)
{
	return debuginfo_open(path, debug_file, out, NULL);
}

int debuginfo__open(const char *path, const char *debug_file, struct debuginfo **out,
		    struct strbuf *why)
{
	return debuginfo_open(path, debug_file, out, why);
}

void debuginfo__delete(struct debuginfo *dbg)
{
	if (!dbg)
		return;
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);
	/* After libelf is done with the Elf_Data pointing into it. */
	if (dbg->lazy_info)
		pr_debug("debuginfo: %zu of %zu pages of .debug_info read, %zu on a fault (%s)\n",
			 lazy_region__filled(dbg->lazy_info), lazy_region__pages(dbg->lazy_info),
			 lazy_region__faults(dbg->lazy_info),
			 lazy_region__uffd(dbg->lazy_info) ? "userfaultfd" : "mprotect");
	lazy_region__delete(dbg->lazy_info);
	for (int i = 0; i < dbg->ninflated; i++) {
		struct lazy_region *r = dbg->inflated[i];
		size_t restarts, bytes = lazy_region__inflated(r, &restarts);

		pr_debug(
			"debuginfo: %zu of %zu pages of a compressed section inflated, %zu on a fault (%s), %zu KiB inflated (%s), %zu restarts\n",
			lazy_region__filled(r), lazy_region__pages(r), lazy_region__faults(r),
			lazy_region__uffd(r) ? "userfaultfd" : "mprotect", bytes >> 10,
			lazy_region__inflater(r), restarts);
		lazy_region__delete(r);
	}
	free(dbg->path);
	free(dbg->source_dir);
	free(dbg->debug_file);
	strbuf_release(&dbg->refused);
	free(dbg);
}

int debuginfo__check(struct debuginfo *dbg, int ret)
{
	/*
	 * A failure may be of damage read before the stream could tell:
	 * the streams read whole once, their checks with them.
	 */
	for (int i = 0; dbg && ret < 0 && !dbg->verified && i < dbg->ninflated; i++)
		lazy_region__verify(dbg->inflated[i]);
	if (dbg && ret < 0)
		dbg->verified = true;
	for (int i = 0; dbg && i < dbg->ninflated; i++) {
		if (lazy_region__corrupt(dbg->inflated[i])) {
			if (!dbg->said_corrupt)
				pr_err("Error: Failed to read the debuginfo of %s: it is corrupt\n",
				       dbg->path);
			dbg->said_corrupt = true;
			return -EBADMSG;
		}
	}
	return ret;
}

void debuginfo__set_source_dir(struct debuginfo *dbg, const char *dir)
{
	free(dbg->source_dir);
	dbg->source_dir = dir ? xstrdup(dir) : NULL;
}

Dwarf *debuginfo__dwarf(struct debuginfo *dbg)
{
	return dbg->dw;
}

Dwfl_Module *debuginfo__module(struct debuginfo *dbg)
{
	return dbg->mod;
}

const char *debuginfo__dwarf_file(struct debuginfo *dbg)
{
	const char *mainfile = NULL, *debugfile = NULL;

	dwfl_module_info(dbg->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	return debugfile ? debugfile : mainfile ? mainfile : dbg->path;
}

int debuginfo__rel_addr_symbol(struct debuginfo *dbg, uint64_t addr, const char **name,
			       uint64_t *off)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(dbg->mod, &bias);
	GElf_Ehdr ehdr;
	GElf_Sym sym;
	GElf_Off o;
	const char *n;

	if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_type != ET_REL)
		return -EINVAL;
	n = dwfl_module_addrinfo(dbg->mod, addr, &o, &sym, NULL, NULL, NULL);
	if (!n || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
		return -ENOENT;
	*name = n;
	*off = o;
	return 0;
}

char *debuginfo__source_path(struct debuginfo *dbg, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = NULL, *p;
	char *full;

	if (!file)
		return NULL;
	if (file[0] != '/' && dwarf_attr(cu, DW_AT_comp_dir, &attr))
		dir = dwarf_formstring(&attr);
	full = dir ? path_join(dir, file) : xstrdup(file);
	for (p = full; dbg->source_dir && p && *p; p = strchr(p + 1, '/')) {
		char *try = path_join(dbg->source_dir, p[0] == '/' ? p + 1 : p);

		if (!access(try, R_OK)) {
			free(full);
			return try;
		}
		free(try);
	}
	if (access(full, R_OK) < 0) {
		/* Not here: the debuginfod servers may have it, by build-id. */
		const unsigned char *bits;
		GElf_Addr vaddr;
		struct build_id bid;
		char *fetched = NULL;
		int n = dwfl_module_build_id(dbg->mod, &bits, &vaddr);

		if (n > 0 && n <= BUILD_ID_SIZE) {
			memcpy(bid.data, bits, n);
			bid.size = n;
			if (!debuginfod__find_source(&bid, NULL, full, &fetched)) {
				free(full);
				return fetched;
			}
		}
	}
	return full;
}
