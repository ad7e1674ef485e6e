#!/bin/sh
test_description='--target-ns=PID: a container that swaps the probed file for a link to a host file never gets a probe on the host'"'"'s'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS,SETPRIV || test_skip_all 'needs root, a writable tracefs and setpriv'

G=perftest_nsrace
test_probe_group $G
test_trace_instance $G

# The container: root C, its /opt owned by uid 65534.  Its processes (the
# attacker, chrooted as 65534) swap /opt/NAME and /opt/NAME.lnk, a link to
# the host's copy of the same program, every 2 ms (20 under SANITIZE): "app" with DWARF (its
# probes are placed from DWARF), "bare" without (from the symbol table).
# Through /proc/PID/root, or through the host's path of C, the kernel
# follows that absolute link on the host.
# Under SANITIZE=1 an add from DWARF takes several times as long, and at
# 2 ms 1 add of 40 was placed: every 20 ms there, so that some are.
SWAP_US=2000
test_have_prereq NOT_SANITIZE || SWAP_US=20000
C=$(realpath "$TEST_TMP")/c
HOSTAPP=$(realpath "$TEST_TMP")/host/app
test_cleanup 'kill $(cat "$TEST_TMP"/swap-*.pid 2>/dev/null) 2>/dev/null'

# swapper NAME: start the attacker of /opt/NAME; its pid in swap-NAME.pid.
swapper() {
	(cd c/opt && setpriv --reuid 65534 --regid 65534 --clear-groups ln -s "$HOSTAPP" "$1.lnk") &&
	stat -c %i "c/opt/$1" >"$1.ino" &&
	{ chroot --userspec=65534:65534 "$C" /swap /opt "$1" "$1.lnk" "$SWAP_US" >"swap-$1.out" 2>&1 &
	  echo $! >"swap-$1.pid"; } &&
	for _i in 1 2 3 4 5 6 7 8 9 10; do grep -qx ready "swap-$1.out" && break; sleep 0.2; done &&
	grep -qx ready "swap-$1.out" &&
	test "$(stat -c %u "/proc/$(cat "swap-$1.pid")/status")" = 65534
}

test_expect_success 'setup: a container whose processes swap its files for links to the host'"'"'s' '
	mkdir -p c/opt host &&
	build_workload handle-int host/app -O1 -g &&
	cp host/app c/opt/app &&
	cp host/app c/opt/bare && strip -g c/opt/bare &&
	build_workload ns-swap c/swap -O1 -static &&
	chown -R 65534:65534 c/opt &&
	swapper app && swapper bare
'

# add_meanwhile NAME SPEC: 40 adds of SPEC on /opt/NAME in the container;
# each places its probe or is refused in one line (after which perf's
# trailer may follow).  No -q: as in perf, it silences the refusal too.
add_meanwhile() {
	placed=0 i=0 pid=$(cat "swap-$1.pid")
	while [ "$i" -lt 40 ]; do
		i=$((i + 1))
		if "$PERF" probe --target-ns="$pid" -x "/opt/$1" -a "$G:$1$i=$2" >/dev/null 2>one.err; then
			placed=$((placed + 1))
		else
			grep -v "^  Error: Failed to add events\.$" one.err >>"$1.err"
		fi
	done
	echo "$placed" >"$1.placed"
	echo "/opt/$1: $placed of 40 placed" && sort "$1.err" | uniq -c &&
	test "$placed" -ge 3 &&
	test_line_count "=" $((40 - placed)) "$1.err" &&
	test "$(grep -c "^p:$G/$1[0-9]* /proc/$pid/root/opt/$1:" "$TRACEFS/uprobe_events")" = "$placed"
}

test_expect_success 'root adds probes from DWARF meanwhile: each placed or refused' '
	add_meanwhile app handle
'

test_expect_success 'root adds probes from the symbol table meanwhile: each placed or refused' '
	add_meanwhile bare handle
'

# hits NAME PROGRAM...: how many hits of our events NAME<N> PROGRAM, run
# once, makes.
hits() {
	_n=$1
	shift
	echo >"$TI/trace" && echo 1 >"$TI/events/$G/enable" &&
	"$@" &&
	echo 0 >"$TI/events/$G/enable" || return 1
	grep -c " ${_n}[0-9]*: (0x[0-9a-f]*)$" "$TI/trace" || :
}

test_expect_success 'no probe is on the host'"'"'s file: each is on the container'"'"'s' '
	for n in app bare; do
		kill "$(cat swap-$n.pid)" || return 1
	done &&
	for n in app bare; do
		while kill -0 "$(cat swap-$n.pid)" 2>/dev/null; do sleep 0.1; done
	done &&
	for n in app bare; do
		h=$(hits $n "$HOSTAPP") && echo "the host'"'"'s file: $h hits of the probes on /opt/$n" &&
		test "$h" = 0 || return 1
	done &&
	for n in app bare; do
		# the container file, whichever of the two names it has now
		if test "$(stat -c %i c/opt/$n)" = "$(cat $n.ino)"; then f=c/opt/$n; else f=c/opt/$n.lnk; fi &&
		h=$(hits $n "./$f") && echo "/opt/$n: $h hits, $(cat $n.placed) placed" &&
		test "$h" = "$(cat $n.placed)" || return 1
	done
'

test_done
