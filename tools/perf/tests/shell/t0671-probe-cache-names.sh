#!/bin/sh
test_description='a cached line defines the group and event its entry asks for, and every cache the system perf writes does'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

G=perftest_names
# The group a planted line moves its event to, watched as ours.
G2=perftest_names2
test_probe_group $G
test_probe_group $G2
# The default groups of the programs (-n checks names against tracefs).
test_probe_group probe_nmapp
test_probe_group probe_nminl
test_probe_group probe_nmshop

A=$TEST_TMP/nmapp

# file_offset FILE VADDR: the file offset of VADDR (hex, no 0x) through
# FILE's PT_LOAD segments, as 0x...
file_offset() {
	readelf -lW "$1" | awk -v a="$2" '
	function hex(s,   n, i) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	$1 == "LOAD" { v = hex(a); if (v >= hex($3) && v < hex($3) + hex($5)) { printf "0x%x\n", v - hex($3) + hex($2); exit } }'
}

# plant HEADER LINE...: the app's probes file holds the one entry HEADER.
plant() {
	mkdir -p "$(dirname "$P")" &&
	printf "%s\n" "$@" >"$P"
}

# refuses WHY SPEC: perf probe -x app -a SPEC (-D without root or tracefs)
# is refused with "perf: refusing cached probe $P:2: WHY", nothing placed.
refuses() {
	if test_have_prereq ROOT,TRACEFS; then
		set -- "$1" --tracefs "$PERF" probe -x "$A" -a "$2"
	else
		set -- "$1" "$PERF" probe -x "$A" -D "$2"
	fi
	_why=$1
	shift
	test_refuses "$@" || return 1
	grep -qF "perf: refusing cached probe $P:2: $_why" err || { cat err; return 1; }
}

test_expect_success READELF 'setup: a -g build, its stripped copy, their build-id cache entry' '
	build_workload planted "$A.g" -g -O0 &&
	strip -g -o "$A" "$A.g" &&
	"$PERF" buildid-cache -a "$A"
'
P=$(probes_file "$A" 2>/dev/null)
H=$(file_offset "$A" "$(nm "$A.g" | awk "\$3 == \"handle\" { print \$1 }")" 2>/dev/null)

test_expect_success READELF 'the honest line of a named entry is placed, also made unique (_N)' '
	plant "#$G:h=handle" "p:$G/h $A:$H" &&
	"$PERF" probe -x "$A" -D "$G:h=handle" >out &&
	grep -q "^p:$G/h $A:$H$" out &&
	plant "#$G:h=handle" "p:$G/h_1 $A:$H" &&
	"$PERF" probe -x "$A" -D "$G:h=handle" >out &&
	grep -q "^p:$G/h_1 $A:$H$" out
'

test_expect_success READELF 'a line in another group than its entry names is refused, nothing placed' '
	plant "#$G:h=handle" "p:$G2/h $A:$H" &&
	refuses "the line defines $G2:h, where the entry asks for $G:h" "$G:h=handle"
'

test_expect_success READELF 'a line of another event than its entry names is refused' '
	plant "#$G:h=handle" "p:$G/evil $A:$H" &&
	refuses "the line defines $G:evil, where the entry asks for $G:h" "$G:h=handle" &&
	plant "#$G:h=handle" "p:$G/h_ $A:$H" &&
	refuses "the line defines $G:h_, where the entry asks for $G:h" "$G:h=handle" &&
	plant "#$G:h=handle%return" "r:$G/h $A:$H" &&
	refuses "the line defines $G:h, where the entry asks for $G:h__return" "$G:h=handle%return"
'

# Unnamed specs: -D only (a placed event would be in the default group).
test_expect_success READELF 'an unnamed entry: the default group and the name perf derives' '
	plant "#handle" "p:probe_nmapp/handle $A:$H" &&
	"$PERF" probe -x "$A" -D handle >out &&
	grep -q "^p:probe_nmapp/handle $A:$H$" out &&
	plant "#handle" "p:$G/handle $A:$H" &&
	test_refuses "$PERF" probe -x "$A" -D handle &&
	grep -qF "perf: refusing cached probe $P:2: the line defines $G:handle, where the entry asks for probe_nmapp:handle" err &&
	plant "#handle" "p:probe_nmapp/check_password $A:$H" &&
	test_refuses "$PERF" probe -x "$A" -D handle &&
	grep -qF "the line defines probe_nmapp:check_password, where the entry asks for probe_nmapp:handle" err &&
	plant "#hand*" "p:probe_nmapp/evil $A:$H" &&
	test_refuses "$PERF" probe -x "$A" -D "hand*" &&
	grep -qF "the line defines probe_nmapp:evil, where the entry asks for probe_nmapp:hand*" err &&
	plant "#@planted.c:12" "p:probe_nmapp/any_name $A:$H" &&
	"$PERF" probe -x "$A" -D "planted.c:12" >out &&
	grep -q "^p:probe_nmapp/any_name $A:$H$" out &&
	plant "#@planted.c:12" "p:$G/any_name $A:$H" &&
	test_refuses "$PERF" probe -x "$A" -D "planted.c:12" &&
	grep -qF "the line defines $G:any_name, where the entry asks for probe_nmapp:*" err
'

# theirs_then_ours BIN SPEC...: for each SPEC, the system perf caches it
# alone (-n) on BIN.g in a home of its own, and we place that entry on
# BIN (stripped: nothing but the cache answers) with as many lines.
theirs_then_ours() {
	_bin=$1
	shift
	for _s in "$@"; do
		rm -rf "$TEST_TMP/sp" && mkdir "$TEST_TMP/sp" || return 1
		HOME=$TEST_TMP/sp "$SYSTEM_PERF" probe --cache -n -q -x "$_bin.g" -a "$_s" >/dev/null 2>&1
		if ! _n=$(grep -c "^[pr]:" "$(probes_file --home "$TEST_TMP/sp" "$_bin.g")"); then
			echo "theirs_then_ours: the system perf cached no line of '$_s'" >&2
			return 1
		fi
		if ! HOME=$TEST_TMP/sp "$PERF" probe -x "$_bin" -D "$_s" >out 2>err ||
			! test_line_count "=" "$_n" out; then
			echo "theirs_then_ours: '$_s'" >&2
			cat err >&2
			return 1
		fi
	done
}

test_expect_success SYSTEM_PERF_PROBE 'every entry the system perf writes is placed: names, groups, returns, globs' '
	theirs_then_ours "$A" handle "$G:h=handle" h=handle handle+4 handle:2 "$G:h=handle:2" \
		"handle%return" "$G:h=handle%return" "hand*" "$G:h=hand*" "hand*%return" \
		"handle len" "$G:s=planted.c:12" planted.c:12 "*_password%return" \
		"0x$(nm "$A.g" | awk "\$3 == \"handle\" { print \$1 }" | sed "s/^0*//")"
'

test_expect_success SYSTEM_PERF_PROBE 'multi-line entries of one spec (an inlined function, a glob) are placed' '
	build_workload inline-partial "$TEST_TMP/nminl.g" -g -O2 &&
	strip -g -o "$TEST_TMP/nminl" "$TEST_TMP/nminl.g" &&
	theirs_then_ours "$TEST_TMP/nminl" tally "$G:t=tally" "[ab]" "$G:t=[ab]" "tally v" &&
	test_line_count "=" 2 out
'

# perf names a C++ glob's events as DWARF does ("add"), we by the
# qualified name ("shop_Cart_add"): both are the function's.
test_expect_success CXX,SYSTEM_PERF_PROBE 'C++ globs the system perf cached are placed' '
	build_workload cxx-shop "$TEST_TMP/nmshop.g" -g -O0 &&
	strip -g -o "$TEST_TMP/nmshop" "$TEST_TMP/nmshop.g" &&
	theirs_then_ours "$TEST_TMP/nmshop" "*depth*" "_ZN4shop4Cart3addEi" "_ZN4shop4Cart3add*" &&
	test "$(grep -c "^p:probe_nmshop/add " out)" = 2
'

test_expect_success SYSTEM_PERF_PROBE 'names the system perf made unique (-f beside live events) are placed' '
	test_when_finished "remove_probe_group $G" &&
	rm -rf "$TEST_TMP/sp" && mkdir "$TEST_TMP/sp" &&
	HOME=$TEST_TMP/sp "$SYSTEM_PERF" probe -q -x "$TEST_TMP/nminl.g" -a "$G:t=tally" &&
	HOME=$TEST_TMP/sp "$SYSTEM_PERF" probe -f --cache -n -q -x "$TEST_TMP/nminl.g" -a "$G:t=tally" &&
	PF=$(probes_file --home "$TEST_TMP/sp" "$TEST_TMP/nminl.g") &&
	test "$(grep -c "^p:$G/t_1 " "$PF")" = 2 &&
	HOME=$TEST_TMP/sp "$PERF" probe -x "$TEST_TMP/nminl" -D "$G:t=tally" >out &&
	test "$(grep -c "^p:$G/t_1 " out)" = 2
'

test_expect_success SDT,SYSTEM_PERF 'the SDT entries the system perf writes are placed; a renamed one is refused' '
	build_sdt_prog "$TEST_TMP/sdtprog" &&
	S=$(realpath "$TEST_TMP/sdtprog") &&
	rm -rf "$TEST_TMP/sp" && mkdir "$TEST_TMP/sp" &&
	HOME=$TEST_TMP/sp "$SYSTEM_PERF" buildid-cache -a "$S" &&
	SP=$(probes_file --home "$TEST_TMP/sp" "$S") &&
	HOME=$TEST_TMP/sp "$PERF" probe -x "$S" -D "%$SDT_GROUP:twice" >out &&
	test "$(grep -c "^p:$SDT_GROUP/twice " out)" = 2 &&
	sed -i "s|^p:$SDT_GROUP/twice |p:$SDT_GROUP/evil |" "$SP" &&
	(HOME=$TEST_TMP/sp && test_refuses --cache "$HOME/.debug" "$PERF" probe -x "$S" -D "%$SDT_GROUP:evil") &&
	grep -qF "perf: refusing cached probe $SP:" err &&
	grep -qF "gives no such line" err
'

test_expect_success 'no event of the test is left' '
	if test_have_prereq ROOT,TRACEFS; then
		! grep -q "^[pr]:\($G\|$G2\|probe_nmapp\|probe_nminl\|probe_nmshop\)/" "$TRACEFS/uprobe_events"
	fi
'

test_done
