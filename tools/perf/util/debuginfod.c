// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cache-fs.h"
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

/*
 * The client cache, where libdebuginfod looks as it does (elfutils
 * 0.188): $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache when
 * it exists, else $XDG_CACHE_HOME/debuginfod_client, else
 * ~/.cache/debuginfod_client.  A new string, or NULL without a HOME.
 */
static char *client_cache_path(void)
{
	const char *env = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	if (env && *env)
		return xstrdup(env);
	if (!home || !*home)
		return NULL;
	strbuf_addf(&sb, "%s/.debuginfod_client_cache", home);
	if (stat(sb.buf, &st) == 0)
		return strbuf_detach(&sb, NULL);
	strbuf_reset(&sb);
	env = getenv("XDG_CACHE_HOME");
	if (env && *env)
		strbuf_addf(&sb, "%s/debuginfod_client", env);
	else
		strbuf_addf(&sb, "%s/.cache/debuginfod_client", home);
	return strbuf_detach(&sb, NULL);
}

/* Every entry of the directory @fd (@path) a trusted regular file?  0 or -CACHE_FS_REFUSED. */
static int check_cache_files(int fd, const char *path, struct strbuf *err)
{
	/* A new open: fdopendir() takes its descriptor. */
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0; /* nothing to read there: the library's business */
	}
	while (!ret && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = cache_fs__check_file(fd, path, de->d_name, err);
		if (ret == -ENOENT) /* removed meanwhile */
			ret = 0;
	}
	closedir(d);
	return ret;
}

int debuginfod__check_cache(const struct build_id *bid, struct strbuf *err)
{
	char sbid[SBUILD_ID_SIZE], *root = client_cache_path();
	struct strbuf sub = STRBUF_INIT;
	size_t had = err->len;
	int rootfd, fd, ret;

	if (!root)
		return 0;
	build_id__sprintf(bid, sbid);
	rootfd = cache_fs__open_root(root, false, err);
	fd = rootfd < 0 ? rootfd : cache_fs__open_dir(rootfd, root, sbid, NULL, err);
	strbuf_addf(&sub, "%s/%s", root, sbid);
	ret = fd < 0 ? fd : check_cache_files(fd, sub.buf, err);
	if (fd >= 0)
		close(fd);
	if (rootfd >= 0)
		close(rootfd);
	cache_fs__forget(); /* a walk of another tree than the build-id cache's */
	free(root);
	strbuf_release(&sub);
	/*
	 * Only a refusal (its line written) stops the fetch: nothing there
	 * yet, or a cache this user may not read, is the library's to answer.
	 */
	return ret == -CACHE_FS_REFUSED && err->len > had ? ret : 0;
}

/*
 * The build-ids whose client cache was refused, warned about once: the
 * servers are not asked for them again by this command.
 */
static struct strbuf refused_ids = STRBUF_INIT;

static int cache_usable(const struct build_id *bid)
{
	struct strbuf err = STRBUF_INIT, key = STRBUF_INIT;
	char sbid[SBUILD_ID_SIZE];
	int ret = 0;

	build_id__sprintf(bid, sbid);
	strbuf_addf(&key, " %s ", sbid);
	if (refused_ids.len && strstr(refused_ids.buf, key.buf))
		ret = -CACHE_FS_REFUSED;
	else
		ret = debuginfod__check_cache(bid, &err);
	if (ret && err.len) {
		pr_warning("Warning: not asking debuginfod for build-id %s: %s\n", sbid, err.buf);
		strbuf_addf(&refused_ids, "%s", key.buf);
	}
	strbuf_release(&err);
	strbuf_release(&key);
	return ret;
}

/*
 * While a section is fetched, every file the process writes is bounded
 * to its limit (RLIMIT_FSIZE): a server that sends no Content-Length, or
 * a compressed body that inflates without end, stops at the limit.
 */
static volatile sig_atomic_t file_too_big;

static void on_sigxfsz(int sig)
{
	file_too_big = 1;
}

struct size_bound {
	struct rlimit old_lim;
	struct sigaction old_act;
	char *old_maxsize;
	bool set;
};

static void bound_size(struct size_bound *b, size_t max)
{
	struct sigaction act = { .sa_handler = on_sigxfsz };
	const char *env = getenv(DEBUGINFOD_MAXSIZE_ENV_VAR);
	struct rlimit lim;
	char num[32];

	memset(b, 0, sizeof(*b));
	if (!max)
		return;
	/* The Content-Length is checked against it before any byte comes. */
	b->old_maxsize = env ? xstrdup(env) : NULL;
	if (!env || !*env || strtoull(env, NULL, 10) == 0 || strtoull(env, NULL, 10) > max) {
		snprintf(num, sizeof(num), "%zu", max);
		setenv(DEBUGINFOD_MAXSIZE_ENV_VAR, num, 1);
	}
	file_too_big = 0;
	sigemptyset(&act.sa_mask);
	sigaction(SIGXFSZ, &act, &b->old_act);
	if (getrlimit(RLIMIT_FSIZE, &b->old_lim) == 0) {
		lim = b->old_lim;
		if (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > max)
			lim.rlim_cur = max;
		b->set = setrlimit(RLIMIT_FSIZE, &lim) == 0;
	}
}

static void unbound_size(struct size_bound *b, size_t max)
{
	if (!max)
		return;
	if (b->set)
		setrlimit(RLIMIT_FSIZE, &b->old_lim);
	sigaction(SIGXFSZ, &b->old_act, NULL);
	if (b->old_maxsize)
		setenv(DEBUGINFOD_MAXSIZE_ENV_VAR, b->old_maxsize, 1);
	else
		unsetenv(DEBUGINFOD_MAXSIZE_ENV_VAR);
	free(b->old_maxsize);
}

enum fetch_what { FETCH_DEBUGINFO, FETCH_SOURCE, FETCH_SECTION };

/*
 * A server that could not be reached is not asked again by this command:
 * the section fetch before a debuginfo fetch waits out the timeout once.
 */
static int unreachable;

static int fetch(const struct build_id *bid, const char *urls, enum fetch_what what,
		 const char *name, size_t max, char **path)
{
	struct size_bound bound;
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
	/* A FIFO there would have the library wait forever in open(). */
	ret = cache_usable(bid);
	if (ret)
		return ret;
	c = lib.begin();
	if (!c)
		return -ENOMEM;
	if (lib.set_progressfn)
		lib.set_progressfn(c, show_progress);
	bound_size(&bound, max);
	if (what == FETCH_SOURCE)
		fd = lib.find_source(c, bid->data, bid->size, name, path);
	else if (what == FETCH_SECTION)
		fd = lib.find_section(c, bid->data, bid->size, name, path);
	else
		fd = lib.find_debuginfo(c, bid->data, bid->size, path);
	unbound_size(&bound, max);
	if (max && fd < 0 && (fd == -EFBIG || file_too_big))
		fd = -EFBIG;
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
	int ret = fetch(bid, urls, FETCH_DEBUGINFO, NULL, 0, path);

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
	return fetch(bid, urls, FETCH_SOURCE, file, 0, path);
}

int debuginfod__find_section(const struct build_id *bid, const char *urls, const char *section,
			     size_t max, char **path)
{
	return fetch(bid, urls, FETCH_SECTION, section, max, path);
}

char *debuginfod__guard_dwfl(const unsigned char *bits, int len)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	struct build_id bid;
	char *saved;

	if (!urls || !*urls || len <= 0 || len > BUILD_ID_SIZE)
		return NULL;
	memcpy(bid.data, bits, len);
	bid.size = len;
	if (!cache_usable(&bid))
		return NULL;
	/* libdebuginfod reads the variable at each query: without it, it asks nothing. */
	saved = xstrdup(urls);
	unsetenv(DEBUGINFOD_URLS_ENV_VAR);
	return saved;
}

void debuginfod__unguard_dwfl(char *saved)
{
	if (!saved)
		return;
	setenv(DEBUGINFOD_URLS_ENV_VAR, saved, 1);
	free(saved);
}

const char *debuginfod__last_url(void)
{
	return last_url;
}
