#!/bin/sh
test_description='planted probe-cache lines are refused with their path and line, nothing placed'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

G=perftest_plant
test_probe_group $G

# sym NAME: the address of NAME in the app (hex, no 0x).
sym() {
	nm "$TEST_TMP/app" | awk -v n="$1" '$3 == n { print $1 }'
}

# plant SPEC LINE...: the app's probes file holds the one entry "#SPEC"
# with these lines (the header is line 1, the first line line 2).
plant() {
	mkdir -p "$(dirname "$P")" &&
	printf "#%s\n" "$1" >"$P" &&
	shift &&
	printf "%s\n" "$@" >>"$P"
}

# refuses WHY SPEC...: perf probe -x app -a SPEC (-D without root or
# tracefs) is refused with one line, "perf: refusing cached probe
# $P:2: WHY", the cache and this script's tracefs events as they were.
refuses() {
	_why=$1
	shift
	if test_have_prereq ROOT,TRACEFS; then
		set -- --tracefs "$PERF" probe -x "$TEST_TMP/app" -a "$@"
	else
		set -- "$PERF" probe -x "$TEST_TMP/app" -D "$@"
	fi
	test_refuses "$@" || return 1
	if ! grep -qF "perf: refusing cached probe $P:2: $_why" err; then
		cat err
		return 1
	fi
}

test_expect_success READELF 'setup: a -g build, its stripped copy, their build-id cache entry' '
	build_workload planted "$TEST_TMP/app.g" -g -O0 &&
	strip -g -o "$TEST_TMP/app" "$TEST_TMP/app.g" &&
	"$PERF" buildid-cache -a "$TEST_TMP/app" &&
	"$TEST_TMP/app" 3 >printed && grep -q "^is_admin=0 " printed
'
P=$(probes_file "$TEST_TMP/app" 2>/dev/null)
A=$TEST_TMP/app

test_expect_success READELF 'an honest planted line is placed (the cases below differ by one thing)' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym handle)")" &&
	"$PERF" probe -x "$A" -D "$G:ev=handle" >out &&
	grep -q "^p:$G/ev $A:$(file_offset "$A" "$(sym handle)")$" out
'

test_expect_success READELF 'a line on another function (check_password for handle) is refused' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym check_password)")" &&
	refuses "address 0x$(sym check_password | sed "s/^0*//") is in check_password, not in handle" "$G:ev=handle"
'

test_expect_success READELF 'a line in the middle of an instruction is refused' '
	# handle at -O0: push %rbp (1 byte), mov %rsp,%rbp (3 bytes)
	mid=$(printf %x $((0x$(sym handle) + 2))) &&
	objdump -d --start-address=0x$(sym handle) --stop-address=0x$mid "$A" |
		grep -q "^ *$(sym handle | sed "s/^0*//"):.*push" &&
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$mid")" &&
	refuses "address 0x$mid is not an instruction start in handle" "$G:ev=handle"
'

test_expect_success READELF 'a line outside the executable segments is refused' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym is_admin)")" &&
	refuses "address 0x$(sym is_admin | sed "s/^0*//") is not in an executable segment" "$G:ev=handle"
'

test_expect_success READELF 'a return probe (r:) for a plain request is refused' '
	plant "$G:ev=handle" "r:$G/ev $A:$(file_offset "$A" "$(sym handle)")" &&
	refuses "a return probe (r:) for a request without %return" "$G:ev=handle"
'

test_expect_success READELF 'a semaphore on an entry that is not SDT (is_admin in .data) is refused' '
	sem=$(file_offset "$A" "$(sym is_admin)") &&
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym handle)")($sem)" &&
	refuses "a semaphore (ref_ctr_offset $sem) on an entry that is not an SDT marker" "$G:ev=handle"
'

test_expect_success READELF 'an argument nobody asked for is refused' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym handle)") pw=+0(%di):string" &&
	refuses "1 argument where the entry asks for 0" "$G:ev=handle" &&
	plant "$G:ev=handle x=%si" "p:$G/ev $A:$(file_offset "$A" "$(sym handle)") pw=%di" &&
	refuses "argument 1 is named pw where the entry asks for x" "$G:ev=handle x=%si"
'

test_expect_success READELF 'a line naming another binary is refused' '
	plant "$G:ev=handle" "p:$G/ev /bin/true:$(file_offset "$A" "$(sym handle)")" &&
	refuses "the line names another file, /bin/true" "$G:ev=handle"
'

test_expect_success READELF 'one planted entry of several specs: nothing of the command is placed' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym check_password)")" &&
	refuses "address 0x$(sym check_password | sed "s/^0*//") is in check_password, not in handle" \
		"$G:ok=check_password" "$G:ev=handle"
'

# A line that does not parse makes the whole file unusable (a warning
# with its path and line); the request then needs debuginfo this
# stripped copy lacks.
corrupt() {
	plant "$G:ev=handle len" "$1" &&
	test_refuses --ignore "^Warning: not using the corrupt probe cache" \
		"$PERF" probe -x "$A" -D "$G:ev=handle len" &&
	grep -qF "Warning: not using the corrupt probe cache $P:2: a trace-event line that does not parse" err
}

test_expect_success READELF 'an unparsable p: line is refused when the file is read' '
	corrupt "p:$G/ev $A:0xzz" &&
	corrupt "p:$G/ev $A:0x" &&
	corrupt "p:$G/ev"
'

test_expect_success READELF 'negative and overflowing offsets are refused, not clamped' '
	h=$(file_offset "$A" "$(sym handle)") &&
	corrupt "p:$G/ev $A:0x1$h" &&
	corrupt "p:$G/ev $A:0x10000000000000000" &&
	corrupt "p:$G/ev $A:$h len=+-8(%di):s32" &&
	corrupt "p:$G/ev $A:$h len=-9223372036854775808(%di):s32" &&
	corrupt "p:$G/ev $A:$h len=+99999999999999999999(%di):s32" &&
	corrupt "p:$G/ev $A:$h(0x-4) len=%di"
'

test_expect_success READELF 'with no -x, the search of every cache refuses the planted entry too' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym check_password)")" &&
	if test_have_prereq ROOT,TRACEFS; then set -- --tracefs "$PERF" probe -a "%$G:ev"
	else set -- "$PERF" probe -D "%$G:ev"; fi &&
	test_refuses "$@" &&
	grep -qF "perf: refusing cached probe $P:2: address " err
'

test_expect_success READELF 'a bundle with a planted line is refused on import, nothing imported' '
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym check_password)")" &&
	"$PERF" probe --cache --export planted.bundle -x "$A" 2>/dev/null &&
	mkdir -p farm && HOME=$TEST_TMP/farm "$PERF" buildid-cache -a "$A" &&
	test_refuses --cache "$TEST_TMP/farm/.debug" env HOME="$TEST_TMP/farm" \
		"$PERF" probe --cache --import planted.bundle &&
	grep -q "^perf: refusing planted.bundle: the probes of $A (.*), line 2: address .* is in check_password, not in handle; nothing was imported$" err &&
	! grep -q "^#$G:ev=" "$(probes_file --home "$TEST_TMP/farm" "$A")" 2>/dev/null
'

test_expect_success SDT 'an SDT line whose semaphore points into .text is refused' '
	build_sdt_prog "$TEST_TMP/sdtprog" &&
	S=$(realpath "$TEST_TMP/sdtprog") &&
	"$PERF" buildid-cache -a "$S" &&
	SP=$(probes_file "$S") &&
	line=$(grep "^p:$SDT_GROUP/foo__bar " "$SP") &&
	text=$(readelf -SW "$S" | awk "\$2 == \".text\" { print \"0x\" \$5 }" | sed "s/0x0*/0x/") &&
	printf "%s\n" "%$SDT_GROUP:foo__bar=foo__bar" "$(echo "$line" | sed "s/(0x[0-9a-f]*)/($text)/")" >"$SP" &&
	test_refuses "$PERF" probe -x "$S" -D "%$SDT_GROUP:foo__bar" &&
	grep -qF "perf: refusing cached probe $SP:2: the note of sdt_perftest_sdt:foo__bar=foo__bar in $S gives no such line" err
'

test_expect_success 'a kernel entry (-k vmlinux) whose line is on another function is refused' '
	build_workload fake-vmlinux vmlinux -O0 -nostdlib -static -Wl,--build-id &&
	mkdir -p fs && : >fs/kprobe_events && : >fs/uprobe_events &&
	export PERF_TRACEFS_DIR="$TEST_TMP/fs" &&
	"$PERF" probe --cache -n -q -k vmlinux -a "do_sys_open a=%di:s32" &&
	K="$HOME/.debug/[kernel.kallsyms]/$("$PERF" buildid-list -i vmlinux)/probes" &&
	"$PERF" probe -k vmlinux -D "do_sys_open a=%di:s32" >honest &&
	grep -q "^p:probe/do_sys_open _text+[0-9]* a=%di:s32$" honest &&
	text=$(nm vmlinux | awk "\$3 == \"_text\" { print \$1 }") &&
	other=$((0x$(nm vmlinux | awk "\$3 == \"blocked_func\" { print \$1 }") - 0x$text)) &&
	printf "%s\n" "#do_sys_open a=%di:s32" "p:probe/do_sys_open _text+$other a=%di:s32" >"$K" &&
	test_refuses "$PERF" probe -k vmlinux -D "do_sys_open a=%di:s32" &&
	grep -qF "perf: refusing cached probe $K:2: the probe at _text+$other is not in do_sys_open" err &&
	printf "%s\n" "#do_sys_open a=%di:s32" "p:probe/do_sys_open vfs_read+0 a=%di:s32" >"$K" &&
	test_refuses "$PERF" probe -k vmlinux -D "do_sys_open a=%di:s32" &&
	grep -qF "perf: refusing cached probe $K:2: the probe is on vfs_read, not on do_sys_open" err
'

# What hosts without debuginfo run: no .symtab, often no .dynsym entry of
# the function either.  The function is then known by its call frame
# range (.eh_frame, which strip keeps): an honest line is placed, one in
# the middle of an instruction is still refused.
test_expect_success READELF 'a copy stripped of every symbol: lines checked by its call frames' '
	strip --strip-all -o "$TEST_TMP/app.s" "$TEST_TMP/app.g" &&
	! readelf -SW "$TEST_TMP/app.s" | grep -q " \.symtab " &&
	h=$(file_offset "$A" "$(sym handle)") &&
	plant "$G:ev=handle" "p:$G/ev $A:$h" &&
	"$PERF" probe -x "$TEST_TMP/app.s" -D "$G:ev=handle" >out &&
	grep -q "^p:$G/ev .*:$h$" out &&
	mid=$(printf %x $((0x$(sym handle) + 2))) &&
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$mid")" &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app.s" -D "$G:ev=handle" &&
	grep -qF "perf: refusing cached probe $P:2: address 0x$mid is not an instruction start in handle" err &&
	plant "$G:ev=handle" "p:$G/ev $A:$(file_offset "$A" "$(sym is_admin)")" &&
	test_refuses "$PERF" probe -x "$TEST_TMP/app.s" -D "$G:ev=handle" &&
	grep -qF "is not in an executable segment" err
'

# An exported function (a library, a -rdynamic program) is found by
# .dynsym's hash: its honest line is placed without the symbol table
# being read, and every dishonest one is still refused (the hash finds
# the name, not the address: the table then says where the line is).
D=$TEST_TMP/dyn
dsym() {
	nm "$TEST_TMP/dyn.g" | awk -v n="$1" '$3 == n { print $1 }'
}
# dplant LINE: the entry "#$G:ev=handle" of the -rdynamic build, with LINE.
dplant() {
	DP=$(probes_file "$D") &&
	mkdir -p "$(dirname "$DP")" &&
	printf "%s\n" "#$G:ev=handle" "$1" >"$DP"
}

test_expect_success READELF 'setup: a -rdynamic build, stripped of DWARF and of every symbol' '
	build_workload planted "$TEST_TMP/dyn.g" -g -O0 -rdynamic &&
	strip -g -o "$D" "$TEST_TMP/dyn.g" &&
	strip --strip-all -o "$TEST_TMP/dyn.s" "$TEST_TMP/dyn.g" &&
	! readelf -SW "$TEST_TMP/dyn.s" | grep -q " \.symtab " &&
	readelf --dyn-syms -W "$TEST_TMP/dyn.s" | grep -q " handle$" &&
	"$PERF" buildid-cache -a "$D"
'

for f in dyn dyn.s; do
test_expect_success READELF "an exported function ($f): checked by .gnu.hash, the table read only to refuse" '
	F=$TEST_TMP/'$f' &&
	h=$(file_offset "$D" "$(dsym handle)") &&
	dplant "p:$G/ev $D:$h" &&
	"$PERF" probe -v -x "$F" -D "$G:ev=handle" >out 2>err &&
	grep -q "^p:$G/ev $F:$h$" out &&
	! grep -q "cached lines checked against the symbol table" err &&
	dplant "p:$G/ev $D:$(file_offset "$D" "$(dsym check_password)")" &&
	! "$PERF" probe -v -x "$F" -D "$G:ev=handle" >out 2>err &&
	grep -q "cached lines checked against the symbol table of $F" err &&
	test_refuses "$PERF" probe -x "$F" -D "$G:ev=handle" &&
	grep -qF "perf: refusing cached probe $DP:2: address 0x$(dsym check_password | sed "s/^0*//") is in check_password, not in handle" err &&
	mid=$(printf %x $((0x$(dsym handle) + 2))) &&
	dplant "p:$G/ev $D:$(file_offset "$D" "$mid")" &&
	test_refuses "$PERF" probe -x "$F" -D "$G:ev=handle" &&
	grep -qF "perf: refusing cached probe $DP:2: address 0x$mid is not an instruction start in handle" err
'
done

test_expect_success READELF 'the traced program was not disturbed' '
	"$TEST_TMP/app" 3 >after &&
	test_cmp_file printed after &&
	if test_have_prereq ROOT,TRACEFS; then
		! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
	fi
'

test_done
