#!/bin/sh
test_description='what gdb prints at an optimized probe, the probe fetches: live values against gdb at the same address'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS,GDB || test_skip_all 'needs root, a writable tracefs and gdb'

G=perftest_gdbv
test_probe_group $G
ORACLE=$TEST_ROOT/tools/perf/tests/gdb-oracle.sh

# The specs of structs.c: each is probed live and compared, value for
# value, with what gdb prints at the probe's address on the first hit.
cat >specs <<'SPECS'
byval p.x p.y k
byval p.x k
bypair q.a q.b
bysmall m.s m.c m.u m.w
bysmall:2 m.s m.c m.u m.w
spent a b
late a b
late:2 a b
sum arr n
structs.c:54 i total n
structs.c:55 i total n
scan p n
structs.c:62 p n t
structs.c:65 p n t
walk r->id r->len
walk hits
structs.c:75 count r
structs.c:76 r->id count hits
structs.c:77 r->id count
structs.c:78 r->len count
twice r->id f
scaled r->id f
scaled r->len r->id
main argc
SPECS

# oracle BIN [SPECS]: no value fetched differs from gdb's (res: the verdicts).
oracle() {
	GROUP=$G PERF="$PERF" bash "$ORACLE" "$1" "${2:-specs}" >res 2>&1
	cat res
	grep -q "^summary " res && ! grep -q "^wrong " res
}

# right SPEC: the spec was fetched and its values are gdb's.
right() {
	sed 's/  \[.*$//' res | grep -qxF "right $1" || { echo "not right: $1" >&2; return 1; }
}

# same_this BIN: 'FUNC this' gives at each place the this of 'FUNC $params'.
same_this() {
	"$PERF" probe -x "$1" -D 'Mutex::lock $params' >params 2>/dev/null &&
		"$PERF" probe -x "$1" -D 'Mutex::lock this' >this 2>err && cat params this err &&
		sed -n 's/^[^ ]* [^ ]*:\(0x[0-9a-f]*\) .*this=\([^ ]*\).*/\1 \2/p' params >want &&
		sed -n 's/^[^ ]* [^ ]*:\(0x[0-9a-f]*\) this=\([^ ]*\)$/\1 \2/p' this >got &&
		test_line_count -ge 3 want && test_cmp_file want got
}

test_expect_success GCC '-O0: every spec is fetched with gdb'"'"'s values' '
	build_workload structs s_O0 -g -O0 &&
	oracle s_O0 &&
	test "$(grep -c "^right " res)" -ge 21
'

for o in O1 O2 Og; do
	test_expect_success GCC "-$o: members of small structs in registers, loop variables, shared lines, inlined copies are gdb's" "
		build_workload structs s_$o -g -$o &&
		oracle s_$o &&
		right 'byval p.x p.y k' && right 'bysmall m.s m.c m.u m.w' &&
		right 'structs.c:54 i total n' && right 'structs.c:75 count r' &&
		right 'scaled r->id f' && right 'walk r->id r->len'
	"
done

test_expect_success GCC 'clang -O2: register pieces narrowed by DW_OP_convert or shifted are gdb'"'"'s' '
	CC=clang build_workload structs s_clang -g -O2 &&
	oracle s_clang &&
	right "bysmall:2 m.s m.c m.u m.w" && right "byval p.x k"
'

test_expect_success GCC 'a member inside a register is a bitfield of it, the kernel takes it' '
	build_workload structs s_O2 -g -O2 &&
	"$PERF" probe -x s_O2 -D "byval p.x p.y" >out && cat out &&
	grep -q " x=%di:s32 y=%di:b32@32/64\$" out &&
	"$PERF" probe -x s_O2 -D "bysmall m.s m.c m.u m.w" >out && cat out &&
	grep -q " s=%di:s16 c=%di:b8@16/64 u=%di:b8@24/64 w=%di:b32@32/64\$" out &&
	test_refuses --ignore "^\$" "$PERF" probe -x s_O2 -D "byval p.y:s32" &&
	grep -q "^p.y is bits 32-63 of %di here: read as a bitfield, not as :s32\.\$" err1
'

# scan at -O2: p is DW_OP_entry_value(rdi) from scan+11 on; rdi is left
# alone up to the loop, which moves it.
test_expect_success GCC 'DW_OP_entry_value: the register where nothing changed it yet, gdb'"'"'s value' '
	build_workload structs s_O2 -g -O2 &&
	scan=$(nm s_O2 | awk "\$3 == \"scan\" { print \$1 }") &&
	readelf -wo s_O2 | grep -q "^ *0*$(printf %x $((0x$scan + 11))) .*DW_OP_entry_value: (DW_OP_reg5 (rdi)); DW_OP_stack_value" &&
	"$PERF" probe -x s_O2 -D "scan+11 p" >out && cat out &&
	grep -q " p=%di:x64\$" out &&
	echo "scan+11 p n" >ev.specs && oracle s_O2 ev.specs && right "scan+11 p n" &&
	test_refuses --ignore "^\$" "$PERF" probe -x s_O2 -D "scan+28 p" &&
	grep -q "^p is the value %di had at the entry of scan, which %di may no longer hold here: probe at 0x[0-9a-f]* (scan) for it\.\$" err1
'

test_expect_success GCC 'a line sharing its address is placed where gdb breaks, with one warning (perf refuses)' '
	build_workload structs s_O2 -g -O2 &&
	"$PERF" probe -x s_O2 -D "structs.c:75 count" >out 2>err && cat out err &&
	test_line_count = 1 err &&
	grep -q "^Warning: structs.c:75 shares its address with lines 72, 73.* of .*structs.c: probed there, as gdb breaks\.\$" err &&
	off=$(sed -n "s/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\) .*/\1/p" out | head -n 1) &&
	gdb -nx -batch -ex "break structs.c:75" ./s_O2 >gdb.out 2>&1 && cat gdb.out &&
	grep -q "^Breakpoint 1 at $off: file .*structs.c, line 75\.\$" gdb.out &&
	"$PERF" probe -q -x s_O2 -a "$G:shared=structs.c:75 count" &&
	grep -q "^p:$G/shared " "$TRACEFS/uprobe_events"
'

test_expect_success GCC,SYSTEM_PERF_PROBE 'perf 6.1 refuses that line' '
	build_workload structs s_O2 -g -O2 &&
	test_must_fail "$SYSTEM_PERF" probe -x s_O2 -D "structs.c:75 count" 2>err &&
	grep -q "sharing the address" err
'

test_expect_success GCC 'an inlined copy whose argument can not be fetched is skipped with a warning' '
	build_workload structs s_O2 -g -O2 &&
	"$PERF" probe -x s_O2 -D "scaled r->id f" >out 2>err && cat out err &&
	test_line_count -ge 1 out &&
	grep -q "^Warning: .r. is not fetchable at 0x[0-9a-f]* (an inlined copy of scaled in twice); that place is skipped\$" err
'

test_expect_success GCC 'a value no fetcharg can compute is refused, saying where it can be fetched' '
	build_workload structs s_O2 -g -O2 &&
	test_refuses --ignore "^\$" "$PERF" probe -x s_O2 -D "structs.c:55 i" &&
	grep -q "^Sorry, we don.t support this variable location yet: .i. is computed here in a way no fetcharg can; it can be fetched at @<sum+\[[0-9,-]*\]>\.\$" err1
'

for cxx in g++ clang++; do
	pre=CXX
	[ $cxx = clang++ ] && pre=CLANGXX
	test_expect_success "$pre" "$cxx -O2: 'this' of a method inlined into others is its own, gdb's, at every copy" "
		CXX=$cxx build_workload cxx-inl inl_${cxx%++} -g -O2 &&
		same_this inl_${cxx%++} &&
		echo 'Mutex::lock this->count this->owner t->id t->spins' >cxx.specs &&
		oracle inl_${cxx%++} cxx.specs && right 'Mutex::lock this->count this->owner t->id t->spins'
	"
done

test_expect_success 'every probe of the group is removed' '
	remove_probe_group $G &&
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
'

test_done
