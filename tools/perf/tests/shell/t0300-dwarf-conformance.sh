#!/bin/sh
test_description='perf probe -D through DWARF prints what the system perf prints'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The sources keep their names here: the specs name main.c and other.c,
# -L reads them, and one case moves main.c away.
cp "$WORKLOADS/req.h" req.h && cp "$WORKLOADS/req-main.c" main.c &&
	cp "$WORKLOADS/req-other.c" other.c || exit 1

# The specs both perfs are asked; those the system perf rejects are not
# compared (perf 6.1 fails on bitfields of DWARF 5, for instance).
cat >specs <<'SPECS'
handle
handle:2
handle:3
handle:4
handle+4
handle+0
handle%return $retval
handle%return r=$retval:s32
main.c:13
main.c:14
main.c:16
other.c:9
other.c:12
handle;total*
consume;*inner*
handle@main.c
consume@other.c
hand*
cons*
square
handle req->len req->name:string req->peer:string n
handle req->color req->u.i req->next->id req->uc req->ratio req->done
handle req->arr[2] req->name[1] req->next->next->len
handle $vars
handle $params
handle:3 i s n
consume s:string ul c
consume s s[1] ul:u8 c:x8 named=ul
consume $vars
consume:4 local ul
main r.arr[2] r.id r.name:string argc argv
main argv[0]:string
main r.peer:string r.len:s32
handle n %di $comm
SPECS

compare_all() {
	bin=$1
	: >identical
	: >differ
	while read -r spec; do
		# shellcheck disable=SC2086
		"$SYSTEM_PERF" probe -x "$bin" -D "$spec" >exp 2>/dev/null || continue
		"$PERF" probe -x "$bin" -D "$spec" >got 2>gerr
		if cmp -s exp got; then
			echo "$spec" >>identical
		else
			{ echo "== $spec"; diff exp got; cat gerr; } >>differ
		fi
	done <specs
	say "$bin: $(wc -l <identical) specs byte-identical, $(grep -c '^==' differ) differ"
	cat differ
	test ! -s differ
}

for opt in O0 O2 Og; do
	test_expect_success SYSTEM_PERF_PROBE "-$opt: every spec perf resolves is byte-identical" "
		build_prog prog_$opt main.c -g -$opt other.c &&
		compare_all \"\$TEST_TMP/prog_$opt\" &&
		test -s identical
	"
done

test_expect_success SYSTEM_PERF_PROBE '-gdwarf-4 -O2: every spec perf resolves is byte-identical' '
	${CC:-gcc} -g -gdwarf-4 -O2 -o prog_d4 main.c other.c &&
	compare_all "$TEST_TMP/prog_d4"
'

test_expect_success SYSTEM_PERF_PROBE 'compressed debug sections: byte-identical too' '
	build_prog prog_c main.c -g -O0 other.c &&
	objcopy --compress-debug-sections=zlib prog_c prog_z &&
	compare_all "$TEST_TMP/prog_z" && test -s identical
'

test_expect_success '.gnu_debuglink: the same places and fetchargs as with DWARF in the file' '
	build_prog prog_l main.c -g -O0 other.c &&
	cp prog_l prog_s &&
	objcopy --only-keep-debug prog_s prog_s.debug &&
	objcopy --strip-debug --add-gnu-debuglink=prog_s.debug prog_s &&
	! readelf -SW prog_s | grep -q "\.debug_info" &&
	while read -r spec; do
		"$PERF" probe -x prog_l -D "$spec" >want 2>/dev/null || continue
		"$PERF" probe -x prog_s -D "$spec" >got 2>/dev/null &&
		sed "s/prog_l/prog_s/g" want >want2 &&
		test_cmp_file want2 got || { echo "spec: $spec"; exit 1; }
	done <specs
'

test_expect_success '-s DIR reads the sources of lazy patterns and -L from DIR' '
	build_prog prog_src main.c -g -O0 other.c &&
	"$PERF" probe -x prog_src -D "handle;total*" >want &&
	"$PERF" probe -x prog_src -L "handle:3-5" >want_l &&
	mkdir -p elsewhere && mv main.c elsewhere/ &&
	test_must_fail "$PERF" probe -x prog_src -D "handle;total*" >out 2>err &&
	grep -q "Failed to open .*main.c" err &&
	"$PERF" probe -x prog_src -s elsewhere -D "handle;total*" >got &&
	"$PERF" probe -x prog_src -s elsewhere -L "handle:3-5" >got_l;
	rc=$?; mv elsewhere/main.c . && test $rc = 0 &&
	test_cmp_file want got &&
	# The header names the file read, as perf: the one under -s DIR.
	head -n 1 got_l | grep -q "^<handle@elsewhere/main.c:3>$" &&
	sed 1d want_l >want_l1 && sed 1d got_l >got_l1 && test_cmp_file want_l1 got_l1
'

# -V and -L: each line one set of options, compared whole.
cat >viewspecs <<'SPECS'
-V handle
-V handle --range
-V handle:3 --externs
-V handle:4 --externs --range
-V main
-V consume
-V consume:4 --range
-V other.c:12
-V square
-L handle
-L handle:2-4
-L handle:2+2
-L consume
-L square
-L main
-L main.c
-L main.c:8-14
-L other.c:5+4
SPECS

compare_views() {
	bin=$1
	: >identical
	: >differ
	while read -r opts; do
		# shellcheck disable=SC2086
		"$SYSTEM_PERF" probe -x "$bin" $opts >exp 2>/dev/null || continue
		# shellcheck disable=SC2086
		"$PERF" probe -x "$bin" $opts >got 2>gerr
		if cmp -s exp got; then
			echo "$opts" >>identical
		else
			{ echo "== $opts"; diff exp got; cat gerr; } >>differ
		fi
	done <viewspecs
	say "$bin: $(wc -l <identical) -V/-L outputs identical, $(grep -c '^==' differ) differ"
	cat differ
	test ! -s differ
}

for opt in O0 O2 Og; do
	test_expect_success SYSTEM_PERF_PROBE "-$opt: -V and -L print what perf prints" "
		build_prog view_$opt main.c -g -$opt other.c &&
		compare_views \"\$TEST_TMP/view_$opt\" &&
		test -s identical
	"
done

test_expect_success 'globals of uprobes are @+OFF from the mapping base (perf 6.1 writes @sym, which uprobes reject)' '
	build_prog prog_g main.c -g -O0 other.c &&
	"$PERF" probe -x prog_g -D "handle counter total" >out &&
	grep -q " counter=@+0x[0-9a-f]*:s32 total=@+0x[0-9a-f]*:s64$" out &&
	off=$(readelf -sW prog_g | awk "\$8 == \"counter\" { print \$2 }") &&
	sec=$(readelf -lW prog_g | awk "\$1 == \"LOAD\" && / R E / { print \$2, \$3 }") &&
	set -- $sec &&
	want=$(printf "0x%x" $((0x$off - $2 + $1))) &&
	grep -q "counter=@+$want:" out
'

test_expect_success 'a multi-dimensional array is indexed by whole rows (perf 6.1 scales by the element)' '
	build_workload grid grid -g -O2 &&
	"$PERF" probe -x grid -D "peek b->cell[1] b->cell[1][2] b->cell[0][1]" >out &&
	grep -q " cell=+16(%di) cell=+24(%di):s32 cell=+8(%di):s32$" out
'

test_expect_success SYSTEM_PERF_PROBE 'a function both out of line and inlined: every copy, in DWARF order' '
	build_workload twice twice -g -O2 &&
	printf "%s\n" scale_it "scale_it%return" "scale_it v" twice "twice:0" main >specs &&
	compare_all "$TEST_TMP/twice" && test -s identical &&
	test_refuses "$PERF" probe -x twice -D "twice%return" &&
	grep -q "exists only inlined" err
'

test_expect_success 'bitfields, also in anonymous struct members, are b<w>@<o>/<sz> from the low bit' '
	build_prog prog_b main.c -g -O0 other.c &&
	"$PERF" probe -x prog_b -D "handle req->fl.urgent req->fl.prio req->fl.rest req->anon.b" >out &&
	grep -q " urgent=+40(-24(%bp)):b1@0/32 prio=+40(-24(%bp)):b3@1/32 rest=+40(-24(%bp)):b12@4/32 b=+44(-24(%bp)):b5@2/32$" out
'

PY=/usr/bin/python3.11d
test_lazy_prereq PYTHON_DBG '[ -x "$PY" ]'
cat >pyspecs <<'SPECS'
PyObject_GetAttr v name
PyList_Append op newitem
PyList_Append%return $retval
_PyEval_EvalFrameDefault tstate frame throwflag
PyDict_GetItem op key
PyUnicode_FromString u:string
list_append self object
PyObject_Repr v->ob_type->tp_name:string
PyLong_FromLong ival
PyTuple_New size
Py_Initialize
PyMem_Malloc size
list_resize newsize self->allocated self->ob_item
PyDict_SetItem $params
Objects/listobject.c:300
PyObject_GetAttr:10
PyObject_GetAttr+8
Py*Attr
list_*
tupledealloc op
SPECS
test_expect_success SYSTEM_PERF_PROBE,PYTHON_DBG 'python3.11d: every spec perf resolves is byte-identical' '
	cp pyspecs specs && compare_all "$PY" && test -s identical
'

LIBC=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
# libc6-dbg, as the system perf finds it.
test_lazy_prereq LIBC_DBG '[ -n "$LIBC" ] && "$SYSTEM_PERF" probe -x "$LIBC" -D "__libc_malloc bytes"'
cat >libcspecs <<'SPECS'
__libc_malloc bytes
__libc_free mem
_IO_new_fopen filename:string mode:string
__libc_malloc%return $retval
malloc%return $retval
SPECS
test_expect_success SYSTEM_PERF_PROBE,LIBC_DBG 'libc with libc6-dbg: every spec perf resolves is byte-identical' '
	cp libcspecs specs && compare_all "$LIBC" && test -s identical
'
test_expect_success LIBC_DBG 'libc: alias names resolve through the address (perf 6.1 fails)' '
	"$PERF" probe -x "$LIBC" -D "malloc bytes" -D "fopen filename:string" >out &&
	"$PERF" probe -x "$LIBC" -D "__libc_malloc bytes" -D "_IO_new_fopen filename:string" >want &&
	sed "s/__libc_malloc/malloc/; s/_IO_new_fopen/fopen/" want >want2 &&
	test_cmp_file want2 out
'

test_done
