/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_LISTING_H
#define PERF_UTIL_PROBE_LISTING_H

#include "util/strbuf.h"

/*
 * The listing of every probe cache (`perf probe --cache --list`), kept in
 * ROOT/.probe-list (this perf's only; the system perf ignores the file) so
 * that a listing of an unchanged build-id cache opens no binary and no
 * probes file: it is trusted when the .build-id stamp
 * (probe_index__links_stamp()) and the stat (device, inode, size, mtime,
 * ctime) of each binary and of each probes file are as recorded, and made
 * again by a walk of every entry otherwise.
 *
 * @fn gets each build with a current binary and a non-empty probes file,
 * in build-id order: its name, the hex build-id and the specs of its
 * entries.  @efn gets each probes file that could not be read (its -errno,
 * its directory and what probe_cache__open() said); the listing is then
 * not kept.  Returns 0, or the last such -errno.
 */
typedef void (*probe_listing_fn)(const char *name, const char *sbid, char *const *specs, int nr,
				 void *ctx);
typedef void (*probe_listing_err_fn)(int err, const char *dir, const struct strbuf *detail,
				     void *ctx);
int probe_caches__listing(probe_listing_fn fn, probe_listing_err_fn efn, void *ctx);

#endif
