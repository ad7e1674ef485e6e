#!/bin/sh
test_description='Go: FUNC%return is plain probes on the return instructions, never a uretprobe'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_goret
test_probe_group $G
test_probe_group ${G}_n
test_probe_group ${G}_c
test_probe_group ${G}_sys
test_trace_instance $G
test_trace_instance ${G}_n
test_trace_instance ${G}_sys

# What go-ret prints with 64 goroutines of 200 calls each (its defaults).
SUM='calls=12800 sum=105457301 neg=1828'

# A GNU build-id of their own (Go 1.19 writes none): the probe cache needs one.
BID_O=0x60e7e70000000000000000000000000000000001
BID_N=0x60e7e70000000000000000000000000000000002

# rets BIN FUNC: the addresses of FUNC's return instructions, as objdump
# disassembles them (0x..., one a line).
rets() {
	_a=$(nm "$1" | awk -v f="$2" '$3 == f { print "0x" $1 }')
	_s=$(nm -S "$1" | awk -v f="$2" '$4 == f { print "0x" $2 }')
	objdump -d --start-address="$_a" --stop-address=$((_a + _s)) "$1" |
		awk 'NF >= 3 && ($NF == "ret" || $(NF - 1) == "ret") { sub(":", "", $1); print "0x" $1 }'
}

# vaddrs BIN FILE: the file offsets of the probe lines in FILE as BIN's
# addresses (Go's text segment is at 0x400000, file offset 0).
vaddrs() {
	sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\) .*/\1/p' "$2" | while read -r o; do
		printf '0x%x\n' $((o + 0x400000))
	done
}

# run_traced GROUP BIN ARGS...: BIN run with GROUP's events enabled in
# GROUP's trace instance: its output in ./run, its exit status in ./rc,
# the trace in ./trace, the hits in ./hits, the sum and
# count of negative arg1 values in ./sum.
run_traced() {
	_ti=$TRACEFS/instances/$1 _g=$1 _bin=$2
	shift 2
	echo 8192 >"$_ti/buffer_size_kb" && echo >"$_ti/trace" &&
		echo 1 >"$_ti/events/$_g/enable" &&
		{
			"$_bin" "$@" >run 2>runerr
			echo $? >rc
		} &&
		echo 0 >"$_ti/events/$_g/enable" &&
		cat "$_ti/trace" >trace &&
		grep -c '__return: (' trace >hits
	awk '/__return: \(/ { for (i = 1; i <= NF; i++) if ($i ~ /^arg1=/) {
		v = substr($i, 6) + 0; s += v; if (v < 0) k++ } }
		END { printf "sum=%d neg=%d\n", s, k }' trace >sum
	cat run rc hits sum
	head -c 2000 runerr
}

# The programs, built once at the top (a case runs in a subshell).
if test_have_prereq GO &&
	build_workload go-ret gr -ldflags=-B=$BID_O &&
	build_workload go-ret grn "-gcflags=all=-N -l" -ldflags=-B=$BID_N &&
	build_workload go-ret grw -ldflags=-w; then
	test_set_prereq GOBIN
fi
if test_have_prereq GOBIN && GOARCH=arm64 build_workload go-ret gra 2>/dev/null; then
	test_set_prereq GO_ARM64
fi

test_expect_success GOBIN 'setup: go-ret as go builds it, with -N -l, without DWARF' '
	./gr >run && echo "$SUM" >expect && test_cmp_file expect run &&
	./grn >run && test_cmp_file expect run &&
	./gr 1 1 once >run && echo "step(35)=-35" >expect && test_cmp_file expect run &&
	readelf -S gr | grep -q " .note.go.buildid " &&
	readelf --debug-dump=info gr | grep -q "DW_AT_producer *: Go cmd/compile" &&
	readelf --debug-dump=info grn | grep -q "DW_AT_producer *: Go cmd/compile" &&
	! readelf -S grw | grep -q " .debug_info "
'

for v in gr grn; do
	test_expect_success GOBIN "$v: -D is one p: line per return instruction, one return event, \$retval in %ax typed from ~r0" "
		\"\$PERF\" probe -x $v -D 'main.step%return \$retval' >out 2>err &&
		cat out err && test_line_count = 0 err &&
		rets $v main.step >want && cat want && test_line_count -ge 5 want &&
		vaddrs $v out >got && test_cmp_file want got &&
		! grep -v '^p:probe_$v/[a-z_]*__return $TEST_TMP/$v:0x[0-9a-f]* %ax:s64\$' out &&
		test \$(cut -d' ' -f1 out | sort -u | wc -l) -eq 1
	"
done

test_expect_success GOBIN 'without DWARF the Go sections tell: the same places, $retval untyped' '
	"$PERF" probe -x grw -D "main.step%return \$retval" >out 2>err &&
	cat out err && test_line_count = 0 err &&
	rets grw main.step >want && vaddrs grw out >got && test_cmp_file want got &&
	! grep -v "^p:probe_grw/[a-z_]*__return $TEST_TMP/grw:0x[0-9a-f]* %ax\$" out
'

test_expect_success GO_ARM64 'arm64: one p: line per RET (d65f03c0), $retval in %x0' '
	"$PERF" probe -x gra -D "main.step%return \$retval" >out 2>err &&
	cat out err && test_line_count -ge 5 out &&
	! grep -v "^p:probe_gra/[a-z_]*__return $TEST_TMP/gra:0x[0-9a-f]* %x0:s64\$" out &&
	sed -n "s/^p:[^ ]* [^ ]*:\\(0x[0-9a-f]*\\) .*/\\1/p" out | while read -r o; do
		test "$(od -An -tx4 -j $((o)) -N4 gra | tr -d " ")" = d65f03c0 || exit 1
	done
'

test_expect_success GOBIN '-n and a frame variable: announced as one event; x is refused with one line' '
	"$PERF" probe -n -x gr -a "$G:step=main.step%return \$retval" 2>err && cat err &&
	test "$(grep -c "^  $G:step__return (on main.step%return in $TEST_TMP/gr with \$retval)\$" err)" -eq "$(rets gr main.step | wc -l)" &&
	test_refuses --tracefs "$PERF" probe -x gr -a "$G:step=main.step%return x" &&
	grep -q "^Semantic error: .x. needs main.step.s frame, which is gone at its return instructions" err &&
	test_refuses --tracefs "$PERF" probe -x gr -a "$G:step=main.step%return \$params" &&
	grep -q "^Semantic error: .\$params. needs main.step.s frame" err
'

test_expect_success GOBIN 'registers, their dereferences and $comm are fetched as written; a :TYPE is kept' '
	"$PERF" probe -x gr -D "main.step%return \$retval:u32 %bx +8(%sp):x64 \$comm r=\$retval" >out &&
	cat out && test_line_count = "$(rets gr main.step | wc -l)" out &&
	! grep -v " %ax:u32 %bx +8(%sp):x64 \$comm r=%ax:s64\$" out
'

test_expect_success GOBIN '--max-probes counts the return instructions' '
	test_refuses "$PERF" probe --max-probes 3 -x gr -D "main.step%return" &&
	grep -q "^Error: Too many (5) probe points found for the returns; the limit is 3 (--max-probes)\.\$" err &&
	"$PERF" probe --max-probes 5 -x gr -D "main.step%return" >out && test_line_count = 5 out
'

# Go's assembler entry _rt0_amd64_linux is one JMP to _rt0_amd64: no
# return of its own, and a tail jump is not one (its result is the callee's).
test_expect_success GOBIN 'a function of only a tail jump is refused with one line' '
	test_refuses --tracefs "$PERF" probe -x gr -a "$G:rt0=_rt0_amd64_linux%return" &&
	grep -q "^Error: _rt0_amd64_linux%return: _rt0_amd64_linux has no return instruction, only 1 tail jump(s) out of it (the first at 0x[0-9a-f]*): probe the function it jumps to\$" err
'

test_expect_success GOBIN,GCC 'a C function%return is still the kernel return probe' '
	build_workload live-prog cprog -g -O1 &&
	"$PERF" probe -x cprog -D "work%return \$retval" >out && cat out &&
	grep -q "^r:probe_cprog/work__return $TEST_TMP/cprog:0x[0-9a-f]* \$retval\$" out &&
	test_line_count = 1 out
'

for v in gr grn; do
	case $v in
	gr) g=$G ;;
	*) g=${G}_n ;;
	esac
	test_expect_success GOBIN,ROOT,TRACEFS "$v live: 64 goroutines growing their stacks run to the end, every return traced with its value" "
		test_when_finished 'remove_probe_group $g' &&
		\"\$PERF\" probe -q -x $v -a '$g:step=main.step%return \$retval' &&
		grep '^p:$g/step__return ' \"\$TRACEFS/uprobe_events\" >ev && cat ev &&
		test \$(wc -l <ev) -eq \$(rets $v main.step | wc -l) &&
		! grep -q '^r:$g/' \"\$TRACEFS/uprobe_events\" &&
		run_traced $g ./$v &&
		test \"\$(cat rc)\" = 0 && echo '$SUM' >expect && test_cmp_file expect run &&
		test \"\$(cat hits)\" -eq 12800 &&
		echo 'sum=105457301 neg=1828' >expect && test_cmp_file expect sum
	"
done

test_expect_success GOBIN,GDB,ROOT,TRACEFS 'the traced $retval is what gdb sees in RAX at that return' '
	test_when_finished "remove_probe_group $G" &&
	"$PERF" probe -q -x gr -a "$G:step=main.step%return \$retval" &&
	run_traced $G ./gr 1 1 once &&
	test "$(cat hits)" -eq 1 &&
	addr=$(sed -n "s/.* step__return: (\\(0x[0-9a-f]*\\)) .*/\\1/p" trace) &&
	val=$(sed -n "s/.* step__return: .* arg1=\\(-*[0-9]*\\)\$/\\1/p" trace) &&
	echo "$addr $val" && test "$val" = -35 &&
	rets gr main.step | grep -qx "$addr" &&
	gdb -batch -ex "break *$addr" -ex run -ex "print \$rax" --args ./gr 1 1 once >gdb 2>&1 &&
	sed -n "s/^\\\$1 = //p" gdb >gv && cat gv && test "$(cat gv)" = "$val"
'

test_expect_success GOBIN 'the probe cache: the DWARF build stores the p: lines, its stripped copy is served them' '
	"$PERF" probe -x gr --cache -D "main.step%return \$retval" >want &&
	"$PERF" probe -x gr --cache -n -a "main.step%return \$retval" 2>/dev/null &&
	cat "$(probes_file gr)" &&
	grep -qxF "#main.step%return \$retval" "$(probes_file gr)" &&
	sed -n "s|^p:\\([^ ]*\\) $TEST_TMP/gr:|p:\\1 X:|p" "$(probes_file gr)" >cached &&
	cp gr s && strip s && ! readelf -S s | grep -q " .debug_info " &&
	test "$(build_id_of s)" = "$(build_id_of gr)" &&
	readelf -S s | grep -q " .note.go.buildid " &&
	"$PERF" probe -v -x s -D "main.step%return \$retval" >out 2>err && cat out &&
	grep -q "places from the probe cache" err &&
	sed "s|^p:probe_s/\\([^ ]*\\) $TEST_TMP/s:|p:probe_gr/\\1 X:|" out >got &&
	test_cmp_file cached got &&
	sed "s| $TEST_TMP/gr:| X:|" want >want2 && test_cmp_file want2 got
'

test_expect_success GOBIN,ROOT,TRACEFS 'the cached lines on the stripped copy fire live too' '
	test_when_finished "remove_probe_group $G" &&
	cp gr s2 && strip s2 &&
	"$PERF" probe -x gr --cache -n -a "$G:step=main.step%return \$retval" 2>/dev/null &&
	"$PERF" probe -q -x s2 -a "$G:step=main.step%return \$retval" &&
	run_traced $G ./s2 8 50 &&
	test "$(cat rc)" = 0 && test "$(cat hits)" -eq 400
'

# perf 6.1 writes a uretprobe: the Go runtime finds the trampoline's
# address where step's return address was, and dies.
test_expect_success GOBIN,SYSTEM_PERF_PROBE 'the system perf puts a uretprobe there, and the program dies of it' '
	test_when_finished "remove_probe_group ${G}_sys" &&
	"$SYSTEM_PERF" probe -q -x gr -a "${G}_sys:goret_sys=main.step%return \$retval" &&
	grep "^r:${G}_sys/goret_sys__return " "$TRACEFS/uprobe_events" &&
	run_traced ${G}_sys timeout 120 ./gr ;
	test "$(cat rc)" -ne 0 && test "$(cat rc)" -ne 124 &&
	grep -q "unexpected return pc for main.step" runerr
'

test_done
