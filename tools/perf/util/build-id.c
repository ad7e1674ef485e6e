// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/config.h"
#include "util/debug.h"
#include "util/elf-util.h"
#include "util/strbuf.h"
#include "util/util.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

int build_id__sprintf(const struct build_id *bid, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < bid->size; i++) {
		buf[2 * i] = hex[bid->data[i] >> 4];
		buf[2 * i + 1] = hex[bid->data[i] & 15];
	}
	buf[2 * i] = '\0';
	return 2 * i;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int build_id__from_hex(struct build_id *bid, const char *hex)
{
	size_t len = strlen(hex);

	if (len < 2 || len % 2 || len > 2 * BUILD_ID_SIZE)
		return -EINVAL;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		bid->data[i] = hi << 4 | lo;
	}
	bid->size = len / 2;
	return 0;
}

bool build_id__equal(const struct build_id *a, const struct build_id *b)
{
	return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

int elf_notes__find_build_id(const void *notes, size_t len, bool swap, size_t align,
			     struct build_id *bid)
{
	struct elf_note_iter it;
	struct elf_note note;
	int ret;

	elf_notes__iter_init(&it, notes, len, swap, align);
	while ((ret = elf_notes__next(&it, &note)) > 0) {
		if (!elf_note__is(&note, "GNU", NT_GNU_BUILD_ID))
			continue;
		if (note.descsz == 0 || note.descsz > BUILD_ID_SIZE)
			return -EBADMSG;
		memcpy(bid->data, note.desc, note.descsz);
		bid->size = note.descsz;
		return 0;
	}
	return ret < 0 ? ret : -ENODATA;
}

/* Look through the SHT_NOTE sections; -ENODATA when none has a build-id. */
static int elf_sections__build_id(Elf *elf, bool swap, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	int ret = -ENODATA;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr))
			return -EBADMSG;
		if (shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_rawdata(scn, NULL);
		if (!data || (data->d_size && !data->d_buf))
			return -EBADMSG;
		ret = elf_notes__find_build_id(data->d_buf, data->d_size, swap, shdr.sh_addralign,
					       bid);
		if (ret != -ENODATA)
			return ret;
	}
	return ret;
}

static int elf_segments__build_id(Elf *elf, bool swap, struct build_id *bid)
{
	size_t phnum;
	int ret = -ENODATA;

	if (elf_getphdrnum(elf, &phnum) < 0)
		return -EBADMSG;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;
		Elf_Data *data;

		if (!gelf_getphdr(elf, i, &phdr))
			return -EBADMSG;
		if (phdr.p_type != PT_NOTE || !phdr.p_filesz)
			continue;
		data = elf_getdata_rawchunk(elf, phdr.p_offset, phdr.p_filesz, ELF_T_BYTE);
		if (!data)
			return -EBADMSG;
		ret = elf_notes__find_build_id(data->d_buf, data->d_size, swap, phdr.p_align, bid);
		if (ret != -ENODATA)
			return ret;
	}
	return ret;
}

/* Does [off, off + len) lie inside a file of @size bytes? */
static bool extent_fits(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/*
 * A truncated file still has a readable ELF header that points past its end.
 * libelf then quietly reports no segments or sections, so check the header's
 * own counts (extended numbering keeps them in section 0) and every extent.
 */
static int elf_check_extents(Elf *elf, const GElf_Ehdr *ehdr, size_t shnum, uint64_t size)
{
	uint64_t nr_phdrs = ehdr->e_phnum, nr_shdrs = ehdr->e_shnum;
	Elf_Scn *scn = NULL;
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) < 0)
		return -EBADMSG;
	if (nr_phdrs == PN_XNUM)
		nr_phdrs = phnum;
	if (!nr_shdrs && ehdr->e_shoff)
		nr_shdrs = shnum ? shnum : 1;
	if (nr_phdrs && !extent_fits(ehdr->e_phoff, nr_phdrs * ehdr->e_phentsize, size))
		return -EBADMSG;
	if (nr_shdrs && !extent_fits(ehdr->e_shoff, nr_shdrs * ehdr->e_shentsize, size))
		return -EBADMSG;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (!gelf_getphdr(elf, i, &phdr) ||
		    !extent_fits(phdr.p_offset, phdr.p_filesz, size))
			return -EBADMSG;
	}
	while (shnum && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			return -EBADMSG;
		if (shdr.sh_type != SHT_NULL && shdr.sh_type != SHT_NOBITS &&
		    !extent_fits(shdr.sh_offset, shdr.sh_size, size))
			return -EBADMSG;
	}
	return 0;
}

/*
 * A header whose EI_CLASS is the wrong one (a 64-bit file marked 32-bit)
 * is read askew, and no note is found: its own sizes tell.
 */
static int elf_check_class(const GElf_Ehdr *ehdr)
{
	bool is64 = ehdr->e_ident[EI_CLASS] == ELFCLASS64;

	if (ehdr->e_ehsize != (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)) ||
	    (ehdr->e_phnum &&
	     ehdr->e_phentsize != (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr))) ||
	    (ehdr->e_shnum &&
	     ehdr->e_shentsize != (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr))))
		return -EPROTO;
	return 0;
}

int elf__read_build_id(Elf *elf, uint64_t size, struct build_id *bid)
{
	GElf_Ehdr ehdr;
	size_t shnum;
	int ret;

	if (!gelf_getehdr(elf, &ehdr) || elf_getshdrnum(elf, &shnum) < 0)
		return -EBADMSG;
	ret = elf_check_class(&ehdr);
	if (!ret)
		ret = elf_check_extents(elf, &ehdr, shnum, size);
	if (ret)
		return ret;
	ret = -ENODATA;
	if (shnum)
		ret = elf_sections__build_id(elf, elf_util__swapped(&ehdr), bid);
	if (ret == -ENODATA)
		ret = elf_segments__build_id(elf, elf_util__swapped(&ehdr), bid);
	return ret;
}

int filename__read_build_id(const char *path, struct build_id *bid)
{
	uint64_t size;
	Elf *elf;
	int fd, ret = elf_util__open(path, &fd, &elf, &size);

	if (ret)
		return ret;
	ret = elf__read_build_id(elf, size, bid);
	elf_util__close(fd, elf);
	return ret;
}

int sysfs__read_build_id(const char *path, struct build_id *bid)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path);

	if (!ret)
		ret = elf_notes__find_build_id(sb.buf, sb.len, false, 4, bid);
	strbuf_release(&sb);
	return ret;
}

int kernel__read_build_id(struct build_id *bid)
{
	return sysfs__read_build_id("/sys/kernel/notes", bid);
}

int module__read_build_id(const char *name, struct build_id *bid)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "/sys/module/%s/notes/.note.gnu.build-id", name);
	ret = sysfs__read_build_id(path.buf, bid);
	strbuf_release(&path);
	return ret;
}

const char *build_id__strerror(int err)
{
	switch (err) {
	case -ENOEXEC:
		return "not an ELF file";
	case -EBADMSG:
		return "malformed or truncated ELF file";
	case -ENODATA:
		return "no build-id note";
	case -EPROTO:
		return "its ELF class (32- or 64-bit) does not match its header sizes";
	default:
		return strerror(-err);
	}
}

int build_id__check_file(const char *path, const struct build_id *want, struct strbuf *why)
{
	char have[SBUILD_ID_SIZE], sbid[SBUILD_ID_SIZE];
	struct build_id bid;
	int ret = filename__read_build_id(path, &bid);

	if (ret) {
		strbuf_addf(why, "%s: %s", path, build_id__strerror(ret));
		return ret;
	}
	if (build_id__equal(&bid, want))
		return 0;
	build_id__sprintf(&bid, have);
	build_id__sprintf(want, sbid);
	strbuf_addf(why, "%s has build-id %s, not %s", path, have, sbid);
	return -ESTALE;
}

const char *buildid_dir(void)
{
	static char *dir;
	const char *env;

	if (dir)
		return dir;
	env = getenv("PERF_BUILDID_DIR");
	if (env && *env) {
		dir = xstrdup(env);
	} else {
		const char *home = getenv("HOME");

		struct strbuf err = STRBUF_INIT;

		/* A bad config stopped the command before (perf_config_check()). */
		if (perf_config_get_path("buildid.dir", &dir, &err))
			pr_debug("%s\n", err.buf);
		strbuf_release(&err);
		if (!dir) {
			free(dir);
			dir = path_join(home && *home ? home : "/", ".debug");
		}
	}
	return dir;
}

char *build_id_cache__dirname(const char *name, const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;
	char *dir = path_join(buildid_dir(), name);

	build_id__sprintf(bid, sbid);
	strbuf_addf(&sb, "%s/%s", dir, sbid);
	free(dir);
	return strbuf_detach(&sb, NULL);
}

char *build_id_cache__linkname(const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;

	build_id__sprintf(bid, sbid);
	strbuf_addf(&sb, "%s/.build-id/%.2s/%s", buildid_dir(), sbid, sbid + 2);
	return strbuf_detach(&sb, NULL);
}

bool build_id_cache__cached(const char *name, const struct build_id *bid)
{
	char *dir = build_id_cache__dirname(name, bid);
	struct stat st;
	bool ret = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);

	free(dir);
	return ret;
}

/* The line of the last path refused by the trust rule (build_id_cache__strerror). */
static struct strbuf refusal = STRBUF_INIT;

static int refused(int ret, struct strbuf *err)
{
	strbuf_reset(&refusal);
	if (ret == -CACHE_FS_REFUSED)
		strbuf_add(&refusal, err->buf, err->len);
	strbuf_release(err);
	return ret;
}

const char *build_id_cache__strerror(int err)
{
	if (err == -CACHE_FS_REFUSED && refusal.len)
		return refusal.buf;
	return strerror(-err);
}

int build_id_cache__root_fd(bool create, struct strbuf *err)
{
	/* Checked once per command, kept open: every walk starts from it. */
	static int fd = -1;
	struct stat st;
	int ret;

	/* A writer makes a root removed since (st_nlink 0) again. */
	if (fd >= 0 && create && fstat(fd, &st) == 0 && st.st_nlink == 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		return fd;
	ret = cache_fs__open_root(buildid_dir(), create, err);
	if (ret >= 0)
		fd = ret;
	return ret;
}

/* "NAME/BID" of an entry, relative to the root ("usr/bin/app/BID"). */
static char *entry_rel(const char *name, const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;

	build_id__sprintf(bid, sbid);
	while (*name == '/')
		name++;
	strbuf_addf(&sb, "%s/%s", name, sbid);
	return strbuf_detach(&sb, NULL);
}

int build_id_cache__open_dir(const char *dir, struct strbuf *err)
{
	const char *root = buildid_dir();
	size_t len = strlen(root);
	int rootfd;

	while (len > 1 && root[len - 1] == '/')
		len--;
	if (strncmp(dir, root, len) || dir[len] != '/')
		return cache_fs__open_root(dir, false, err); /* not in the cache */
	rootfd = build_id_cache__root_fd(false, err);
	if (rootfd < 0)
		return rootfd;
	return cache_fs__open_dir(rootfd, root, dir + len + 1, NULL, err);
}

/* Put @file at @dest of @dirfd as a hard link, or a copy across file systems. */
static int link_or_copy(const char *file, int dirfd, const char *dest)
{
	struct strbuf tmp = STRBUF_INIT;
	struct stat st;
	int ret = 0, in, out;

	in = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = S_ISREG(st.st_mode) ? -errno : -EINVAL;
		close(in);
		return ret;
	}
	cache_fs__tmp_name(dest, &tmp);
	if (linkat(in, "", dirfd, tmp.buf, AT_EMPTY_PATH) == 0 ||
	    linkat(AT_FDCWD, file, dirfd, tmp.buf, 0) == 0) {
		if (renameat(dirfd, tmp.buf, dirfd, dest) < 0)
			ret = -errno;
		/* rename() does nothing when @dest is already a link to @file. */
		unlinkat(dirfd, tmp.buf, 0);
		goto out;
	}
	out = cache_fs__open_tmp(dirfd, dest, st.st_mode & 0777, &tmp);
	if (out < 0) {
		ret = out;
		goto out;
	}
	for (;;) {
		char buf[65536];
		ssize_t n = read(in, buf, sizeof(buf)), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		while (w < n && !ret) {
			ssize_t k = write(out, buf + w, n - w);

			if (k < 0 && errno != EINTR)
				ret = -errno;
			w += k > 0 ? k : 0;
		}
		if (ret)
			break;
	}
	if (!ret && fsync(out) < 0)
		ret = -errno;
	if (close(out) < 0 && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp.buf, dirfd, dest) < 0)
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp.buf, 0);
out:
	close(in);
	strbuf_release(&tmp);
	return ret;
}

/* Make @link of @dirfd point to @target, replacing what was there in one rename. */
static int symlink_replace(const char *target, int dirfd, const char *link)
{
	struct strbuf tmp = STRBUF_INIT;
	int ret = 0;

	cache_fs__tmp_name(link, &tmp);
	if (symlinkat(target, dirfd, tmp.buf) < 0 || renameat(dirfd, tmp.buf, dirfd, link) < 0) {
		ret = -errno;
		unlinkat(dirfd, tmp.buf, 0);
	}
	strbuf_release(&tmp);
	return ret;
}

/* 1 when made, 0 when it was there, or -errno. */
static int create_empty(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	close(fd);
	return 1;
}

/* "../../NAME/BID": the .build-id link's target, relative to its directory. */
static char *link_target(const char *name, const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;

	build_id__sprintf(bid, sbid);
	strbuf_addf(&sb, "../..%s%s/%s", name[0] == '/' ? "" : "/", name, sbid);
	return strbuf_detach(&sb, NULL);
}

/*
 * The separate debuginfo of a build as perf finds it for the cache: the
 * distribution's /usr/lib/debug/.build-id/xx/yyyy.debug, when it is that
 * build's.  NULL when there is none.
 */
static char *system_debug_file(const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	struct strbuf sb = STRBUF_INIT;
	struct build_id dbid;

	build_id__sprintf(bid, sbid);
	strbuf_addf(&sb, "/usr/lib/debug/.build-id/%.2s/%s.debug", sbid, sbid + 2);
	if (filename__read_build_id(sb.buf, &dbid) || !build_id__equal(&dbid, bid)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static bool exists_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* A file of the entry @dirfd, kept unless @force: 1 when this call made it. */
static int keep_file(const char *from, int dirfd, const char *name, bool force)
{
	bool had = exists_at(dirfd, name);
	int ret;

	if (had && !force)
		return 0;
	ret = link_or_copy(from, dirfd, name);
	return ret ? ret : !had;
}

/* The .build-id link of an entry, made when missing or dangling; 1 when made. */
static int add_link(int rootfd, const char *name, const struct build_id *bid,
		    struct cache_fs_made *made, struct strbuf *err)
{
	char sbid[SBUILD_ID_SIZE], bucket[16]; /* ".build-id/XX" */
	struct build_id lbid;
	char *target, *linked;
	int bfd, ret = 0;

	build_id__sprintf(bid, sbid);
	snprintf(bucket, sizeof(bucket), ".build-id/%.2s", sbid);
	bfd = cache_fs__open_dir(rootfd, buildid_dir(), bucket, made, err);
	if (bfd < 0)
		return bfd;
	cache_fs__remove_junk(bfd, NULL, false);
	linked = build_id_cache__link_entry(bucket + 10, sbid + 2, &lbid);
	if (!linked) {
		target = link_target(name, bid);
		ret = symlink_replace(target, bfd, sbid + 2);
		free(target);
		ret = ret ? ret : 1;
	}
	free(linked);
	close(bfd);
	return ret;
}

int build_id_cache__add(const char *name, const char *file, const struct build_id *bid, bool force)
{
	static const char *const kept[] = { "elf", "debug", "probes" };
	struct strbuf err = STRBUF_INIT;
	struct cache_fs_made made = { 0 };
	bool mine[ARRAY_SIZE(kept)] = { false };
	char *rel = entry_rel(name, bid), *from;
	int rootfd, dfd = -1, ret;

	rootfd = build_id_cache__root_fd(true, &err);
	if (rootfd < 0) {
		ret = rootfd;
		goto out;
	}
	/* Its writers take turns: what one made, another does not undo. */
	for (int tries = 0; tries < 100; tries++) {
		dfd = cache_fs__open_dir(rootfd, buildid_dir(), rel, &made, &err);
		ret = dfd < 0 ? dfd : cache_fs__lock(dfd, rootfd, rel);
		if (ret <= 0)
			break;
		close(dfd); /* removed by the one before: made again */
		dfd = -1;
		cache_fs__made_release(&made);
	}
	if (ret > 0)
		ret = -EAGAIN;
	if (ret)
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++)
		cache_fs__remove_junk(dfd, kept[i], false);
	ret = file ? keep_file(file, dfd, "elf", force) : 0;
	mine[0] = ret > 0;
	/* Its separate debuginfo, as `debug` (as perf keeps it); not fatal. */
	from = ret >= 0 && file ? system_debug_file(bid) : NULL;
	if (from) {
		int r = keep_file(from, dfd, "debug", force);

		if (r < 0)
			pr_debug("Not keeping %s in the build-id cache\n", from);
		mine[1] = r > 0;
		free(from);
	}
	if (ret >= 0)
		ret = create_empty(dfd, "probes");
	mine[2] = ret > 0;
	/*
	 * The link stays with the entry it leads to, as perf keeps it: a copy
	 * of the build at another path gets its own entry, not the link.  A
	 * missing or dangling one is (re)made.
	 */
	if (ret >= 0)
		ret = add_link(rootfd, name, bid, &made, &err);
	if (ret > 0)
		ret = 0;
	if (ret) {
		/* Only what this call made: another writer's entry stays whole. */
		for (size_t i = 0; i < ARRAY_SIZE(kept); i++)
			if (mine[i])
				unlinkat(dfd, kept[i], 0);
		cache_fs__unmake(rootfd, &made);
	}
out:
	if (dfd >= 0)
		close(dfd); /* releases the lock */
	cache_fs__made_release(&made);
	free(rel);
	return refused(ret, &err);
}

int build_id_cache__remove(const char *name, const struct build_id *bid)
{
	struct strbuf err = STRBUF_INIT, parent = STRBUF_INIT;
	char sbid[SBUILD_ID_SIZE], bucket[16], buf[PATH_MAX];
	char *rel = entry_rel(name, bid), *target = link_target(name, bid), *slash;
	int rootfd, pfd = -1, efd = -1, bfd, ret;
	ssize_t n;

	build_id__sprintf(bid, sbid);
	rootfd = build_id_cache__root_fd(false, &err);
	if (rootfd < 0) {
		ret = rootfd;
		goto out;
	}
	slash = strrchr(rel, '/');
	*slash = '\0';
	strbuf_addf(&parent, "%s/%s", buildid_dir(), rel);
	pfd = cache_fs__open_dir(rootfd, buildid_dir(), rel, NULL, &err);
	/* A writer of it finishes first; one that waits sees it is gone. */
	for (int tries = 0; tries < 100; tries++) {
		efd = pfd < 0 ? pfd : cache_fs__open_dir(pfd, parent.buf, sbid, NULL, &err);
		ret = efd < 0 ? efd : cache_fs__lock(efd, pfd, sbid);
		if (ret <= 0)
			break;
		close(efd);
		efd = -1;
	}
	if (ret > 0)
		ret = -EAGAIN;
	if (ret)
		goto out;
	ret = cache_fs__remove_tree(pfd, sbid);
	if (ret)
		goto out;
	/* The emptied directories of its name, up to the root. */
	while (unlinkat(rootfd, rel, AT_REMOVEDIR) == 0 && (slash = strrchr(rel, '/')))
		*slash = '\0';
	snprintf(bucket, sizeof(bucket), ".build-id/%.2s", sbid);
	bfd = cache_fs__open_dir(rootfd, buildid_dir(), bucket, NULL, &err);
	if (bfd >= 0) {
		n = readlinkat(bfd, sbid + 2, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			if (!strcmp(buf, target) && unlinkat(bfd, sbid + 2, 0) == 0 &&
			    unlinkat(rootfd, bucket, AT_REMOVEDIR) == 0)
				unlinkat(rootfd, ".build-id", AT_REMOVEDIR);
		}
		close(bfd);
	}
	strbuf_reset(&err);
out:
	if (efd >= 0)
		close(efd);
	if (pfd >= 0)
		close(pfd);
	strbuf_release(&parent);
	free(target);
	free(rel);
	return refused(ret, &err);
}

static void entries_append(struct build_id_cache_entry **entries, int *nr, char *name,
			   const struct build_id *bid)
{
	*entries = xrealloc(*entries, (*nr + 1) * sizeof(**entries));
	(*entries)[*nr].name = name;
	(*entries)[*nr].bid = *bid;
	(*nr)++;
}

static int cmp_entries(const void *a, const void *b)
{
	const struct build_id_cache_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return memcmp(x->bid.data, y->bid.data, BUILD_ID_SIZE);
}

/* perf's order of the .build-id links: by build-id (hex), one link each. */
static int cmp_entries_by_bid(const void *a, const void *b)
{
	const struct build_id_cache_entry *x = a, *y = b;
	int c = memcmp(x->bid.data, y->bid.data, BUILD_ID_SIZE);

	return c ? c : strcmp(x->name, y->name);
}

/* NAME from a link target "../../NAME/BID"; NULL when it is not that shape. */
static char *name_from_target(const char *target, const char *sbid)
{
	size_t len = strlen(target), blen = strlen(sbid);
	const char *start;

	if (strncmp(target, "../../", 6) || len < 6 + blen + 2 ||
	    strcmp(target + len - blen, sbid) || target[len - blen - 1] != '/')
		return NULL;
	start = target + 6;
	len = target + len - blen - 1 - start;
	if (start[0] == '[')
		return xstrndup(start, len);
	return xstrndup(start - 1, len + 1); /* keep the '/' before it */
}

/* Does NAME stay where it is put: no "." or ".." component, nothing empty? */
static bool name_is_plain(const char *name)
{
	const char *p = name[0] == '/' ? name + 1 : name;

	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.') || (len == 2 && !strncmp(p, "..", 2)))
			return false;
		p += len + (p[len] == '/');
		if (p[-1] == '/' && !*p)
			return false;
	}
	return true;
}

/* The entry the link @link of the open bucket @bfd leads to, as link_entry. */
static char *link_entry_at(int rootfd, int bfd, const char *bucket, const char *link,
			   struct build_id *bid)
{
	char target[PATH_MAX], sbid[SBUILD_ID_SIZE + 8];
	char *name = NULL, *erel;
	struct stat st;
	ssize_t n = readlinkat(bfd, link, target, sizeof(target) - 1);

	snprintf(sbid, sizeof(sbid), "%s%s", bucket, link);
	/* Resolved by hand, within the root: never where the link says. */
	if (n > 0 && !build_id__from_hex(bid, sbid)) {
		target[n] = '\0';
		build_id__sprintf(bid, sbid);
		name = name_from_target(target, sbid);
	}
	if (name && !name_is_plain(name)) {
		free(name);
		name = NULL;
	}
	if (!name)
		return NULL;
	/*
	 * Only whether it is there: its users open it through the checked
	 * walk and refuse it, by name, when it is another's or a link.
	 */
	erel = entry_rel(name, bid);
	if (fstatat(rootfd, erel, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
		free(name);
		name = NULL;
	}
	free(erel);
	return name;
}

char *build_id_cache__link_entry(const char *bucket, const char *link, struct build_id *bid)
{
	struct strbuf err = STRBUF_INIT, rel = STRBUF_INIT;
	int rootfd = build_id_cache__root_fd(false, &err), bfd;
	char *name = NULL;

	strbuf_addf(&rel, ".build-id/%s", bucket);
	bfd = rootfd < 0 ? -1 : cache_fs__open_dir(rootfd, buildid_dir(), rel.buf, NULL, &err);
	if (bfd >= 0) {
		name = link_entry_at(rootfd, bfd, bucket, link, bid);
		close(bfd);
	}
	strbuf_release(&rel);
	strbuf_release(&err);
	return name;
}

char *build_id_cache__link_dir(const struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE], bucket[3];
	struct build_id lbid;
	char *name, *dir;

	build_id__sprintf(bid, sbid);
	memcpy(bucket, sbid, 2);
	bucket[2] = '\0';
	name = build_id_cache__link_entry(bucket, sbid + 2, &lbid);
	if (!name)
		return NULL;
	dir = build_id_cache__dirname(name, &lbid);
	free(name);
	return dir;
}

/*
 * Open directory @rel of the cache for a walk over every entry: an fd, or
 * -errno; one it refuses is skipped, with one warning.
 */
static int walk_open(int rootfd, const char *rel)
{
	struct strbuf err = STRBUF_INIT;
	int fd;

	if (rootfd < 0)
		return rootfd; /* the root's refusal is told where it is opened */
	fd = cache_fs__open_dir(rootfd, buildid_dir(), rel, NULL, &err);
	if (fd == -CACHE_FS_REFUSED)
		pr_warning("Warning: %s (skipped)\n", err.buf);
	strbuf_release(&err);
	return fd;
}

int build_id_cache__list(struct build_id_cache_entry **entries)
{
	struct strbuf err = STRBUF_INIT;
	char *root = path_join(buildid_dir(), ".build-id");
	int rootfd = build_id_cache__root_fd(false, &err), fd = walk_open(rootfd, ".build-id");
	char **dirs = NULL;
	int nr = 0, ndirs;

	if (rootfd == -CACHE_FS_REFUSED)
		pr_warning("Warning: %s (skipped)\n", err.buf);
	*entries = NULL;
	ndirs = fd < 0 ? 0 : lsdir(root, lsdir_no_dot_filter, &dirs);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < ndirs; i++) {
		char *sub = path_join(root, dirs[i]), *rel = path_join(".build-id", dirs[i]);
		int bfd = walk_open(rootfd, rel), nlinks = 0;
		char **links = NULL;

		if (bfd >= 0)
			nlinks = lsdir(sub, lsdir_no_dot_filter, &links);
		for (int j = 0; j < nlinks; j++) {
			struct build_id bid;
			char *name = link_entry_at(rootfd, bfd, dirs[i], links[j], &bid);

			if (name)
				entries_append(entries, &nr, name, &bid);
		}
		if (nlinks > 0)
			lsdir_free(links, nlinks);
		if (bfd >= 0)
			close(bfd);
		free(rel);
		free(sub);
	}
	if (ndirs > 0)
		lsdir_free(dirs, ndirs);
	strbuf_release(&err);
	free(root);
	if (nr)
		qsort(*entries, nr, sizeof(**entries), cmp_entries_by_bid);
	return nr;
}

bool build_id_cache__entry_current(const struct build_id_cache_entry *ent)
{
	struct build_id bid;

	if (ent->name[0] != '/')
		return true; /* the kernel, a module: not a file of that name */
	return filename__read_build_id(ent->name, &bid) == 0 && build_id__equal(&bid, &ent->bid);
}

int build_id_cache__list_name(const char *name, struct build_id_cache_entry **entries)
{
	char *dir = path_join(buildid_dir(), name);
	char **names;
	int nr = 0, n = lsdir(dir, lsdir_no_dot_filter, &names);

	*entries = NULL;
	for (int i = 0; i < n; i++) {
		struct build_id bid;

		if (!build_id__from_hex(&bid, names[i]))
			entries_append(entries, &nr, xstrdup(name), &bid);
	}
	if (n > 0)
		lsdir_free(names, n);
	free(dir);
	return n < 0 && n != -ENOENT ? n : nr;
}

/* Does @dir look like a cache entry: does it hold what add puts there? */
static bool is_entry_dir(const char *dir)
{
	static const char *const files[] = { "elf", "probes", "kallsyms" };

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = path_join(dir, files[i]);
		bool found = access(path, F_OK) == 0;

		free(path);
		if (found)
			return true;
	}
	return false;
}

/* Directories only (not links): d_type when the file system gives it. */
static bool real_dir_filter(const char *dir, const char *name, unsigned char d_type)
{
	struct stat st;
	char *full;
	bool ret;

	if (d_type != DT_UNKNOWN)
		return d_type == DT_DIR;
	full = path_join(dir, name);
	ret = lstat(full, &st) == 0 && S_ISDIR(st.st_mode);
	free(full);
	return ret;
}

/* Gather the entries below ROOT/@rel ("" for the root itself). */
static void collect_entries(const char *rel, struct build_id_cache_entry **entries, int *nr)
{
	char *dir = path_join(buildid_dir(), rel);
	char **names;
	int n = lsdir(dir, real_dir_filter, &names);

	for (int i = 0; i < n; i++) {
		char *full = path_join(dir, names[i]);
		struct strbuf sub = STRBUF_INIT;
		struct build_id bid;

		if (!*rel && !strcmp(names[i], ".build-id"))
			goto next;
		if (*rel && !build_id__from_hex(&bid, names[i]) && is_entry_dir(full)) {
			/* Absolute names lost their '/' in the join; [kernel.kallsyms] has none. */
			strbuf_addf(&sub, "%s%s", rel[0] == '[' ? "" : "/", rel);
			entries_append(entries, nr, strbuf_detach(&sub, NULL), &bid);
			goto next;
		}
		strbuf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		collect_entries(sub.buf, entries, nr);
	next:
		strbuf_release(&sub);
		free(full);
	}
	if (n > 0)
		lsdir_free(names, n);
	free(dir);
}

int build_id_cache__list_all(struct build_id_cache_entry **entries)
{
	int nr = 0;

	*entries = NULL;
	collect_entries("", entries, &nr);
	if (nr)
		qsort(*entries, nr, sizeof(**entries), cmp_entries);
	return nr;
}

void build_id_cache__free_entries(struct build_id_cache_entry *entries, int nr)
{
	for (int i = 0; i < nr; i++)
		free(entries[i].name);
	free(entries);
}

int build_id_cache__add_debug(const char *name, const struct build_id *bid, const char *file)
{
	struct strbuf err = STRBUF_INIT;
	char *dir = build_id_cache__dirname(name, bid);
	int fd = build_id_cache__open_dir(dir, &err), ret;

	ret = fd < 0 ? fd : link_or_copy(file, fd, "debug");
	if (fd >= 0)
		close(fd);
	free(dir);
	return refused(ret, &err);
}

/* ---- a batch of entries: one walk, each bucket once --------------------- */

struct build_id_batch_link {
	int bucket;   /* the index of its bucket fd */
	char *link;   /* its name there */
	char *target; /* what it was made to lead to */
};

int build_id_cache__batch_init(struct build_id_cache_batch *b, struct strbuf *err)
{
	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < ARRAY_SIZE(b->bucket_fd); i++)
		b->bucket_fd[i] = -1;
	b->rootfd = build_id_cache__root_fd(true, err);
	if (b->rootfd < 0)
		return b->rootfd;
	cache_fs_walk__init(&b->walk, b->rootfd, buildid_dir());
	return 0;
}

/* The bucket .build-id/XX of @sbid, opened (made) and cleaned once per batch. */
static int batch_bucket(struct build_id_cache_batch *b, const char *sbid, struct strbuf *err)
{
	char bucket[16];
	int i = (hexval(sbid[0]) << 4 | hexval(sbid[1])) & 0xff, fd;

	if (b->bucket_fd[i] >= 0)
		return i;
	snprintf(bucket, sizeof(bucket), ".build-id/%.2s", sbid);
	fd = cache_fs__open_dir(b->rootfd, buildid_dir(), bucket, &b->buckets_made, err);
	if (fd < 0)
		return fd;
	cache_fs__remove_junk(fd, NULL, false);
	b->bucket_fd[i] = fd;
	return i;
}

/* The .build-id link of an entry of the batch, made when missing or dangling. */
static int batch_link(struct build_id_cache_batch *b, const char *name, const struct build_id *bid,
		      struct strbuf *err)
{
	char sbid[SBUILD_ID_SIZE], bucket[3];
	struct build_id_batch_link *l;
	struct build_id lbid;
	char *linked, *target;
	int i, ret = 0;

	build_id__sprintf(bid, sbid);
	i = batch_bucket(b, sbid, err);
	if (i < 0)
		return i;
	memcpy(bucket, sbid, 2);
	bucket[2] = '\0';
	linked = link_entry_at(b->rootfd, b->bucket_fd[i], bucket, sbid + 2, &lbid);
	if (linked) {
		free(linked);
		return 0;
	}
	target = link_target(name, bid);
	/* None there (a new build): one symlink; a dangling one is replaced. */
	if (symlinkat(target, b->bucket_fd[i], sbid + 2) < 0)
		ret = errno == EEXIST ? symlink_replace(target, b->bucket_fd[i], sbid + 2) : -errno;
	if (ret) {
		free(target);
		return ret;
	}
	ALLOC_GROW(b->links, b->nr_links + 1, b->alloc_links);
	l = &b->links[b->nr_links++];
	l->bucket = i;
	l->link = xstrdup(sbid + 2);
	l->target = target;
	return 0;
}

int build_id_cache__batch_entry(struct build_id_cache_batch *b, const char *name,
				const struct build_id *bid, bool create, bool *made,
				struct strbuf *err)
{
	char *rel = entry_rel(name, bid), *last = strrchr(rel, '/') + 1;
	int fd = -1, parent = -1, ret = 0;

	*made = false;
	/* Its writers take turns; one removed by the writer before is made again. */
	for (int tries = 0; tries < 100; tries++) {
		fd = cache_fs_walk__open(&b->walk, rel, create, &parent, made, err);
		ret = fd < 0 ? fd : cache_fs__lock(fd, parent, last);
		if (ret <= 0)
			break;
		close(fd);
		fd = -1;
	}
	if (ret > 0)
		ret = -EAGAIN;
	if (!ret && create)
		ret = batch_link(b, name, bid, err);
	if (ret && fd >= 0)
		close(fd);
	free(rel);
	return ret ? ret : fd;
}

void build_id_cache__batch_undo(struct build_id_cache_batch *b)
{
	char buf[PATH_MAX];

	for (int i = b->nr_links - 1; i >= 0; i--) {
		struct build_id_batch_link *l = &b->links[i];
		int bfd = b->bucket_fd[l->bucket];
		ssize_t n = readlinkat(bfd, l->link, buf, sizeof(buf) - 1);

		if (n > 0 && (buf[n] = '\0', !strcmp(buf, l->target)))
			unlinkat(bfd, l->link, 0);
	}
	cache_fs_walk__unmake(&b->walk);
	for (size_t i = 0; i < ARRAY_SIZE(b->bucket_fd); i++) {
		if (b->bucket_fd[i] >= 0)
			close(b->bucket_fd[i]);
		b->bucket_fd[i] = -1;
	}
	cache_fs__unmake(b->rootfd, &b->buckets_made);
	build_id_cache__batch_release(b);
}

void build_id_cache__batch_release(struct build_id_cache_batch *b)
{
	for (int i = 0; i < b->nr_links; i++) {
		free(b->links[i].link);
		free(b->links[i].target);
	}
	free(b->links);
	b->links = NULL;
	b->nr_links = 0;
	for (size_t i = 0; i < ARRAY_SIZE(b->bucket_fd); i++) {
		if (b->bucket_fd[i] >= 0)
			close(b->bucket_fd[i]);
		b->bucket_fd[i] = -1;
	}
	if (b->walk.base)
		cache_fs_walk__release(&b->walk);
	cache_fs__made_release(&b->buckets_made);
}
