#!/bin/sh
test_description='probe caches embedded in debuginfo and fetched alone (a section) from a real debuginfod'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

test_have_prereq DEBUGINFOD || test_skip_all 'no debuginfod (apt-get install debuginfod)'

debuginfod_setup
G=perftest_embed
test_probe_group $G
test_probe_group $SDT_GROUP
SPEC="$G:req=handle len=r->len peer=r->conn->peer:string"
BUILD=$TEST_TMP/build-home

# host NAME: a host of its own with an empty build-id cache and client cache.
host() {
	export HOME="$TEST_TMP/$1" DEBUGINFOD_CACHE_PATH="$TEST_TMP/$1-client"
	rm -rf "$HOME" "$DEBUGINFOD_CACHE_PATH" && mkdir -p "$HOME"
}

bid() {
	readelf -n "$1" | sed -n 's/.*Build ID: //p'
}

# section FILE TEXT: FILE with TEXT as its section .perf.probes, as a
# foreign tool would write it.
section() {
	printf '%b' "$2" >sec.txt &&
	objcopy --add-section .perf.probes=sec.txt --set-section-flags .perf.probes=readonly "$1"
}

test_expect_success 'setup: builds, their stripped copies, the build host'"'"'s cache' '
	mkdir -p srv "$BUILD" &&
	build_workload conn "$TEST_TMP/app.g" -g -O0 && strip -g -o app app.g &&
	objcopy --only-keep-debug app.g srv/app.debug &&
	build_sdt_prog "$TEST_TMP/sdt.g" -g -O0 && strip -g -o sdt sdt.g &&
	objcopy --only-keep-debug sdt.g srv/sdt.debug &&
	build_workload other "$TEST_TMP/bad.g" -g -O0 && strip -g -o bad bad.g &&
	objcopy --only-keep-debug bad.g srv/bad.debug &&
	build_workload conn "$TEST_TMP/wrong.g" -g -O1 && strip -g -o wrong wrong.g &&
	objcopy --only-keep-debug wrong.g srv/wrong.debug &&
	HOME=$BUILD "$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$SPEC" &&
	HOME=$BUILD "$PERF" buildid-cache -a sdt.g &&
	section srv/bad.debug "perf-probes 1 $(bid bad.g)\\nnot a probe cache line\\n" &&
	section srv/wrong.debug "perf-probes 1 $(bid app.g)\\n#other x=%di\\np:probe_wrong/other /x:0x1 x=%di\\n"
'

test_expect_success '--embed writes a non-allocated section and changes nothing else' '
	cp srv/app.debug before.debug &&
	HOME=$BUILD "$PERF" probe --cache --embed srv/app.debug 2>err &&
	grep -q "^Embedded 1 cached probe entries of build-id $(bid app.g) into srv/app.debug$" err &&
	readelf -SW srv/app.debug | grep " \.perf\.probes *PROGBITS" >sec &&
	! grep -q " A" sec &&
	test "$(bid srv/app.debug)" = "$(bid app.g)" &&
	readelf -wi before.debug >info.before && readelf -wi srv/app.debug >info.after &&
	test_cmp_file info.before info.after &&
	readelf -p .perf.probes srv/app.debug | grep -q "perf-probes 1 $(bid app.g)" &&
	readelf -p .perf.probes srv/app.debug | grep -q "#$SPEC"
'

test_expect_success 'embedding again replaces the section' '
	cp srv/app.debug once.debug &&
	HOME=$BUILD "$PERF" probe --cache -q --embed srv/app.debug &&
	cmp once.debug srv/app.debug &&
	test "$(readelf -SW srv/app.debug | grep -c "\.perf\.probes")" = 1 &&
	HOME=$BUILD "$PERF" probe --cache -q --embed srv/sdt.debug
'

test_expect_success 'a binary with the section embedded still runs the same' '
	cp app.g run.g && HOME=$BUILD "$PERF" probe --cache -q --embed run.g &&
	readelf -SW run.g | grep -q " \.perf\.probes *PROGBITS" &&
	"$TEST_TMP/app.g" 2 >expect && "$TEST_TMP/run.g" 2 >actual &&
	test_cmp_file expect actual && test -s actual
'

test_expect_success SYSTEM_PERF 'the system perf and gdb read the embedded file as before' '
	for v in "-F" "-L handle"; do
		# shellcheck disable=SC2086 # the option and its argument
		"$SYSTEM_PERF" probe -x "$TEST_TMP/before.debug" $v >expect 2>&1 &&
		# shellcheck disable=SC2086
		"$SYSTEM_PERF" probe -x "$TEST_TMP/srv/app.debug" $v >actual 2>&1 &&
		test_cmp_file expect actual && test -s expect || exit 1
	done &&
	grep -q "return r->len + seq" expect &&
	if command -v gdb >/dev/null; then
		gdb -batch -ex "symbol-file before.debug" -ex "info scope handle" 2>&1 |
			grep -v "^Reading symbols" >expect &&
		gdb -batch -ex "symbol-file srv/app.debug" -ex "info scope handle" 2>&1 |
			grep -v "^Reading symbols" >actual &&
		test_cmp_file expect actual && grep -q "Symbol r is" actual
	fi
'

test_expect_success '--embed refuses bad input in one line and leaves the file as it was' '
	cp srv/app.debug keep.debug &&
	test_must_fail env HOME=$BUILD "$PERF" probe --embed srv/app.debug 2>err &&
	grep -q "add --cache" err && cmp keep.debug srv/app.debug &&
	test_refuses env HOME=$BUILD "$PERF" probe --cache --embed srv/bad.debug &&
	grep -q "no probe cache of build-id $(bid bad.g)" err &&
	echo "not elf" >text.file &&
	test_refuses env HOME=$BUILD "$PERF" probe --cache --embed text.file &&
	grep -q "text.file" err && test "$(cat text.file)" = "not elf" &&
	! ls srv/*.tmp.* 2>/dev/null
'

# The kernel: a small ELF of the running kernel's build-id stands for its
# debuginfo on the server (the section is all that is asked for).
test_expect_success 'setup: the running kernel'"'"'s probe cache embedded in a file of its build-id' '
	kbid=$("$PERF" buildid-list -k) && test -n "$kbid" &&
	if ! HOME=$BUILD "$PERF" probe --cache -n -q -a "$G:kread=vfs_read count" 2>/dev/null; then
		echo "# no kernel probe resolves here (no BTF, no vmlinux): the kernel case is skipped"
		exit 0
	fi &&
	echo "int perftest_embed_stub;" | ${CC:-cc} -g -c -x c - -o stub.o &&
	python3 -c "import struct, sys; b = bytes.fromhex(sys.argv[1]); open(\"note.bin\", \"wb\").write(struct.pack(\"<III\", 4, len(b), 3) + b\"GNU\\0\" + b)" "$kbid" &&
	objcopy --add-section .note.gnu.build-id=note.bin \
		--set-section-flags .note.gnu.build-id=alloc,readonly stub.o srv/vmlinux.debug &&
	test "$(bid srv/vmlinux.debug)" = "$kbid" &&
	HOME=$BUILD "$PERF" probe --cache -q --embed srv/vmlinux.debug &&
	echo "$kbid" >kernel.bid
'

test_expect_success 'setup: the server of the debug files' '
	debuginfod_start srv && i=0 &&
	until DEBUGINFOD_URLS="$URL" debuginfod-find section "$(bid app.g)" .perf.probes >/dev/null 2>&1 &&
		DEBUGINFOD_URLS="$URL" debuginfod-find debuginfo "$(bid wrong.g)" >/dev/null 2>&1 &&
		{ ! test -s kernel.bid || DEBUGINFOD_URLS="$URL" debuginfod-find section "$(cat kernel.bid)" .perf.probes >/dev/null 2>&1; }; do
		rm -rf "$DEBUGINFOD_CACHE_PATH"
		i=$((i + 1)); [ $i -lt 100 ] || { cat server.log; exit 1; }
		sleep 0.2
	done
'

test_expect_success 'a stripped host with an empty cache resolves through the section alone' '
	host h1 &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >actual &&
	HOME=$BUILD "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >expect &&
	test_cmp_file expect actual &&
	grep -q "^p:$G/req $TEST_TMP/app:0x" actual &&
	# only the section came: no debuginfo in the client cache
	find "$DEBUGINFOD_CACHE_PATH" -type f -name "section-.perf.probes" | grep -q . &&
	! find "$DEBUGINFOD_CACHE_PATH" -type f -name debuginfo | grep -q . &&
	grep -q "GET /buildid/$(bid app.g)/section/.perf.probes 200" server.log &&
	! grep -q "GET /buildid/$(bid app.g)/debuginfo" server.log &&
	# and it is kept: the host is offline now
	env -u DEBUGINFOD_URLS "$PERF" probe -q -x "$TEST_TMP/app" -D "$SPEC" >again &&
	test_cmp_file expect again
'

run_traced() {
	echo >"$TRACEFS/trace" &&
	echo 1 >"$TRACEFS/events/$1/enable" &&
	"$TEST_TMP/app" 3 >printed &&
	echo 0 >"$TRACEFS/events/$1/enable" &&
	grep -o "len=[0-9]* peer=\"[^\"]*\"" "$TRACEFS/trace" | tr -d "\"" >traced &&
	test_cmp_file printed traced && test -s traced
}

test_expect_success ROOT,TRACEFS 'the %EVENT of the section is placed live on the stripped host and fires' '
	host h2 &&
	test_when_finished "remove_probe_group $G" &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -a "%$G:req" &&
	run_traced $G/req &&
	! find "$DEBUGINFOD_CACHE_PATH" -type f -name debuginfo | grep -q . &&
	"$PERF" probe -q -d "$G:req"
'

test_expect_success 'sdt_* events come from the section of a stripped SDT program' '
	host h3 &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/sdt" -D "$SDT_GROUP:noargs" >actual &&
	grep -q "^p:$SDT_GROUP/noargs $TEST_TMP/sdt:0x" actual &&
	grep -q "GET /buildid/$(bid sdt.g)/section/.perf.probes 200" server.log &&
	grep -q "^%$SDT_GROUP:noargs" "$HOME"/.debug/.build-id/*/*/probes
'

test_expect_success 'the kernel: a spec from the section of the running kernel'"'"'s build-id' '
	test -s kernel.bid || { echo "# skip: no kernel cache"; exit 0; }
	host h9 &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -D "$G:kread=vfs_read count" >actual &&
	HOME=$BUILD "$PERF" probe -q -D "$G:kread=vfs_read count" >expect &&
	test_cmp_file expect actual &&
	grep -q "GET /buildid/$(cat kernel.bid)/section/.perf.probes 200" server.log &&
	! find "$DEBUGINFOD_CACHE_PATH" -type f -name debuginfo | grep -q . &&
	test -s "$HOME/.debug/[kernel.kallsyms]/$(cat kernel.bid)/probes"
'

test_expect_success 'a request the section has no answer for falls back to the full debuginfo' '
	host h4 &&
	"$PERF" probe -q -x "$TEST_TMP/app.g" -D "handle seq" | sed "s|/app.g:|/app:|" >expect &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -q -x "$TEST_TMP/app" -D "handle seq" >actual &&
	test_cmp_file expect actual &&
	find "$DEBUGINFOD_CACHE_PATH" -type f -name debuginfo | grep -q .
'

test_expect_success 'a section that does not parse is refused in one line, then the debuginfo' '
	host h5 &&
	"$PERF" probe -q -x "$TEST_TMP/bad.g" -D "other x" | sed "s|/bad.g:|/bad:|" >expect &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/bad" -D "other x" >actual 2>err.all &&
	test_cmp_file expect actual &&
	# less what perf says of an -O0 build
	grep -v -e "without optimization" -e "force probing" -e "^$" err.all >err &&
	test_line_count = 1 err &&
	grep -q "^Warning: not using the probe cache section of build-id $(bid bad.g) from .*line 2: " err &&
	! ls "$HOME"/.debug/.build-id/*/*/probes 2>/dev/null
'

test_expect_success 'a section that names another build-id is refused in one line, then the debuginfo' '
	host h6 &&
	"$PERF" probe -q -x "$TEST_TMP/wrong.g" -D "handle seq" | sed "s|/wrong.g:|/wrong:|" >expect &&
	DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/wrong" -D "handle seq" >actual 2>err &&
	test_cmp_file expect actual &&
	test_line_count = 1 err &&
	grep -q "it names the build-id $(bid app.g)" err &&
	! ls "$HOME"/.debug/.build-id/*/*/probes 2>/dev/null
'

test_expect_success 'a server that is down: one line, nothing kept' '
	debuginfod_stop && host h7 &&
	start=$(date +%s) &&
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" env DEBUGINFOD_URLS="$URL" "$PERF" probe -x "$TEST_TMP/app" -D "handle seq" &&
	test $(($(date +%s) - start)) -lt 10 && grep -q "debuginfod" err
'

test_expect_success 'a server that does not answer: bounded by DEBUGINFOD_TIMEOUT, one line' '
	host h8
	python3 -c "
import socket, sys, time
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(16)
print(s.getsockname()[1], flush=True); time.sleep(60)" >port &
	echo $! >mute.pid &&
	test_when_finished "kill \$(cat mute.pid)" &&
	i=0 && until test -s port; do i=$((i + 1)); [ $i -lt 50 ] || exit 1; sleep 0.1; done &&
	start=$(date +%s) &&
	# one try of each query libdebuginfod makes (the section, its own fallback to the debuginfo)
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" env DEBUGINFOD_TIMEOUT=1 DEBUGINFOD_RETRY_LIMIT=0 \
		DEBUGINFOD_URLS="http://127.0.0.1:$(cat port)" \
		"$PERF" probe -x "$TEST_TMP/app" -D "handle seq" &&
	test $(($(date +%s) - start)) -lt 10 && grep -q "debuginfod" err
'

test_expect_success 'no probe of the test is left' '
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events" 2>/dev/null &&
	! grep -q "^[pr]:$SDT_GROUP/" "$TRACEFS/uprobe_events" 2>/dev/null
'

test_done
