#!/bin/sh
test_description='perf probe takes the command lines of perf 6.1 and answers as it does: -F, -l, -d filters, -n, the Added new event lines, -L and the exit statuses'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq SYSTEM_PERF,GCC || test_skip_all 'needs the system perf and a compiler'

G=perftest_cli14
test_probe_group $G

# A program compiled from a relative path (src/app.c): its DWARF names the
# file relative to the compilation directory, as most builds do.
test_expect_success 'setup: a program built from src/app.c' '
	mkdir -p src &&
	cp "$WORKLOADS/conn.c" src/app.c &&
	${CC:-gcc} -g -O0 -o app src/app.c &&
	cp app other
'

# 1. -F with its filter as a separate word, as one types it.
test_expect_success '-F FILTER and --funcs FILTER take the next word' '
	test_same_as_system_perf probe -x app -F "h*" &&
	test "$(cat ours)" = handle &&
	test_same_as_system_perf probe -x app --funcs "h*" &&
	test_same_as_system_perf probe -x app --funcs="m*" &&
	test_same_as_system_perf probe -x app -F "!h*"
'

test_expect_success '-F before another option has no filter (the default one)' '
	test_same_as_system_perf probe -F -x app &&
	grep -q "^main$" ours && ! grep -q "^_" ours
'

test_expect_success 'several -F filters and --filter are or-ed as perf does' '
	test_same_as_system_perf probe -x app -F "h*" -F "m*" &&
	test_same_as_system_perf probe -x app -F "h*" --filter "m*" &&
	test_same_as_system_perf probe -x app -F --filter "_*" &&
	grep -q "^_start$" ours && grep -q "^main$" ours
'

test_expect_success 'a word after -F FILTER is a probe definition: two modes, 129' '
	test_same_as_system_perf --status probe -x app -F "h*" main &&
	test "$_ours" = 129
'

test_expect_success 'a filter that does not parse is a usage error (129)' '
	test_same_as_system_perf --status probe -x app -F "(" &&
	test "$_ours" = 129 &&
	grep -q "^Filter parse error at 2.$" ours.err &&
	test_same_as_system_perf --status probe -l "(" &&
	test_same_as_system_perf --status probe -d "("
'

# 2. -l and -d filters in perf's filter language, -l -x.
test_expect_success ROOT,TRACEFS 'setup: four events on two binaries' '
	"$PERF" probe -q -x app -a "$G:e1=handle r->len seq" -a "$G:e2=src/app.c:16 c.peer:string" \
		-a "$G:e3=handle%return \$retval" &&
	"$PERF" probe -q -x other -a "$G:o1=main"
'

test_expect_success SYSTEM_PERF_PROBE '-l with |, & and ! lists what perf lists' '
	test_same_as_system_perf probe -l "$G:e1|$G:e2" &&
	test_line_count = 2 ours &&
	test_same_as_system_perf probe -l "$G:*&!$G:e1" &&
	test_line_count = 3 ours &&
	test_same_as_system_perf probe -l "e1" &&
	test_line_count = 1 ours
'

test_expect_success SYSTEM_PERF_PROBE 'several -l filters list what any of them matches' '
	test_same_as_system_perf probe -l "$G:e1" -l "$G:o1" &&
	test_line_count = 2 ours
'

test_expect_success SYSTEM_PERF_PROBE '-l FILTER as a separate word, then more words: 129 as perf' '
	test_same_as_system_perf --status probe -l "$G:e1" "$G:e2" &&
	test "$_ours" = 129
'

test_expect_success ROOT,TRACEFS '-l -x BIN lists the events on that binary only' '
	"$PERF" probe -l -x other >out &&
	test_line_count = 1 out &&
	grep -q "^  $G:o1 " out &&
	"$PERF" probe -l "$G:*" -x app >out &&
	test_line_count = 3 out &&
	! grep -q o1 out
'

test_expect_success ROOT,TRACEFS '-d with a compound filter deletes exactly what it matches' '
	"$PERF" probe -d "$G:e2|$G:o1" 2>err &&
	grep -q "^Removed event: $G:e2$" err &&
	grep -q "^Removed event: $G:o1$" err &&
	test_line_count = 2 err &&
	"$PERF" probe -l "$G:*" >out &&
	test_line_count = 2 out
'

# 3 and 4. The Added new event block: -n too, perf's point and arguments.
added_same_as_perf() {
	test_same_as_system_perf --stderr probe -n -x app "$@"
}

test_expect_success ROOT,TRACEFS 'a real add shows the same canonical lines' '
	"$PERF" probe -x app -a "$G:r1=src/app.c:16 c.peer" 2>err &&
	grep -q "^  $G:r1  *(on @src/app.c:16 in $TEST_TMP/app with peer=c.peer)$" err
'

test_expect_success SYSTEM_PERF_PROBE '-n prints the Added new event block as perf does' '
	added_same_as_perf "$G:n1=handle" &&
	grep -q "^Added new event:$" ours.err &&
	grep -q "perf record -e $G:n1 -aR sleep 1" ours.err
'

test_expect_success SYSTEM_PERF_PROBE 'the Added new event lines show the canonical point, as perf' '
	added_same_as_perf "$G:n2=src/app.c:16" &&
	grep -q "(on @src/app.c:16 in " ours.err &&
	added_same_as_perf "$G:n3=handle%return" &&
	added_same_as_perf "$G:n4=handle@src/app.c" &&
	added_same_as_perf "$G:n5=handle+4" &&
	added_same_as_perf "$G:n6=main;printf*" &&
	added_same_as_perf "$G:n7=src/app.c;printf*" &&
	added_same_as_perf "$G:n8=handle@src/app.c%return"
'

test_expect_success SYSTEM_PERF_PROBE 'the Added new event lines name the arguments as perf' '
	added_same_as_perf "$G:n9=handle r->len seq" &&
	grep -q " with len=r->len seq)$" ours.err &&
	added_same_as_perf "$G:m1=handle mylen=r->len peer=r->conn->peer:string" &&
	added_same_as_perf "$G:m2=handle r->conn->fd r->len:u32 seq:x32" &&
	added_same_as_perf "$G:m3=src/app.c:16 c.peer peers[1]:string" &&
	added_same_as_perf "$G:m4=handle r->conn->peer[0] r \$params" &&
	added_same_as_perf "$G:m5=handle +0(%di):u64 %si" &&
	added_same_as_perf "$G:m6=handle%return \$retval"
'

test_expect_success SYSTEM_PERF_PROBE,SDT 'an SDT event is announced by its marker, as perf' '
	build_workload sdtprog sdtprog &&
	test_same_as_system_perf --stderr probe -n -x sdtprog %small &&
	grep -q "(on %small in $TEST_TMP/sdtprog" ours.err &&
	test_same_as_system_perf --stderr probe -n -x sdtprog %foo__bar
'

# 5. -L.
test_expect_success '-L names the file it reads in its header, as perf' '
	test_same_as_system_perf probe -x app -L handle &&
	grep -q "^<handle@$TEST_TMP/src/app.c:0>$" ours &&
	test_same_as_system_perf probe -x app -L src/app.c:5-7 &&
	head -1 ours | grep -q "^<$TEST_TMP/src/app.c:5>$"
'

test_expect_success 'a source file given as ./src/app.c or its absolute path is the one DWARF names src/app.c' '
	test_same_as_system_perf probe -x app -L ./src/app.c:5-7 &&
	test_same_as_system_perf probe -x app -L "$TEST_TMP/src/app.c:5-7" &&
	test_same_as_system_perf probe -x app -D ./src/app.c:7 &&
	test_same_as_system_perf probe -x app -D "$TEST_TMP/src/app.c:7" &&
	grep -q "^p:probe_app/handle " ours
'

test_expect_success '-L of a range without code fails as perf does' '
	test_same_as_system_perf --status probe -x app -L src/app.c:1-2 &&
	test "$_ours" = 161 && ! test -s ours &&
	test_same_as_system_perf --status probe -x app -L src/app.c:100 &&
	test_same_as_system_perf --status probe -x app -L main:20 &&
	test "$_ours" = 254 &&
	test_same_as_system_perf probe -x app -L main:11-12
'

test_expect_success '-L twice: the first one, with perf'"'"'s warning' '
	test_same_as_system_perf --stderr probe -x app -L handle -L main &&
	grep -q "^<handle@" ours
'

# 6. Exit statuses: perf's, 129 for usage errors, 256 - errno otherwise.
test_expect_success 'usage errors exit 129 as perf' '
	test_same_as_system_perf --status probe --bogus &&
	test "$_ours" = 129 &&
	test_same_as_system_perf --status probe -x &&
	test_same_as_system_perf --status probe -x nosuch -F &&
	test "$_ours" = 129 &&
	test_same_as_system_perf --status probe -x app -a "" &&
	test "$_ours" = 129
'

test_expect_success 'failures exit 256 - errno as perf' '
	test_same_as_system_perf --status probe -x app "handle r->" &&
	test "$_ours" = 234 &&
	test_same_as_system_perf --status probe -x app no_such_function &&
	test "$_ours" = 254 &&
	test_same_as_system_perf --status probe -x app -V no_such_function &&
	test_same_as_system_perf --status probe -x app -L no_such_function &&
	test_same_as_system_perf --status probe -x app "handle no_such_var"
'

# perf parses the point of -a and -D as an option (a bad one: 129) and the
# arguments only when the point is found: on a binary with DWARF, without
# DWARF and stripped, each word fails with perf's status (234 or 254).
test_expect_success 'a bad -a/-D argument or late point word: perf'"'"'s status, not 129' '
	${CC:-gcc} -O0 -o nodwarf src/app.c &&
	cp nodwarf stripped && strip stripped &&
	for bin in app nodwarf stripped; do
		for spec in "handle r->" "handle b=c=d" "nosuch r->" "handle:99 r->" \
			"handle r->seq" "handle:1:99" "han-dle" "handle+-1" "handle:-1" \
			"main.c:" "@" "handle:abc" "=handle" "handle%x"; do
			test_same_as_system_perf --status probe -x $bin -D "$spec" &&
			test_same_as_system_perf --status probe -x $bin -n -a "$spec" || return 1
		done
	done &&
	# (perf 6.1 crashes on "ev=" without DWARF)
	test_same_as_system_perf --status probe -x app -D "ev=" &&
	test "$_ours" = 254 &&
	test_same_as_system_perf --status probe -x app -D "handle r->" &&
	test "$_ours" = 234 &&
	grep -q "needs a member name" ours.err &&
	test_same_as_system_perf --status probe -x app -D "handle:abc" &&
	test "$_ours" = 129
'

# Where perf 6.1 wrongly places a bad word (exit 0), we fail, with 256 - errno.
test_expect_success 'what perf 6.1 wrongly lets through fails, not as a usage error' '
	for spec in "handle@" "handle+" "handle;" "handle\\" "handle +" "handle \$foo"; do
		rc=0 && "$PERF" probe -x app -D "$spec" >out 2>err || rc=$?
		case $rc in 234 | 254) ;; *) echo "$spec: $rc" >&2 && return 1 ;; esac
		test_line_count = 2 err && test_line_count = 0 out &&
			test "$(tail -n 1 err)" = "  Error: Failed to add events." || return 1
	done
'

test_expect_success SYSTEM_PERF_PROBE 'an existing event (239) and nothing to delete (254) as perf' '
	test_same_as_system_perf --status probe -x app -a "$G:e1=handle" &&
	test "$_ours" = 239 &&
	test_same_as_system_perf --status probe -d "$G:nothing" &&
	test "$_ours" = 254
'

test_expect_success SYSTEM_PERF_PROBE '-d of an enabled event: 254 as perf, and nothing deleted' '
	"$PERF" probe -q -x app -a "$G:z1=handle" -a "$G:z2=main" &&
	test_when_finished "echo 0 >\"$TRACEFS/events/$G/z1/enable\"" &&
	echo 1 >"$TRACEFS/events/$G/z1/enable" &&
	test_same_as_system_perf --status probe -d "$G:z*" &&
	test "$_ours" = 254 &&
	"$PERF" probe -l "$G:z*" >out &&
	test_line_count = 2 out
'

test_done
