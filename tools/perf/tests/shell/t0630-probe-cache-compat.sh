#!/bin/sh
test_description='probe cache entries the system perf and we read of each other, across paths and binaries'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_cache14
# each_spec CMD...: CMD SPEC for each spec of lines the system perf caches
# under keys of its own ("@conn.c:7", "probe_app:handle_L2=handle:2",
# "probe_app:lnev=@conn.c:7"); stops at the first failure.
each_spec() {
	printf '%s\n' "conn.c:7" "handle:2" "lnev=conn.c:7" "$G:fl=handle:2" "conn.c:16 i" \
		"main:7 i" "handle:0 seq" |
		while IFS= read -r _spec; do
			"$@" "$_spec" || { echo "each_spec: failed on '$_spec'" >&2; return 1; }
		done
}

test_expect_success 'setup: a -g build at prod/app, its stripped copy at bin/other' '
	mkdir -p "$TEST_TMP/prod" "$TEST_TMP/bin" "$HOME" &&
	build_workload conn "$TEST_TMP/app.full" -g -O0 &&
	cp "$TEST_TMP/app.full" "$TEST_TMP/prod/app" &&
	strip -g -o "$TEST_TMP/bin/other" "$TEST_TMP/app.full" &&
	BID=$(build_id_of "$TEST_TMP/prod/app") && test -n "$BID" &&
	test "$BID" = "$(build_id_of "$TEST_TMP/bin/other")"
'
BID=$(build_id_of "$TEST_TMP/prod/app")

test_expect_success 'a copy at another path gets unnamed cached events in its own group' '
	"$PERF" probe --cache -n -q -x "$TEST_TMP/prod/app" -a "handle r->len" -a "$G:nm=handle r->len" -a "myev=handle r->len" &&
	"$PERF" probe -x "$TEST_TMP/bin/other" -D "handle r->len" -D "$G:nm=handle r->len" -D "myev=handle r->len" >out &&
	printf "%s\n" "p:probe_other/handle $TEST_TMP/bin/other:0x" "p:$G/nm $TEST_TMP/bin/other:0x" \
		"p:probe_other/myev $TEST_TMP/bin/other:0x" >expect &&
	sed "s/:0x.*/:0x/" out >actual &&
	test_cmp_file expect actual &&
	grep -q " len=+0(" out
'

test_expect_success 'caching for the copy leaves the .build-id link with the first path, as perf does' '
	link=$HOME/.debug/.build-id/$(echo "$BID" | cut -c1-2)/$(echo "$BID" | cut -c3-) &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/app/$BID" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/bin/other" -a "handle%return \$retval" &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/app/$BID" &&
	"$PERF" buildid-cache -a "$TEST_TMP/bin/other" &&
	test "$(readlink "$link")" = "../..$TEST_TMP/prod/app/$BID" &&
	grep -q "^r:probe_other/handle__return $TEST_TMP/bin/other:0x[0-9a-f]* \\\$retval$" "$(probes_file "$TEST_TMP/bin/other")" &&
	if test_have_prereq SYSTEM_PERF; then
		H=$TEST_TMP/home-sys && mkdir -p "$H" &&
		HOME=$H "$SYSTEM_PERF" buildid-cache -a "$TEST_TMP/prod/app" &&
		HOME=$H "$SYSTEM_PERF" buildid-cache -a "$TEST_TMP/bin/other" &&
		test "$(readlink "$H/.debug/.build-id/$(echo "$BID" | cut -c1-2)/$(echo "$BID" | cut -c3-)")" = "../..$TEST_TMP/prod/app/$BID"
	fi
'

test_expect_success 'our entries for line specs are written under the system perf'"'"'s keys' '
	H=$TEST_TMP/home-ours && mkdir -p "$H" &&
	cp "$TEST_TMP/app.full" "$TEST_TMP/prod/app" &&
	(export HOME=$H && each_spec "$PERF" probe --cache -n -q -x "$TEST_TMP/prod/app" -a) &&
	grep "^#" "$(probes_file --home "$H" "$TEST_TMP/prod/app")" >actual &&
	printf "%s\n" "#@conn.c:7" "#probe_app:handle_L2=handle:2" "#probe_app:lnev=@conn.c:7" \
		"#$G:fl=handle:2" "#@conn.c:16 i" "#probe_app:main_L7=main:7 i" "#handle seq" >expect &&
	test_cmp_file expect actual
'

test_expect_success SYSTEM_PERF_PROBE 'the system perf writes the same probes file for the line specs' '
	H=$TEST_TMP/home-theirs && mkdir -p "$H" &&
	(export HOME=$H && each_spec "$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/prod/app" -a) &&
	test_cmp_file "$(probes_file --home "$TEST_TMP/home-ours" "$TEST_TMP/prod/app")" \
		"$(probes_file --home "$H" "$TEST_TMP/prod/app")"
'

test_expect_success SYSTEM_PERF_PROBE 'a stripped host places the system perf'"'"'s line entries as the system perf does' '
	strip -g "$TEST_TMP/prod/app" &&
	test_must_fail "$PERF" probe -x "$TEST_TMP/prod/app" -D "conn.c:7" 2>/dev/null &&
	(export HOME=$TEST_TMP/home-theirs && each_spec test_same_as_system_perf probe -x "$TEST_TMP/prod/app" -D) 
'

test_expect_success SYSTEM_PERF_PROBE 'the system perf places our line entries on the stripped host' '
	(export HOME=$TEST_TMP/home-ours && each_spec test_same_as_system_perf probe -x "$TEST_TMP/prod/app" -D) 
'

test_expect_success 'entries of the older keys ("conn.c:7", "handle:2") are still found' '
	H=$TEST_TMP/home-old && mkdir -p "$H" &&
	HOME=$H "$PERF" buildid-cache -a "$TEST_TMP/prod/app" &&
	printf "%s\n" "#conn.c:7" "p:probe_app/handle $TEST_TMP/prod/app:0x1" "#handle:2" \
		"p:probe_app/handle_L2 $TEST_TMP/prod/app:0x2" >"$(probes_file --home "$H" "$TEST_TMP/prod/app")" &&
	HOME=$H "$PERF" probe -x "$TEST_TMP/prod/app" -D conn.c:7 -D handle:2 >out &&
	printf "%s\n" "p:probe_app/handle $TEST_TMP/prod/app:0x1" "p:probe_app/handle_L2 $TEST_TMP/prod/app:0x2" >expect &&
	test_cmp_file expect out
'

test_done
