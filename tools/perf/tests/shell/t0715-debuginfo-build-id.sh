#!/bin/sh
test_description='a debuginfo file of another build is never used: debuginfod, the cached debug, the client cache'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
unset DEBUGINFOD_URLS

SPEC="handle r->len seq"

# entry_of FILE: the build-id cache entry directory of FILE.
entry_of() {
	dirname "$(probes_file "$1")"
}

test_expect_success 'setup: a stripped -O0 build, the debuginfo of an -O2 build of the same source' '
	build_workload conn "$TEST_TMP/app.g" -g -O0 &&
	strip -g -o app app.g &&
	build_workload conn "$TEST_TMP/other.g" -g -O2 &&
	mkdir -p keep && objcopy --only-keep-debug other.g keep/other.debug &&
	objcopy --only-keep-debug app.g keep/app.debug &&
	APP=$(build_id_of app) && OTHER=$(build_id_of other.g) &&
	test "$APP" != "$OTHER" &&
	echo "$APP" >app.bid && echo "$OTHER" >other.bid
'

# The one line of a refusal, for the file $1.
refused_line() {
	echo "Error: not using the debuginfo of $TEST_TMP/app: $1 has build-id $(cat other.bid), not $(cat app.bid)"
}

test_expect_success 'a cached debug of another build is refused by -a, -D, -V and -L in one line' '
	"$PERF" buildid-cache -a app &&
	cp keep/other.debug "$(entry_of app)/debug" &&
	refused_line "$(entry_of app)/debug" >expect &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -D handle && test_cmp_file expect err1 &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" && test_cmp_file expect err1 &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -V handle && test_cmp_file expect err1 &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app" -L handle && test_cmp_file expect err1 &&
	test_refuses "$PERF" probe --cache -n -x "$TEST_TMP/app" -a handle &&
	test_cmp_file expect err1
'

test_expect_success 'the debug of its own build serves them again' '
	cp keep/app.debug "$(entry_of app)/debug" &&
	"$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >actual &&
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "$SPEC" | sed "s|/app.g:|/app:|" >expect &&
	test_cmp_file expect actual &&
	"$PERF" buildid-cache -r app
'

test_have_prereq DEBUGINFOD && debuginfod_setup

test_expect_success DEBUGINFOD 'debuginfo of another build given for the id by debuginfod is refused' '
	mkdir -p srv && cp keep/other.debug srv/ &&
	debuginfod_start srv &&
	# the client takes what its cache holds under the id, as served before
	mkdir -p "$DEBUGINFOD_CACHE_PATH/$(cat app.bid)" &&
	cp keep/other.debug "$DEBUGINFOD_CACHE_PATH/$(cat app.bid)/debuginfo" &&
	refused_line "$DEBUGINFOD_CACHE_PATH/$(cat app.bid)/debuginfo" >expect &&
	DEBUGINFOD_URLS=$URL test_refuses "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" &&
	test_cmp_file expect err1 &&
	DEBUGINFOD_URLS=$URL test_refuses "$PERF" probe -x "$TEST_TMP/app" -V handle &&
	test_cmp_file expect err1 &&
	DEBUGINFOD_URLS=$URL test_refuses "$PERF" probe -x "$TEST_TMP/app" -L handle &&
	test_cmp_file expect err1
'

test_expect_success DEBUGINFOD 'buildid-cache --debuginfod keeps no debug of another build' '
	test_must_fail "$PERF" buildid-cache --debuginfod="$URL" -a app 2>err &&
	cat err &&
	grep -q "^Couldn.t fetch debuginfo for app from .*: $DEBUGINFOD_CACHE_PATH/$(cat app.bid)/debuginfo has build-id $(cat other.bid), not $(cat app.bid)$" err &&
	! test -e "$(entry_of app)/debug" &&
	debuginfod_stop
'

test_done
