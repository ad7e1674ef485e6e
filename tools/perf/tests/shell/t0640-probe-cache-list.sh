#!/bin/sh
test_description='perf probe --cache --list (also -x BIN) and perf buildid-cache -l list what and in the order perf 6.1 does'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Four builds of one program, at paths in the reverse of their build-ids'
# order: w (the highest build-id), x, y, z (the lowest).
test_expect_success SYSTEM_PERF_PROBE 'setup: four builds, four probe caches' '
	for o in -O0 -O1 -O2 -Os; do
		build_workload counter "$TEST_TMP/b$o" -g $o || return 1
		echo "$(build_id_of "$TEST_TMP/b$o") $TEST_TMP/b$o"
	done | sort -r >bids &&
	test "$(cut -d" " -f1 bids | sort -u | wc -l)" = 4 &&
	set -- w x y z &&
	while read -r _bid _file; do
		cp "$_file" "$TEST_TMP/$1" && shift || return 1
	done <bids &&
	for b in w x y z; do
		"$PERF" probe --cache -n -q -x "$TEST_TMP/$b" -a "work a" -a "other" || return 1
	done
'

# section FILE PATH: the "PATH (BID):" block of a --cache --list output.
section() {
	awk -v p="$2" '/\):$/ { on = index($0, p " (") == 1 } on' "$1"
}

test_expect_success SYSTEM_PERF_PROBE '--cache --list and buildid-cache -l go by build-id, as perf' '
	test_same_as_system_perf probe --cache --list &&
	test_line_count = 12 ours &&
	test_same_as_system_perf probe --cache -l "w*" &&
	test_same_as_system_perf buildid-cache -l &&
	test_line_count = 4 ours &&
	head -n 1 ours | grep -q " $TEST_TMP/z$"
'

test_expect_success SYSTEM_PERF_PROBE '--cache --list -x BIN lists that cache only, as perf lists it' '
	"$SYSTEM_PERF" probe --cache --list >all &&
	"$PERF" probe --cache --list -x "$TEST_TMP/x" >out &&
	section all "$TEST_TMP/x" >expect &&
	test_line_count = 3 expect &&
	test_cmp_file expect out &&
	"$PERF" probe --cache -l -x "$TEST_TMP/y" >out &&
	section all "$TEST_TMP/y" >expect &&
	test_cmp_file expect out
'

test_expect_success SYSTEM_PERF_PROBE '--cache -l FILTER -x BIN: the header and the matching specs' '
	"$SYSTEM_PERF" probe --cache -l "w*" >all &&
	"$PERF" probe --cache -l "w*" -x "$TEST_TMP/z" >out &&
	section all "$TEST_TMP/z" >expect &&
	test_line_count = 2 expect &&
	test_cmp_file expect out
'

test_expect_success SYSTEM_PERF_PROBE '--cache -l -x of a binary with no cache prints nothing' '
	build_workload true "$TEST_TMP/none" &&
	"$PERF" probe --cache -l -x "$TEST_TMP/none" >out &&
	test_line_count = 0 out
'

test_expect_success SYSTEM_PERF_PROBE 'an emptied cache is not listed, as perf' '
	"$PERF" probe --cache -x "$TEST_TMP/y" --del "*" 2>err &&
	test -f "$(probes_file "$TEST_TMP/y")" &&
	test_same_as_system_perf probe --cache --list &&
	test_line_count = 9 ours &&
	"$PERF" probe --cache --list -x "$TEST_TMP/y" >out &&
	test_line_count = 0 out
'

test_expect_success SYSTEM_PERF_PROBE 'a path rebuilt since: only its current build is listed, as perf' '
	build_workload counter "$TEST_TMP/x.new" -g -O3 &&
	! grep -q "^$(build_id_of "$TEST_TMP/x.new") " bids &&
	mv -f "$TEST_TMP/x.new" "$TEST_TMP/x" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/x" -a "work%return \$retval" &&
	test "$(find "$HOME/.debug$TEST_TMP/x" -name probes | wc -l)" = 2 &&
	test_same_as_system_perf probe --cache --list &&
	test_line_count = 8 ours &&
	test_same_as_system_perf buildid-cache -l &&
	test_line_count = 4 ours
'

test_expect_success SYSTEM_PERF_PROBE 'one build-id at two paths: the one its link leads to, as perf' '
	cp "$TEST_TMP/w" "$TEST_TMP/v" &&
	"$PERF" buildid-cache -a "$TEST_TMP/v" &&
	test -d "$HOME/.debug$TEST_TMP/v" &&
	test_same_as_system_perf buildid-cache -l &&
	test_line_count = 4 ours &&
	! grep -q "$TEST_TMP/v$" ours &&
	test_same_as_system_perf probe --cache --list
'

# buildid-cache -a gave the copy an entry of its own, with an empty probes
# file (as perf's does): that is its cache, and an empty one is not listed.
test_expect_success SYSTEM_PERF_PROBE '--cache -l -x of the other path: its own empty cache, nothing' '
	test -f "$(probes_file "$TEST_TMP/v")" &&
	"$PERF" probe --cache -l -x "$TEST_TMP/v" >out &&
	test_line_count = 0 out
'

test_done
