/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_BUILD_ID_H
#define PERF_UTIL_BUILD_ID_H

/*
 * Build-ids (the GNU build-id note of an ELF file, of the running kernel
 * and of its modules) and the build-id cache (~/.debug) that keeps files
 * by name and build-id.
 *
 * Owns: reading build-ids, the cache's directory layout, adding,
 * removing and listing its entries.  What an entry holds besides `elf`
 * (the probes file) belongs to probe-cache.
 * May call: elf-util (open, notes), config (buildid.dir), util, strbuf,
 * debug.  Nothing of the probe stages.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/cache-fs.h"
#include "util/strbuf.h"

struct Elf;

#define BUILD_ID_SIZE 20
#define SBUILD_ID_SIZE (BUILD_ID_SIZE * 2 + 1)

/* The name under which the running kernel is kept in the build-id cache. */
#define KERNEL_CACHE_NAME "[kernel.kallsyms]"

struct build_id {
	unsigned char data[BUILD_ID_SIZE];
	size_t size;
};

/* Lower-case hex of @bid into @buf (SBUILD_ID_SIZE bytes); returns its length. */
int build_id__sprintf(const struct build_id *bid, char *buf);
/* Parse a hex build-id of 2..40 digits; 0 or -EINVAL. */
int build_id__from_hex(struct build_id *bid, const char *hex);
/* Same size and bytes? */
bool build_id__equal(const struct build_id *a, const struct build_id *b);

/*
 * Find the GNU build-id note (NT_GNU_BUILD_ID, name "GNU") in a buffer of
 * ELF notes.  @swap: the notes are in the other byte order.  @align: 4 or 8,
 * the padding of name and descriptor.  Returns 0, -ENODATA when there is no
 * build-id note, or -EBADMSG when a note header points past the buffer or the
 * build-id is empty or longer than BUILD_ID_SIZE.
 */
int elf_notes__find_build_id(const void *notes, size_t len, bool swap, size_t align,
			     struct build_id *bid);

/*
 * The build-id of the ELF file at @path, of either class and byte order,
 * from its note sections or, without sections, its PT_NOTE segments.
 * Returns 0 or -errno: -ENOENT, -EISDIR, -ENOEXEC (not ELF), -EBADMSG
 * (truncated or malformed), -EPROTO (its EI_CLASS does not fit its header
 * sizes), -ENODATA (no build-id).
 */
int filename__read_build_id(const char *path, struct build_id *bid);
/* The same of a file already open in libelf (@size: the file's size). */
int elf__read_build_id(struct Elf *elf, uint64_t size, struct build_id *bid);

/* The build-id in a sysfs notes file (native byte order); as above. */
int sysfs__read_build_id(const char *path, struct build_id *bid);
/* The running kernel's build-id, from /sys/kernel/notes. */
int kernel__read_build_id(struct build_id *bid);
/* A loaded module's, from /sys/module/<name>/notes/.note.gnu.build-id. */
int module__read_build_id(const char *name, struct build_id *bid);

/* A message for the errors the readers above return. */
const char *build_id__strerror(int err);

/*
 * Is the ELF file @path (a debuginfo file, from debuginfod or a cache)
 * of the build @want?  0 when it is; -ESTALE when its build-id is
 * another ("PATH has build-id X, not Y" appended to @why), or the error
 * of reading it ("PATH: reason" appended).
 */
int build_id__check_file(const char *path, const struct build_id *want, struct strbuf *why);

/*
 * The build-id cache.  Its root is $PERF_BUILDID_DIR, else buildid.dir of
 * the perf config, else ~/.debug.  An entry for file NAME (an absolute path
 * or KERNEL_CACHE_NAME) with build-id BID is the directory ROOT/NAME/BID
 * holding `elf` (a hard link or copy of the file) and `probes` (the probe
 * cache), and the symlink ROOT/.build-id/<2 hex>/<rest> -> ../../NAME/BID.
 */
const char *buildid_dir(void);

/* ROOT/NAME/BID and ROOT/.build-id/xx/yyyy, new strings. */
char *build_id_cache__dirname(const char *name, const struct build_id *bid);
/* The .build-id link of @bid (see above). */
char *build_id_cache__linkname(const struct build_id *bid);
/*
 * The entry directory the .build-id link of @bid leads to, resolved by
 * hand inside the root (a target with ".." or leaving it is no link), or
 * NULL.  Never follow the link itself.
 */
char *build_id_cache__link_dir(const struct build_id *bid);

/*
 * The cache root, opened and checked once per command (cache-fs.h's trust
 * rule), made with @create when missing: an fd kept open, or -errno
 * (-CACHE_FS_REFUSED with the line in @err).
 */
int build_id_cache__root_fd(bool create, struct strbuf *err);
/*
 * Open the directory @dir (a path in the cache, as build_id_cache__dirname()
 * gives) through the root fd, never following a link, every directory on
 * the way checked.  An fd or -errno, as cache_fs__open_dir().
 */
int build_id_cache__open_dir(const char *dir, struct strbuf *err);
/*
 * The words for an error of add, remove, add_debug: the refusal line for
 * -CACHE_FS_REFUSED ("refusing PATH: owned by ..."), else strerror().
 */
const char *build_id_cache__strerror(int err);

/* Is there an entry for NAME with BID? */
bool build_id_cache__cached(const char *name, const struct build_id *bid);

/*
 * Add the entry for NAME with BID, taking the content from @file (NULL: no
 * `elf`, as for the kernel).  With @force an existing `elf` is replaced.
 * A file's separate debuginfo, /usr/lib/debug/.build-id/xx/yyyy.debug of
 * the same build-id, is kept as `debug` beside it, as perf keeps it.
 * The .build-id link is made only when there is none or it dangles: as with
 * perf, it keeps leading to the first name the build was cached under.
 * Either the whole entry is there afterwards or, on error, nothing this call
 * created.  0 or -errno.
 */
int build_id_cache__add(const char *name, const char *file, const struct build_id *bid, bool force);

/*
 * A batch of entries opened at once (perf probe --cache --import): one walk
 * shared by them (cache_fs_walk, so give them sorted by name), each
 * .build-id bucket opened and cleaned of junk once, and what the batch made
 * (directories, .build-id links) noted so that a batch that fails can take
 * it back.
 */
struct build_id_batch_link;

struct build_id_cache_batch {
	int rootfd;
	struct cache_fs_walk walk;
	struct cache_fs_made buckets_made;
	int bucket_fd[256];
	struct build_id_batch_link *links; /* the links made */
	int nr_links, alloc_links;
};

/* Start a batch: the root opened (made when missing) and checked.  0 or -errno. */
int build_id_cache__batch_init(struct build_id_cache_batch *b, struct strbuf *err);
/*
 * Open and lock (exclusive, waiting) the entry of NAME with BID.  With
 * @create it is made as build_id_cache__add(NAME, NULL, BID, false) makes
 * it, but without the empty probes file (the caller writes one): missing
 * directories, and the .build-id link when missing or dangling; *@made
 * says whether the entry's own directory was made now.  Returns the
 * entry's fd (closing it unlocks) or -errno (-CACHE_FS_REFUSED with the
 * line in @err).
 */
int build_id_cache__batch_entry(struct build_id_cache_batch *b, const char *name,
				const struct build_id *bid, bool create, bool *made,
				struct strbuf *err);
/*
 * Take back what the batch made: the links it made (when they still lead
 * where it made them lead) and the directories (when empty).
 */
void build_id_cache__batch_undo(struct build_id_cache_batch *b);
/* Close and free the batch, keeping what it made. */
void build_id_cache__batch_release(struct build_id_cache_batch *b);

/*
 * Remove the entry of NAME with BID, the .build-id link when it points to
 * it, and the directories that become empty.  0, -ENOENT or -errno.
 */
int build_id_cache__remove(const char *name, const struct build_id *bid);

/*
 * Keep @file (a debuginfo file, e.g. fetched from debuginfod) as the
 * entry's `debug`, next to `elf`.  The entry must exist.  0 or -errno.
 */
int build_id_cache__add_debug(const char *name, const struct build_id *bid, const char *file);

struct build_id_cache_entry {
	char *name;
	struct build_id bid;
};

/*
 * The entry of the link .build-id/@bucket/@link: its NAME (allocated) and
 * *@bid, or NULL when the link is not "../../NAME/BID" of its own name or
 * its entry is gone.
 */
char *build_id_cache__link_entry(const char *bucket, const char *link, struct build_id *bid);
/*
 * Every entry of the cache, found through the .build-id links (dangling
 * ones skipped), sorted by build-id as perf lists them (one link, so one
 * entry, per build-id).  Returns the count or -errno; free with
 * build_id_cache__free_entries().
 */
int build_id_cache__list(struct build_id_cache_entry **entries);

/*
 * Does the entry's binary still have its build-id (perf lists only those:
 * not a file rebuilt or removed since)?  Entries not named by a path (the
 * kernel, modules) are.
 */
bool build_id_cache__entry_current(const struct build_id_cache_entry *ent);

/* The build-ids cached for NAME (every BID directory under ROOT/NAME). */
int build_id_cache__list_name(const char *name, struct build_id_cache_entry **entries);

/*
 * Every entry in the cache tree, whether a .build-id link leads to it or
 * not: a build-id cached under two names has one link, to the first one
 * added.  Returns the count; free as above.
 */
int build_id_cache__list_all(struct build_id_cache_entry **entries);

/* Free what the listings above returned. */
void build_id_cache__free_entries(struct build_id_cache_entry *entries, int nr);

#endif
