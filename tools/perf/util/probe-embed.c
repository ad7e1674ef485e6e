// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/cache-fs.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/probe-cache.h"
#include "util/probe-embed.h"
#include "util/probe-limits.h"
#include "util/strbuf.h"
#include "util/util.h"

#define EMBED_MAGIC "perf-probes 1 "

int probe_embed__parse(const char *text, size_t len, const struct build_id *bid,
		       struct probe_cache *pc, const char **body, char *why, size_t whylen)
{
	char sbid[2 * BUILD_ID_SIZE + 1];
	const char *nl = memchr(text, '\n', len), *r;
	size_t mlen = strlen(EMBED_MAGIC);
	int line;

	build_id__sprintf(bid, sbid);
	if (!nl || (size_t)(nl - text) < mlen || memcmp(text, EMBED_MAGIC, mlen)) {
		snprintf(why, whylen, "it does not start with \"%sBUILDID\"", EMBED_MAGIC);
		return -EBADMSG;
	}
	if ((size_t)(nl - text) != mlen + strlen(sbid) || memcmp(text + mlen, sbid, strlen(sbid))) {
		snprintf(why, whylen, "it names the build-id %.*s", (int)(nl - text - mlen),
			 text + mlen);
		return -EBADMSG;
	}
	*body = nl + 1;
	if (pc && probe_cache__parse(pc, nl + 1, len - (nl + 1 - text), &line, &r)) {
		snprintf(why, whylen, "line %d: %s", line + 1, r);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The probes file of @bid in the build-id cache (through its .build-id
 * link), read through the checked walk: 0, or -errno (-CACHE_FS_REFUSED
 * with the line in @err).
 */
static int cached_probes(const struct build_id *bid, struct strbuf *text, char **path,
			 struct strbuf *err)
{
	char *dir = build_id_cache__link_dir(bid);
	int fd, ret;

	*path = NULL;
	if (!dir)
		return -ENOENT;
	*path = path_join(dir, "probes");
	fd = build_id_cache__open_dir(dir, err);
	ret = fd < 0 ? fd : cache_fs__check_file(fd, dir, "probes", err);
	if (!ret)
		ret = strbuf_read_regular(text, fd, "probes", PROBE_CACHE_MAX_FILE);
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

/* Copy all of @in (from its start) into the new file @fd. */
static int copy_into(int in, int fd)
{
	char buf[65536];
	off_t at = 0;
	ssize_t n;

	while ((n = pread(in, buf, sizeof(buf), at)) > 0) {
		int ret = write_all(fd, buf, n);

		if (ret)
			return ret;
		at += n;
	}
	return n < 0 ? -errno : 0;
}

/* A copy of the section @from of @in as a new last section of @out. */
static Elf_Data *copy_section(Elf *out, Elf_Scn *from, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_newscn(out);
	Elf_Data *rd = NULL, *nd;

	if (!scn || !gelf_update_shdr(scn, sh))
		return NULL;
	if (!from)
		return elf_newdata(scn);
	while ((rd = elf_rawdata(from, rd))) {
		nd = elf_newdata(scn);
		if (!nd)
			return NULL;
		nd->d_buf = rd->d_buf;
		nd->d_size = rd->d_size;
		nd->d_type = ELF_T_BYTE;
		nd->d_off = rd->d_off;
		nd->d_align = rd->d_align ? rd->d_align : 1;
		nd->d_version = EV_CURRENT;
	}
	return elf_getdata(scn, NULL) ? elf_getdata(scn, NULL) : elf_newdata(scn);
}

/*
 * Write the ELF file @in (open at @ifd) to @ofd with @data as its section
 * PROBE_EMBED_SECTION, replacing the one there.  Every other section
 * keeps its offset and bytes: the new section (and a grown section name
 * table) go after the last of them, the section headers after that.
 */
static int put_section(int ifd, int ofd, const char *data, size_t len, const char **why)
{
	Elf_Scn *scn = NULL, *found = NULL;
	Elf *in, *out = NULL;
	Elf_Data *d;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	GElf_Shdr sh;
	size_t shstrndx, shnum, nlen = strlen(PROBE_EMBED_SECTION) + 1;
	uint64_t end;
	char *names = NULL;
	int ret = -EINVAL;

	elf_version(EV_CURRENT);
	in = elf_begin(ifd, ELF_C_READ, NULL);
	*why = "not an ELF file";
	if (!in || elf_kind(in) != ELF_K_ELF || !gelf_getehdr(in, &eh))
		goto out;
	*why = "it has no section name table";
	if (elf_getshdrstrndx(in, &shstrndx) || !shstrndx || elf_getshdrnum(in, &shnum) ||
	    shnum >= SHN_LORESERVE - 1 || shstrndx >= SHN_LORESERVE)
		goto out;
	end = eh.e_ehsize;
	if (eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > end)
		end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	while ((scn = elf_nextscn(in, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			goto out;
		name = elf_strptr(in, shstrndx, sh.sh_name);
		if (name && !strcmp(name, PROBE_EMBED_SECTION))
			found = scn;
	}
	while ((scn = elf_nextscn(in, scn))) {
		if (scn == found || (!found && elf_ndxscn(scn) == shstrndx) ||
		    !gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > end)
			end = sh.sh_offset + sh.sh_size;
	}
	out = elf_begin(ofd, ELF_C_WRITE, NULL);
	*why = elf_errmsg(-1);
	if (!out || !gelf_newehdr(out, gelf_getclass(in)))
		goto out;
	if (eh.e_phnum) {
		if (!gelf_newphdr(out, eh.e_phnum))
			goto out;
		for (int i = 0; i < eh.e_phnum; i++)
			if (!gelf_getphdr(in, i, &ph) || !gelf_update_phdr(out, i, &ph))
				goto out;
	}
	while ((scn = elf_nextscn(in, scn))) {
		if (!gelf_getshdr(scn, &sh))
			goto out;
		if (scn == found) {
			/* Keep its index; its bytes go at the end. */
			d = copy_section(out, NULL, &sh);
		} else if (!found && elf_ndxscn(scn) == shstrndx) {
			/* The new section's name goes at the end of the names, moved last. */
			Elf_Data *rd = elf_rawdata(scn, NULL);

			if (!rd)
				goto out;
			names = xmalloc(rd->d_size + nlen);
			memcpy(names, rd->d_buf, rd->d_size);
			memcpy(names + rd->d_size, PROBE_EMBED_SECTION, nlen);
			sh.sh_offset = end;
			sh.sh_size = rd->d_size + nlen;
			end += sh.sh_size;
			d = copy_section(out, NULL, &sh);
			if (d) {
				d->d_buf = names;
				d->d_size = sh.sh_size;
				d->d_type = ELF_T_BYTE;
				d->d_align = 1;
				d->d_version = EV_CURRENT;
			}
		} else {
			d = copy_section(out, scn, &sh);
		}
		if (!d)
			goto out;
		if (scn == found) {
			d->d_buf = (void *)data;
			d->d_size = len;
			d->d_type = ELF_T_BYTE;
			d->d_align = 1;
			d->d_version = EV_CURRENT;
			sh.sh_offset = end;
			sh.sh_size = len;
			sh.sh_type = SHT_PROGBITS;
			sh.sh_flags = 0;
			sh.sh_addralign = 1;
			end += len;
			if (!gelf_update_shdr(elf_getscn(out, elf_ndxscn(scn)), &sh))
				goto out;
		}
	}
	if (!found) {
		memset(&sh, 0, sizeof(sh));
		sh.sh_name = sh.sh_size = 0;
		if (!gelf_getshdr(elf_getscn(out, shstrndx), &sh))
			goto out;
		sh.sh_name = sh.sh_size - nlen;
		sh.sh_type = SHT_PROGBITS;
		sh.sh_flags = 0;
		sh.sh_addr = 0;
		sh.sh_offset = end;
		sh.sh_size = len;
		sh.sh_link = sh.sh_info = 0;
		sh.sh_addralign = 1;
		sh.sh_entsize = 0;
		end += len;
		d = copy_section(out, NULL, &sh);
		if (!d)
			goto out;
		d->d_buf = (void *)data;
		d->d_size = len;
		d->d_type = ELF_T_BYTE;
		d->d_align = 1;
		d->d_version = EV_CURRENT;
	}
	eh.e_shoff = (end + 7) & ~(uint64_t)7;
	if (!gelf_update_ehdr(out, &eh))
		goto out;
	elf_flagelf(out, ELF_C_SET, ELF_F_LAYOUT);
	if (elf_update(out, ELF_C_WRITE) < 0) {
		*why = elf_errmsg(-1);
		goto out;
	}
	ret = 0;
out:
	if (ret && out && !*why)
		*why = elf_errmsg(-1);
	elf_end(out);
	elf_end(in);
	free(names);
	return ret;
}

/*
 * FILE of --embed, as root may rewrite it: its directory reached as the
 * cache root is (links of yours or root's only) and trusted (owned by you
 * or root, writable by nobody else, so nobody can swap FILE or its copy
 * meanwhile), FILE a regular file owned by you or root, judged before it
 * is opened (a FIFO or a device is never opened, so never waited on) and
 * opened O_NOFOLLOW.  0 with *@dirfd, *@fd, *@st and *@base (in @file);
 * -errno after one line on stderr.
 */
static int open_embed_target(const char *file, int *dirfd, int *fd, struct stat *st,
			     const char **base)
{
	struct strbuf err = STRBUF_INIT;
	const char *slash = strrchr(file, '/');
	char *dir =
		slash ? xstrndup(file, slash == file ? 1 : (size_t)(slash - file)) : xstrdup(".");
	struct stat now;
	int ret;

	*fd = -1;
	*base = slash ? slash + 1 : file;
	*dirfd = cache_fs__open_root(dir, false, &err);
	ret = *dirfd < 0 ? *dirfd : 0;
	if (ret == -CACHE_FS_REFUSED) {
		pr_err("Error: not embedding into %s: %s\n", file, err.buf);
		goto out;
	}
	if (!ret && (!**base || !strcmp(*base, ".") || !strcmp(*base, "..")))
		ret = -EISDIR;
	if (!ret && fstatat(*dirfd, *base, st, AT_SYMLINK_NOFOLLOW) < 0)
		ret = -errno;
	if (ret) {
		pr_err("Error: %s: %s\n", file, strerror(-ret));
		goto out;
	}
	ret = -CACHE_FS_REFUSED;
	if (!S_ISREG(st->st_mode)) {
		pr_err("Error: not embedding into %s: %s, not a regular file\n", file,
		       cache_fs__kind(st));
		goto out;
	}
	if (!cache_fs__owned(st)) {
		cache_fs__why_untrusted(file, st, &err);
		pr_err("Error: not embedding into %s: %s\n", file, err.buf);
		goto out;
	}
	*fd = openat(*dirfd, *base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0 || fstat(*fd, &now) < 0) {
		ret = -errno;
		pr_err("Error: %s: %s\n", file, strerror(-ret));
		goto out;
	}
	if (!S_ISREG(now.st_mode) || now.st_ino != st->st_ino || now.st_dev != st->st_dev) {
		pr_err("Error: not embedding into %s: it changed while it was opened\n", file);
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		if (*fd >= 0)
			close(*fd);
		if (*dirfd >= 0)
			close(*dirfd);
		*fd = *dirfd = -1;
	}
	free(dir);
	strbuf_release(&err);
	return ret;
}

/* The build-id of the ELF file open at @fd (@size bytes): 0 or -errno. */
static int fd_build_id(int fd, uint64_t size, struct build_id *bid)
{
	Elf *elf;
	int ret;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = -ENOEXEC;
	else
		ret = elf__read_build_id(elf, size, bid);
	elf_end(elf);
	return ret;
}

int probe_embed__write(const char *file)
{
	struct strbuf text = STRBUF_INIT, sec = STRBUF_INIT, tmp = STRBUF_INIT, err = STRBUF_INIT;
	char sbid[2 * BUILD_ID_SIZE + 1], why[256], *probes = NULL;
	const char *body, *elf_why, *base;
	struct probe_cache *pc = probe_cache__new();
	struct build_id bid;
	struct stat st;
	int dirfd, ifd, fd = -1, ret;

	ret = open_embed_target(file, &dirfd, &ifd, &st, &base);
	if (ret)
		goto out;
	ret = fd_build_id(ifd, st.st_size, &bid);
	if (ret) {
		pr_err("Error: Failed to read the build-id of %s: %s\n", file,
		       build_id__strerror(ret));
		goto out;
	}
	build_id__sprintf(&bid, sbid);
	ret = cached_probes(&bid, &text, &probes, &err);
	if (ret == -CACHE_FS_REFUSED) {
		pr_err("Error: %s\n", err.buf);
		goto out;
	}
	if (ret) {
		pr_err("Error: no probe cache of build-id %s (of %s): add its probes with perf probe --cache first\n",
		       sbid, file);
		ret = -ENOENT;
		goto out;
	}
	strbuf_addf(&sec, "%s%s\n", EMBED_MAGIC, sbid);
	strbuf_add(&sec, text.buf, text.len);
	ret = probe_embed__parse(sec.buf, sec.len, &bid, pc, &body, why, sizeof(why));
	if (!ret && !pc->nr) {
		snprintf(why, sizeof(why), "it has no entries");
		ret = -ENODATA;
	}
	if (!ret && sec.len > PROBE_EMBED_MAX_SECTION) {
		snprintf(why, sizeof(why),
			 "the section would be %zu bytes, over the %u MiB a host takes", sec.len,
			 PROBE_EMBED_MAX_SECTION >> 20);
		ret = -EFBIG;
	}
	if (ret) {
		pr_err("Error: not embedding the probe cache %s: %s\n", probes, why);
		goto out;
	}
	/*
	 * A copy is changed and renamed over the file: all or nothing.  It
	 * keeps FILE's permissions but never a set-user/group-ID bit: root's
	 * copy of a setuid file would be a setuid-root program.
	 */
	fd = cache_fs__open_tmp(dirfd, base, st.st_mode & 0777, &tmp);
	if (fd >= 0 && fchown(fd, -1, st.st_gid) < 0)
		pr_debug("embed: %s keeps the group %u: %s\n", file, (unsigned int)getegid(),
			 strerror(errno));
	ret = fd < 0 ? fd : copy_into(ifd, fd);
	if (ret) {
		pr_err("Error: Failed to write a copy of %s: %s\n", file, strerror(-ret));
		goto out;
	}
	ret = put_section(ifd, fd, sec.buf, sec.len, &elf_why);
	if (ret) {
		pr_err("Error: Failed to add the section %s to %s: %s\n", PROBE_EMBED_SECTION, file,
		       elf_why);
		goto out;
	}
	if (fsync(fd) || renameat(dirfd, tmp.buf, dirfd, base)) {
		ret = -errno;
		pr_err("Error: Failed to replace %s: %s\n", file, strerror(-ret));
		goto out;
	}
	strbuf_reset(&tmp);
	pr_info("Embedded %d cached probe entries of build-id %s into %s\n", pc->nr, sbid, file);
out:
	if (fd >= 0)
		close(fd);
	if (tmp.len)
		unlinkat(dirfd, tmp.buf, 0);
	if (ifd >= 0)
		close(ifd);
	if (dirfd >= 0)
		close(dirfd);
	free(probes);
	probe_cache__close(pc);
	strbuf_release(&text);
	strbuf_release(&sec);
	strbuf_release(&tmp);
	strbuf_release(&err);
	return ret;
}

/*
 * Keep the entries of @from as (part of) the probe cache of @name/@bid;
 * an entry this made is taken back when that fails.
 */
static int keep_cache(const char *name, const char *file, const struct build_id *bid,
		      const struct probe_cache *from)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
	bool had = build_id_cache__cached(name, bid);
	char *dir;
	int ret = build_id_cache__add(name, file, bid, false);

	if (ret && ret != -EEXIST)
		return ret;
	dir = build_id_cache__dirname(name, bid);
	ret = probe_cache__open(dir, true, &pc, &err);
	if (!ret) {
		for (int i = 0; i < from->nr; i++) {
			const struct probe_cache_entry *e = &from->entries[i];

			if (!probe_cache__find(pc, e->sdt, e->spec))
				probe_cache__add_entry(pc, e->sdt, e->spec, e->lines, e->nr_lines);
		}
		ret = probe_cache__commit(pc);
		probe_cache__close(pc);
	}
	if (ret && !had)
		build_id_cache__remove(name, bid);
	free(dir);
	strbuf_release(&err);
	return ret;
}

/*
 * The entries of @all that @check passes, into @good; the first refusal
 * ("line N: reason", N a line of the section) in @why, and their count.
 */
static int checked_entries(const struct probe_cache *all, probe_embed_check_fn check, void *ctx,
			   struct probe_cache *good, struct strbuf *why)
{
	struct strbuf reason = STRBUF_INIT;
	int refused = 0;

	for (int i = 0; i < all->nr; i++) {
		const struct probe_cache_entry *e = &all->entries[i];
		int line = 0;

		strbuf_reset(&reason);
		if (check && check(ctx, e, &line, &reason)) {
			if (!refused++)
				/* +1: the section's first line is its "perf-probes 1 ID" */
				strbuf_addf(why, "line %d: %s", (line ? line : e->header_no) + 1,
					    reason.buf);
			continue;
		}
		probe_cache__add_entry(good, e->sdt, e->spec, e->lines, e->nr_lines);
	}
	strbuf_release(&reason);
	return refused;
}

int probe_embed__fetch(const char *name, const char *file, const struct build_id *bid,
		       probe_embed_check_fn check, void *ctx)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *body;
	struct strbuf text = STRBUF_INIT, refusal = STRBUF_INIT;
	struct probe_cache *all = probe_cache__new(), *good = probe_cache__new();
	char sbid[2 * BUILD_ID_SIZE + 1], why[256], *path = NULL;
	int ret, refused = 0;

	if (!urls || !*urls)
		goto out_none;
	build_id__sprintf(bid, sbid);
	ret = debuginfod__find_section(bid, NULL, PROBE_EMBED_SECTION, PROBE_EMBED_MAX_SECTION,
				       &path);
	/* Bounded twice: the download, and what is read of a file cached before. */
	if (!ret)
		ret = strbuf_read_regular(&text, AT_FDCWD, path, PROBE_EMBED_MAX_SECTION);
	if (ret == -EFBIG) {
		snprintf(why, sizeof(why), "it is larger than %u MiB",
			 PROBE_EMBED_MAX_SECTION >> 20);
	} else if (ret == -EINVAL) {
		snprintf(why, sizeof(why), "%s is not a regular file", path);
	} else if (ret) {
		pr_debug("debuginfod: no section %s of %s: %s\n", PROBE_EMBED_SECTION, sbid,
			 strerror(-ret));
		goto out_none;
	} else {
		ret = probe_embed__parse(text.buf, text.len, bid, all, &body, why, sizeof(why));
	}
	if (!ret && !all->nr) {
		snprintf(why, sizeof(why), "it has no entries");
		ret = -ENODATA;
	}
	/* Every entry is checked before anything is kept: only those that pass are. */
	if (!ret) {
		refused = checked_entries(all, check, ctx, good, &refusal);
		if (!good->nr) {
			snprintf(why, sizeof(why), "%s", refusal.buf);
			ret = -EBADMSG;
		}
	}
	if (ret) {
		pr_warning(
			"Warning: not using the probe cache section of build-id %s from %s (%s): using the debuginfo\n",
			sbid, debuginfod__last_url(), why);
		goto out_none;
	}
	if (refused)
		pr_warning(
			"Warning: not using %d of the %d entries of the probe cache section of build-id %s from %s (%s)\n",
			refused, all->nr, sbid, debuginfod__last_url(), refusal.buf);
	ret = keep_cache(name, file, bid, good);
	if (ret) {
		pr_warning("Warning: Failed to keep the probe cache section of build-id %s: %s\n",
			   sbid, strerror(-ret));
		goto out_none;
	}
	pr_debug("debuginfod: %d probe cache entries of %s from %s\n", good->nr, sbid,
		 debuginfod__last_url());
	ret = 0;
	goto out;
out_none:
	ret = 1;
out:
	free(path);
	probe_cache__close(all);
	probe_cache__close(good);
	strbuf_release(&text);
	strbuf_release(&refusal);
	return ret;
}
