/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_DEBUGINFOD_H
#define PERF_UTIL_DEBUGINFOD_H

/*
 * Fetching debuginfo and sources by build-id from debuginfod servers,
 * through libdebuginfod.  The library (and the curl stack behind it) is
 * loaded only when a fetch is asked for, so commands that need no server
 * do not pay for it at start-up.  DEBUGINFOD_URLS, DEBUGINFOD_CACHE_PATH,
 * DEBUGINFOD_TIMEOUT and DEBUGINFOD_MAXTIME act as for the elfutils tools.
 */

#include <elfutils/libdwfl.h>

#include "util/build-id.h"

/*
 * The debuginfo file of @bid, downloaded into the debuginfod client cache
 * (or found there).  @urls: the servers, or NULL for $DEBUGINFOD_URLS.
 * Returns 0 with *@path (new string), -ENOSYS when no server is
 * configured or libdebuginfod is missing, or -errno of the failure (the
 * server's 404 is -ENOENT).  -ESTALE when the file served has another
 * build-id than @bid: *@path still names it (build_id__check_file() words
 * why), and it must not be used.  On a terminal a progress line is shown.
 */
int debuginfod__find_debuginfo(const struct build_id *bid, const char *urls, char **path);

/* The same for the source file @file of @bid's compilation units. */
int debuginfod__find_source(const struct build_id *bid, const char *urls, const char *file,
			    char **path);

/*
 * Only the ELF section @section of @bid's debuginfo (or executable), as a
 * file holding the section's bytes (debuginfod_find_section()).  The same
 * returns as debuginfod__find_debuginfo(); -ENOENT when no file of @bid has
 * it.  A server found unreachable is not asked again by this process.
 * @max (0: none) bounds what is downloaded: a Content-Length over it is
 * refused before the body (DEBUGINFOD_MAXSIZE), and no file grows past it
 * meanwhile (RLIMIT_FSIZE, so a body without a length or one that
 * inflates stops there); -EFBIG then, when that is known to be the cause.
 */
int debuginfod__find_section(const struct build_id *bid, const char *urls, const char *section,
			     size_t max, char **path);

/*
 * Can the client cache of @bid be read without waiting forever?  The
 * client cache root (as libdebuginfod finds it), @bid's directory there
 * and every file in it are checked by the trust rule of cache-fs.h: no
 * FIFO, device or link (libdebuginfod opens a cached file without
 * O_NONBLOCK, and would wait on a FIFO for ever), nothing another user
 * owns or may write.  0 (also when there is nothing cached yet), or
 * -CACHE_FS_REFUSED with the line in @err.  Every fetch above checks it
 * first and, refused, warns once per build-id and asks no server.
 */
int debuginfod__check_cache(const struct build_id *bid, struct strbuf *err);

/*
 * libdwfl's own client is about to look up the build-id @bits (@len
 * bytes): when its client cache is refused (warned once, as above), the
 * servers are hidden from it, and a string to give back to
 * debuginfod__unguard_dwfl() after the lookup is returned; NULL otherwise.
 */
char *debuginfod__guard_dwfl(const unsigned char *bits, int len);
void debuginfod__unguard_dwfl(char *saved);

/*
 * libdwfl fetches a module's debuginfo from the servers itself, with a
 * client of its own: give that client the same progress line.  Nothing is
 * loaded when no server is configured.  debuginfod__progress_end() clears
 * a progress line still shown.
 */
void debuginfod__watch_dwfl(Dwfl *dwfl);
void debuginfod__progress_end(void);

/* The URL of the last server asked, for messages (may be "" ). */
const char *debuginfod__last_url(void);

#endif
