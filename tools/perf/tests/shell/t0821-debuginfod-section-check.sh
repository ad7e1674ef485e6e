#!/bin/sh
test_description='a hostile debuginfod: a section is checked before it is kept, bounded in size, and a FIFO in the client cache waits on nothing'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq PYTHON3 || test_skip_all 'no python3 for the hostile server'

# The server is the attacker's (uid 65534 when we are root), on loopback:
# it serves whatever .perf.probes section it likes.  The host has no probe
# cache of the build, so it asks for the section first.
G=perftest_hostile
test_probe_group $G
SPEC="$G:req=handle len=r->len peer=r->conn->peer:string"
BUILD=$TEST_TMP/build-home
PORT=$((20000 + ($$ + 11) % 20000))
URL="http://127.0.0.1:$PORT"
export DEBUGINFOD_TIMEOUT=10
test_cleanup 'kill $(cat "$TEST_TMP/server.pid" 2>/dev/null) 2>/dev/null'

# The system's python: one of root's own (pyenv under /root) is not
# another user's to run.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

as_nobody() {
	if [ "$(id -u)" = 0 ] && test_have_prereq SETPRIV; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# as_nobody_exec CMD...: as_nobody in place of the shell that runs it, so
# that $! of "as_nobody_exec ... &" is the server's own pid (a function
# run in the background is a subshell: killing it left the server
# running, holding whatever descriptors the test run had).
as_nobody_exec() {
	if [ "$(id -u)" = 0 ] && test_have_prereq SETPRIV; then
		exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		exec "$@"
	fi
}

# host NAME: a host of its own with an empty build-id cache and client cache.
host() {
	export HOME="$TEST_TMP/$1" DEBUGINFOD_CACHE_PATH="$TEST_TMP/$1-client"
	rm -rf "$HOME" "$DEBUGINFOD_CACHE_PATH" && mkdir -p "$HOME"
}

# serve TEXT: the section the server gives for the build (printf %b).
serve() {
	rm -f "srv/$BID.huge" && printf '%b' "$1" >"srv/$BID.section.new" &&
	chmod 644 "srv/$BID.section.new" && mv "srv/$BID.section.new" "srv/$BID.section"
}

# notes_out: stderr less what perf says of an -O0 build.
notes_out() {
	sed -e "/without optimization/d" -e "/force probing/d" -e "/^$/d"
}

# kept: the probes files this host kept, one per line.
kept() {
	find "$HOME/.debug" -name probes 2>/dev/null
}

test_expect_success 'setup: a build with debuginfo, its stripped copy, the build host'"'"'s cache, the server' '
	chmod 755 "$TEST_TMP" && mkdir -m 755 srv &&
	build_workload conn "$TEST_TMP/app.g" -g -O0 && strip -g -o app app.g &&
	BID=$(build_id_of app) && test -n "$BID" && echo "$BID" >bid &&
	objcopy --only-keep-debug app.g "srv/$BID.debuginfo" && chmod 644 "srv/$BID.debuginfo" &&
	HOME=$BUILD "$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$SPEC" &&
	cp "$(probes_file --home "$BUILD" app.g)" good.txt &&
	HOME=$BUILD "$PERF" probe -q -x "$TEST_TMP/app.g" -D "$SPEC" | sed "s|/app.g:|/app:|" >expect &&
	test -s expect &&
	mkdir -m 755 log && { [ "$(id -u)" != 0 ] || chown 65534:65534 log; } &&
	(as_nobody_exec "$PY" "$TEST_ROOT/tools/perf/tests/shell/hostile-debuginfod.py" "$PORT" \
		"$TEST_TMP/srv" "$TEST_TMP/log/requests" >server.log 2>&1 &
		echo $! >"$TEST_TMP/server.pid") &&
	i=0 && until [ -e "$TEST_TMP/log/requests.ready" ]; do
		i=$((i + 1)); [ $i -lt 100 ] || { cat server.log; exit 1; }; sleep 0.1
	done
'
BID=$(cat "$TEST_TMP/bid" 2>/dev/null)
HEAD="perf-probes 1 $BID\\n"
# Entries no resolve on this build gives: a line on another file, and a
# line with a semaphore a '#' entry never has.
EVIL1="#$G:evil1=handle\\np:$G/evil1 /bin/true:0x1000\\n"
EVIL2="#$G:evil2=handle\\np:$G/evil2 $TEST_TMP/app:0x1139(0x10)\\n"

test_expect_success 'hostile entries beside a good one: only the good one is kept, with one warning' '
	host h1 && serve "$HEAD$(cat good.txt)\\n$EVIL1$EVIL2" &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >actual 2>err &&
	test_cmp_file expect actual &&
	test_line_count = 1 err &&
	grep -q "^Warning: not using 2 of the 3 entries of the probe cache section of build-id $BID from .*(line 5: the line names another file, /bin/true)$" err &&
	test "$(kept | wc -l)" = 1 &&
	grep -q "^#$SPEC$" "$(kept)" && ! grep -q evil "$(kept)" &&
	# kept: the host is offline now, and the good entry still answers
	env -u DEBUGINFOD_URLS "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >again &&
	test_cmp_file expect again
'

test_expect_success 'a section whose entries all fail: refused in one line, nothing kept, the debuginfo used' '
	host h2 &&
	serve "$HEAD#$SPEC\\np:$G/req /bin/true:0x1000 len=+0(-8(%bp)):s32 peer=+0(+8(+8(-8(%bp)))):string\\n$EVIL1" &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >actual 2>err.all &&
	test_cmp_file expect actual &&
	notes_out <err.all >err &&
	test_line_count = 1 err &&
	grep -q "^Warning: not using the probe cache section of build-id $BID from .*(line 3: .*): using the debuginfo$" err &&
	test -z "$(kept)" &&
	# nothing left to break later commands: offline, it is as without a cache
	test_must_fail env -u DEBUGINFOD_URLS "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >out 2>err &&
	! grep -q "refusing cached probe" err && grep -q "debuginfo" err
'

test_expect_success 'a section of thousands of good entries (the limit is generous) is kept whole' '
	host h3 &&
	line=$(grep "^p:" good.txt) &&
	# one awk, not two seds for each of the 4,000 entries
	awk -v bid="$BID" -v spec="$SPEC" -v line="$line" "BEGIN {
		print \"perf-probes 1 \" bid
		for (i = 0; i < 4000; i++) {
			s = spec; l = line
			sub(/:req=/, \":e\" i \"=\", s); sub(/\\/req /, \"/e\" i \" \", l)
			print \"#\" s; print l
		}
	}" >"srv/$BID.section" && chmod 644 "srv/$BID.section" &&
	test "$(wc -c <"srv/$BID.section")" -gt 400000 &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "%$G:e3999" >actual 2>err &&
	grep -q "^p:$G/e3999 $TEST_TMP/app:0x" actual && ! test -s err &&
	test "$(grep -c "^#" "$(kept)")" = 4000
'

# A section over 16 MiB: told by its Content-Length, sent without one,
# or gzip-compressed (curl inflates it as it comes, past any length).
for how in length nolength gzip; do
	test_expect_success "a 40 MiB section ($how) is refused: no more than 16 MiB kept anywhere, the debuginfo used" '
		host h4-'$how' && rm -f "srv/$BID.section" && echo "'$how' 40" >"srv/$BID.huge" &&
		chmod 644 "srv/$BID.huge" &&
		DEBUGINFOD_URLS="$URL" /usr/bin/time -f "%M" -o rss timeout 120 \
			"$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >actual 2>err.all &&
		test_cmp_file expect actual &&
		notes_out <err.all >err &&
		test_line_count -le 1 err &&
		{ test "'$how'" != length || grep -q "(it is larger than 16 MiB): using the debuginfo" err; } &&
		test -z "$(kept)" &&
		du -sk "$DEBUGINFOD_CACHE_PATH" && test "$(du -sk "$DEBUGINFOD_CACHE_PATH" | cut -f1)" -lt 17000 &&
		echo "max RSS $(cat rss) KiB" && test "$(cat rss)" -lt 120000
	'
done

test_expect_success 'a FIFO in the client cache, as the section or the debuginfo: one warning, no wait' '
	rm -f "srv/$BID.huge" && serve "$HEAD$(cat good.txt)\\n" &&
	for name in section-.perf.probes debuginfo; do
		host h5 && mkdir -p "$DEBUGINFOD_CACHE_PATH/$BID" &&
		mkfifo "$DEBUGINFOD_CACHE_PATH/$BID/$name" &&
		{ DEBUGINFOD_URLS="$URL" timeout 10 "$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >out 2>err; rc=$?; } &&
		cat err && test $rc -ne 0 && test $rc -ne 124 &&
		grep -q "^Warning: not asking debuginfod for build-id $BID: refusing $DEBUGINFOD_CACHE_PATH/$BID/$name: not a regular file (a FIFO)" err &&
		test "$(grep -c "^Warning: not asking" err)" = 1 && test -p "$DEBUGINFOD_CACHE_PATH/$BID/$name" &&
		test -z "$(kept)" || exit 1
	done
'

test_expect_success ROOT,SETPRIV 'a client cache of another user'"'"'s (a HOME sudo -E kept) is not used' '
	mkdir -m 755 evil && chown 65534:65534 evil &&
	as_nobody mkdir -p "evil/.cache/debuginfod_client/$BID" &&
	as_nobody mkfifo "evil/.cache/debuginfod_client/$BID/section-.perf.probes" &&
	{
		HOME=$TEST_TMP/evil DEBUGINFOD_URLS="$URL" timeout 10 env -u DEBUGINFOD_CACHE_PATH \
			"$PERF" probe -x "$TEST_TMP/app" -D "$SPEC" >out 2>err
		rc=$?
	} && cat err && test $rc -ne 0 && test $rc -ne 124 &&
	grep -q "^Warning: not asking debuginfod for build-id $BID: refusing $TEST_TMP/evil/.cache/debuginfod_client: owned by uid 65534" err &&
	! test -e evil/.debug
'

test_done
