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

test_lazy_prereq CLANG 'command -v clang'
test_lazy_prereq GDB 'command -v gdb'

# gdb_line_addr BIN FILE:LINE: where gdb says the code of the line starts.
gdb_line_addr() {
	gdb -batch -ex "info line $2" "$1" 2>/dev/null |
		sed -n 's/.* starts at address \(0x[0-9a-f]*\) .*/\1/p'
}

# gdb_break_addr BIN FUNC: where gdb puts a breakpoint on FUNC (after its
# prologue).
gdb_break_addr() {
	gdb -batch -ex "break $2" "$1" 2>/dev/null | sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\).*/\1/p'
}

# clang's DWARF 5 line table names its own file as file 0, which libdw's
# dwarf_decl_file() does not give (perf 6.1 crashes on all of these).
for dw in "" -gdwarf-5; do
	test_expect_success CLANG,GDB "clang -O1${dw:+ $dw}: SRC:LINE and FUNC:LINE are where gdb has the line" "
		CC=clang build_workload dwarf-live cl -g $dw -O1 &&
		readelf --debug-dump=info cl | grep -m1 'Version:' | grep -q ' 5\$' &&
		for l in 8 9; do
			a=\$(gdb_line_addr cl dwarf-live.c:\$l) && test -n \"\$a\" &&
			\"\$PERF\" probe -x cl -D dwarf-live.c:\$l >out &&
			cat out && grep -q \"^p:probe_cl/handle [^ ]*/cl:\$a\\\$\" out &&
			\"\$PERF\" probe -x cl -D handle:\$((l - 6)) >out &&
			cat out && grep -q \"^p:probe_cl/handle_L\$((l - 6)) [^ ]*/cl:\$a\\\$\" out || return 1
		done
	"

	test_expect_success CLANG,GDB "clang -O1${dw:+ $dw}: FUNC;PATTERN is where gdb has the line" "
		CC=clang build_workload dwarf-live cl -g $dw -O1 &&
		a=\$(gdb_line_addr cl dwarf-live.c:9) &&
		\"\$PERF\" probe -x cl -D 'handle;return*' >out &&
		cat out && grep -q \"^p:probe_cl/handle [^ ]*/cl:\$a\\\$\" out &&
		a=\$(gdb_line_addr cl dwarf-live.c:8) &&
		\"\$PERF\" probe -x cl -D 'dwarf-live.c;total*' >out &&
		cat out && grep -q \"^p:probe_cl/handle [^ ]*/cl:\$a\\\$\" out
	"

	test_expect_success CLANG,GDB "clang -O1${dw:+ $dw}: -L numbers the lines gdb has code for" "
		CC=clang build_workload dwarf-live cl -g $dw -O1 &&
		for l in 7 10; do
			gdb -batch -ex \"info line dwarf-live.c:\$l\" cl | grep -q 'contains no code' || return 1
		done &&
		\"\$PERF\" probe -x cl -L handle >out &&
		sed -n 1p out | grep -q '^<handle@.*/dwarf-live.c:0>\$' &&
		sed 1d out >body &&
		printf '%s\n' \
			'      0  __attribute__((noinline)) int handle(struct req *req, int n)' \
			'         {' \
			'      2  	total += req->len * n;' \
			'      3  	return req->id + n;' \
			'         }' \
			'         int main(int argc, char **argv)' \
			'         {' >expect &&
		test_cmp_file expect body &&
		\"\$PERF\" probe -x cl -L dwarf-live.c:7-10 >out &&
		sed -n 1p out | grep -q '^<.*/dwarf-live.c:7>\$' &&
		sed 1d out >body &&
		printf '%s\n' \
			'         {' \
			'      8  	total += req->len * n;' \
			'      9  	return req->id + n;' \
			'         }' >expect &&
		test_cmp_file expect body
	"

	test_expect_success CLANG,GDB "clang -O1${dw:+ $dw}: -V SRC:LINE lists what gdb has in scope there" "
		CC=clang build_workload dwarf-live cl -g $dw -O1 &&
		a=\$(gdb_line_addr cl dwarf-live.c:9) &&
		off=\$(gdb -batch -ex \"info line dwarf-live.c:9\" cl | sed -n 's/.* starts at address 0x[0-9a-f]* <\\(handle+[0-9]*\\)>.*/\\1/p') &&
		test -n \"\$off\" &&
		gdb -batch -ex 'info scope dwarf-live.c:9' cl >scope && cat scope &&
		grep -q 'Symbol req is' scope && grep -q 'Symbol n is' scope &&
		\"\$PERF\" probe -x cl -V dwarf-live.c:9 >out &&
		printf '%s\n' 'Available variables at @dwarf-live.c:9' \"	@<\$off>\" \
			'		int	n' '		struct req*	req' >expect &&
		test_cmp_file expect out
	"
done

# clang marks the end of the prologue (prologue_end) and names no -O in
# DW_AT_producer: perf 6.1 takes -O1/-O2 code for unoptimized and probes
# the row after the entry, where x is already clobbered.
for opt in O0 O1 O2; do
	test_expect_success CLANG,GDB "clang -$opt: \$params at the prologue_end gdb breaks at, all of them" "
		CC=clang build_workload clang-prologue pro_$opt -g -$opt &&
		a=\$(gdb_break_addr pro_$opt mix) && test -n \"\$a\" &&
		\"\$PERF\" probe -x pro_$opt -D 'mix \$params' >out 2>/dev/null &&
		cat out && grep -q \"^p:probe_pro_$opt/mix [^ ]*/pro_$opt:\$a x=[^ ]*:s64 k=[^ ]*:s64\\\$\" out &&
		m=\$(nm pro_$opt | awk '\$3 == \"mix\" { print \$1 }') &&
		gdb -batch -ex \"break *((char *)mix + \$((a - 0x\$m)))\" -ex run -ex 'p \$pc' -ex 'info args' \\
			--args ./pro_$opt 23 4 >gdb.out 2>&1 && cat gdb.out &&
		grep -q \"^.1 = .* 0x[0-9a-f]*\$(printf %x \$((a & 0xfff))) <mix\" gdb.out &&
		grep -q '^x = 23\$' gdb.out && grep -q '^k = 4\$' gdb.out
	"

	test_expect_success CLANG,ROOT,TRACEFS "clang -$opt: live \$params are what the program passed" "
		CC=clang build_workload clang-prologue pro_$opt -g -$opt &&
		\"\$PERF\" probe -q -x pro_$opt -a \"$G:mix_$opt=mix \\\$params\" &&
		echo >\"\$TRACEFS/trace\" &&
		echo 1 >\"\$TRACEFS/events/$G/enable\" &&
		./pro_$opt 23 4 >printed && echo 0 >\"\$TRACEFS/events/$G/enable\" &&
		cat printed && grep -q '^mix(23, 4) = ' printed &&
		grep \" mix_$opt: \" \"\$TRACEFS/trace\" >line && cat line &&
		grep -q ' x=23 k=4\$' line
	"
done

test_done
