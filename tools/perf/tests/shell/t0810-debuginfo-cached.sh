#!/bin/sh
test_description='-V, -L and -l of a stripped binary use the debuginfo kept in its build-id cache entry, as -a and -D do'
. "$(dirname "$0")/lib.sh"
unset DEBUGINFOD_URLS

# entry_of FILE: the build-id cache entry directory of FILE.
entry_of() {
	dirname "$(probes_file "$1")"
}

# The views of the -g build, with its path written as the stripped one's.
views_of_g() {
	"$PERF" probe -x "$TEST_TMP/app.g" -V handle >expect.V &&
	"$PERF" probe -x "$TEST_TMP/app.g" -V "handle:4" >expect.V4 &&
	"$PERF" probe -x "$TEST_TMP/app.g" -L handle >expect.L &&
	"$PERF" probe -x "$TEST_TMP/app.g" -L "cached-debug.c:5-8" >expect.Lsrc
}

# check_views BIN: -V and -L of BIN print what they print for the -g build.
check_views() {
	"$PERF" probe -x "$1" -V handle >actual.V &&
	test_cmp_file expect.V actual.V &&
	"$PERF" probe -x "$1" -V "handle:4" >actual.V4 &&
	test_cmp_file expect.V4 actual.V4 &&
	"$PERF" probe -x "$1" -L handle >actual.L &&
	test_cmp_file expect.L actual.L &&
	"$PERF" probe -x "$1" -L "cached-debug.c:5-8" >actual.Lsrc &&
	test_cmp_file expect.Lsrc actual.Lsrc
}

test_expect_success 'setup: a -g build, its separate debuginfo and a stripped copy' '
	build_workload cached-debug app.g -g -O0 &&
	mkdir -p keep && objcopy --only-keep-debug app.g keep/app.debug &&
	strip -g -o app app.g &&
	views_of_g &&
	grep -q "struct req\*	r" expect.V &&
	grep -q "served++" expect.L
'

test_expect_success 'without the debuginfo anywhere -V and -L refuse in one line' '
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -V handle &&
	grep -q "^The $TEST_TMP/app file has no debug information\.$" err &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -L handle
'

test_expect_success 'a debug file in the entry serves -D, -V and -L of the stripped binary' '
	"$PERF" buildid-cache -a app &&
	cp keep/app.debug "$(entry_of app)/debug" &&
	"$PERF" probe -q -x "$TEST_TMP/app" -D "handle r->len seq" >actual.D &&
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "handle r->len seq" | sed "s|/app.g:|/app:|" >expect.D &&
	test_cmp_file expect.D actual.D &&
	check_views "$TEST_TMP/app"
'

test_expect_success 'a copy of the same build at another path finds it through the .build-id link' '
	mkdir -p elsewhere && cp app elsewhere/app &&
	check_views "$TEST_TMP/elsewhere/app"
'

test_expect_success '-l names an event of the stripped binary through the cached debuginfo' '
	mkdir -p fake && : >fake/kprobe_events &&
	off=$("$PERF" probe -q -x "$TEST_TMP/app.g" -D "handle:4" | sed "s/.*app.g:\(0x[0-9a-f]*\).*/\1/") &&
	echo "p:probe_app/handle_L4 $TEST_TMP/app.g:$off" >fake/uprobe_events &&
	PERF_TRACEFS_DIR="$TEST_TMP/fake" "$PERF" probe -l >expect.l &&
	grep -q "handle:4@" expect.l &&
	echo "p:probe_app/handle_L4 $TEST_TMP/app:$off" >fake/uprobe_events &&
	PERF_TRACEFS_DIR="$TEST_TMP/fake" "$PERF" probe -l | sed "s|/app)\$|/app.g)|" >actual.l &&
	test_cmp_file expect.l actual.l
'

debuginfod_setup

test_expect_success DEBUGINFOD 'buildid-cache --debuginfod -a, then -V and -L offline with the server stopped' '
	"$PERF" buildid-cache -r app && test_must_fail check_views "$TEST_TMP/app" 2>/dev/null &&
	mkdir -p srv && cp keep/app.debug srv/ &&
	debuginfod_start srv &&
	debuginfod_fetch app &&
	test -s "$(entry_of app)/debug" &&
	debuginfod_stop && rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	check_views "$TEST_TMP/app"
'

test_done
