// SPDX-License-Identifier: GPL-2.0
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/util.h"

/* libdebuginfod's entry points, loaded on first use. */
static struct {
	void *handle;
	debuginfod_client *(*begin)(void);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int, char **);
	int (*find_source)(debuginfod_client *, const unsigned char *, int, const char *, char **);
	int (*find_section)(debuginfod_client *, const unsigned char *, int, const char *, char **);
	void (*set_progressfn)(debuginfod_client *, debuginfod_progressfn_t);
	const char *(*get_url)(debuginfod_client *);
	void (*end)(debuginfod_client *);
} lib;

static char last_url[1024];

static int load_library(void)
{
	if (lib.handle)
		return 0;
	lib.handle = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib.handle) {
		pr_debug("debuginfod: %s\n", dlerror());
		return -ENOSYS;
	}
	*(void **)&lib.begin = dlsym(lib.handle, "debuginfod_begin");
	*(void **)&lib.find_debuginfo = dlsym(lib.handle, "debuginfod_find_debuginfo");
	*(void **)&lib.find_source = dlsym(lib.handle, "debuginfod_find_source");
	*(void **)&lib.find_section = dlsym(lib.handle, "debuginfod_find_section");
	*(void **)&lib.set_progressfn = dlsym(lib.handle, "debuginfod_set_progressfn");
	*(void **)&lib.get_url = dlsym(lib.handle, "debuginfod_get_url");
	*(void **)&lib.end = dlsym(lib.handle, "debuginfod_end");
	if (!lib.begin || !lib.find_debuginfo || !lib.find_source || !lib.end) {
		dlclose(lib.handle);
		memset(&lib, 0, sizeof(lib));
		return -ENOSYS;
	}
	return 0;
}

static bool progress_shown;

/* A progress line on a terminal, for downloads worth waiting for. */
static int show_progress(debuginfod_client *c, long done, long total)
{
	pr_debug2("debuginfod: %ld/%ld bytes\n", done, total);
	if (!isatty(STDERR_FILENO) || quiet || (total < (1L << 20) && done < (1L << 20)))
		return 0;
	if (total > 0 && done >= total) {
		debuginfod__progress_end();
		return 0;
	}
	/* The size is not known before the first bytes of some servers. */
	if (total > 0)
		fprintf(stderr, "\rDownloading from debuginfod: %ld/%ld KiB", done >> 10,
			total >> 10);
	else
		fprintf(stderr, "\rDownloading from debuginfod: %ld KiB", done >> 10);
	progress_shown = true;
	return 0;
}

void debuginfod__progress_end(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
}

void debuginfod__watch_dwfl(Dwfl *dwfl)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	debuginfod_client *c;

	/* Without servers libdwfl asks none: do not load the library. */
	if (!urls || !*urls || load_library() || !lib.set_progressfn)
		return;
	c = dwfl_get_debuginfod_client(dwfl);
	if (c)
		lib.set_progressfn(c, show_progress);
}

enum fetch_what { FETCH_DEBUGINFO, FETCH_SOURCE, FETCH_SECTION };

/*
 * A server that could not be reached is not asked again by this command:
 * the section fetch before a debuginfo fetch waits out the timeout once.
 */
static int unreachable;

static int fetch(const struct build_id *bid, const char *urls, enum fetch_what what,
		 const char *name, char **path)
{
	debuginfod_client *c;
	int fd, ret = load_library();

	*path = NULL;
	if (urls)
		setenv(DEBUGINFOD_URLS_ENV_VAR, urls, 1);
	urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	if (!urls || !*urls)
		return -ENOSYS;
	if (ret)
		return ret;
	if (unreachable)
		return unreachable;
	if (what == FETCH_SECTION && !lib.find_section)
		return -ENOSYS;
	c = lib.begin();
	if (!c)
		return -ENOMEM;
	if (lib.set_progressfn)
		lib.set_progressfn(c, show_progress);
	if (what == FETCH_SOURCE)
		fd = lib.find_source(c, bid->data, bid->size, name, path);
	else if (what == FETCH_SECTION)
		fd = lib.find_section(c, bid->data, bid->size, name, path);
	else
		fd = lib.find_debuginfo(c, bid->data, bid->size, path);
	if (fd == -ECONNREFUSED || fd == -ETIMEDOUT || fd == -EHOSTUNREACH || fd == -ENETUNREACH ||
	    fd == -ECONNRESET || fd == -ETIME)
		unreachable = fd;
	debuginfod__progress_end();
	if (lib.get_url && lib.get_url(c))
		snprintf(last_url, sizeof(last_url), "%s", lib.get_url(c));
	else
		snprintf(last_url, sizeof(last_url), "%s", urls);
	lib.end(c);
	if (fd < 0) {
		free(*path);
		*path = NULL;
		return fd;
	}
	close(fd);
	return 0;
}

int debuginfod__find_debuginfo(const struct build_id *bid, const char *urls, char **path)
{
	int ret = fetch(bid, urls, FETCH_DEBUGINFO, NULL, path);

	/* A server may serve another build under the id asked for: never use it. */
	if (!ret) {
		struct strbuf why = STRBUF_INIT;

		if (build_id__check_file(*path, bid, &why) == -ESTALE)
			ret = -ESTALE;
		strbuf_release(&why);
	}
	return ret;
}

int debuginfod__find_source(const struct build_id *bid, const char *urls, const char *file,
			    char **path)
{
	return fetch(bid, urls, FETCH_SOURCE, file, path);
}

int debuginfod__find_section(const struct build_id *bid, const char *urls, const char *section,
			     char **path)
{
	return fetch(bid, urls, FETCH_SECTION, section, path);
}

const char *debuginfod__last_url(void)
{
	return last_url;
}
