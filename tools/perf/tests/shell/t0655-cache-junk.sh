#!/bin/sh
test_description='the next writer removes the junk of killed writers, never a live one'"'"'s'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=fs_junk
test_probe_group $G

test_expect_success 'setup: a cached program' '
	build_workload handle-int "$TEST_TMP/app" -O1 &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e1=handle" &&
	dirname "$(probes_file "$TEST_TMP/app")" >"$TEST_TMP/entry"
'
E=$(cat "$TEST_TMP/entry" 2>/dev/null)

# No process has this PID: pid_max itself is never given out.
DEAD=$(cat /proc/sys/kernel/pid_max)

test_expect_success 'partial elf and debug copies and .build-id link temporaries of dead writers go' '
	sleep 60 &
	live=$! &&
	test_when_finished "kill $live" &&
	BID=$(basename "$E") && B=$HOME/.debug/.build-id/$(echo "$BID" | cut -c1-2) &&
	L=$(echo "$BID" | cut -c3-) &&
	echo partial >"$E/elf.tmp.$DEAD.0" &&
	echo partial >"$E/debug.tmp.$DEAD.3" &&
	ln -s "../../$TEST_TMP/app/$BID" "$B/$L.tmp.$DEAD.1" &&
	echo writing >"$E/elf.tmp.$live.0" &&
	ln -s "../../$TEST_TMP/app/$BID" "$B/$L.tmp.$live.0" &&
	echo stale >"$E/elf.tmp.$live.7" && touch -d "2 days ago" "$E/elf.tmp.$live.7" &&
	"$PERF" buildid-cache -a "$TEST_TMP/app" &&
	test ! -e "$E/elf.tmp.$DEAD.0" && test ! -e "$E/debug.tmp.$DEAD.3" &&
	test ! -L "$B/$L.tmp.$DEAD.1" &&
	test ! -e "$E/elf.tmp.$live.7" &&
	test -f "$E/elf.tmp.$live.0" && test -L "$B/$L.tmp.$live.0" &&
	"$PERF" buildid-cache -l | grep -q "^$BID $TEST_TMP/app$" &&
	rm "$E/elf.tmp.$live.0" "$B/$L.tmp.$live.0"
'

test_expect_success 'probes temporaries are junk for the writer holding the lock' '
	echo "#partial" >"$E/probes.tmp.$DEAD.0" &&
	echo "#partial" >"$E/probes.tmp.Xy12ab" &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/app" -a "$G:e2=handle" &&
	! ls "$E" | grep -q "probes.tmp" &&
	grep -q "^#$G:e2=handle" "$E/probes"
'

test_done
