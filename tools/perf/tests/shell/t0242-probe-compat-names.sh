#!/bin/sh
test_description='perf probe names and lists as perf does: --cache filters on event names, C++ and Rust event names, -V types, $vars without a va_list, -F without imports, PERF_CONFIG=/dev/null; perf list -j/--raw-dump, perf check, buildid-list -H'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq GCC || test_skip_all 'needs a compiler'

test_expect_success 'setup: C, varargs and C++ programs' '
	build_workload conn app -g -O0 &&
	build_workload varargs va -g -O0 &&
	build_workload varargs va2 -g -O2 &&
	{ ! test_have_prereq CXX || build_workload cxx-shop cxx -g -O0; }
'

test_expect_success '--cache -l/-d FILTER match the event name: exact, A|B, !A, globs' '
	"$PERF" probe -x app --cache -n -q -a "g41:h=handle" -a "g41:m=main" -a handle &&
	"$PERF" probe --cache -l "g41:h" | tail -n +2 >out &&
	echo "g41:h=handle" >want && test_cmp_file want out &&
	"$PERF" probe --cache -l "g41:h|g41:m" | tail -n +2 >out &&
	printf "g41:h=handle\ng41:m=main\n" >want && test_cmp_file want out &&
	"$PERF" probe --cache -l "!g41:h" | tail -n +2 >out &&
	printf "g41:m=main\nhandle\n" >want && test_cmp_file want out &&
	"$PERF" probe --cache -l "*:m" | tail -n +2 >out &&
	echo "g41:m=main" >want && test_cmp_file want out &&
	"$PERF" probe --cache -l "handle" | tail -n +2 >out &&
	echo "handle" >want && test_cmp_file want out &&
	"$PERF" probe --cache -d "g41:h|handle" 2>err &&
	"$PERF" probe --cache -l | tail -n +2 >out &&
	echo "g41:m=main" >want && test_cmp_file want out
'

test_expect_success SYSTEM_PERF '--cache -l FILTER lists what the system perf lists' '
	"$PERF" probe -x app --cache -n -q -a "g41:h=handle" &&
	test_same_as_system_perf probe --cache -l "g41:h|g41:m" &&
	test_same_as_system_perf probe --cache -l "!g41:h" &&
	test_same_as_system_perf probe --cache -l "g41:*"
'

test_expect_success CXX 'a glob names the event by the function'"'"'s own name, as perf' '
	"$PERF" probe -x cxx -D "*deep*" >out &&
	grep -q "^p:probe_cxx/depth " out &&
	"$PERF" probe -x cxx -D "*helper*" >out &&
	grep -q "^p:probe_cxx/helper " out &&
	"$PERF" probe -x cxx -D "shop::deep::inner::depth" >out &&
	grep -q "^p:probe_cxx/shop_deep_inner_depth " out
'

test_expect_success RUSTC 'a Rust source line names the event by its function, a closure by ours' '
	build_workload rust-app rs -g -C opt-level=0 &&
	"$PERF" probe -x rs -D "rust-app.rs:19" >out &&
	grep -q "^p:probe_rs/handle " out &&
	"$PERF" probe -x rs -D "rust-app.rs:13" >out &&
	grep -q "^p:probe_rs/greet " out &&
	"$PERF" probe -x rs -D "rust-app.rs:42" >out &&
	grep -q "^p:probe_rs/rust_app_main_closure " out
'

test_expect_success SYSTEM_PERF_PROBE 'C++ glob names are the system perf'"'"'s' '
	test_have_prereq CXX || exit 0
	test_same_as_system_perf probe -x cxx -D "*deep*"
'

test_expect_success '-V types as perf 6.12: void*, char[]' '
	"$PERF" probe -x va -V show >out &&
	grep -q "^		void\*	cookie$" out &&
	grep -q "^		void\*	where$" out &&
	grep -q "^		char\[\]	tag$" out
'

test_expect_success SYSTEM_PERF_PROBE '$vars leaves a va_list out, and keeps the rest as perf' '
	"$PERF" probe -x va -D "sum_all \$vars" >out 2>/dev/null &&
	! grep -q "ap=" out && grep -q " count=-212(%bp):s32 total=-180(%bp):s32$" out &&
	"$PERF" probe -x va2 -D "sum_all \$vars" >out &&
	! grep -q "ap=" out &&
	"$PERF" probe -x va2 -D "sum_all ap" >out &&
	grep -q " ap=" out
'

test_expect_success CXX '-F hides imports (operator delete@plt) as perf'"'"'s default filter does' '
	cat >del.cc <<-\EOS &&
	int main(int argc, char **argv) { int *p = new int(argc); int r = *p; delete p; return r == 7; }
	EOS
	$CXX -g -O0 -o del del.cc &&
	"$PERF" probe -x del -F "operator*" >out &&
	grep -q "^operator delete@plt$" out && ! grep -qx "operator delete" out &&
	"$PERF" probe -x del -F >out &&
	! grep -q "operator" out
'

test_expect_success SYSTEM_PERF 'PERF_CONFIG=/dev/null is an empty config, /dev/zero still refused' '
	PERF_CONFIG=/dev/null "$PERF" probe -x app -D main >out &&
	grep -q "^p:probe_app/main " out &&
	PERF_CONFIG=/dev/null "$PERF" buildid-cache -l &&
	PERF_CONFIG=/dev/zero test_refuses "$PERF" buildid-cache -l
'

test_expect_success 'perf list --raw-dump sdt and -j -o FILE' '
	"$PERF" buildid-cache -a app &&
	"$PERF" list --raw-dump sdt >out &&
	"$PERF" list -j -o list.json tracepoint &&
	head -n 2 list.json >head && printf "[\n{\n" >want && test_cmp_file want head &&
	tail -n 2 list.json >tail && printf "}\n]\n" >want && test_cmp_file want tail
'

test_expect_success TRACEFS '--raw-dump tracepoint is the names, each followed by a space' '
	"$PERF" list --raw-dump tracepoint >out &&
	test "$(tail -c 1 out)" = " " &&
	tr " " "\n" <out | grep -q "^[a-z0-9_]*:[a-z0-9_]*$"
'

test_expect_success 'perf check feature: ours, in perf 6.12'"'"'s words' '
	"$PERF" check feature dwarf >out &&
	echo "                 dwarf: [ on  ]  # HAVE_DWARF_SUPPORT" >want && test_cmp_file want out &&
	"$PERF" check feature dwarf,libelf >out && test_line_count = 2 out &&
	test_expect_code_is 1 "$PERF" check feature libpfm4 &&
	test_expect_code_is 1 "$PERF" check feature nosuch >out &&
	grep -q "^Unknown feature .nosuch." out &&
	"$PERF" check -q feature dwarf >out && test_line_count = 0 out &&
	test_expect_code_is 129 "$PERF" check 2>/dev/null
'

test_expect_success SYSTEM_PERF 'buildid-list -H of an ELF file is its build-id, as perf' '
	test_same_as_system_perf buildid-list -H -i app &&
	test "$(cat ours)" = "$(build_id_of app)"
'

test_expect_success ROOT,TRACEFS 'kernel probes from another kernel'"'"'s vmlinux are refused, as perf refuses them' '
	build_workload fake-vmlinux vmlinux -O0 -nostdlib -static -Wl,--build-id &&
	test "$(build_id_of vmlinux)" != "$("$PERF" buildid-list -k)" &&
	test_expect_code_is 254 "$PERF" probe -k "$TEST_TMP/vmlinux" -n -a do_sys_open 2>err &&
	grep -q "^Error: $TEST_TMP/vmlinux is not the running kernel.s vmlinux: its build-id is $(build_id_of vmlinux), the kernel.s " err &&
	test "$(tail -n 1 err)" = "  Error: Failed to add events." &&
	"$PERF" probe -k "$TEST_TMP/vmlinux" -D do_sys_open >out &&
	grep -q "^p:probe/do_sys_open " out &&
	"$PERF" probe --cache -n -q -k "$TEST_TMP/vmlinux" -a do_sys_open
'

test_done
