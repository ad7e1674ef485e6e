#!/bin/sh
test_description='DWARF where perf 6.1 is wrong or gives up: ustring, clang and DWARF 5, prologue_end, globals'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_dw14
test_probe_group $G
test_trace_instance $G

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
		echo >\"\$TI/trace\" &&
		echo 1 >\"\$TI/events/$G/enable\" &&
		./ustr_$opt live-arg >printed && echo 0 >\"\$TI/events/$G/enable\" &&
		cat printed && grep -q '^who=live-arg m->who=member-str names\\[1\\]=one greeting=hello-global\$' printed &&
		grep \" us_$opt: \" \"\$TI/trace\" >line && cat line &&
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
		echo >\"\$TI/trace\" &&
		echo 1 >\"\$TI/events/$G/enable\" &&
		./pro_$opt 23 4 >printed && echo 0 >\"\$TI/events/$G/enable\" &&
		cat printed && grep -q '^mix(23, 4) = ' printed &&
		grep \" mix_$opt: \" \"\$TI/trace\" >line && cat line &&
		grep -q ' x=23 k=4\$' line
	"
done

# gdb_static_addr BIN SYM: the address gdb has for the static storage SYM.
gdb_static_addr() {
	gdb -batch -ex "info address $2" "$1" 2>/dev/null |
		sed -n 's/.* static storage at address \(0x[0-9a-f]*\)\..*/\1/p'
}

# The values a live probe read, checked against what gdb prints at the
# probe's address and what the program prints.
for cc in gcc clang; do
	for opt in O0 O2; do
		test_expect_success GDB "$cc -$opt: a global declared extern here and defined in the other unit, and its members" "
			command -v $cc &&
			CC=$cc build_prog ext_$opt \"\$WORKLOADS/extern-use.c\" -g -$opt \"\$WORKLOADS/extern-def.c\" &&
			c=\$(gdb_static_addr ext_$opt counter) && s=\$(gdb_static_addr ext_$opt conf) &&
			\"\$PERF\" probe -x ext_$opt -D 'use counter conf.level conf.name:string' >out 2>/dev/null &&
			cat out &&
			grep -q \" counter=@+\$c:s64 level=@+\$s:s32 name=+0(@+\$(printf 0x%x \$((s + 8)))):string\\\$\" out &&
			gdb -batch -ex 'break use' -ex run -ex 'p counter' -ex 'p conf.level' -ex 'p conf.name' \\
				./ext_$opt >gdb.out 2>&1 && cat gdb.out &&
			grep -q '^.1 = 30\$' gdb.out && grep -q '^.2 = 6\$' gdb.out &&
			grep -q '^.3 = .* \"conf-name\"\$' gdb.out
		"

		test_expect_success ROOT,TRACEFS "$cc -$opt: live, the extern global and its members have the values gdb prints" "
			command -v $cc &&
			CC=$cc build_prog ext_$opt \"\$WORKLOADS/extern-use.c\" -g -$opt \"\$WORKLOADS/extern-def.c\" &&
			\"\$PERF\" probe -q -x ext_$opt -a \"$G:ext_${cc}_$opt=use counter conf.level conf.name:string\" &&
			echo >\"\$TI/trace\" &&
			echo 1 >\"\$TI/events/$G/enable\" &&
			./ext_$opt >printed && echo 0 >\"\$TI/events/$G/enable\" &&
			cat printed && grep -q '^counter=34 level=6 name=conf-name r=10\$' printed &&
			grep \" ext_${cc}_$opt: \" \"\$TI/trace\" >line && cat line &&
			grep -q ' counter=30 level=6 name=\"conf-name\"\$' line
		"
	done
done

# clang addresses globals and static locals by DW_OP_addrx (an index into
# .debug_addr); perf 6.1 reads globals only and lists no static.
for opt in O0 O2; do
	if [ $opt = O0 ]; then args='hits calls setting.level setting.name:string bumped'; else args='hits calls setting.level setting.name:string'; fi
	test_expect_success CLANG,GDB "clang -$opt: DW_OP_addrx globals and static locals are where gdb has them" "
		CC=clang build_workload addrx ax_$opt -g -$opt &&
		readelf --debug-dump=info ax_$opt | grep -q DW_OP_addrx &&
		h=\$(gdb_static_addr ax_$opt hits) && s=\$(gdb_static_addr ax_$opt setting) &&
		c=\$(gdb -batch -ex 'info scope tick' ax_$opt | sed -n 's/^Symbol calls is in static storage at address \\(0x[0-9a-f]*\\),.*/\\1/p') &&
		test -n \"\$c\" &&
		\"\$PERF\" probe -x ax_$opt -D 'tick $args' >out 2>/dev/null && cat out &&
		grep -q \" hits=@+\$h:s64 calls=@+\$c:s32 level=@+\$s:s32 name=+0(@+\$(printf 0x%x \$((s + 8)))):string\" out &&
		gdb -batch -ex 'break tick' -ex run -ex 'p hits' -ex 'p calls' -ex 'p setting.level' -ex 'p setting.name' \\
			./ax_$opt >gdb.out 2>&1 && cat gdb.out &&
		grep -q '^.1 = 40\$' gdb.out && grep -q '^.2 = 100\$' gdb.out && grep -q '^.3 = 3\$' gdb.out &&
		grep -q '^.4 = .* \"setting-name\"\$' gdb.out
	"

	test_expect_success CLANG,ROOT,TRACEFS "clang -$opt: live, DW_OP_addrx variables have the values gdb prints" "
		CC=clang build_workload addrx ax_$opt -g -$opt &&
		\"\$PERF\" probe -q -x ax_$opt -a \"$G:ax_$opt=tick $args\" &&
		echo >\"\$TI/trace\" &&
		echo 1 >\"\$TI/events/$G/enable\" &&
		./ax_$opt >printed && echo 0 >\"\$TI/events/$G/enable\" &&
		cat printed && grep -q '^hits=47 calls=105 level=3 name=setting-name r=108\$' printed &&
		grep \" ax_$opt: \" \"\$TI/trace\" >line && cat line &&
		grep -q ' hits=40 calls=100 level=3 name=\"setting-name\"' line &&
		{ [ $opt != O0 ] || grep -q ' bumped=2\$' line; }
	"
done

test_expect_success CLANG,GDB '-V --externs lists the DW_OP_addrx globals and statics (perf 6.1: only the external ones)' '
	CC=clang build_workload addrx ax_O0 -g -O0 &&
	gdb -batch -ex "info scope tick" ax_O0 >scope && cat scope &&
	grep -q "^Symbol calls is in static storage" scope &&
	gdb -batch -ex "info variables" ax_O0 >vars && cat vars &&
	grep -q "^5:	static int bumped;" vars && grep -q "^4:	long hits;" vars &&
	grep -q "^3:	struct cfg setting;" vars &&
	"$PERF" probe -x ax_O0 -V tick --externs >out &&
	printf "%s\n" "Available variables at tick" "	@<tick+0>" "		int	bumped" "		int	calls" \
		"		int	n" "		long	hits" "		struct cfg	setting" >expect &&
	test_cmp_file expect out
'

# A source named with "dir/..": the path perf -L shows (the CU's directory
# joined) is a spec like any other.
test_expect_success GDB 'SRC:LINE by the full DWARF path with "..", as -L prints it' '
	mkdir -p dd/sub && cp "$WORKLOADS/dwarf-live.c" dd/ &&
	(cd dd && ${CC:-gcc} -g -O0 -o ../ddprog sub/../dwarf-live.c) &&
	"$PERF" probe -x ddprog -L handle >out && head -n 1 out &&
	test "$(head -n 1 out)" = "<handle@$TEST_TMP/dd/sub/../dwarf-live.c:0>" &&
	a=$(gdb_line_addr ddprog dwarf-live.c:8) && test -n "$a" &&
	for p in "$TEST_TMP/dd/sub/../dwarf-live.c" "$TEST_TMP/dd/dwarf-live.c" sub/../dwarf-live.c; do
		"$PERF" probe -x ddprog -D "$p:8" >out && cat out &&
		grep -q "^p:probe_ddprog/handle [^ ]*/ddprog:$a\$" out &&
		"$PERF" probe -x ddprog -L "$p:6-9" >out &&
		test "$(head -n 1 out)" = "<$TEST_TMP/dd/sub/../dwarf-live.c:6>" || return 1
	done
'

test_expect_success SYSTEM_PERF_PROBE 'the full DWARF path with "..": -D and -L as the system perf' '
	mkdir -p dd/sub && cp "$WORKLOADS/dwarf-live.c" dd/ &&
	(cd dd && ${CC:-gcc} -g -O0 -o ../ddprog sub/../dwarf-live.c) &&
	p=$TEST_TMP/dd/sub/../dwarf-live.c &&
	test_same_as_system_perf probe -x ddprog -D "$p:8" &&
	test_same_as_system_perf probe -x ddprog -L "$p:6-9" &&
	test_same_as_system_perf probe -x ddprog -L handle
'

# gcc -flto: the CU named after the source holds its early debug only (no
# code); the rows of its lines are in the link's "<artificial>" unit, as in
# Debian's python3.11 (listobject.c:923).
test_expect_success GDB 'gcc -flto: SRC:LINE is found where gdb has the line, not in the unit named after the file' '
	build_workload dwarf-live lto -g -O2 -flto &&
	readelf --debug-dump=info lto | grep -q "DW_AT_name .*: <artificial>\$" &&
	for l in 9 16; do
		# gdb prints the line of each of the two units
		a=$(gdb_line_addr lto dwarf-live.c:$l | head -n 1) && test -n "$a" &&
		"$PERF" probe -x lto -D "dwarf-live.c:$l" >out && cat out &&
		test_line_count = 1 out && grep -q ":$(file_offset lto "$a")\$" out || return 1
	done
'

test_expect_success SYSTEM_PERF_PROBE 'gcc -flto: SRC:LINE as the system perf places it' '
	build_workload dwarf-live lto -g -O2 -flto &&
	test_same_as_system_perf probe -x lto -D "dwarf-live.c:9" &&
	test_same_as_system_perf probe -x lto -D "dwarf-live.c:16"
'

# clang gives a parameter that is a constant in one inlined copy
# DW_AT_const_value and no location: the constant, as perf 6.1 has it.
test_expect_success CLANG,GDB 'clang -O2: a DW_AT_const_value parameter of an inlined copy is its value' '
	CC=clang build_workload inline-const ic -g -O2 &&
	readelf --debug-dump=info ic | grep -q DW_AT_const_value &&
	"$PERF" probe -x ic -D "account v scale" >out && cat out &&
	test_line_count = 2 out &&
	grep -q " v=%di:s64 scale=\\\\3:s64\$" out &&
	gdb -batch -ex "break account" -ex run -ex "info args" -ex c -ex "info args" \
		--args ./ic 9 >gdb.out 2>&1 && cat gdb.out &&
	grep -q "^scale = 3\$" gdb.out && grep -q "^scale = 9\$" gdb.out
'

test_expect_success CLANG,SYSTEM_PERF_PROBE 'clang -O2: the inlined copies and their constant as the system perf' '
	CC=clang build_workload inline-const ic -g -O2 &&
	test_same_as_system_perf probe -x ic -D "account v scale"
'

test_expect_success CLANG,SYSTEM_PERF_PROBE 'clang -O2: -V lists the constant parameter of a copy, as the system perf' '
	CC=clang build_workload inline-const ic -g -O2 &&
	test_same_as_system_perf probe -x ic -V account &&
	grep -c "long	scale" ours >n && test "$(cat n)" = 2
'

# gcc -O2 splits mount_it: the NULL check is inlined into main, the rest
# is mount_it.part.0, a DW_TAG_subprogram of its own whose abstract
# origin is mount_it.  gdb breaks there too (4 locations), as perf probes.
test_expect_success GDB 'gcc -O2: a function split in two is probed at its part too, as gdb breaks' '
	build_workload split-part sp -g -O2 &&
	part=$(nm sp | sed -n "s/^0*\([0-9a-f]*\) t mount_it\.part\.0\$/\1/p") &&
	test -n "$part" &&
	"$PERF" probe -x sp -D mount_it >out && cat out &&
	grep -q ":0x$part\$" out &&
	gdb -batch -ex "break mount_it" sp >gdb.out 2>&1 && cat gdb.out &&
	grep -q "($(wc -l <out) locations)" gdb.out
'

test_expect_success SYSTEM_PERF_PROBE 'gcc -O2: the split function: -D and -V as the system perf' '
	build_workload split-part sp -g -O2 &&
	test_same_as_system_perf probe -x sp -D mount_it &&
	test_same_as_system_perf probe -x sp -V mount_it &&
	grep -q "	int	ret\$" ours
'

# The part returns into the function, or into its caller for the function:
# perf leaves it out of %return.
test_expect_success SYSTEM_PERF_PROBE 'gcc -O2: the split function%return is the function, not its part, as the system perf' '
	build_workload split-part sp -g -O2 &&
	test_same_as_system_perf probe -x sp -D "mount_it%return \$retval" &&
	test_line_count = 1 ours
'

# check.cold is a range of check's own DIE, not a part of its own: the
# function's return is still found in DWARF.
test_expect_success 'gcc -O2: a function with a .cold range: FUNC%return from DWARF, one place' '
	build_workload cold-part cp -g -O2 &&
	nm cp | grep -q " t check\.cold\$" &&
	"$PERF" probe -v -x cp -D "check%return \$retval" >out 2>err &&
	cat out err && test_line_count = 1 out &&
	grep -q "^Found 1 probe_trace_events\.\$" err
'

test_expect_success ROOT,TRACEFS 'gcc -O2: live, the split part is hit with the name the program passed' "
	build_workload split-part sp -g -O2 &&
	\"\$PERF\" probe -q -x sp -a '$G:sp=mount_it name:string' &&
	echo >\"\$TI/trace\" &&
	echo 1 >\"\$TI/events/$G/enable\" &&
	./sp one >printed && echo 0 >\"\$TI/events/$G/enable\" &&
	cat printed && grep -q '^two:1\$' printed &&
	grep ' sp: ' \"\$TI/trace\" >hits && cat hits &&
	# mount_it(\"one\") passes the inlined check, then runs the part;
	# mount_it(\"two\") the part (main calls it directly); by the
	# place's offset in its page (the program is mapped at a random base)
	grep -q ' name_string=\"one\"\$' hits && grep -q ' name_string=\"two\"\$' hits &&
	nm sp | grep ' t mount_it\\.part\\.0\$' | cut -c 14-16 >part && cat part &&
	test \"\$(grep -c \"(0x[0-9a-f]*\$(cat part)) \" hits)\" = 2
"

test_expect_success CLANG,ROOT,TRACEFS 'clang -O2: live, the constant copy and the register copy have the values gdb prints' "
	CC=clang build_workload inline-const ic -g -O2 &&
	\"\$PERF\" probe -q -x ic -a '$G:ic=account v scale' &&
	echo >\"\$TI/trace\" &&
	echo 1 >\"\$TI/events/$G/enable\" &&
	./ic 9 >printed && echo 0 >\"\$TI/events/$G/enable\" &&
	cat printed && grep -q '^total=36\$' printed &&
	# the two inlined copies are one event, as perf makes them (t0240)
	grep ' ic: ' \"\$TI/trace\" >line && cat line &&
	grep -q ' v=6 scale=3\$' line && grep -q ' v=2 scale=9\$' line
"

test_done
