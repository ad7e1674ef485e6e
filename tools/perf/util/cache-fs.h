/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_CACHE_FS_H
#define PERF_UTIL_CACHE_FS_H

/*
 * Files of a cache that root writes and others might steer: every path is
 * walked from a directory fd, one component at a time, never following a
 * link (openat O_NOFOLLOW|O_DIRECTORY, mkdirat for the missing ones), and
 * every directory and file on the way must be trusted, as ssh and sudo
 * want theirs: owned by the effective user or root, not writable by group
 * or others.  Removal never crosses a link (an fd-based walk, unlinkat).
 *
 * Owns: the trust rule and its one wording, the fd-based walk (and the
 * check of a whole path whose links are followed), making and
 * unmaking directories, temporary files named NAME.tmp.PID.N and the
 * removal of those of dead writers, fd-relative atomic writes.
 * May call: util, strbuf, debug.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "util/strbuf.h"

/*
 * The error of a path refused by the trust rule (its line is in @err):
 * "permission denied", perf probe's exit status 243.
 */
#define CACHE_FS_REFUSED EACCES

/* Junk of a writer whose PID is alive is still removed when older than this. */
#define CACHE_FS_JUNK_AGE_SEC (24 * 3600)

/* Is @st owned by the effective user or root, and not group/other-writable? */
bool cache_fs__trusted(const struct stat *st);
/* Is @st owned by the effective user or root (the first half of the rule)? */
bool cache_fs__owned(const struct stat *st);

/*
 * Append to @err why @path (whose stat is @st) is not trusted, and how to
 * fix it: "refusing PATH: owned by uid N (NAME), not by you or root; chown
 * or remove it".
 */
void cache_fs__why_untrusted(const char *path, const struct stat *st, struct strbuf *err);

/*
 * Open the cache root @root and check it.  A symbolic link on the way to
 * it (@root itself or a directory above) is followed only when it is owned
 * by the effective user or root, the rule of everything below the root:
 * another user's link (~/.debug -> /etc of a HOME that sudo -E kept) is
 * refused with the line naming it and its owner.  With @create, missing
 * directories are made (mode 0755).  An fd, or -errno; -CACHE_FS_REFUSED
 * with the line in @err.
 */
int cache_fs__open_root(const char *root, bool create, struct strbuf *err);

/* The directories a walk made, relative to its start, to undo on failure. */
struct cache_fs_made {
	char **rel;
	int nr, alloc;
};

/*
 * Open directory @rel ("a/b/c"; "" for @dirfd itself) below @dirfd, whose
 * path is @base (for messages), one component at a time without following
 * links, each directory checked.  With @made, missing ones are created
 * (mode 0755) and noted there.  An fd, or -errno: -CACHE_FS_REFUSED with
 * the line in @err for an untrusted directory or a link in the way.
 */
int cache_fs__open_dir(int dirfd, const char *base, const char *rel, struct cache_fs_made *made,
		       struct strbuf *err);

/*
 * Forget the directories kept from the last walk (cache_fs__open_dir()
 * starts the next one below them): after a directory of the cache was
 * removed.  Removals through this file do it themselves.
 */
void cache_fs__forget(void);

/*
 * Remove the directories of @made below @dirfd, deepest first, each only
 * when it is empty (what another writer put there stays), and free it.
 */
void cache_fs__unmake(int dirfd, struct cache_fs_made *made);
/*
 * Take the exclusive lock of directory @fd and make sure it is still the
 * one at @rel of @dirfd: one removed meanwhile by a writer that held the
 * lock before is seen by nobody, and what is written there is lost.  0
 * (locked), 1 (moved or gone: close it and open again), or -errno.
 */
int cache_fs__lock(int fd, int dirfd, const char *rel);
/* Free @made, keeping the directories. */
void cache_fs__made_release(struct cache_fs_made *made);

/*
 * A walk shared by many paths below one directory (a batch of cache
 * entries, sorted): the directories it shares with the path before are
 * kept open, so each is opened and checked once while the paths stay
 * below it, not once per path.  Missing directories may be made (noted in
 * @made, for cache_fs_walk__unmake()).
 */
struct cache_fs_walk {
	int dirfd;    /* where every path starts; borrowed */
	char *base;   /* its path, for messages */
	char **names; /* the kept directories, outermost first */
	int *fds;     /* and their fds */
	int nr, alloc, alloc_fds;
	struct cache_fs_made made; /* the directories made, relative to @dirfd */
};

/* Start a walk from @dirfd, whose path is @base. */
void cache_fs_walk__init(struct cache_fs_walk *w, int dirfd, const char *base);
/*
 * Open directory @rel ("a/b/c") below the walk's start as
 * cache_fs__open_dir() does, starting below the deepest directory kept
 * from the paths before; with @create missing ones are made.  The last
 * component is opened anew (an entry removed and made again since is
 * seen as the new one): its fd is returned (the caller closes it), and
 * its parent's in *@parent (kept by the walk, valid until the next call),
 * and in *@made whether this call made it.  -errno as cache_fs__open_dir().
 */
int cache_fs_walk__open(struct cache_fs_walk *w, const char *rel, bool create, int *parent,
			bool *made, struct strbuf *err);
/* Close what the walk keeps and free it, keeping the directories it made. */
void cache_fs_walk__release(struct cache_fs_walk *w);
/* Close it, and remove the directories it made when they are empty (cache_fs__unmake()). */
void cache_fs_walk__unmake(struct cache_fs_walk *w);

/*
 * Check file @name of the directory @dirfd (path @base): 0 when it is a
 * trusted regular file, -ENOENT when missing, else -CACHE_FS_REFUSED with
 * the line in @err (a link, a FIFO, a device, another user's file).
 */
int cache_fs__check_file(int dirfd, const char *base, const char *name, struct strbuf *err);
/* What @st is, for those lines: "a FIFO", "a symbolic link", "a device or socket", ... */
const char *cache_fs__kind(const struct stat *st);

/*
 * Is the absolute @path safe from other users all the way, as the trust
 * rule wants a program root runs: "/" and every directory its walk goes
 * through trusted, links followed by hand (a link lives in a trusted
 * directory, its target is walked the same way), and what it ends on a
 * trusted regular file (@dir: a trusted directory)?  0, -CACHE_FS_REFUSED
 * with the line in @err (a relative @path too), or the walk's -errno
 * (-ENOENT, -ENOTDIR, -ELOOP).
 */
int cache_fs__check_path(const char *path, bool dir, struct strbuf *err);

/*
 * Remove @name of @dirfd and everything below it, never following a link
 * (a link is removed, not what it points to).  0 or -errno.
 */
int cache_fs__remove_tree(int dirfd, const char *name);

/*
 * Create a fresh temporary file "@name.tmp.PID.N" in @dirfd (O_EXCL, no
 * links followed) with @mode; its name is left in @tmp.  An fd or -errno.
 */
int cache_fs__open_tmp(int dirfd, const char *name, mode_t mode, struct strbuf *tmp);
/* The name "@name.tmp.PID.N" of a temporary beside @name, in @tmp. */
void cache_fs__tmp_name(const char *name, struct strbuf *tmp);

/*
 * Remove what killed writers left in @dirfd: the entries "@name.tmp.PID..."
 * (any "*.tmp.PID..." when @name is NULL) whose PID is dead, or older than
 * CACHE_FS_JUNK_AGE_SEC; never those of a live writer.  @locked: the
 * caller holds the lock every writer of @name takes, so all are junk.
 */
void cache_fs__remove_junk(int dirfd, const char *name, bool locked);

/*
 * Replace @name of @dirfd with @len bytes of @data: a temporary, fsync
 * (with @sync), renameat, fsync of the directory.  0 or -errno.
 */
int cache_fs__write_atomic(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
			   bool sync);

#endif
