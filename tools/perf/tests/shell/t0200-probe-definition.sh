#!/bin/sh
test_description='perf probe -D prints the same definitions as the system perf for symbol-only specs'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: executables, a PIE, a shared library' '
	build_workload counter "$TEST_TMP/exe" -O1 -no-pie &&
	strip -g "$TEST_TMP/exe" &&
	build_workload counter "$TEST_TMP/pie" -O1 -pie -fPIE &&
	strip -g "$TEST_TMP/pie" &&
	build_workload lib-entry "$TEST_TMP/libt.so" -O1 -shared -fPIC &&
	strip -g "$TEST_TMP/libt.so" &&
	build_workload counter "$TEST_TMP/my-prog.v2" -O1 &&
	strip -g "$TEST_TMP/my-prog.v2"
'

# compare BIN SPEC...: our -D output equals the system perf's.
compare() {
	bin=$1
	shift
	if test_have_prereq SYSTEM_PERF_PROBE; then
		test_same_as_system_perf probe -x "$bin" -D "$@"
	else
		"$PERF" probe -x "$bin" -D "$@" >ours 2>ours.err || { cat ours.err; return 1; }
		test -s ours
	fi
}

for bin in exe pie libt.so my-prog.v2; do
	case $bin in
	libt.so) f=lib_entry ;;
	*) f=work ;;
	esac
	test_expect_success "$bin: a function entry" "compare \"\$TEST_TMP/$bin\" $f"
	test_expect_success "$bin: a function with an offset" "compare \"\$TEST_TMP/$bin\" $f+4"
	test_expect_success "$bin: a return probe with \$retval" "compare \"\$TEST_TMP/$bin\" '$f%return \$retval'"
	test_expect_success "$bin: a named event in a named group with raw fetchargs" \
		"compare \"\$TEST_TMP/$bin\" 'grp:ev=$f %di x=%si:u32 +0(%di):s32 \$comm'"
	test_expect_success "$bin: a named return event gets __return appended, as perf does" \
		"compare \"\$TEST_TMP/$bin\" 'myev=$f%return \$retval'"
done

test_expect_success 'the default group comes from the basename up to the first non-identifier character' '
	"$PERF" probe -x "$TEST_TMP/my-prog.v2" -D work >out &&
	grep -q "^p:probe_my/work " out
'

test_expect_success 'an absolute address in a PIE becomes the event abs_<addr>, as perf does' '
	addr=$(nm "$TEST_TMP/pie" | awk "\$3 == \"work\" { print \$1 }" | sed "s/^0*//") &&
	compare "$TEST_TMP/pie" "0x$addr"
'

# perf 6.1 writes 0xADDR unconverted as the file offset, which misses in a
# non-PIE executable; we convert the address through the program headers.
test_expect_success 'an absolute address in a non-PIE executable is converted to its file offset' '
	addr=$(nm "$TEST_TMP/exe" | awk "\$3 == \"work\" { print \$1 }" | sed "s/^0*//") &&
	"$PERF" probe -x "$TEST_TMP/exe" -D "0x$addr" >ours &&
	"$PERF" probe -x "$TEST_TMP/exe" -D work >entry &&
	off=$(sed "s/.*://" entry) &&
	echo "p:probe_exe/abs_$addr $TEST_TMP/exe:$off" >expect &&
	test_cmp_file expect ours
'

test_expect_success 'several -D print one line each, in order' '
	compare "$TEST_TMP/exe" work -D "other%return"
'

test_expect_success 'a fully stripped shared library resolves through .dynsym' '
	cp "$TEST_TMP/libt.so" libs.so && strip libs.so &&
	compare "$TEST_TMP/libs.so" lib_other
'

test_expect_success '-D writes nothing to tracefs' '
	"$PERF" probe -x "$TEST_TMP/exe" -D work >/dev/null &&
	! grep -q "$TEST_TMP" "$TRACEFS/uprobe_events" 2>/dev/null
'

test_done
