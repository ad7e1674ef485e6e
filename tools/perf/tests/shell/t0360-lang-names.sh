#!/bin/sh
test_description='C++, Rust and Go functions by their source-level names'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_names
test_probe_group $G
test_trace_instance $G

# Each program is built once: C++ by g++ and clang++ at -O0 and -O2, Rust
# at opt-level 0 and 2, Go as built by default and with -N -l.
test_expect_success CXX 'build the C++ programs' '
	build_workload cxx-shop shop_gxx_O0 -g -O0 &&
	build_workload cxx-shop shop_gxx_O2 -g -O2 &&
	build_workload cxx-shop shop_nodwarf -O0
'
test_have_prereq CXX && [ -x shop_gxx_O0 ] && test_set_prereq SHOP
test_expect_success CLANGXX 'build the clang++ programs' '
	CXX=clang++ build_workload cxx-shop shop_clang_O0 -g -O0 &&
	CXX=clang++ build_workload cxx-shop shop_clang_O2 -g -O2
'
test_expect_success RUSTC 'build the Rust programs' '
	build_workload rust-app rapp0 -g -C opt-level=0 &&
	build_workload rust-app rapp2 -g -C opt-level=2
'
test_expect_success GO 'build the Go programs' '
	build_workload go-server gsrv &&
	build_workload go-server gsrv_N "-gcflags=all=-N -l"
'

# defs BIN SPEC...: -D of each SPEC into "defs", event names into "names".
defs() {
	_b=$1
	shift
	: >defs
	for _s; do
		"$PERF" probe -x "$_b" -D "$_s" >>defs 2>/dev/null || return 1
	done
	cat defs && sed 's/^p:[^/]*\/\([^ ]*\) .*/\1/' defs >names
}

# sym BIN PATTERN: the address of the first symbol matching PATTERN (awk).
sym() {
	nm "$1" | awk -v p="$2" '$3 ~ p { print "0x" $1; exit }'
}

for b in shop_gxx_O0 shop_gxx_O2 shop_clang_O0 shop_clang_O2; do
	test_expect_success "$b: a C++ name is every overload, one event name" "
		[ -x $b ] || exit 0
		defs $b 'shop::Cart::add' && test_line_count = 2 defs &&
		test \"\$(sort -u names)\" = shop_Cart_add &&
		test \$(sort -u defs | wc -l) = 2
	"
	test_expect_success "$b: one overload by its signature, escapes and quotes" "
		[ -x $b ] || exit 0
		defs $b 'shop::Cart::add(int)' && test_line_count = 1 defs && mv defs one &&
		defs $b 'shop\\:\\:Cart\\:\\:add(int, int)' && test_line_count = 1 defs &&
		! cmp -s one defs && mv defs two &&
		defs $b '\"shop::Cart::add(int,int)\"' && test_cmp_file two defs &&
		defs $b 'shop::Cart::add( int ,int )' && test_cmp_file two defs &&
		defs $b 'shop::Cart::add' && sort defs >all && sort one two >both &&
		test_cmp_file both all
	"
	test_expect_success "$b: templates, nested and anonymous namespaces, globs" "
		[ -x $b ] || exit 0
		defs $b 'shop::Cart::scale<long>' 'shop::deep::inner::depth' \
			'(anonymous namespace)::helper' &&
		printf '%s\n' shop_Cart_scale_long shop_deep_inner_depth \
			anonymous_namespace_helper >want && test_cmp_file want names &&
		defs $b 'shop::Cart::*' && grep -q '/shop_Cart_add ' defs &&
		grep -q '/shop_Cart_scale_long ' defs && grep -q '/shop_Cart_scale_double ' defs &&
		! grep -q depth defs
	"
	test_expect_success "$b: a name too long for an event is cut and hashed" "
		[ -x $b ] || exit 0
		defs $b 'a_rather_long_namespace_name::AnotherRatherLongClassName::a_long_method_name' &&
		n=\$(cat names) && test \${#n} -le 64 &&
		echo \"\$n\" | grep -q '^a_rather_long_namespace_name_[A-Za-z_]*_[0-9a-f]\\{8\\}\$'
	"
done

test_expect_success SHOP 'a mangled name works as before, with its own event name' '
	defs shop_gxx_O0 _ZN4shop4Cart3addEi && test_line_count = 1 defs &&
	test "$(cat names)" = _ZN4shop4Cart3addEi
'

test_expect_success SHOP 'without DWARF the symbol table resolves the same names' '
	! readelf -S shop_nodwarf | grep -q debug_info &&
	defs shop_nodwarf "shop::Cart::add" && test_line_count = 2 defs &&
	test "$(sort -u names)" = shop_Cart_add &&
	defs shop_nodwarf "shop::Cart::add(int)" && test_line_count = 1 defs &&
	a=$(sym shop_nodwarf "^_ZN4shop4Cart3addEi\$") &&
	grep -q ":$(printf "0x%x" $((a)))\$" defs &&
	defs shop_nodwarf "(anonymous namespace)::helper" "shop::Cart::scale<long>" &&
	printf "%s\n" anonymous_namespace_helper shop_Cart_scale_long >want &&
	test_cmp_file want names
'

test_expect_success SHOP 'bad names: one line, perf status, nothing placed' '
	for s in "shop::Cart::add(char)" "shop::nope" "shop::Cart::*x*"; do
		"$PERF" probe -x shop_gxx_O0 -D "$s" >out 2>err
		st=$?
		cat err && test $st = 254 && test_line_count = 0 out &&
		test_error_lines err && test_line_count = 1 err1 || exit 1
	done &&
	for s in "\"shop::Cart::add" "shop::Cart::add(int" "shop::Cart::add)"; do
		test_must_fail "$PERF" probe -x shop_gxx_O0 -D "$s" >out 2>err &&
		cat err && test_line_count = 0 out && test_error_lines err && test_line_count = 1 err1 &&
		grep -q "^Semantic error :Unbalanced" err || exit 1
	done
'

test_expect_success SHOP,ROOT,TRACEFS 'a bad overload adds nothing' '
	test_must_fail "$PERF" probe -x shop_gxx_O0 -a "$G:bad=shop::Cart::add(char)" 2>err &&
	test_error_lines err && test_line_count = 1 err1 && ! grep -q "$G/" "$TRACEFS/uprobe_events"
'

test_expect_success SHOP,SYSTEM_PERF_PROBE '-F lists demangled names as perf does' '
	test_same_as_system_perf probe -x shop_gxx_O0 -F &&
	grep -q "^shop::Cart::add\$" ours && grep -q "^(anonymous namespace)::helper\$" ours &&
	test_same_as_system_perf probe -x shop_gxx_O0 -F --no-demangle &&
	! grep -q shop ours &&
	test_same_as_system_perf probe -x shop_gxx_O0 -F "shop::*" &&
	test_line_count = 7 ours
'

test_expect_success RUSTC,SYSTEM_PERF_PROBE 'Rust: -F as perf does, the hash not shown' '
	test_same_as_system_perf probe -x rapp0 -F &&
	grep -q "^rust_app::server::handle\$" ours
'

test_expect_success SHOP,SYSTEM_PERF_PROBE 'perf 6.1 takes no C++ name; it mangles -l' '
	test_must_fail "$SYSTEM_PERF" probe -x shop_gxx_O0 -D "shop::Cart::add" 2>/dev/null &&
	test_must_fail "$SYSTEM_PERF" probe -x shop_gxx_O0 -D "shop\\:\\:Cart\\:\\:add" 2>/dev/null
'

test_expect_success SHOP '-V and -L headers show demangled names' '
	"$PERF" probe -x shop_gxx_O0 -V _ZN4shop4Cart3addEi >out && cat out &&
	grep -q "^Available variables at shop::Cart::add\$" out &&
	grep -q "@<shop::Cart::add+0>" out &&
	"$PERF" probe -x shop_gxx_O0 -L "shop::Cart::add(int, int)" >out && cat out &&
	head -n 1 out | grep -q "^<shop::Cart::add(int, int)@.*cxx-shop.cc:0>\$" &&
	grep -q "price \\* count" out &&
	"$PERF" probe -x shop_gxx_O0 -L _ZN4shop4Cart3addEi >out &&
	head -n 1 out | grep -q "^<shop::Cart::add@"
'

for b in shop_gxx_O0 shop_gxx_O2 shop_clang_O0 shop_clang_O2; do
	test_expect_success ROOT,TRACEFS,GDB "$b: live, every overload fires; price is gdb's" "
		[ -x $b ] || exit 0
		test_when_finished '\"\$PERF\" probe -q -d \"$G:*\" 2>/dev/null; true' &&
		\"\$PERF\" probe -x $b -a '$G:add=shop::Cart::add price' 2>err && cat err &&
		grep -q '^  $G:add *(on shop::Cart::add in .* with price)\$' err &&
		test \$(grep -c \"on shop::Cart::add in\" err) = 2 &&
		\"\$PERF\" probe -l '$G:*' >list && cat list && test_line_count = 2 list &&
		grep -q '(on shop::Cart::add[:@+ ]' list &&
		echo >\"\$TI/trace\" && echo 1 >\"\$TI/events/$G/enable\" &&
		./$b 1 >printed && echo 0 >\"\$TI/events/$G/enable\" &&
		grep ' add: ' \"\$TI/trace\" >lines && cat lines && test_line_count = 2 lines &&
		grep -q ' price=41\$' lines && grep -q ' price=5\$' lines &&
		\"\$PERF\" probe -x $b -D 'shop::Cart::add(int) price' >def && cat def &&
		off=\$(sed 's/.*:\\(0x[0-9a-f]*\\) .*/\\1/' def) &&
		s=\$(sym $b '^_ZN4shop4Cart3addEi\$') &&
		gdb -batch -ex \"break *((char *)_ZN4shop4Cart3addEi + \$((off - s)))\" -ex run \
			-ex 'print price' --args ./$b 1 >gdb.out 2>&1 &&
		grep -q '^\\\$1 = 41\$' gdb.out
	"
done

for o in 0 2; do
	test_expect_success RUSTC "rustc opt-level=$o: modules, generics, traits, closures" "
		defs rapp$o 'rust_app::server::handle' 'rust_app::server::largest' \
			'<rust_app::server::Plain as rust_app::server::Greeter>::greet' &&
		printf '%s\n' rust_app_server_handle rust_app_server_largest \
			rust_app_server_largest rust_app_server_Plain_as_rust_app_server_Greeter_greet \
			>want && test_cmp_file want names &&
		defs rapp$o '\"<rust_app::server::Plain as rust_app::server::Greeter>::greet\"' &&
		test_line_count = 1 defs &&
		defs rapp$o 'rust_app::server::*' && grep -q /rust_app_server_handle defs &&
		mangled=\$(nm rapp$o | awk '\$3 ~ /rust_app6server6handle17h/ { print \$3 }') &&
		defs rapp$o \"\$mangled\" && test \"\$(cat names)\" = \"\$mangled\"
	"
	test_expect_success RUSTC,ROOT,TRACEFS,GDB "rustc opt-level=$o: live, code is gdb's" "
		test_when_finished '\"\$PERF\" probe -q -d \"$G:*\" 2>/dev/null; true' &&
		\"\$PERF\" probe -q -x rapp$o -a '$G:rh=rust_app::server::handle code' &&
		\"\$PERF\" probe -q -x rapp$o -a '$G:rl=rust_app::server::largest' &&
		echo >\"\$TI/trace\" && echo 1 >\"\$TI/events/$G/enable\" &&
		./rapp$o 1 >printed && echo 0 >\"\$TI/events/$G/enable\" &&
		grep ' rh: ' \"\$TI/trace\" >lines && cat lines && test_line_count = 1 lines &&
		grep ' rl: ' \"\$TI/trace\" >rl && test_line_count = 2 rl &&
		code=\$(sed 's/.* code=//' lines) && test \$((code)) = 20 &&
		\"\$PERF\" probe -x rapp$o -D 'rust_app::server::handle code' >def &&
		off=\$(sed 's/.*:\\(0x[0-9a-f]*\\) .*/\\1/' def) &&
		m=\$(nm rapp$o | awk '\$3 ~ /rust_app6server6handle17h/ { print \$3 }') &&
		s=\$(sym rapp$o \"^\$m\\\$\") &&
		gdb -batch -ex 'set language c' -ex \"break *((char *)\$m + \$((off - s)))\" \
			-ex run -ex 'print code' --args ./rapp$o 1 >gdb.out 2>&1 &&
		grep -q '^\\\$1 = 20\$' gdb.out
	"
done

for b in gsrv gsrv_N; do
	test_expect_success GO "$b: Go functions and methods by name" "
		defs $b main.handle 'main.(*Server).poll' 'main.main.func1' &&
		printf '%s\n' main_handle main_Server_poll main_main_func1 >want &&
		test_cmp_file want names &&
		defs $b 'main.(*Server).*' && test_line_count = 1 defs &&
		test_must_fail \"\$PERF\" probe -x $b -D 'net/http.(*conn).serve' 2>err &&
		test_error_lines err && test_line_count = 1 err1
	"
	test_expect_success GO,ROOT,TRACEFS "$b: live, the method and the goroutines' calls fire" "
		test_when_finished '\"\$PERF\" probe -q -d \"$G:*\" 2>/dev/null; true' &&
		\"\$PERF\" probe -x $b -a '$G:poll=main.(*Server).poll' 2>err && cat err &&
		grep -q '(on main.(\\*Server).poll in ' err &&
		\"\$PERF\" probe -q -x $b -a '$G:handle=main.handle' &&
		echo >\"\$TI/trace\" && echo 1 >\"\$TI/events/$G/enable\" &&
		./$b 4 >printed && echo 0 >\"\$TI/events/$G/enable\" && cat printed &&
		test \$(grep -c ' poll: ' \"\$TI/trace\") = 4 &&
		test \$(grep -c ' handle: ' \"\$TI/trace\") = 4
	"
done

test_expect_success SHOP,ROOT,TRACEFS 'the probe cache serves a C++ name to a stripped copy' '
	test_when_finished "\"\$PERF\" probe -q -d \"$G:*\" 2>/dev/null; true" &&
	# A build-id cache of its own: the system perf added shop_gxx_O0 to
	# this script'"'"'s, and its .build-id link leads there, not to cshop.
	HOME=$TEST_TMP/home-cache && mkdir -p "$HOME" &&
	cp shop_gxx_O0 cshop &&
	"$PERF" probe -q -x cshop --cache -a "$G:cadd=shop::Cart::add price" &&
	grep "^p:" "$(probes_file cshop)" >cached && test_line_count = 2 cached &&
	"$PERF" probe -q -d "$G:*" &&
	cp cshop cshop_s && strip cshop_s &&
	test_must_fail "$PERF" probe -x cshop_s -D "shop::Cart::add price" 2>/dev/null &&
	"$PERF" probe -q -x cshop_s -a "$G:cadd=shop::Cart::add price" &&
	grep "$G/cadd " "$TRACEFS/uprobe_events" >placed && cat placed &&
	test_line_count = 2 placed && grep -q " price=-12(%bp):s32\$" placed
'

test_done
