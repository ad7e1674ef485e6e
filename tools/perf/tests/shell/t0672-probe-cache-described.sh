#!/bin/sh
test_description='an event added from a cached line in another function than its spec names is announced at FUNC+OFF, where it is'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root and a writable tracefs'

G=perftest_described
test_probe_group $G

# placed_at HEADER: "FUNC+OFF" (FUNC alone at +0) of each line of the
# entry HEADER of the app's probes file, by nm of the -g build (the text
# of a PIE is at the same offsets in the file and in memory), sorted.
placed_at() {
	nm -n "$TEST_TMP/app.g" | awk '$2 ~ /^[tT]$/ { print $1, $3 }' >syms &&
	awk -v h="$1" '/^#/ { on = ($0 == h); next } on' "$(probes_file "$TEST_TMP/app.g")" |
		sed "s/.*:0x//; s/ .*//" |
		while read -r off; do
			awk -v a="$off" '
			function hex(s,   n, i) {
				n = 0; s = tolower(s)
				for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return n
			}
			{ if (hex($1) <= hex(a)) { f = $2; o = hex(a) - hex($1) } }
			END { if (o) printf "%s+%d\n", f, o; else print f }' syms
		done | sort
}

# announced: the points of the "(on POINT in ...)" lines of ./err, sorted.
announced() {
	grep "(on " err | sed "s/.*(on \([^ ]*\) in .*/\1/" | sort
}

test_expect_success 'setup: tally() inlined in a() and b() of a -O2 -g build, its stripped copy' '
	build_workload inline-partial "$TEST_TMP/app.g" -g -O2 &&
	strip -g -o "$TEST_TMP/app" "$TEST_TMP/app.g" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:t=tally" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:t3=tally:3" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app.g" -a "$G:e=ext" &&
	test "$(grep -c "^p:$G/t " "$(probes_file "$TEST_TMP/app.g")")" = 2
'

test_expect_success 'the cached lines of an inlined function are announced at FUNC+OFF of where they are' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:t=tally" 2>err &&
	placed_at "#$G:t=tally" >expect &&
	announced >actual &&
	test_cmp_file expect actual &&
	grep -q "^a+[1-9]" actual &&
	! grep -q "(on tally " err
'

test_expect_success 'a relative line of the inlined function is announced by the function it is in' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:t3=tally:3" 2>err &&
	placed_at "#$G:t3=tally:3" >expect &&
	announced >actual &&
	test_cmp_file expect actual &&
	grep -q "^b+[1-9]" actual
'

test_expect_success 'a function the spec names keeps perf'"'"'s text' '
	test_when_finished "remove_probe_group $G" &&
	if test_have_prereq SYSTEM_PERF; then
		"$SYSTEM_PERF" probe -n -x "$TEST_TMP/app.g" -a "$G:e=ext" 2>theirs.err &&
		grep "(on " theirs.err | sed "s|/app.g)|/app)|" >theirs
	fi &&
	"$PERF" probe -x "$TEST_TMP/app" -a "$G:e=ext" 2>err &&
	grep -q "^  $G:e  *(on ext in $TEST_TMP/app)$" err &&
	if test_have_prereq SYSTEM_PERF; then
		grep "(on " err >ours &&
		test_cmp_file theirs ours
	fi
'

test_expect_success 'no probe of the test is left' '
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
'

test_done
