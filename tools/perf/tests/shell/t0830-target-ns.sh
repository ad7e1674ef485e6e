#!/bin/sh
test_description='perf probe and perf buildid-cache --target-ns=PID: a container'"'"'s files'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS,UNSHARE || test_skip_all 'needs root, a writable tracefs and unshare'

G=perftest_ns
test_probe_group $G
test_trace_instance $G

# The container's file is $APP inside a mount namespace of its own, where
# inside/app is bind-mounted over the host's file of the same path (another
# build: handle() elsewhere, len = req * 7 instead of req * 10).
APP=$(realpath "$TEST_TMP")/root/app
test_cleanup 'kill $(cat "$TEST_TMP"/*.pid 2>/dev/null) 2>/dev/null'

# start_ns NAME FILE: run FILE as $APP in a new mount namespace; its pid
# in NAME.pid, its output in NAME.out.
start_ns() {
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && exec "$2"' sh \
		"$2" "$APP" >"$TEST_TMP/$1.out" 2>&1 &
	echo $! >"$TEST_TMP/$1.pid"
	wait_for "$1" ready
}

# wait_for NAME TEXT: until NAME.out has a line TEXT (5 s at most).
wait_for() {
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
		grep -qx "$2" "$TEST_TMP/$1.out" 2>/dev/null && return 0
		sleep 0.2
	done
	echo "wait_for: no '$2' from $1:" >&2
	cat "$TEST_TMP/$1.out" >&2
	return 1
}

# poke NAME N: the Nth handle() call of NAME, which prints it.
poke() {
	kill -USR1 "$(cat "$TEST_TMP/$1.pid")" && wait_for "$1" "handle req=$2 len=$(($2 * $3))"
}

test_expect_success 'setup: a container whose app is not the host'"'"'s' '
	mkdir -p root inside stripped &&
	build_workload ns-app inside/app -g -O1 &&
	build_workload ns-app root/app -g -O1 -DHOST_BUILD -DSCALE=7 &&
	cp inside/app stripped/app && strip -g stripped/app &&
	(root/app >host.out 2>&1 & echo $! >host.pid) && wait_for host ready &&
	start_ns ns inside/app &&
	NS=$(cat ns.pid) &&
	test "$(build_id_of /proc/$NS/root$APP)" = "$(build_id_of inside/app)" &&
	test "$(build_id_of "$APP")" != "$(build_id_of inside/app)"
'
NS=$(cat "$TEST_TMP/ns.pid" 2>/dev/null)

test_expect_success 'a probe from DWARF is placed on the container'"'"'s file' '
	"$PERF" probe --target-ns=$NS -x "$APP" -a "$G:h=handle req len" 2>err &&
	cat err &&
	grep -q "^  $G:h  *(on handle in /proc/$NS/root$APP with req len)" err &&
	off=$("$PERF" probe -x inside/app -D handle | sed "s/.*:0x//") &&
	host_off=$("$PERF" probe -x "$APP" -D handle | sed "s/.*:0x//") &&
	test "$off" != "$host_off" &&
	grep -q "^p:$G/h /proc/$NS/root$APP:0x0*$off req=%di:s32 len=%si:s64$" \
		"$TRACEFS/uprobe_events"
'

test_expect_success 'it fires for the process inside with its values, not for the host'"'"'s build' '
	echo >"$TI/trace" && echo 1 >"$TI/events/$G/enable" &&
	poke ns 1 10 && poke host 1 7 && poke ns 2 10 &&
	echo 0 >"$TI/events/$G/enable" &&
	grep " h: " "$TI/trace" >lines && cat lines &&
	test_line_count = 2 lines &&
	sed -n 1p lines | grep -q "^ *app-$NS .* req=1 len=10$" &&
	sed -n 2p lines | grep -q "^ *app-$NS .* req=2 len=20$"
'

test_expect_success '-l names the file as the host reaches it' '
	"$PERF" probe -l "$G:*" >out &&
	grep -q "^  $G:h  *(on handle@.*ns-app.c in /proc/$NS/root$APP with req len)" out &&
	"$PERF" probe -d "$G:*" 2>/dev/null
'

test_expect_success '-D, -V, -L and -F read the container'"'"'s file' '
	"$PERF" probe --target-ns=$NS -x "$APP" -D "handle req len" >d &&
	"$PERF" probe -x inside/app -D "handle req len" | sed "s| [^ ]*/app:| F:|" >want &&
	sed "s| /proc/$NS/root$APP:| F:|" d >got && test_cmp_file want got &&
	"$PERF" probe --target-ns=$NS -x "$APP" -V handle >v && grep -q "long int	len" v &&
	"$PERF" probe --target-ns=$NS -x "$APP" -L handle >l && grep -q "handle(int req, long len)" l &&
	"$PERF" probe --target-ns=$NS -x "$APP" -F >f && grep -qx handle f && ! grep -q host_only f &&
	"$PERF" probe -x "$APP" -F >hf && grep -qx host_only hf
'

test_expect_success '--cache keeps the definition under the container'"'"'s path and build-id' '
	"$PERF" probe --target-ns=$NS --cache -x "$APP" -a "$G:c=handle req len" 2>err &&
	probes=$HOME/.debug$APP/$(build_id_of inside/app)/probes &&
	cat "$probes" && grep -q "^p:$G/c $APP:0x[0-9a-f]* req=%di:s32 len=%si:s64$" "$probes" &&
	"$PERF" probe -d "$G:*" 2>/dev/null
'

test_expect_success 'a stripped copy in another container is probed from the cache' '
	start_ns ns2 stripped/app &&
	NS2=$(cat ns2.pid) &&
	off=$("$PERF" probe -x inside/app -D handle | sed "s/.*:0x//") &&
	test_must_fail env -u DEBUGINFOD_URLS HOME="$TEST_TMP/empty" "$PERF" probe --target-ns=$NS2 -x "$APP" \
		-n -a "$G:c=handle req len" 2>/dev/null &&
	"$PERF" probe --target-ns=$NS2 -x "$APP" -a "$G:c=handle req len" 2>err && cat err &&
	grep -q "^p:$G/c /proc/$NS2/root$APP:0x0*$off req=%di:s32 len=%si:s64$" "$TRACEFS/uprobe_events" &&
	echo >"$TI/trace" && echo 1 >"$TI/events/$G/enable" &&
	poke ns2 1 10 && poke host 2 7 &&
	echo 0 >"$TI/events/$G/enable" &&
	grep " c: " "$TI/trace" >lines && cat lines &&
	test_line_count = 1 lines && grep -q "^ *app-$NS2 .* req=1 len=10$" lines &&
	"$PERF" probe -d "$G:*" 2>/dev/null
'

test_expect_success 'a probe from the symbol table is on the container'"'"'s file, not the host'"'"'s of that path' '
	NS2=$(cat ns2.pid) &&
	env -u DEBUGINFOD_URLS HOME="$TEST_TMP/empty" "$PERF" probe --target-ns=$NS2 -x "$APP" \
		-a "$G:s=handle" 2>err && cat err &&
	grep -q "^p:$G/s /proc/$NS2/root$APP:0x" "$TRACEFS/uprobe_events" &&
	grep -q "^  $G:s  *(on handle in /proc/$NS2/root$APP)" err &&
	echo >"$TI/trace" && echo 1 >"$TI/events/$G/enable" &&
	poke ns2 2 10 && poke host 3 7 &&
	echo 0 >"$TI/events/$G/enable" &&
	grep " s: " "$TI/trace" >lines && cat lines &&
	test_line_count = 1 lines && grep -q "^ *app-$NS2 " lines &&
	"$PERF" probe -d "$G:*" 2>/dev/null
'

test_expect_success 'a pid that does not exist: one line, nothing placed' '
	gone=$(($(cat /proc/sys/kernel/pid_max) + 1)) &&
	test_refuses --tracefs "$PERF" probe --target-ns=$gone -x "$APP" -a "$G:x=handle" &&
	grep -q "^Error: --target-ns $gone: no such process$" err &&
	test_refuses --tracefs "$PERF" probe --target-ns=nope -x "$APP" -a "$G:x=handle" &&
	test_refuses "$PERF" buildid-cache --target-ns=$gone -a "$APP"
'

test_expect_success 'a file the container does not have: one line, nothing placed' '
	test_refuses --tracefs "$PERF" probe --target-ns=$NS -x /no/such/app -a "$G:x=handle" &&
	grep -q "in the namespace of $NS" err
'

test_expect_success 'buildid-cache --target-ns -a caches the container'"'"'s file' '
	rm -rf "$HOME/.debug" &&
	"$PERF" buildid-cache --target-ns=$NS -a "$APP" &&
	bid=$(build_id_of inside/app) &&
	cmp "$HOME/.debug$APP/$bid/elf" inside/app &&
	test ! -d "$HOME/.debug$APP/$(build_id_of "$APP")" &&
	"$PERF" buildid-cache --target-ns=$NS -r "$APP" &&
	test ! -e "$HOME/.debug$APP/$bid/elf"
'

test_expect_success 'the system perf caches the same entry' '
	if test_have_prereq SYSTEM_PERF; then
		rm -rf "$HOME/.debug" &&
		"$SYSTEM_PERF" buildid-cache --target-ns=$NS -a "$APP" &&
		cmp "$HOME/.debug$APP/$(build_id_of inside/app)/elf" inside/app
	fi
'

test_done
