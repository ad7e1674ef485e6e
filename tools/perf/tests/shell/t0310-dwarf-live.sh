#!/bin/sh
test_description='probes placed through DWARF fire with the values the program has'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,TRACEFS || test_skip_all 'needs root and a writable tracefs'

G=perftest_dw
test_probe_group $G

for opt in O0 O2; do
	test_expect_success "-$opt: arguments read through DWARF have the program's values" "
		build_workload dwarf-live live_$opt -g -$opt &&
		\"\$PERF\" probe -q -x live_$opt -a \"$G:in_$opt=handle req->id req->len req->name:string req->peer:string req->fl.urgent req->fl.prio nid=req->next->id n total\" &&
		\"\$PERF\" probe -q -x live_$opt -a \"$G:out_$opt=handle%return \\\$retval:s32\" &&
		echo >\"\$TRACEFS/trace\" &&
		echo 1 >\"\$TRACEFS/events/$G/enable\" &&
		./live_$opt 17 >printed && echo 0 >\"\$TRACEFS/events/$G/enable\" &&
		cat printed &&
		grep \" in_$opt: \" \"\$TRACEFS/trace\" >line && cat line &&
		grep -q ' id=17 len=42 name=\"alpha\" peer=\"peer-one\" urgent=1 prio=5 nid=99 n=3 total=5\$' line &&
		grep \" out_${opt}__return: \" \"\$TRACEFS/trace\" | grep -q 'arg1=20\$' &&
		grep -q 'ret=20 total=131' printed
	"
done

test_expect_success 'a static inline function that exists only inlined at -O2 (perf 6.1 fails)' '
	build_workload inline-only inl -g -O2 &&
	! nm inl | grep -q " account" &&
	"$PERF" probe -q -x inl -a "$G:acc=account scale" &&
	test "$(grep -c "^p:$G/acc" "$TRACEFS/uprobe_events")" -eq 2 &&
	echo >"$TRACEFS/trace" &&
	echo 1 >"$TRACEFS/events/$G/enable" &&
	./inl x y >/dev/null && echo 0 >"$TRACEFS/events/$G/enable" &&
	test "$(grep -c " acc: .* scale=3$" "$TRACEFS/trace")" -eq 2
'

test_expect_success 'every probe of the group is removed' '
	remove_probe_group $G &&
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
'

test_done
