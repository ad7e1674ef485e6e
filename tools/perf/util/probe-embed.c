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
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/probe-cache.h"
#include "util/probe-embed.h"
#include "util/probe-limits.h"
#include "util/strbuf.h"
#include "util/util.h"

#define EMBED_MAGIC "perf-probes 1 "

/*
 * Check the text of a section against @bid: 0 with the probes file's text
 * at *@body, or -EBADMSG with a static reason in *@why.  @pc gets its
 * entries (may be NULL).
 */
static int embed_check(const char *text, size_t len, const struct build_id *bid,
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

/* The probes file of @bid in the build-id cache (through its .build-id link). */
static char *cached_probes(const struct build_id *bid)
{
	char *dir = build_id_cache__link_dir(bid), *path;

	if (!dir)
		return NULL;
	path = path_join(dir, "probes");
	free(dir);
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* Copy @from into the new file @fd. */
static int copy_into(const char *from, int fd)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (in < 0)
		return -errno;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, n - off);

			if (w < 0) {
				close(in);
				return -errno;
			}
			off += w;
		}
	}
	close(in);
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

int probe_embed__write(const char *file)
{
	struct strbuf text = STRBUF_INIT, sec = STRBUF_INIT;
	char sbid[2 * BUILD_ID_SIZE + 1], why[256], *probes = NULL, *tmp = NULL;
	const char *body, *elf_why;
	struct probe_cache *pc = probe_cache__new();
	struct build_id bid;
	struct stat st;
	int fd = -1, ifd, ret;

	ret = filename__read_build_id(file, &bid);
	if (ret) {
		pr_err("Error: Failed to read the build-id of %s: %s\n", file,
		       build_id__strerror(ret));
		goto out;
	}
	build_id__sprintf(&bid, sbid);
	probes = cached_probes(&bid);
	if (!probes || strbuf_read_regular(&text, AT_FDCWD, probes, PROBE_CACHE_MAX_FILE) < 0) {
		pr_err("Error: no probe cache of build-id %s (of %s): add its probes with perf probe --cache first\n",
		       sbid, file);
		ret = -ENOENT;
		goto out;
	}
	strbuf_addf(&sec, "%s%s\n", EMBED_MAGIC, sbid);
	strbuf_add(&sec, text.buf, text.len);
	ret = embed_check(sec.buf, sec.len, &bid, pc, &body, why, sizeof(why));
	if (!ret && !pc->nr) {
		snprintf(why, sizeof(why), "it has no entries");
		ret = -ENODATA;
	}
	if (ret) {
		pr_err("Error: not embedding the probe cache %s: %s\n", probes, why);
		goto out;
	}
	if (stat(file, &st)) {
		ret = -errno;
		pr_err("Error: %s: %s\n", file, strerror(-ret));
		goto out;
	}
	/* A copy is changed and renamed over the file: all or nothing. */
	tmp = xmalloc(strlen(file) + 16);
	sprintf(tmp, "%s.embed.XXXXXX", file);
	fd = mkstemp(tmp);
	if (fd < 0 || fchmod(fd, st.st_mode & 07777) || (ret = copy_into(file, fd))) {
		ret = ret ? ret : -errno;
		pr_err("Error: Failed to write a copy of %s: %s\n", file, strerror(-ret));
		goto out;
	}
	ifd = open(file, O_RDONLY | O_CLOEXEC);
	ret = ifd < 0 ? -errno : put_section(ifd, fd, sec.buf, sec.len, &elf_why);
	if (ifd < 0)
		elf_why = strerror(-ret);
	else
		close(ifd);
	if (ret) {
		pr_err("Error: Failed to add the section %s to %s: %s\n", PROBE_EMBED_SECTION, file,
		       elf_why);
		goto out;
	}
	if (fsync(fd) || rename(tmp, file)) {
		ret = -errno;
		pr_err("Error: Failed to replace %s: %s\n", file, strerror(-ret));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	pr_info("Embedded %d cached probe entries of build-id %s into %s\n", pc->nr, sbid, file);
out:
	if (fd >= 0)
		close(fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(probes);
	probe_cache__close(pc);
	strbuf_release(&text);
	strbuf_release(&sec);
	return ret;
}

/* Keep the entries of @from as (part of) the probe cache of @name/@bid. */
static int keep_cache(const char *name, const char *file, const struct build_id *bid,
		      const struct probe_cache *from)
{
	struct strbuf err = STRBUF_INIT;
	struct probe_cache *pc;
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
	free(dir);
	strbuf_release(&err);
	return ret;
}

int probe_embed__fetch(const char *name, const char *file, const struct build_id *bid)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *body;
	struct strbuf text = STRBUF_INIT;
	struct probe_cache *pc;
	char sbid[2 * BUILD_ID_SIZE + 1], why[256], *path;
	int ret;

	if (!urls || !*urls)
		return 1;
	build_id__sprintf(bid, sbid);
	ret = debuginfod__find_section(bid, NULL, PROBE_EMBED_SECTION, &path);
	if (ret) {
		pr_debug("debuginfod: no section %s of %s: %s\n", PROBE_EMBED_SECTION, sbid,
			 strerror(-ret));
		return 1;
	}
	ret = strbuf_read_file(&text, path);
	free(path);
	if (ret < 0) {
		strbuf_release(&text);
		return 1;
	}
	pc = probe_cache__new();
	ret = embed_check(text.buf, text.len, bid, pc, &body, why, sizeof(why));
	if (ret) {
		pr_warning(
			"Warning: not using the probe cache section of build-id %s from %s (%s): using the debuginfo\n",
			sbid, debuginfod__last_url(), why);
	} else {
		ret = keep_cache(name, file, bid, pc);
		if (ret)
			pr_warning(
				"Warning: Failed to keep the probe cache section of build-id %s: %s\n",
				sbid, strerror(-ret));
		else
			pr_debug("debuginfod: %d probe cache entries of %s from %s\n", pc->nr, sbid,
				 debuginfod__last_url());
	}
	probe_cache__close(pc);
	strbuf_release(&text);
	return ret ? 1 : 0;
}
