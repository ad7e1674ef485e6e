// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cache-fs.c: the trust rule, the walk that never follows a
 * link, undoing what a walk made, removal that never crosses a link, the
 * junk of dead writers.  They work in a fresh directory of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit-test.h"
#include "util/cache-fs.h"
#include "util/strbuf.h"
#include "util/util.h"

static char tmpdir[] = "/tmp/test-cache-fs.XXXXXX";

static char *at(const char *rel)
{
	return path_join(tmpdir, rel);
}

static bool exists(const char *rel)
{
	struct stat st;
	char *p = at(rel);
	bool ret = lstat(p, &st) == 0;

	free(p);
	return ret;
}

static void test_makes_a_temporary_directory(void)
{
	CHECK(mkdtemp(tmpdir) != NULL);
}

static void test_trusts_only_yours_or_roots_not_writable_by_others(void)
{
	struct stat st = { .st_uid = geteuid(), .st_mode = S_IFDIR | 0755 };
	struct strbuf err = STRBUF_INIT;

	CHECK(cache_fs__trusted(&st));
	st.st_mode = S_IFDIR | 0775;
	CHECK(!cache_fs__trusted(&st));
	cache_fs__why_untrusted("/x", &st, &err);
	CHECK_STR(err.buf, "refusing /x: writable by its group; chmod go-w it or remove it");
	st.st_mode = S_IFDIR | 0757;
	CHECK(!cache_fs__trusted(&st));
	st.st_mode = S_IFDIR | 0755;
	st.st_uid = 0;
	CHECK(cache_fs__trusted(&st));
	if (geteuid() == 0) {
		st.st_uid = 4242;
		CHECK(!cache_fs__trusted(&st));
		strbuf_reset(&err);
		cache_fs__why_untrusted("/y", &st, &err);
		CHECK(strstr(err.buf, "refusing /y: owned by uid 4242") == err.buf);
		CHECK(strstr(err.buf, "not by you or root; chown or remove it") != NULL);
	}
	strbuf_release(&err);
}

static void test_walk_makes_what_is_missing_and_undoes_only_empty_ones(void)
{
	struct cache_fs_made made = { 0 };
	struct strbuf err = STRBUF_INIT;
	int root = cache_fs__open_root(tmpdir, false, &err), fd;

	CHECK_INT(root, >=, 0);
	fd = cache_fs__open_dir(root, tmpdir, "a/b/c", &made, &err);
	CHECK_INT(fd, >=, 0);
	CHECK_INT(made.nr, ==, 3);
	CHECK(exists("a/b/c"));
	close(fd);
	/* Another writer's file in a/b: a/b and a stay, a/b/c goes. */
	close(openat(root, "a/b/theirs", O_WRONLY | O_CREAT, 0644));
	cache_fs__unmake(root, &made);
	CHECK(!exists("a/b/c"));
	CHECK(exists("a/b/theirs"));
	CHECK_INT(made.nr, ==, 0);
	/* Walking it again makes nothing. */
	fd = cache_fs__open_dir(root, tmpdir, "a/b", &made, &err);
	CHECK_INT(fd, >=, 0);
	CHECK_INT(made.nr, ==, 0);
	close(fd);
	CHECK_INT(cache_fs__open_dir(root, tmpdir, "a/../a", NULL, &err), ==, -EINVAL);
	CHECK_INT(cache_fs__open_dir(root, tmpdir, "none", NULL, &err), ==, -ENOENT);
	cache_fs__made_release(&made);
	strbuf_release(&err);
	close(root);
}

static void test_walk_refuses_a_link_and_an_open_directory(void)
{
	struct cache_fs_made made = { 0 };
	struct strbuf err = STRBUF_INIT;
	int root = cache_fs__open_root(tmpdir, false, &err);
	char *expect;

	CHECK_INT(symlinkat("/etc", root, "link"), ==, 0);
	CHECK_INT(cache_fs__open_dir(root, tmpdir, "link/x", &made, &err), ==, -CACHE_FS_REFUSED);
	expect = at("link: a symbolic link where a directory should be; remove it");
	CHECK(strstr(err.buf, expect) != NULL);
	free(expect);
	CHECK_INT(made.nr, ==, 0);
	CHECK_INT(mkdirat(root, "open", 0777), ==, 0);
	CHECK_INT(fchmodat(root, "open", 0777, 0), ==, 0);
	strbuf_reset(&err);
	CHECK_INT(cache_fs__open_dir(root, tmpdir, "open", NULL, &err), ==, -CACHE_FS_REFUSED);
	CHECK(strstr(err.buf, "writable by others") != NULL);
	cache_fs__made_release(&made);
	strbuf_release(&err);
	close(root);
}

static void test_shared_walk_checks_a_kept_directory_once_and_undoes_what_it_made(void)
{
	struct strbuf err = STRBUF_INIT;
	struct cache_fs_walk w;
	int root = cache_fs__open_root(tmpdir, false, &err), fd, parent = -1;
	bool made = false;

	CHECK_INT(root, >=, 0);
	cache_fs_walk__init(&w, root, tmpdir);
	fd = cache_fs_walk__open(&w, "s/x/e1", true, &parent, &made, &err);
	CHECK_INT(fd, >=, 0);
	CHECK(made);
	CHECK_INT(w.nr, ==, 2); /* s and s/x kept, not e1 */
	CHECK_INT(parent, ==, w.fds[1]);
	close(fd);
	/* s turns untrusted: the walk kept it, checked, and does not look again... */
	CHECK_INT(fchmodat(root, "s", 0777, 0), ==, 0);
	fd = cache_fs_walk__open(&w, "s/x/e2", true, &parent, &made, &err);
	CHECK_INT(fd, >=, 0);
	close(fd);
	/* ...until a path leaves it: then it is opened and checked again. */
	fd = cache_fs_walk__open(&w, "t/e3", true, &parent, &made, &err);
	CHECK_INT(fd, >=, 0);
	close(fd);
	CHECK_INT(cache_fs_walk__open(&w, "s/x/e4", true, &parent, &made, &err), ==,
		  -CACHE_FS_REFUSED);
	CHECK(strstr(err.buf, "writable by others") != NULL);
	CHECK_INT(fchmodat(root, "s", 0755, 0), ==, 0);
	/* An existing directory is not made; a kept one removed since is made again. */
	fd = cache_fs_walk__open(&w, "s/x/e1", false, &parent, &made, &err);
	CHECK_INT(fd, >=, 0);
	CHECK(!made);
	close(fd);
	CHECK_INT(unlinkat(root, "s/x/e1", AT_REMOVEDIR), ==, 0);
	CHECK_INT(unlinkat(root, "s/x/e2", AT_REMOVEDIR), ==, 0);
	CHECK_INT(unlinkat(root, "s/x", AT_REMOVEDIR), ==, 0);
	fd = cache_fs_walk__open(&w, "s/x/e5", true, &parent, &made, &err);
	CHECK_INT(fd, >=, 0);
	CHECK(made);
	close(fd);
	/* Another writer's file in t: t stays, all else it made goes. */
	close(openat(root, "t/theirs", O_WRONLY | O_CREAT, 0644));
	cache_fs_walk__unmake(&w);
	CHECK(!exists("s"));
	CHECK(!exists("t/e3"));
	CHECK(exists("t/theirs"));
	CHECK_INT(unlinkat(root, "t/theirs", 0), ==, 0);
	CHECK_INT(unlinkat(root, "t", AT_REMOVEDIR), ==, 0);
	strbuf_release(&err);
	close(root);
}

static void test_check_file_refuses_what_is_not_a_regular_file(void)
{
	struct strbuf err = STRBUF_INIT;
	int root = cache_fs__open_root(tmpdir, false, &err);

	CHECK_INT(mkfifoat(root, "fifo", 0644), ==, 0);
	CHECK_INT(cache_fs__check_file(root, tmpdir, "fifo", &err), ==, -CACHE_FS_REFUSED);
	CHECK(strstr(err.buf, "fifo: not a regular file (a FIFO)") != NULL);
	CHECK_INT(symlinkat("/dev/zero", root, "zero"), ==, 0);
	CHECK_INT(cache_fs__check_file(root, tmpdir, "zero", &err), ==, -CACHE_FS_REFUSED);
	CHECK_INT(cache_fs__check_file(root, tmpdir, "missing", &err), ==, -ENOENT);
	close(openat(root, "plain", O_WRONLY | O_CREAT, 0644));
	CHECK_INT(cache_fs__check_file(root, tmpdir, "plain", &err), ==, 0);
	strbuf_release(&err);
	close(root);
}

static void test_remove_tree_removes_links_not_their_targets(void)
{
	struct strbuf err = STRBUF_INIT;
	int root = cache_fs__open_root(tmpdir, false, &err);

	CHECK_INT(mkdirat(root, "keep", 0755), ==, 0);
	close(openat(root, "keep/file", O_WRONLY | O_CREAT, 0644));
	CHECK_INT(mkdirat(root, "gone", 0755), ==, 0);
	CHECK_INT(mkdirat(root, "gone/sub", 0755), ==, 0);
	CHECK_INT(symlinkat("../../keep", root, "gone/sub/to-keep"), ==, 0);
	close(openat(root, "gone/sub/f", O_WRONLY | O_CREAT, 0644));
	CHECK_INT(cache_fs__remove_tree(root, "gone"), ==, 0);
	CHECK(!exists("gone"));
	CHECK(exists("keep/file"));
	CHECK_INT(cache_fs__remove_tree(root, "gone"), ==, 0);
	strbuf_release(&err);
	close(root);
}

static void test_junk_of_dead_writers_goes_a_live_ones_stays(void)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	int root = cache_fs__open_root(tmpdir, false, &err);
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	int pid_max = 0, fd;

	CHECK(f && fscanf(f, "%d", &pid_max) == 1);
	if (f)
		fclose(f);
	strbuf_addf(&name, "elf.tmp.%d.0", pid_max); /* no process has it */
	close(openat(root, name.buf, O_WRONLY | O_CREAT, 0644));
	close(openat(root, "elf.tmp.1.0", O_WRONLY | O_CREAT, 0644)); /* init lives */
	close(openat(root, "elf.tmp.notapid", O_WRONLY | O_CREAT, 0644));
	cache_fs__remove_junk(root, "elf", false);
	CHECK(!exists(name.buf));
	CHECK(exists("elf.tmp.1.0"));
	CHECK(exists("elf.tmp.notapid"));
	cache_fs__remove_junk(root, "elf", true);
	CHECK(!exists("elf.tmp.1.0"));
	strbuf_reset(&name);
	fd = cache_fs__open_tmp(root, "probes", 0644, &name);
	CHECK_INT(fd, >=, 0);
	close(fd);
	CHECK(exists(name.buf));
	cache_fs__remove_junk(root, "probes", false); /* our own: live */
	CHECK(exists(name.buf));
	CHECK_INT(cache_fs__write_atomic(root, "probes", "x\n", 2, 0644, true), ==, 0);
	CHECK(exists("probes"));
	strbuf_release(&name);
	strbuf_release(&err);
	close(root);
}

/* The inode of directory fd @fd is the one at @rel of the test directory. */
static bool same_dir(int fd, const char *rel)
{
	struct stat a, b;
	char *p = at(rel);
	bool ret = fd >= 0 && fstat(fd, &a) == 0 && stat(p, &b) == 0 && a.st_ino == b.st_ino;

	free(p);
	return ret;
}

static void test_root_follows_only_links_of_yours_or_roots(void)
{
	struct strbuf err = STRBUF_INIT;
	char *p;
	int fd;

	p = at("r");
	CHECK_INT(mkdir(p, 0755), ==, 0);
	free(p);
	p = at("r/real");
	CHECK_INT(mkdir(p, 0755), ==, 0);
	free(p);
	p = at("r/rel");
	CHECK_INT(symlink("../r/./real", p), ==, 0); /* relative, through .. */
	free(p);
	p = at("r/abs");
	CHECK_INT(symlink(tmpdir, p), ==, 0); /* absolute, then more to walk */
	free(p);
	p = at("r/rel");
	fd = cache_fs__open_root(p, false, &err);
	CHECK(same_dir(fd, "r/real"));
	close(fd);
	free(p);
	p = at("r/abs/r/rel/");
	fd = cache_fs__open_root(p, false, &err);
	CHECK(same_dir(fd, "r/real"));
	close(fd);
	free(p);
	/* Missing ones are made at the link's target, not beside the link. */
	p = at("r/made");
	CHECK_INT(symlink("real/new/deeper", p), ==, 0);
	fd = cache_fs__open_root(p, true, &err);
	CHECK(same_dir(fd, "r/real/new/deeper"));
	close(fd);
	free(p);
	p = at("r/loop");
	CHECK_INT(symlink("loop", p), ==, 0);
	CHECK_INT(cache_fs__open_root(p, false, &err), ==, -ELOOP);
	free(p);
	if (geteuid() == 0) {
		p = at("r/theirs");
		CHECK_INT(symlink("real", p), ==, 0);
		CHECK_INT(lchown(p, 4242, 4242), ==, 0);
		strbuf_reset(&err);
		CHECK_INT(cache_fs__open_root(p, false, &err), ==, -CACHE_FS_REFUSED);
		CHECK(strstr(err.buf, "owned by uid 4242") != NULL);
		CHECK(strstr(err.buf, "/r/theirs:") != NULL);
		free(p);
		/* Above the root too, and the line names the link. */
		p = at("r/theirs/new");
		strbuf_reset(&err);
		CHECK_INT(cache_fs__open_root(p, true, &err), ==, -CACHE_FS_REFUSED);
		CHECK(strstr(err.buf, "/r/theirs:") != NULL);
		CHECK(!exists("r/real/new2"));
		free(p);
	}
	strbuf_release(&err);
}

static void test_removes_the_temporary_directory(void)
{
	CHECK_INT(rm_rf(tmpdir), ==, 0);
}

TESTS(TEST(test_makes_a_temporary_directory),
      TEST(test_trusts_only_yours_or_roots_not_writable_by_others),
      TEST(test_walk_makes_what_is_missing_and_undoes_only_empty_ones),
      TEST(test_walk_refuses_a_link_and_an_open_directory),
      TEST(test_shared_walk_checks_a_kept_directory_once_and_undoes_what_it_made),
      TEST(test_check_file_refuses_what_is_not_a_regular_file),
      TEST(test_remove_tree_removes_links_not_their_targets),
      TEST(test_junk_of_dead_writers_goes_a_live_ones_stays),
      TEST(test_root_follows_only_links_of_yours_or_roots),
      TEST(test_removes_the_temporary_directory));
