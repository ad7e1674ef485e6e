#!/bin/sh
test_description='probes cached on a -g build fire on the stripped build with the same values'
. "$(dirname "$0")/lib.sh"

have_root || test_skip_all 'needs root for tracefs'
setup_tracefs || test_skip_all 'tracefs uprobe_events is not writable'

G=perftest_pcl
test_cleanup "remove_probe_group $G; remove_probe_group probe_app"
remove_probe_group $G

cat >app.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
struct conn { int fd; const char *peer; };
struct req { int len; struct conn *conn; };
__attribute__((noinline)) int handle(struct req *r, int seq)
{
	return r->len + seq;
}
int main(int argc, char **argv)
{
	static const char *peers[] = { "peer-one", "peer-two" };
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
	for (int i = 0; i < n; i++) {
		struct conn c = { 7 + i, peers[i % 2] };
		struct req r = { 41 + i, &c };
		printf("len=%d peer=%s\n", r.len, c.peer);
		s += handle(&r, i);
	}
	return s == -1;
}
SRC

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
	build_prog "$TEST_TMP/app.debug" app.c -g -O0 &&
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

test_expect_success 'the system perf'"'"'s cache entry fires on the stripped build through ours' '
	have_system_perf || exit 0
	export HOME="$TEST_TMP/home-sys" && mkdir -p "$HOME" &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/app.debug" -a "handle len=r->len peer=r->conn->peer:string" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "handle len=r->len peer=r->conn->peer:string" 2>err &&
	grep -q "probe_app:handle" err &&
	run_traced probe_app/handle &&
	"$PERF" probe -q -d "probe_app:handle"
'

test_expect_success 'the system perf places our cached event by name on the stripped build' '
	have_system_perf || exit 0
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
