#!/bin/sh
test_description='a build-id cache another user owns or may write is refused, never used'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The attacker is uid 65534 (nobody): it plants what it can in a cache
# root made for the test, then root runs perf on it.
G=fs_trust
test_probe_group $G

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# no_probe_placed: tracefs holds no event of our group.
no_probe_placed() {
	! grep -q "^[pr][0-9]*:$G/" "$TRACEFS/uprobe_events"
}

test_expect_success ROOT,SETPRIV 'setup: a program the attacker can reach' '
	chmod 755 "$TEST_TMP" &&
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	BID=$(build_id_of "$TEST_TMP/app") && test -n "$BID" &&
	echo "$BID" >"$TEST_TMP/bid"
'
BID=$(cat "$TEST_TMP/bid" 2>/dev/null)

test_expect_success ROOT,SETPRIV,TRACEFS 'a cache root another user owns: add refused in one line, nothing placed' '
	R=$TEST_TMP/r1 && mkdir "$R" && chown 65534:65534 "$R" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" --tracefs \
		"$PERF" probe --cache -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $R: owned by uid 65534 (nobody), not by you or root; chown or remove it" err &&
	no_probe_placed
'

test_expect_success ROOT,SETPRIV 'a group-writable cache root is refused too' '
	R=$TEST_TMP/r1w && mkdir -m 775 "$R" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $R: writable by its group" err
'

test_expect_success ROOT,SETPRIV 'a directory the attacker planted on the way: add and remove refuse it' '
	R=$TEST_TMP/r2 && mkdir -m 1777 "$R" &&
	as_nobody mkdir -p "$R/tmp" && chmod 755 "$R" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $R/tmp: owned by uid 65534 (nobody)" err &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -r "$TEST_TMP/app" &&
	grep -q "refusing $R/tmp: owned by uid 65534" err
'

# A cache of root's own, whose entry directory then passes to the attacker.
test_expect_success ROOT,SETPRIV 'setup: a cached spec, then its entry handed to the attacker' '
	R=$TEST_TMP/r3 &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e2=handle" &&
	E=$R$TEST_TMP/app/$BID && test -f "$E/probes" &&
	chown 65534:65534 "$E" &&
	as_nobody sh -c "sed \"s/:0x[0-9a-f]*/:0x0/\" \"$E/probes\" >\"$E/p.new\" && mv \"$E/p.new\" \"$E/probes\"" &&
	grep -q ":0x0" "$E/probes"
'

test_expect_success ROOT,SETPRIV,TRACEFS 'the planted probes file places nothing: the target refuses its cache' '
	R=$TEST_TMP/r3 && E=$R$TEST_TMP/app/$BID &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" --tracefs \
		"$PERF" probe -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $E: owned by uid 65534 (nobody), not by you or root" err &&
	no_probe_placed &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" \
		"$PERF" probe --cache -n -x "$TEST_TMP/app" -a "$G:e3=handle"
'

test_expect_success ROOT,SETPRIV 'buildid-cache -r refuses it; --purge-all skips it with one warning' '
	R=$TEST_TMP/r3 && E=$R$TEST_TMP/app/$BID &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -r "$TEST_TMP/app" &&
	grep -q "refusing $E: owned by uid 65534" err &&
	PERF_BUILDID_DIR=$R "$PERF" buildid-cache -P 2>err &&
	test_line_count = 1 err && grep -q "^Warning: refusing $E: owned by uid 65534" err &&
	test -f "$E/probes"
'

test_expect_success ROOT,SETPRIV 'a probes file of root but group-writable is refused by the target' '
	R=$TEST_TMP/r4 &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	E=$R$TEST_TMP/app/$BID && chmod g+w "$E/probes" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" probe -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $E/probes: writable by its group; chmod go-w it or remove it" err
'

test_expect_success ROOT,SETPRIV 'a walk over every cache skips the untrusted entry with one warning' '
	R=$TEST_TMP/r4 && E=$R$TEST_TMP/app/$BID &&
	build_workload handle-int "$TEST_TMP/other" -O2 &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache -n -q -x "$TEST_TMP/other" -a "$G:o1=handle" &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache --list >out 2>err &&
	grep -q "^$G:o1=handle" out && ! grep -q "^$G:e1=handle" out &&
	test_line_count = 1 err && grep -q "^Warning: refusing $E/probes: writable by its group" err &&
	PERF_BUILDID_DIR=$R "$PERF" probe -n -D "%$G:o1" >out 2>err &&
	grep -q "^p:$G/o1 $TEST_TMP/other:0x" out &&
	PERF_BUILDID_DIR=$R test_must_fail "$PERF" probe -n -D "%$G:e1" >out 2>err &&
	grep -q "^Warning: refusing $E/probes: writable by its group" err &&
	! grep -q "^p:" out
'

test_expect_success ROOT,SETPRIV '--cache --export and --del over every cache skip it with one warning' '
	R=$TEST_TMP/r4 && E=$R$TEST_TMP/app/$BID &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache --export "$TEST_TMP/all.bundle" 2>err &&
	grep -c "^Warning:" err >n && test "$(cat n)" = 1 &&
	grep -q "^Warning: refusing $E/probes: writable by its group" err &&
	grep -q "^Exported 1 cached probe of 1 binary" err &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache --del "$G:*" 2>err &&
	grep -q "^Warning: refusing $E/probes: writable by its group" err &&
	grep -q "^Removed cached event: $G:o1=handle" err &&
	grep -q "^#$G:e1=handle" "$E/probes"
'

test_expect_success ROOT,SETPRIV 'an index another user owns is not used: the search reads the caches' '
	R=$TEST_TMP/r4 &&
	PERF_BUILDID_DIR=$R "$PERF" probe --cache -n -q -x "$TEST_TMP/other" -a "$G:o2=handle" &&
	PERF_BUILDID_DIR=$R "$PERF" probe -n -D "%$G:o2" >out 2>err &&
	test -f "$R/.probe-index" && chown 65534:65534 "$R/.probe-index" &&
	PERF_BUILDID_DIR=$R "$PERF" probe -n -D "%$G:o2" >out 2>err &&
	grep -q "^p:$G/o2 $TEST_TMP/other:0x" out &&
	grep -q "^Warning: refusing $R/.probe-index: owned by uid 65534 (nobody)" err &&
	test "$(stat -c %u "$R/.probe-index")" = 0
'

test_done
