#!/bin/sh
test_description='a debuginfo of another build whose build-id note was forged puts no probe inside an instruction'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
unset DEBUGINFOD_URLS

G=perftest_forged
test_probe_group $G
# The default group of the programs (-D checks names against tracefs).
test_probe_group probe_app

# The target: app, stripped of its DWARF, built with a frame pointer.
# The forgery: the debuginfo of the same source built without one (handle
# at the same address, other instructions), its build-id note made app's.
D=$TEST_TMP/pub

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# sym FILE NAME: the address of NAME in FILE (hex, no 0x, no leading 0).
sym() {
	nm "$1" | awk -v n="$2" '$3 == n { sub(/^0+/, "", $1); print $1 }'
}

# starts FILE HEX: an instruction of FILE starts at 0xHEX (objdump).
starts() {
	objdump -d "$1" | grep -q "^ *$2:"
}

# forge_build_id FILE BID: FILE's build-id note made BID (as long).
# shellcheck disable=SC2059 # printf's format: each byte as an octal escape
forge_build_id() {
	_off=$(readelf -SW "$1" | awk '$2 == ".note.gnu.build-id" { print $5 } $3 == ".note.gnu.build-id" { print $6 }' | head -n 1) &&
	[ -n "$_off" ] || return 1
	# note header (12 bytes) and "GNU\0"
	_off=$((0x$_off + 16))
	echo "$2" | sed 's/../& /g' | tr ' ' '\n' | grep . |
		while read -r _b; do printf "\\$(printf %03o "0x$_b")"; done >bid.bin &&
	dd if=bid.bin of="$1" bs=1 seek="$_off" conv=notrunc 2>/dev/null &&
	test "$(build_id_of "$1")" = "$2"
}

test_expect_success READELF 'setup: app, the debuginfo of another build forged with its build-id' '
	build_workload forged app.g -g -O0 &&
	build_workload forged other.g -g -O0 -fomit-frame-pointer &&
	strip -g -o app app.g &&
	test "$(sym app.g handle)" = "$(sym other.g handle)" &&
	objcopy --only-keep-debug other.g forged.debug &&
	objcopy --only-keep-debug app.g honest.debug &&
	forge_build_id forged.debug "$(build_id_of app)" &&
	"$PERF" probe -x other.g -D handle:2 >other.D &&
	L2=$(sed -n "s/.*:0x\([0-9a-f]*\)$/\1/p" other.D) && test -n "$L2" &&
	echo "$L2" >l2 &&
	L2V=$(printf %x $((0x$L2))) &&
	! starts app.g "$L2V" &&
	echo "$L2V" >l2v
'
L2V=$(cat "$TEST_TMP/l2v" 2>/dev/null)
A=$TEST_TMP/app
REFUSED="0x$L2V is not an instruction start in handle of"

test_expect_success READELF 'a forged debuginfo in the build-id cache: -a refused in one line, nothing placed' '
	"$PERF" buildid-cache -a app &&
	E=$(dirname "$(probes_file app)") &&
	cp forged.debug "$E/debug" &&
	if test_have_prereq ROOT,TRACEFS; then set -- --tracefs "$PERF" probe -x "$A" -a "$G:l=handle:2"
	else set -- "$PERF" probe -x "$A" -D "$G:l=handle:2"; fi &&
	test_refuses "$@" &&
	echo "Error: not using the debuginfo $E/debug for '"'"'handle:2'"'"': $REFUSED $A" >expect &&
	test_cmp_file expect err1 &&
	test_refuses "$PERF" probe -x "$A" -D "handle:2" &&
	test_cmp_file expect err1
'

test_expect_success READELF 'a variable spec is refused too (its place is after the prologue DWARF gives)' '
	test_refuses --ignore "compiled without optimization|force probing at the function entry|^$" \
		"$PERF" probe -x "$A" -D "handle sum" &&
	grep -qF "$REFUSED $A" err1
'

test_expect_success READELF 'the honest debuginfo places it as the -g build does' '
	E=$(dirname "$(probes_file app)") &&
	cp honest.debug "$E/debug" &&
	"$PERF" probe -x "$A" -D "handle:2" >actual &&
	"$PERF" probe -x app.g -D "handle:2" | sed "s|/app.g:|/app:|; s|probe_app_g|probe_app|" >expect &&
	test_cmp_file expect actual &&
	"$PERF" buildid-cache -r app
'

# The attacker (nobody) may write where a root-owned program lies (a
# shared directory, sticky as /tmp): its .gnu_debuglink name there.
test_expect_success ROOT,SETPRIV,READELF 'a forged .gnu_debuglink file another user planted: refused, nothing placed' '
	chmod 755 "$TEST_TMP" && mkdir -m 1777 "$D" &&
	as_nobody cp forged.debug "$D/app.debug" &&
	objcopy --add-gnu-debuglink="$D/app.debug" app "$D/app" &&
	test "$(build_id_of "$D/app")" = "$(build_id_of app)" &&
	if test_have_prereq TRACEFS; then set -- --tracefs "$PERF" probe -x "$D/app" -a "$G:l=handle:2"
	else set -- "$PERF" probe -x "$D/app" -D "$G:l=handle:2"; fi &&
	test_refuses "$@" &&
	grep -qF "$D/app.debug" err
'

test_expect_success ROOT,SETPRIV,READELF,SYSTEM_PERF_PROBE 'the system perf puts that probe inside an instruction' '
	# perf 6.1 looks for the .gnu_debuglink name in its working directory
	mkdir sp && (cd "$D" && HOME=$TEST_TMP/sp "$SYSTEM_PERF" probe -x "$D/app" -D "handle:2") >theirs &&
	grep -q ":0x$(cat l2)$" theirs
'

test_expect_success 'no probe of the test is left' '
	if test_have_prereq ROOT,TRACEFS; then
		! grep -q "^[pr]:\($G\|probe_app\)/" "$TRACEFS/uprobe_events"
	fi
'

test_done
