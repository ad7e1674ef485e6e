#!/bin/sh
test_description='probes placed through DWARF fire with the values the program has'
. "$(dirname "$0")/lib.sh"

have_root || test_skip_all 'needs root for tracefs'
setup_tracefs || test_skip_all 'tracefs uprobe_events is not writable'

G=perftest_dw
test_cleanup "remove_probe_group $G"
remove_probe_group $G

cat >live.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
struct flags { unsigned urgent:1; unsigned prio:3; };
struct req { int id; long len; char name[16]; const char *peer; struct flags fl; struct req *next; };
long total = 5;
__attribute__((noinline)) int handle(struct req *req, int n)
{
	total += req->len * n;
	return req->id + n;
}
int main(int argc, char **argv)
{
	struct req other = { .id = 99 };
	struct req r = { .id = atoi(argv[1]), .len = 42, .name = "alpha", .peer = "peer-one",
			 .fl = { 1, 5 }, .next = &other };
	int v = handle(&r, 3);
	printf("id=%d len=%ld name=%s peer=%s prio=%d next=%d ret=%d total=%ld\n", r.id, r.len,
	       r.name, r.peer, r.fl.prio, other.id, v, total);
	return 0;
}
SRC

for opt in O0 O2; do
	test_expect_success "-$opt: arguments read through DWARF have the program's values" "
		build_prog live_$opt live.c -g -$opt &&
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

cat >inl.c <<'SRC'
#include <stdio.h>
struct item { int weight; const char *label; };
static int sum;
static inline void account(struct item *it, int scale)
{
	if (it->weight > 10)
		sum += it->weight * scale;
	else
		printf("light %s\n", it->label);
}
int main(int argc, char **argv)
{
	struct item a = { argc * 20, "a" }, b = { argc, argv[0] };
	account(&a, 3);
	account(&b, argc);
	printf("%d\n", sum);
	return 0;
}
SRC

test_expect_success 'a static inline function that exists only inlined at -O2 (perf 6.1 fails)' '
	build_prog inl inl.c -g -O2 &&
	! nm inl | grep -q " account" &&
	"$PERF" probe -q -x inl -a "$G:acc=account scale" &&
	test "$(grep -c "^p:$G/acc" "$TRACEFS/uprobe_events")" -eq 2 &&
	echo >"$TRACEFS/trace" &&
	echo 1 >"$TRACEFS/events/$G/enable" &&
	./inl x y >/dev/null && echo 0 >"$TRACEFS/events/$G/enable" &&
	grep -q " acc: .* scale=3$" "$TRACEFS/trace" &&
	grep -q " acc_1: .* scale=3$" "$TRACEFS/trace"
'

test_expect_success 'every probe of the group is removed' '
	remove_probe_group $G &&
	! grep -q "^[pr]:$G/" "$TRACEFS/uprobe_events"
'

test_done
