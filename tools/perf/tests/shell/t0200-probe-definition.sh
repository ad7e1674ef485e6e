#!/bin/sh
test_description='perf probe -D prints the same definitions as the system perf for symbol-only specs'
. "$(dirname "$0")/lib.sh"

cat >prog.c <<'SRC'
#include <stdio.h>
int counter;
__attribute__((noinline)) int work(int a, int b) { return a * b + counter++; }
__attribute__((noinline)) int other(int a) { return work(a, a + 1); }
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += other(i); printf("%d\n", s); return 0; }
SRC
cat >lib.c <<'SRC'
__attribute__((noinline)) int lib_entry(int x) { return x * 3; }
int lib_other(int y) { return lib_entry(y) + 1; }
SRC

test_expect_success 'setup: executables, a PIE, a shared library' '
	build_prog "$TEST_TMP/exe" prog.c -O1 -no-pie &&
	strip -g "$TEST_TMP/exe" &&
	build_prog "$TEST_TMP/pie" prog.c -O1 -pie -fPIE &&
	strip -g "$TEST_TMP/pie" &&
	build_prog "$TEST_TMP/libt.so" lib.c -O1 -shared -fPIC &&
	strip -g "$TEST_TMP/libt.so" &&
	build_prog "$TEST_TMP/my-prog.v2" prog.c -O1 &&
	strip -g "$TEST_TMP/my-prog.v2"
'

# compare BIN SPEC...: our -D output equals the system perf's.
compare() {
	bin=$1
	shift
	"$PERF" probe -x "$bin" -D "$@" >ours 2>ours.err || { cat ours.err; return 1; }
	if have_system_perf; then
		"$SYSTEM_PERF" probe -x "$bin" -D "$@" >theirs 2>/dev/null &&
		diff -u theirs ours
	else
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
	! grep -q "$TEST_TMP" /sys/kernel/tracing/uprobe_events 2>/dev/null
'

test_done
