#!/bin/sh
test_description='a cache root reached through another user'"'"'s link is refused, never written through'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# sudo -E keeps the caller's HOME: the cache root is then HOME/.debug, a
# name in a directory the attacker (uid 65534) owns.  The attacker makes it
# a link to a directory of root's (the decoy); root runs perf.  Nothing
# may land in the decoy, whichever command runs.
G=fs_rootlink
test_probe_group $G

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

decoy_unchanged() {
	tree_snapshot "$TEST_TMP/decoy" >decoy.now &&
	test_cmp_file "$TEST_TMP/decoy.list" decoy.now
}

test_expect_success ROOT,SETPRIV 'setup: a program, a decoy and the attacker'"'"'s HOME' '
	chmod 755 "$TEST_TMP" &&
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	mkdir -m 755 "$TEST_TMP/decoy" && echo keep >"$TEST_TMP/decoy/file" &&
	tree_snapshot "$TEST_TMP/decoy" >"$TEST_TMP/decoy.list" &&
	mkdir -m 755 "$TEST_TMP/evil" && chown 65534:65534 "$TEST_TMP/evil" &&
	as_nobody ln -s "$TEST_TMP/decoy" "$TEST_TMP/evil/.debug"
'
EH=$TEST_TMP/evil

test_expect_success ROOT,SETPRIV 'HOME/.debug -> decoy: buildid-cache -a refuses the link in one line' '
	HOME=$EH test_refuses --cache "$TEST_TMP/decoy" "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $EH/.debug: owned by uid 65534" err &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'perf probe --cache -a refuses it, adds no event, writes nothing' '
	HOME=$EH test_refuses --cache "$TEST_TMP/decoy" --tracefs \
		"$PERF" probe --cache -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $EH/.debug: owned by uid 65534" err &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'the listings and a search over every cache write nothing either' '
	HOME=$EH "$PERF" probe --cache --list >out 2>err &&
	! test -s out && test_line_count = 1 err &&
	grep -q "^Warning: refusing $EH/.debug: owned by uid 65534" err &&
	HOME=$EH "$PERF" buildid-cache -l >out 2>err; ! test -s out &&
	HOME=$EH test_must_fail "$PERF" probe -n -D "%$G:e1" >out 2>err &&
	HOME=$EH "$PERF" probe -l >out 2>&1 &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'a link higher up, PERF_BUILDID_DIR=HOME/up/cache with up -> decoy, is refused too' '
	as_nobody ln -s "$TEST_TMP/decoy" "$EH/up" &&
	PERF_BUILDID_DIR=$EH/up/cache test_refuses --cache "$TEST_TMP/decoy" \
		"$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $EH/up: owned by uid 65534" err &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'root'"'"'s own link to the attacker'"'"'s link is refused at the second one' '
	ln -s "$EH/.debug" "$TEST_TMP/rootlink" &&
	PERF_BUILDID_DIR=$TEST_TMP/rootlink test_refuses --cache "$TEST_TMP/decoy" \
		"$PERF" probe --cache -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $EH/.debug: owned by uid 65534" err &&
	decoy_unchanged
'

test_expect_success ROOT 'a link of root'"'"'s own (relative, through ..) is followed: the cache lands at its target' '
	mkdir -m 755 "$TEST_TMP/store" "$TEST_TMP/h" &&
	ln -s ../store/./cache "$TEST_TMP/h/.debug" &&
	HOME=$TEST_TMP/h "$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	test -d "$TEST_TMP/store/cache/.build-id" &&
	test -f "$TEST_TMP/store/cache$(realpath "$TEST_TMP/app")/$(build_id_of "$TEST_TMP/app")/probes" &&
	HOME=$TEST_TMP/h "$PERF" probe --cache --list >out &&
	grep -q "$G:e1=handle" out
'

test_expect_success ROOT 'a link loop is an error, not a hang' '
	ln -s loop2 "$TEST_TMP/loop1" && ln -s loop1 "$TEST_TMP/loop2" &&
	{ PERF_BUILDID_DIR=$TEST_TMP/loop1 timeout 10 "$PERF" buildid-cache -a "$TEST_TMP/app" 2>err; rc=$?; } &&
	cat err && test $rc -ne 0 && test $rc -ne 124 && test_line_count = 1 err
'

test_done
