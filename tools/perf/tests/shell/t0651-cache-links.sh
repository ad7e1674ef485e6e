#!/bin/sh
test_description='links planted in the build-id cache redirect no write and no read'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The attacker (uid 65534) plants links while a directory of the cache is
# open to all (mode 1777); root closes it again (755) and runs perf.  What
# the links point to, the decoy, must stay as it was.
G=fs_links
test_probe_group $G

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

decoy_unchanged() {
	tree_snapshot "$TEST_TMP/decoy" >decoy.now &&
	test_cmp_file "$TEST_TMP/decoy.list" decoy.now
}

test_expect_success ROOT,SETPRIV 'setup: a program and a decoy directory' '
	chmod 755 "$TEST_TMP" &&
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	build_id_of "$TEST_TMP/app" >"$TEST_TMP/bid" && test -s "$TEST_TMP/bid" &&
	mkdir -m 777 "$TEST_TMP/decoy" && echo keep >"$TEST_TMP/decoy/file" &&
	tree_snapshot "$TEST_TMP/decoy" >"$TEST_TMP/decoy.list"
'
BID=$(cat "$TEST_TMP/bid" 2>/dev/null)

test_expect_success ROOT,SETPRIV 'ROOT/tmp -> decoy: add and remove refuse the link, the decoy unchanged' '
	R=$TEST_TMP/r1 && mkdir -m 1777 "$R" &&
	as_nobody ln -s "$TEST_TMP/decoy" "$R/tmp" && chmod 755 "$R" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $R/tmp: a symbolic link where a directory should be" err &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" \
		"$PERF" probe --cache -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	grep -q "refusing $R/tmp: a symbolic link" err &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'ROOT/<path>/<build-id> -> decoy: add, --cache and -r refuse it' '
	R=$TEST_TMP/r2 && P=$R$TEST_TMP/app && mkdir -p "$P" && chmod 1777 "$P" &&
	as_nobody ln -s "$TEST_TMP/decoy" "$P/$BID" && chmod 755 "$P" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	grep -q "refusing $P/$BID: a symbolic link where a directory should be" err &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" \
		"$PERF" probe --cache -n -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	PERF_BUILDID_DIR=$R test_refuses --cache "$R" "$PERF" buildid-cache -r "$TEST_TMP/app" &&
	grep -q "refusing $P/$BID: a symbolic link" err &&
	decoy_unchanged
'

test_expect_success ROOT,SETPRIV 'a link inside an entry is removed by -r, not followed' '
	R=$TEST_TMP/r3 &&
	PERF_BUILDID_DIR=$R "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	E=$R$TEST_TMP/app/$BID && ln -s "$TEST_TMP/decoy" "$E/sub" &&
	PERF_BUILDID_DIR=$R "$PERF" buildid-cache -r "$TEST_TMP/app" &&
	test ! -e "$E" && decoy_unchanged
'

# The .build-id link is how perf finds a build cached at another path:
# one leading out of the root must not bring the decoy's probes in.
test_expect_success ROOT,SETPRIV 'a .build-id link out of the root is never followed' '
	R=$TEST_TMP/r4 &&
	PERF_BUILDID_DIR=$R "$PERF" buildid-cache -a "$TEST_TMP/app" &&
	rm -rf "${R:?}$TEST_TMP" &&
	D=$TEST_TMP/decoy/evil && mkdir -p "$D/$BID" &&
	printf "#%s\np:%s/e1 %s:0x0\n" "$G:e1=handle" "$G" "$TEST_TMP/app" >"$D/$BID/probes" &&
	tree_snapshot "$TEST_TMP/decoy" >"$TEST_TMP/decoy.list" &&
	B=$R/.build-id/$(echo "$BID" | cut -c1-2) && L=$(echo "$BID" | cut -c3-) &&
	for target in "$D/$BID" "../../../../../../../../../../../../..$D/$BID"; do
		rm -f "$B/$L" && chmod 1777 "$B" &&
		as_nobody ln -s "$target" "$B/$L" && chmod 755 "$B" &&
		test -f "$B/$L/probes" &&
		PERF_BUILDID_DIR=$R "$PERF" probe -n -D "$G:e1=handle" -x "$TEST_TMP/app" >out 2>err &&
		grep -q "^p:$G/e1 $TEST_TMP/app:0x" out && ! grep -q ":0x0$" out &&
		PERF_BUILDID_DIR=$R "$PERF" probe --cache --list >out 2>&1 &&
		! grep -q "$G:e1" out || { echo "followed $target" >&2; exit 1; }
	done &&
	decoy_unchanged
'

test_done
