#!/bin/sh
test_description='perf probe --cache: entries stored by build-id, used without debuginfo'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_pc
test_expect_success 'setup: a -g build and its stripped copy share a build-id' '
	build_workload conn "$TEST_TMP/app" -g -O0 &&
	cp "$TEST_TMP/app" "$TEST_TMP/app.debug" &&
	strip -g "$TEST_TMP/app" &&
	test "$("$PERF" buildid-list -i "$TEST_TMP/app")" = "$("$PERF" buildid-list -i "$TEST_TMP/app.debug")"
'

test_expect_success '--cache -n stores the spec and its lines in the system perf format' '
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "handle x=%di:x64" -a "$G:ret=handle%return \$retval" &&
	f=$(probes_file "$TEST_TMP/app") &&
	cat >expect <<-EOF &&
	#handle x=%di:x64
	p:probe_app/handle $TEST_TMP/app:$(printf 0x%x $((0x$(nm "$TEST_TMP/app.debug" | awk "\$3==\"handle\"{print \$1}") - 0)))
	EOF
	head -n 1 "$f" >actual && head -n 1 expect >e1 && test_cmp_file e1 actual &&
	grep -q "^p:probe_app/handle $TEST_TMP/app:0x[0-9a-f]* x=%di:x64$" "$f" &&
	grep -q "^#$G:ret=handle%return \\\$retval$" "$f" &&
	grep -q "^r:$G/ret__return $TEST_TMP/app:0x[0-9a-f]* \\\$retval$" "$f" &&
	test -e "$HOME/.debug/.build-id" &&
	"$PERF" buildid-cache --list | grep -q " $TEST_TMP/app$"
'

test_expect_success '--cache -n needs no tracefs (a build host without root)' '
	PERF_TRACEFS_DIR="$TEST_TMP/no-tracefs" "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "notracefs=handle" &&
	grep -q "^#probe_app:notracefs=handle$" "$(probes_file "$TEST_TMP/app")" &&
	"$PERF" probe --cache -x "$TEST_TMP/app" --del "probe_app:notracefs*" 2>/dev/null
'

test_expect_success '--cache --list shows the entries grouped by binary, as perf does' '
	"$PERF" probe --cache --list >ours &&
	bid=$("$PERF" buildid-list -i "$TEST_TMP/app") &&
	printf "%s\n" "$TEST_TMP/app ($bid):" "handle x=%di:x64" "$G:ret=handle%return \$retval" >expect &&
	test_cmp_file expect ours &&
	if test_have_prereq SYSTEM_PERF; then
		test_same_as_system_perf probe --cache --list
	fi
'

test_expect_success '--cache --list FILTER keeps the matching specs' '
	"$PERF" probe --cache --list "$G:*" >ours &&
	test "$(grep -c . ours)" -eq 2 &&
	grep -q "^$G:ret=" ours
'

test_expect_success 'a cached entry is used for the same build at another path' '
	cp "$TEST_TMP/app" "$TEST_TMP/copy" &&
	"$PERF" probe -x "$TEST_TMP/copy" -D "$G:ret=handle%return \$retval" >out &&
	grep -q "^r:$G/ret__return $TEST_TMP/copy:0x" out
'

test_expect_success SYSTEM_PERF_PROBE 'the system perf stores DWARF specs that we place on the stripped build' '
	# perf 6.1 cannot cache a build-id it already holds under another path.
	export HOME="$TEST_TMP/home2" && mkdir -p "$HOME" &&
	"$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/app.debug" -a "handle r->len r->conn->peer:string" &&
	"$PERF" probe -x "$TEST_TMP/app" -D "handle r->len r->conn->peer:string" | sed "s|/app:|/app.debug:|" >ours &&
	test_same_as_system_perf probe -x "$TEST_TMP/app.debug" -D "handle r->len r->conn->peer:string"
'

test_expect_success 'a rebuilt binary never gets the other build'"'"'s definition' '
	sed "s/return r->len + seq;/return r->len - seq;/" "$WORKLOADS/conn.c" >app2.c &&
	build_prog "$TEST_TMP/app.debug" app2.c -O0 &&
	test_refuses --tracefs "$PERF" probe -x "$TEST_TMP/app.debug" -a "handle r->len" &&
	grep -q "needs debuginfo" err &&
	! grep -q "$TEST_TMP" "$TRACEFS/uprobe_events" 2>/dev/null
'

test_expect_success '--cache --del removes the matching entries only' '
	"$PERF" probe --cache -x "$TEST_TMP/app" --del "handle*" 2>err &&
	grep -q "^Removed cached event: handle x=%di:x64$" err &&
	! grep -q "^#handle" "$(probes_file "$TEST_TMP/app")" &&
	grep -q "^#$G:ret=" "$(probes_file "$TEST_TMP/app")"
'

test_expect_success '--cache --del of nothing fails with one line' '
	test_refuses "$PERF" probe --cache --del "nothing*"
'

test_expect_success '8 concurrent writers of 10 entries each keep all 80' '
	for w in 1 2 3 4 5 6 7 8; do
		(for i in 0 1 2 3 4 5 6 7 8 9; do
			"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "c${w}_$i=handle" || exit 1
		done) &
	done
	wait &&
	test "$(grep -c "^#probe_app:c[1-8]_[0-9]=handle$" "$(probes_file "$TEST_TMP/app")")" -eq 80 &&
	"$PERF" probe --cache --list "probe_app:c*" | grep -c "^probe_app:c" >count &&
	test "$(cat count)" -eq 80
'

test_expect_success 'writers killed at random instants leave every older entry' '
	f=$(probes_file "$TEST_TMP/app") &&
	before=$(grep -c "^#" "$f") &&
	i=0 &&
	while [ $i -lt 40 ]; do
		"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "k$i=handle" &
		pid=$! &&
		sleep "0.00$(( (i * 7) % 10 ))" &&
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		i=$((i + 1))
	done
	"$PERF" probe --cache --list >list &&
	test "$(grep -c "^probe_app:c[1-8]_[0-9]=handle$" list)" -eq 80 &&
	test "$(grep -c "^#" "$f")" -ge "$before"
'

test_expect_success 'the next writer removes what killed writers left behind' '
	f=$(probes_file "$TEST_TMP/app") &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "last=handle" &&
	! ls "$(dirname "$f")" | grep -q "probes.tmp"
'

# corrupt NAME: write a corrupt probes file, then check that --list and
# --cache --add refuse it with its path, and that it is left as it was.
corrupt() {
	f=$(probes_file "$TEST_TMP/app") &&
	cp "$f" "$TEST_TMP/good" &&
	cat >"$f" &&
	cp "$f" "$TEST_TMP/bad" &&
	test_must_fail "$PERF" probe --cache --list >/dev/null 2>err &&
	grep -q "$f" err &&
	test_refuses "$PERF" probe --cache -n -x "$TEST_TMP/app" -a "z=handle" &&
	grep -q "corrupt" err &&
	cmp "$f" "$TEST_TMP/bad" &&
	"$PERF" probe -x "$TEST_TMP/app" -D handle >out 2>err3 &&
	grep -q "^Warning: not using the corrupt probe cache" err3 &&
	cp "$TEST_TMP/good" "$f"
}

test_expect_success 'a cache file of random bytes is reported and left alone' '
	head -c 4096 /dev/urandom | corrupt
'
test_expect_success 'a trace-event line before any entry header is reported and left alone' '
	printf "p:x/y /bin/true:0x10\n#spec\n" | corrupt
'
test_expect_success 'a line of 1 MB is reported and left alone' '
	{ printf "#"; head -c 1048576 /dev/zero | tr "\0" a; printf "\n"; } | corrupt
'
test_expect_success 'a missing final newline is reported and left alone' '
	printf "#handle\np:probe_app/handle /bin/true:0x10" | corrupt
'

test_done
