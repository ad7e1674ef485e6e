#!/bin/sh
test_description='DWARF where perf 6.1 is wrong or gives up: ustring, clang and DWARF 5, prologue_end, globals'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_dw14
test_probe_group $G

# :ustring reads a char * the way :string does: through the pointer.
test_expect_success ':ustring on a char * parameter, member, array element and global dereferences it' '
	build_workload ustr ustr0 -g -O0 &&
	"$PERF" probe -x ustr0 -D "greet who:ustring m->who:ustring names[1]:ustring greeting:ustring" >out 2>/dev/null &&
	cat out &&
	grep -q " who_ustring=+0(-8(%bp)):ustring who=+0(+8(-16(%bp))):ustring names=+0(@+0x[0-9a-f]*):ustring greeting_ustring=+0(@+0x[0-9a-f]*):ustring\$" out
'

test_expect_success ':ustring on a char * in a register (-O2) is the memory it points to' '
	build_workload ustr ustr2 -g -O2 &&
	"$PERF" probe -x ustr2 -D "greet who:ustring m->who:ustring" >out &&
	cat out &&
	grep -q " who_ustring=+0(%di):ustring who=+0(+8(%si)):ustring\$" out
'

for opt in O0 O2; do
	test_expect_success ROOT,TRACEFS "-$opt: a live :ustring probe shows the strings the program prints" "
		build_workload ustr ustr_$opt -g -$opt &&
		\"\$PERF\" probe -q -x ustr_$opt -a \"$G:us_$opt=greet who:ustring m->who:ustring names[1]:ustring greeting:ustring\" &&
		echo >\"\$TRACEFS/trace\" &&
		echo 1 >\"\$TRACEFS/events/$G/enable\" &&
		./ustr_$opt live-arg >printed && echo 0 >\"\$TRACEFS/events/$G/enable\" &&
		cat printed && grep -q '^who=live-arg m->who=member-str names\\[1\\]=one greeting=hello-global\$' printed &&
		grep \" us_$opt: \" \"\$TRACEFS/trace\" >line && cat line &&
		grep -q ' who_ustring=\"live-arg\" who=\"member-str\" names=\"one\" greeting_ustring=\"hello-global\"\$' line
	"
done

test_done
