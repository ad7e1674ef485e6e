#!/bin/sh
test_description='perf probe answers bad command lines as perf does: the usage after a parse error, exclusive modes, the trailer of a failed mode, -q, FUNC: and a stripped target'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq GCC || test_skip_all 'needs a compiler'

G=perftest_cli41
test_probe_group $G

test_expect_success 'setup: a -O0 program and a stripped copy' '
	build_workload conn app -g -O0 &&
	cp app stripped && strip stripped
'

test_expect_success SYSTEM_PERF 'the usage is perf'"'"'s, its options sorted as perf sorts them' '
	test_must_fail "$PERF" probe --zzz 2>ours.err &&
	test_must_fail "$SYSTEM_PERF" probe --zzz 2>theirs.err &&
	grep -v -e "--btf" -e "--embed" -e "--export" -e "--import" ours.err >ours1 &&
	test_cmp_file theirs.err ours1
'

for pair in "-a main|-d x" "-l|-F" "-F|-l" "-V main|-L main" "-a main|-D main" \
	"--add=main|--del=x" "--add main|--del x" "--list|--funcs" "-F|--line=main"; do
	test_expect_success SYSTEM_PERF "a second mode ($pair) is refused in perf's words, with the usage of the two" '
		a=${pair%%|*} b=${pair#*|} &&
		# shellcheck disable=SC2086 # the words of the options
		test_same_as_system_perf --stderr --status probe -x app $a $b &&
		test "$_ours" = 129
	'
done

test_expect_success SYSTEM_PERF 'bare words beside another mode: perf'"'"'s "another command except --add"' '
	test_expect_code_is 129 "$PERF" probe -x app -d x main 2>ours.err &&
	test_expect_code_is 129 "$SYSTEM_PERF" probe -x app -d x main 2>theirs.err &&
	grep -v -e "--btf" -e "--embed" -e "--export" -e "--import" ours.err >ours1 &&
	test_cmp_file theirs.err ours1
'

test_expect_success SYSTEM_PERF 'a spec of -D or -V that does not parse prints the usage (129)' '
	test_must_fail "$PERF" probe -x app -D "main:x" 2>err &&
	head -n 1 err | grep -q "^Semantic error :There is non-digit char in line number" &&
	sed -n 3p err | grep -q "^ Usage: perf probe" &&
	test_expect_code_is 129 "$PERF" probe -x app -V "main:x" &&
	test_expect_code_is 129 "$PERF" probe -x app -L "main:x"
'

test_expect_success 'bare words that do not parse: perf'"'"'s "Command Parse Error." (234)' '
	test_expect_code_is 234 "$PERF" probe -x app "main:x" 2>err &&
	test "$(tail -n 1 err)" = "  Error: Command Parse Error."
'

test_expect_success 'a failed mode ends with perf'"'"'s trailer, with the reason under -v' '
	test_must_fail "$PERF" probe -x app -D nosuch 2>err &&
	test "$(tail -n 1 err)" = "  Error: Failed to add events." &&
	test_must_fail "$PERF" probe -x app -V nosuch 2>err &&
	test "$(tail -n 1 err)" = "  Error: Failed to show vars." &&
	test_must_fail "$PERF" probe -x app -L nosuch 2>err &&
	test "$(tail -n 1 err)" = "  Error: Failed to show lines." &&
	test_must_fail "$PERF" probe -d "$G:nosuch" 2>err &&
	test "$(tail -n 1 err)" = "  Error: Failed to delete events." &&
	test_must_fail "$PERF" probe -v -x app -D nosuch 2>err &&
	test "$(tail -n 1 err)" = "  Error: Failed to add events. Reason: No such file or directory (Code: -2)"
'

test_expect_success ROOT,TRACEFS '-q: a failed --add and --del print nothing at all (perf 6.12)' '
	test_expect_code_is 254 "$PERF" probe -q -x app -a "$G:e=nosuch" >out 2>err &&
	test_line_count = 0 out && test_line_count = 0 err &&
	test_expect_code_is 254 "$PERF" probe -q -d "$G:nosuch" >out 2>err &&
	test_line_count = 0 out && test_line_count = 0 err &&
	"$PERF" probe -q -x app -a "$G:e=handle" >out 2>err &&
	test_line_count = 0 out && test_line_count = 0 err &&
	"$PERF" probe -q -d "$G:e" >out 2>err &&
	test_line_count = 0 out && test_line_count = 0 err
'

test_expect_success SYSTEM_PERF '-q -D, -V, -L of nothing: nothing printed, as perf 6.1 and 6.12' '
	for m in -D -V -L; do
		test_same_as_system_perf --stderr --status probe -q -x app $m nosuch &&
		test_line_count = 0 ours.err || return 1
	done
'

test_expect_success SYSTEM_PERF_PROBE '-v prints perf'"'"'s lines for the steps there are here, in its order' '
	test_same_as_system_perf probe -v -x app -D "handle r->len" &&
	grep -q "^probe-definition(0): handle r->len$" ours.err &&
	grep -q "^symbol:handle file:(null) line:0 offset:0 return:0 lazy:(null)$" ours.err &&
	grep -q "^Found 1 probe_trace_events.$" ours.err &&
	grep -q "^Probe point found: handle+11$" ours.err &&
	{ grep -vxF -f theirs.err ours.err >extra; test_line_count = 0 extra; } &&
	grep -xF -f ours.err theirs.err | grep -v "^$" >common &&
	grep -vxF -e "" ours.err >ours1 && test_cmp_file ours1 common
'

test_expect_success SYSTEM_PERF '-q with -v is refused as perf refuses it (234)' '
	test_expect_code_is 234 "$PERF" probe -q -v -x app -D main 2>err &&
	grep -q "^  Error: -v and -q are exclusive.$" err
'

test_expect_success SYSTEM_PERF_PROBE 'FUNC: (an empty line number) is FUNC, as scripts building FUNC:$line expect' '
	test_same_as_system_perf probe -x app -D "handle:" &&
	test_same_as_system_perf probe -x app -D "main:" &&
	grep -q "^p:probe_app/main " ours &&
	test_same_as_system_perf probe -x app -D "main:%return"
'

test_expect_success SYSTEM_PERF 'SRC: still needs a line, a lone colon is no spec' '
	test_expect_code_is 129 "$PERF" probe -x app -D "conn.c:" 2>err &&
	grep -q "^Semantic error :File always requires line number or lazy pattern" err &&
	test_must_fail "$PERF" probe -x app -D ":"
'

test_expect_success SYSTEM_PERF 'a stripped target: perf'"'"'s lines and statuses' '
	test_same_as_system_perf --stderr --status probe -x stripped -D main &&
	test_same_as_system_perf --stderr --status probe -x stripped -F &&
	test_same_as_system_perf --stderr --status probe -x stripped -V main &&
	test_same_as_system_perf --stderr --status probe -x stripped -L main
'

test_expect_success SYSTEM_PERF 'a line at the function'"'"'s entry: perf refuses it (254), ours places it there with a warning, as gdb' '
	test_expect_code_is 254 "$SYSTEM_PERF" probe -x app -D handle:1 2>theirs.err &&
	grep -q "sharing the address with other lines" theirs.err &&
	"$PERF" probe -x app -D handle:1 >out 2>err &&
	grep -q "^Warning: handle:1 is the entry of its function (0x[0-9a-f]*)" err &&
	off=$(sed -n "s/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\)\$/\1/p" out) &&
	test -n "$off" &&
	"$PERF" probe -x app -D handle >entry &&
	grep -q ":$off\$" entry
'

test_expect_success SYSTEM_PERF 'a variable no scope has: perf'"'"'s "at this address" first' '
	test_must_fail "$PERF" probe -x app -D "handle nosuch" 2>err &&
	grep -q "^Failed to find the location of the .nosuch. variable at this address: handle has no local" err
'

test_expect_success SYSTEM_PERF 'a function DWARF lacks (the C runtime'"'"'s frame_dummy): perf'"'"'s words' '
	test_same_as_system_perf --stderr --status probe -x app -D frame_dummy:1 &&
	grep -q "^Failed to find debug information for address " ours.err &&
	test_same_as_system_perf --stderr --status probe -x app -V frame_dummy &&
	test "$_ours" = 234 &&
	test_same_as_system_perf --stderr --status probe -x app -V nosuch &&
	"$PERF" probe -x app -D frame_dummy >out &&
	grep -q "^p:probe_app/frame_dummy " out
'

test_expect_success 'a source line without code says where the next code is' '
	build_workload bad bad -g -O0 &&
	test_expect_code_is 254 "$PERF" probe -x bad -D bad.c:6 2>err &&
	grep -q "^Probe point .bad.c:6. not found: line 6 has no code of its own, the next line with code is 7 (bad.c:7)\.$" err
'

test_done
