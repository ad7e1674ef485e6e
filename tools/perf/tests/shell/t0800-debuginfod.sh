#!/bin/sh
test_description='debuginfo fetched from a real debuginfod server, and kept by the probe cache'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq DEBUGINFOD || test_skip_all 'no debuginfod (apt-get install debuginfod)'

debuginfod_setup
SPEC="handle r->len r->conn->peer:string seq"

test_expect_success 'setup: a -g build, its stripped copy, and a server of its debuginfo' '
	mkdir -p srv &&
	build_workload conn "$TEST_TMP/app.g" -g -O0 &&
	objcopy --only-keep-debug app.g srv/app.debug &&
	strip -g -o app app.g &&
	build_workload other "$TEST_TMP/other" -g -O0 && strip -g other &&
	debuginfod_start srv &&
	debuginfod_fetch app &&
	"$PERF" buildid-cache -r app && rm -rf "$DEBUGINFOD_CACHE_PATH"
'

test_expect_success 'the stripped program resolves through debuginfod to the -g build'"'"'s definition' '
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "$SPEC" | sed "s|/app.g:|/app:|" >expect &&
	test_must_fail "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" 2>err &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >actual &&
	test_cmp_file expect actual
'

test_expect_success UNSHARE,ROOT 'source lines come from debuginfod when the source is not here' '
	mkdir -p src && cp "$WORKLOADS/conn.c" src/app.c &&
	build_prog "$TEST_TMP/app2.g" "$TEST_TMP/src/app.c" -g -O0 &&
	objcopy --only-keep-debug app2.g srv/app2.debug && strip -g -o app2 app2.g &&
	kill -USR1 "$(cat server.pid)" && i=0 &&
	until DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app2" -D "handle seq" >/dev/null 2>&1; do
		rm -rf "$DEBUGINFOD_CACHE_PATH"
		i=$((i + 1)); [ $i -lt 100 ] || exit 1
		sleep 0.2
	done &&
	rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	"$PERF" probe -x "$TEST_TMP/app2.g" -L handle >expect &&
	# the source hidden from perf (a private mount), not from the server
	DEBUGINFOD_URLS="$URL" unshare -m sh -c "mount -t tmpfs none \"$TEST_TMP/src\" &&
		\"$PERF\" probe -x \"$TEST_TMP/app2\" -L handle" >actual &&
	test_cmp_file expect actual &&
	test -s actual
'

test_expect_success 'after --cache the add works with the server stopped and its client cache gone' '
	DEBUGINFOD_URLS="$URL" "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$SPEC" &&
	debuginfod_stop &&
	rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >actual &&
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "$SPEC" | sed "s|/app.g:|/app:|" >expect &&
	test_cmp_file expect actual
'

test_expect_success 'an unreachable server gives one clear line, quickly' '
	start=$(date +%s) &&
	# no -q: it silences the error too, as in perf
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" env DEBUGINFOD_URLS="$URL" timeout 60 "$PERF" probe -x "$TEST_TMP/other" -D "other x" &&
	test $(($(date +%s) - start)) -lt 30 &&
	grep -q "debuginfod" err
'

test_expect_success 'buildid-cache --debuginfod to a stopped server says so in one line' '
	test_must_fail "$PERF" buildid-cache --debuginfod="$URL" -a other 2>err &&
	test_line_count = 1 err && grep -q "$URL" err &&
	"$PERF" buildid-cache --list | grep -q " $TEST_TMP/other$"
'

test_expect_success 'a server that has no such build-id gives one clear line' '
	debuginfod_start srv &&
	sleep 1 &&
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" env DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/other" -D "other x" &&
	grep -q "debuginfod" err
'

test_expect_success 'buildid-cache --debuginfod keeps the debuginfo for offline use' '
	"$PERF" buildid-cache -v --debuginfod="$URL" -a app 2>err &&
	grep -q "^Fetching debuginfo of .* app: Ok$" err &&
	debuginfod_stop && rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	"$PERF" probe --cache --del "handle*" -x app 2>/dev/null;
	"$PERF" probe -q -x "$TEST_TMP/app" -D "handle r->len" >actual &&
	grep -q "len=+0(-8(%bp)):s32" actual
'

test_expect_success 'the server is stopped' '
	debuginfod_stop; ! kill -0 "$(cat server.pid)" 2>/dev/null
'

test_done
