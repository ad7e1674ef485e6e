#!/bin/sh
test_description='probes cached on a -g build fire on the stripped build with the same values'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root and a writable tracefs'

G=perftest_pcl
test_probe_group $G
test_probe_group probe_app

# run_traced EVENT: enable EVENT, run the stripped app, print what it logged
# and what the probe logged, each as "len=N peer=S" lines.
run_traced() {
	echo >"$TRACEFS/trace" &&
	echo 1 >"$TRACEFS/events/$1/enable" &&
	"$TEST_TMP/app" 4 >printed &&
	echo 0 >"$TRACEFS/events/$1/enable" &&
	grep -o 'len=[0-9]* peer="[^"]*"' "$TRACEFS/trace" | tr -d '"' >traced &&
	test_cmp_file printed traced
}

test_expect_success 'setup: a -g build and a stripped copy of it elsewhere' '
	build_workload conn "$TEST_TMP/app.debug" -g -O0 &&
	strip -g -o "$TEST_TMP/app" "$TEST_TMP/app.debug" &&
	mkdir -p "$HOME"
'

test_expect_success 'our cache: struct-member and string arguments fire with the same values' '
	"$PERF" probe -x "$TEST_TMP/app.debug" -D "handle r->len" >/dev/null 2>&1 || {
		echo "# skip: our perf resolves no DWARF yet"; exit 0; }
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.debug" -a "$G:req=handle len=r->len peer=r->conn->peer:string" &&
	"$PERF" probe -q -x "$TEST_TMP/app" -a "$G:req=handle len=r->len peer=r->conn->peer:string" &&
	run_traced "$G/req" &&
	"$PERF" probe -q -d "$G:req"
'

test_expect_success SYSTEM_PERF 'the system perf'"'"'s cache entry fires on the stripped build through ours' '
	export HOME="$TEST_TMP/home-sys" && mkdir -p "$HOME" &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/app.debug" -a "handle len=r->len peer=r->conn->peer:string" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "handle len=r->len peer=r->conn->peer:string" 2>err &&
	grep -q "probe_app:handle" err &&
	run_traced probe_app/handle &&
	"$PERF" probe -q -d "probe_app:handle"
'

test_expect_success SYSTEM_PERF 'the system perf places our cached event by name on the stripped build' '
	export HOME="$TEST_TMP/home-ours" && mkdir -p "$HOME" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.debug" -a "$G:named=handle x=%di:x64" &&
	"$PERF" probe -x "$TEST_TMP/app.debug" -D "$G:named=handle x=%di:x64" | sed "s/ .*:/ X:/" >ours &&
	"$SYSTEM_PERF" probe -x "$TEST_TMP/app.debug" -D "%$G:named" >theirs 2>/dev/null &&
	sed "s/ .*:/ X:/" theirs >theirs.n &&
	test_cmp_file ours theirs.n
'

test_expect_success 'no probe of the test is left' '
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events" &&
	! grep -q "^[pr]:probe_app/" "$TRACEFS/uprobe_events"
'

test_done
