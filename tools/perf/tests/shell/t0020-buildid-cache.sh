#!/bin/sh
test_description='perf buildid-cache: the ~/.debug layout, shared with the system perf'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

CACHE=$HOME/.debug

# The shape of a cache: type, mode, name and link target of everything in it.
# Sizes and times are left out: the two perfs make directories in another
# order, and elf may be a hard link or a copy.
cache_tree() {
	if [ -d "$1" ]; then
		(cd "$1" && find . -printf '%y %m %p %l\n' | sort)
	fi
}

# no_debris DIR: no dangling link and no empty directory below DIR.
no_debris() {
	find "$1" -xtype l >debris &&
	find "$1" -mindepth 1 -type d -empty >>debris &&
	if test -s debris; then
		echo "left behind:" >&2
		cat debris >&2
		return 1
	fi
}

# Most cases add these programs; a few need none.
test_expect_success GCC,READELF 'setup: two programs and a copy of one under a path with spaces' '
	build_workload true "$TEST_TMP/prog" &&
	build_workload false "$TEST_TMP/other" &&
	mkdir -p "$TEST_TMP/dir with space" &&
	cp "$TEST_TMP/prog" "$TEST_TMP/dir with space/my prog"
'
BID=$(build_id_of "$TEST_TMP/prog")
OTHER_BID=$(build_id_of "$TEST_TMP/other")
PROG=$(cd "$TEST_TMP" && pwd -P)/prog

test_expect_success GCC,READELF 'adding a file makes ROOT/<path>/<build-id>/{elf,probes} and the .build-id link' '
	"$PERF" buildid-cache -a prog &&
	dir=$CACHE$PROG/$BID &&
	cmp prog "$dir/elf" &&
	test -f "$dir/probes" && ! test -s "$dir/probes" &&
	link=$CACHE/.build-id/$(echo $BID | cut -c1-2)/$(echo $BID | cut -c3-) &&
	test "$(readlink "$link")" = "../..$PROG/$BID" &&
	test "$(cd "$link" && pwd -P)" = "$(cd "$dir" && pwd -P)"
'

test_expect_success GCC,READELF 'adding the same file again leaves the tree unchanged' '
	tree_snapshot "$CACHE" >before &&
	"$PERF" buildid-cache -a prog &&
	"$PERF" buildid-cache --add "$PROG" &&
	tree_snapshot "$CACHE" >after &&
	cmp before after
'

test_expect_success SYSTEM_PERF,GCC,READELF 'the cache tree is the one the system perf makes' '
	HOME=$TEST_TMP/syshome &&
	mkdir -p "$HOME" &&
	"$SYSTEM_PERF" buildid-cache -a prog >/dev/null 2>&1 &&
	cache_tree "$HOME/.debug" >expect &&
	cache_tree "$CACHE" >out &&
	cmp expect out
'

test_expect_success SYSTEM_PERF,GCC,READELF 'what we add, the system perf lists' '
	"$SYSTEM_PERF" buildid-cache -l >out 2>/dev/null &&
	echo "$BID $PROG" >expect &&
	cmp expect out
'

test_expect_success SYSTEM_PERF,GCC,READELF 'what the system perf adds, we list' '
	HOME=$TEST_TMP/syshome2 &&
	mkdir -p "$HOME" &&
	"$SYSTEM_PERF" buildid-cache -a other >/dev/null 2>&1 &&
	"$PERF" buildid-cache -l >out &&
	echo "$OTHER_BID $(cd "$TEST_TMP" && pwd -P)/other" >expect &&
	cmp expect out
'

test_expect_success SYSTEM_PERF,GCC,READELF 'we remove what the system perf added, leaving no debris' '
	HOME=$TEST_TMP/syshome3 &&
	mkdir -p "$HOME" &&
	"$SYSTEM_PERF" buildid-cache -a other >/dev/null 2>&1 &&
	"$PERF" buildid-cache -r other &&
	"$PERF" buildid-cache -l >out &&
	! test -s out &&
	no_debris "$HOME/.debug"
'

test_expect_success SYSTEM_PERF,GCC,READELF 'a path with spaces is cached, and both perfs list it' '
	HOME=$TEST_TMP/spaces &&
	mkdir -p "$HOME" &&
	"$PERF" buildid-cache -a "dir with space/my prog" &&
	test -f "$HOME/.debug$(cd "$TEST_TMP" && pwd -P)/dir with space/my prog/$BID/elf" &&
	echo "$BID $(cd "$TEST_TMP" && pwd -P)/dir with space/my prog" >expect &&
	test_same_as_system_perf buildid-cache -l &&
	cmp expect ours
'

test_expect_success SYSTEM_PERF,GCC,READELF '-v reports each file added like the system perf' '
	HOME=$TEST_TMP/verbose-sys && mkdir -p "$HOME" &&
	"$SYSTEM_PERF" buildid-cache -v -a prog >/dev/null 2>sys-err &&
	HOME=$TEST_TMP/verbose-ours && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -v -a prog >/dev/null 2>err &&
	grep "^Adding" sys-err >expect &&
	echo "Adding $BID prog: Ok" >ours &&
	cmp ours expect &&
	cmp expect err
'
test_expect_success !SYSTEM_PERF,GCC,READELF '-v reports each file added as Adding <build-id> <path>: Ok' '
	HOME=$TEST_TMP/verbose-ours && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -v -a prog >/dev/null 2>err &&
	echo "Adding $BID prog: Ok" >expect &&
	cmp expect err
'

test_expect_success GCC,READELF '--list prints <build-id> <path> per entry, sorted by path' '
	"$PERF" buildid-cache -a other &&
	"$PERF" buildid-cache --list >out &&
	dir=$(cd "$TEST_TMP" && pwd -P) &&
	printf "%s %s\n" "$OTHER_BID" "$dir/other" "$BID" "$dir/prog" >expect &&
	cmp expect out
'

test_expect_success GCC,READELF '--remove takes the entry, its link and its empty directories away' '
	"$PERF" buildid-cache -r other &&
	"$PERF" buildid-cache -l >out &&
	echo "$BID $PROG" >expect &&
	cmp expect out &&
	! test -e "$CACHE/.build-id/$(echo $OTHER_BID | cut -c1-2)" &&
	! test -e "$CACHE$(cd "$TEST_TMP" && pwd -P)/other" &&
	no_debris "$CACHE"
'

test_expect_success GCC,READELF '--remove of a file not in the cache: one line and a failure' '
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -r other &&
	grep -q "other" err
'

test_expect_success GCC,READELF '--purge removes every build-id cached for a rebuilt file' '
	HOME=$TEST_TMP/purge && mkdir -p "$HOME" &&
	cp prog rebuilt &&
	"$PERF" buildid-cache -a rebuilt,other &&
	build_workload false rebuilt -O2 -DREBUILT &&
	test "$(build_id_of rebuilt)" != "$BID" &&
	"$PERF" buildid-cache -a rebuilt &&
	test $(ls "$HOME/.debug$(cd "$TEST_TMP" && pwd -P)/rebuilt" | wc -l) -eq 2 &&
	"$PERF" buildid-cache -p rebuilt &&
	"$PERF" buildid-cache -l >out &&
	echo "$OTHER_BID $(cd "$TEST_TMP" && pwd -P)/other" >expect &&
	cmp expect out &&
	no_debris "$HOME/.debug"
'

test_expect_success GCC,READELF '--purge of a file that is gone still purges its entries' '
	HOME=$TEST_TMP/purge-gone && mkdir -p "$HOME" &&
	cp prog gone &&
	"$PERF" buildid-cache -a gone &&
	rm gone &&
	"$PERF" buildid-cache --purge gone &&
	"$PERF" buildid-cache -l >out &&
	! test -s out &&
	no_debris "$HOME/.debug"
'

# "my prog" is a copy of prog: one build-id, two entries, and one
# .build-id link, which stays with the first added (as perf keeps it).
# --purge-all takes both entries.
test_expect_success GCC,READELF '--purge-all empties the cache and leaves no debris' '
	HOME=$TEST_TMP/purge-all && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -a prog -a other -a "dir with space/my prog" &&
	test $(find "$HOME/.debug" -name elf | wc -l) -eq 3 &&
	"$PERF" buildid-cache -l >out &&
	test $(wc -l <out) -eq 2 &&
	! grep -q "my prog" out &&
	"$PERF" buildid-cache --purge-all &&
	"$PERF" buildid-cache -l >out &&
	! test -s out &&
	test -z "$(find "$HOME/.debug" -mindepth 1)" &&
	no_debris "$HOME/.debug"
'

test_expect_success GCC,READELF 'comma lists and repeated -a add every file' '
	HOME=$TEST_TMP/lists && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -a prog,other &&
	"$PERF" buildid-cache -l >comma &&
	"$PERF" buildid-cache -P &&
	"$PERF" buildid-cache -a prog -a other &&
	"$PERF" buildid-cache -l >repeated &&
	test $(wc -l <comma) -eq 2 &&
	cmp comma repeated
'

test_expect_success GCC,READELF 'PERF_BUILDID_DIR moves the cache root' '
	HOME=$TEST_TMP/env && mkdir -p "$HOME" &&
	PERF_BUILDID_DIR=$TEST_TMP/env-cache "$PERF" buildid-cache -a prog &&
	test -f "$TEST_TMP/env-cache$PROG/$BID/elf" &&
	! test -e "$HOME/.debug" &&
	PERF_BUILDID_DIR=$TEST_TMP/env-cache "$PERF" buildid-cache -l >out &&
	echo "$BID $PROG" >expect &&
	cmp expect out
'

test_expect_success GCC,READELF 'buildid.dir in ~/.perfconfig moves the cache root' '
	HOME=$TEST_TMP/config && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = %s\n" "$TEST_TMP/config-cache" >"$HOME/.perfconfig" &&
	"$PERF" buildid-cache -a prog &&
	test -f "$TEST_TMP/config-cache$PROG/$BID/elf" &&
	! test -e "$HOME/.debug"
'

test_expect_success GCC,READELF 'a quoted buildid.dir with spaces is read as perf reads it' '
	HOME=$TEST_TMP/config-quoted && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = \"%s\" # a comment\n" "$TEST_TMP/quoted cache" \
		>"$HOME/.perfconfig" &&
	"$PERF" buildid-cache -a prog &&
	test -f "$TEST_TMP/quoted cache$PROG/$BID/elf" &&
	if test_have_prereq SYSTEM_PERF; then
		"$SYSTEM_PERF" buildid-cache -l >out 2>/dev/null &&
		echo "$BID $PROG" >expect &&
		cmp expect out
	fi
'

test_expect_success GCC,READELF 'PERF_CONFIG names another config file' '
	HOME=$TEST_TMP/config2 && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = %s\n" "$TEST_TMP/config2-cache" >"$TEST_TMP/perfconfig2" &&
	PERF_CONFIG=$TEST_TMP/perfconfig2 "$PERF" buildid-cache -a prog &&
	test -f "$TEST_TMP/config2-cache$PROG/$BID/elf" &&
	! test -e "$HOME/.debug"
'

test_expect_success GCC,READELF 'PERF_BUILDID_DIR wins over buildid.dir' '
	HOME=$TEST_TMP/config3 && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = %s\n" "$TEST_TMP/config3-cache" >"$HOME/.perfconfig" &&
	PERF_BUILDID_DIR=$TEST_TMP/env3-cache "$PERF" buildid-cache -a prog &&
	test -f "$TEST_TMP/env3-cache$PROG/$BID/elf" &&
	! test -e "$TEST_TMP/config3-cache" &&
	! test -e "$HOME/.debug"
'

test_expect_success GCC,READELF '--update puts the file back in its entry and -v says Updating' '
	HOME=$TEST_TMP/update && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -a prog &&
	rm "$HOME/.debug$PROG/$BID/elf" &&
	"$PERF" buildid-cache -v -u prog 2>err &&
	cmp prog "$HOME/.debug$PROG/$BID/elf" &&
	echo "Updating $BID prog: Ok" >expect &&
	cmp expect err
'

test_expect_success GCC,READELF '--update and --force --add of a cached file leave the tree as it was' '
	HOME=$TEST_TMP/update2 && mkdir -p "$HOME" &&
	"$PERF" buildid-cache -a prog &&
	tree_snapshot "$HOME/.debug" >before &&
	"$PERF" buildid-cache -u prog &&
	"$PERF" buildid-cache -f -a prog &&
	tree_snapshot "$HOME/.debug" >after &&
	cmp before after
'

# A cache on another file system gets a copy: a hard link cannot cross.
SHM=$(mktemp -d /dev/shm/perf-t0020.XXXXXX 2>/dev/null)
if test -n "$SHM" && test "$(stat -c %d "$SHM")" != "$(stat -c %d "$TEST_TMP")"; then
	test_cleanup "rm -rf '$SHM'"
	test_expect_success GCC,READELF 'a cache on another file system holds a whole copy of the file' '
		export PERF_BUILDID_DIR=$SHM/cache &&
		"$PERF" buildid-cache -a prog &&
		elf=$SHM/cache$PROG/$BID/elf &&
		cmp prog "$elf" &&
		test "$(stat -c %i prog)" != "$(stat -c %i "$elf")" &&
		test "$(stat -c %a "$elf")" = "$(stat -c %a prog)" &&
		"$PERF" buildid-cache -u prog &&
		cmp prog "$elf" &&
		test -z "$(find "$SHM" -name "*.tmp*")"
	'
else
	test -n "$SHM" && rmdir "$SHM"
	test_skip 'a cache on another file system holds a whole copy of the file' \
		'/dev/shm is not a separate writable file system here'
fi

test_expect_success 'adding a missing file fails, one line, cache unchanged' '
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a does-not-exist
'

test_expect_success 'adding a directory fails, one line, cache unchanged' '
	mkdir -p adir &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a adir
'

test_expect_success 'adding a text file fails, one line, cache unchanged' '
	echo "not an ELF file" >text &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a text
'

test_expect_success GCC,READELF 'adding a truncated ELF file fails, one line, cache unchanged' '
	head -c 100 prog >cut100 &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a cut100 &&
	head -c 3000 prog >cut3000 &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a cut3000
'

test_expect_success GCC,READELF 'adding a file without build-id fails, one line, cache unchanged' '
	build_workload true nobid -Wl,--build-id=none &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a nobid
'

test_expect_success GCC,READELF 'one bad file among several: nothing at all is added' '
	HOME=$TEST_TMP/mixed && mkdir -p "$HOME" &&
	CACHE=$HOME/.debug &&
	echo "not an ELF file" >text &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a other,text &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a other -a text &&
	test_refuses --cache "$CACHE" "$PERF" buildid-cache -a text -a other &&
	! test -e "$CACHE"
'

test_expect_success 'an unknown option prints the usage and exits with 129' '
	"$PERF" buildid-cache --frobnicate >out 2>err
	test $? -eq 129 &&
	grep -q "frobnicate" err &&
	grep -q "Usage: perf buildid-cache" err
'

test_done
