#!/bin/sh
test_description='a slow debuginfod: progress on a terminal, silence with -q or without one, a bounded wait'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq PYTHON3 || test_skip_all 'no python3 for the slow server'
test_have_prereq SCRIPT || test_skip_all 'no script(1) for a terminal (apt-get install bsdutils)'

# A server of our own that sends the body slowly (64 KiB every 20 ms), so
# a 3 MiB debuginfo takes about a second: long enough for libdebuginfod to
# call the progress function while bytes are still coming.
PORT=$((20000 + ($$ + 7) % 20000))
URL="http://127.0.0.1:$PORT"
export DEBUGINFOD_CACHE_PATH="$TEST_TMP/client-cache"
export DEBUGINFOD_TIMEOUT=5
test_cleanup 'kill $(cat "$TEST_TMP/server.pid" 2>/dev/null) 2>/dev/null'
SPEC="handle seq"

server_start() {
	rm -f "$TEST_TMP/requests" "$TEST_TMP/requests.ready"
	(python3 "$TEST_ROOT/tools/perf/tests/shell/slow-debuginfod.py" "$PORT" "$TEST_TMP/srv" "$1" "$TEST_TMP/requests" \
		>"$TEST_TMP/server.log" 2>&1 & echo $! >"$TEST_TMP/server.pid")
	_i=0
	until [ -e "$TEST_TMP/requests.ready" ]; do
		_i=$((_i + 1)); [ "$_i" -lt 100 ] || { cat "$TEST_TMP/server.log"; return 1; }
		sleep 0.1
	done
}

server_stop() {
	kill "$(cat "$TEST_TMP/server.pid")" 2>/dev/null
	while kill -0 "$(cat "$TEST_TMP/server.pid")" 2>/dev/null; do sleep 0.1; done
}

# (No app.debug beside app: libdwfl would find it without the server.)

# on_terminal CMD...: run CMD with a pseudo-terminal as stdin, stdout and
# stderr (script(1)); what it wrote, both streams, is in tty.out.
on_terminal() {
	script -qec "$*" /dev/null </dev/null >tty.out
}

test_expect_success 'setup: a stripped program, and its debuginfo grown to 3 MiB on a slow server' '
	mkdir -p srv &&
	build_workload conn "$TEST_TMP/app.g" -g -O0 &&
	strip -g -o app app.g &&
	objcopy --only-keep-debug app.g srv/debug &&
	head -c 3145728 /dev/zero >pad &&
	id=$(build_id_of app) && test -n "$id" &&
	objcopy --add-section .pad=pad srv/debug "srv/$id" && rm srv/debug pad &&
	test "$(build_id_of "srv/$id")" = "$id" &&
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "$SPEC" | sed "s|/app.g:|/app:|" >expect &&
	server_start slow
'

test_expect_success 'on a terminal a large download shows progress, then the line is cleared' '
	on_terminal env DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/app" -D "\"$SPEC\"" &&
	grep -q "Downloading from debuginfod: [0-9]*/3[0-9][0-9][0-9] KiB" tty.out &&
	grep -q "$(printf "\r\033\\[K")" tty.out &&
	tr "\r" "\n" <tty.out | grep "^p:" >actual &&
	test_cmp_file expect actual &&
	grep -q "^/buildid/$(build_id_of app)/debuginfo$" requests
'

test_expect_success '-q silences the progress on a terminal' '
	rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	on_terminal env DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "\"$SPEC\"" &&
	! grep -q "Downloading" tty.out &&
	tr "\r" "\n" <tty.out | grep "^p:" >actual &&
	test_cmp_file expect actual
'

test_expect_success 'without a terminal there is no progress line' '
	rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >actual 2>err &&
	test_cmp_file expect actual &&
	! grep -q "Downloading" err
'

test_expect_success 'a server that never answers: one clear line within the client timeout' '
	rm -rf "$DEBUGINFOD_CACHE_PATH" &&
	server_stop && server_start hang &&
	start=$(date +%s) &&
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" env DEBUGINFOD_URLS="$URL" DEBUGINFOD_TIMEOUT=2 timeout 60 \
		"$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" &&
	test $(($(date +%s) - start)) -lt 20 &&
	grep -q "debuginfod" err &&
	server_stop
'

test_done
