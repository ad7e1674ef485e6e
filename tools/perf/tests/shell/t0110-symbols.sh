#!/bin/sh
test_description='ELF symbols and uprobe offsets agree with the system perf'
# perf takes any file under /tmp/perf-* for a JIT map (/tmp/perf-PID.map) and
# reads it as text: keep our binaries out of lib.sh's default /tmp/perf-NAME.*.
TMPDIR=$(mktemp -d /tmp/t0110.XXXXXX) || exit 1
export TMPDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
test_cleanup 'rm -rf "$TMPDIR"'

# perf probe -x BIN -F lists the functions of BIN from its symbol table;
# the place part of -D ("p PATH:0xOFF") comes from it when BIN has no
# DWARF, from DWARF when it has.  Both are compared with the system perf.

test_expect_success GCC 'setup: executables, libraries, a versioned library' '
	build_workload symbols nopie -g -O0 -no-pie &&
	build_workload symbols pie -g -O0 -fPIE -pie &&
	build_workload symbols rdyn -g -O0 -no-pie -rdynamic &&
	build_workload symbols libprog.so -g -O1 -shared -fPIC &&
	cp pie pie-strip-g && strip -g pie-strip-g &&
	cp nopie nopie-strip-g && strip -g nopie-strip-g &&
	cp libprog.so libprog-strip-g.so && strip -g libprog-strip-g.so &&
	build_workload symver libver.so -g -O1 -shared -fPIC \
		-Wl,--version-script="$WORKLOADS/symver.map" &&
	cp libver.so libver-g.so && strip libver.so
'
m32=
test_have_prereq M32 && build_workload symbols prog32 -m32 -g -O0 && m32=prog32
LIBC=$(ldd /bin/true | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')

# The place part of perf's -D lines: "p:grp/ev PATH:0xOFF" -> "p PATH:0xOFF".
perf_places() {
	perf=$1
	shift
	if [ "$1" = kernel ]; then set -- "" "$2"; fi
	"$perf" probe ${1:+-x "$1"} -D "$2" 2>/dev/null | sed -n 's/^\([pr]\):[^ ]* \([^ ]*\).*/\1 \2/p'
}

# same_places BIN SPEC: our -D puts SPEC in BIN where the system perf does.
same_places() {
	perf_places "$SYSTEM_PERF" "$1" "$2" >expect &&
	test -s expect &&
	perf_places "$PERF" "$1" "$2" >actual &&
	diff expect actual
}

same_funcs() {
	test_same_as_system_perf probe -x "$1" -F ${2:+--filter "$2"}
}

for bin in nopie pie rdyn libprog.so pie-strip-g libver.so $m32 /bin/true "$LIBC"; do
	case $bin in /*) path=$bin ;; *) path=$TEST_TMP/$bin ;; esac
	test_expect_success SYSTEM_PERF "-F lists what perf lists for $(basename "$bin")" "
		same_funcs '$path'
	"
	test_expect_success SYSTEM_PERF "-F --filter '*' lists what perf lists for $(basename "$bin")" "
		same_funcs '$path' '*'
	"
done

# With debuginfo perf looks names up in DWARF, which knows no work@plt: a
# library calling its own work() is compared without it.  nopie-strip-g
# takes the symbol table, nopie DWARF.
for bin in nopie pie rdyn libprog-strip-g.so pie-strip-g nopie-strip-g $m32; do
	for spec in work work+4 'work%return' main+1; do
		test_expect_success SYSTEM_PERF "$spec in $bin is where perf puts it" "
			same_places '$TEST_TMP/$bin' '$spec'
		"
	done
done

test_expect_success SYSTEM_PERF 'both versions of a versioned name are probed' '
	same_places "$TEST_TMP/libver.so" foo &&
	test "$(wc -l <expect)" = 2
'

# With a .symtab and DWARF, the string tables are searched for "foo@" before
# the symbols are loaded (symbol_elf__may_have_versions()): foo is still the
# symbol table's, the same two places as in the stripped copy (perf 6.1 gives
# only the hidden foo@V1 there, against its own two without DWARF); bar,
# unversioned, is DWARF's, where perf puts it.
test_expect_success SYSTEM_PERF 'a versioned name is the symbol table'"'"'s beside DWARF' '
	perf_places "$PERF" "$TEST_TMP/libver.so" foo | sed "s/ .*:/ /" >expect &&
	test "$(wc -l <expect)" = 2 &&
	perf_places "$PERF" "$TEST_TMP/libver-g.so" foo | sed "s/ .*:/ /" >actual &&
	diff expect actual &&
	same_places "$TEST_TMP/libver-g.so" bar &&
	test "$(wc -l <expect)" = 1
'

test_expect_success SYSTEM_PERF 'a function called through the PLT is probed there too' '
	same_places "$TEST_TMP/libprog-strip-g.so" work+4 &&
	test "$(wc -l <expect)" = 2
'

test_expect_success SYSTEM_PERF 'malloc and its alias __libc_malloc are one place in libc' '
	perf_places "$SYSTEM_PERF" "$LIBC" malloc >expect &&
	perf_places "$PERF" "$LIBC" malloc >actual &&
	diff expect actual &&
	perf_places "$PERF" "$LIBC" __libc_malloc >actual2 &&
	diff expect actual2
'

test_expect_success SYSTEM_PERF 'a PIE absolute address is its own file offset' '
	perf_places "$SYSTEM_PERF" "$TEST_TMP/pie" 0x1139 >expect &&
	perf_places "$PERF" "$TEST_TMP/pie" 0x1139 >actual &&
	diff expect actual
'

test_expect_success GCC 'an offset beyond the function is refused' '
	size=$(nm -S nopie | sed -n "s/^[0-9a-f]* 0*\([0-9a-f]*\) T work$/\1/p") &&
	"$PERF" probe -x nopie-strip-g -D "work+$((0x$size))" &&
	test_refuses "$PERF" probe -x nopie-strip-g -D "work+$((0x$size + 1))" &&
	grep -q "Offset $((0x$size + 1)) is bigger than the size of work" err
'

test_expect_success GCC 'an unknown function is not found, in the words of symbols without DWARF, of DWARF with it' '
	test_refuses "$PERF" probe -x nopie-strip-g -D nosuch &&
	grep -x "Failed to find symbol nosuch in $TEST_TMP/nopie-strip-g" err &&
	test_refuses "$PERF" probe -x nopie -D nosuch &&
	grep -x "Probe point .nosuch. not found." err
'

# A label (NOTYPE) is listed by perf when its section's name says text or
# data: an assembler entry point in .text, ceph-osd's mul_table_72 in
# .data; not one in .bss or in a section of another name.  With a
# distribution's debug file perf takes the names of its .symtab only: a
# name .dynsym has too is listed once, not twice as from the library
# itself.  The debug file goes where Debian puts them, for this test alone
# (its build-id is this library's).
test_expect_success GCC 'setup: a library with a label in its code, and its debug file' '
	cat >label.c <<-\EOF &&
	int lib_a(int x) { return x * 2; }
	int lib_b(int x) { return x * 3; }
	__asm__(".text\nt0110_label: nop\n");
	__asm__(".pushsection .data\nt0110_data: .long 1\n.popsection\n");
	__asm__(".pushsection .bss\nt0110_bss: .zero 8\n.popsection\n");
	__asm__(".pushsection .bss\n.globl t0110_gbss\nt0110_gbss: .zero 8\n.popsection\n");
	__asm__(".pushsection mysec,\"a\"\nt0110_mysec: .long 1\n.popsection\n");
	__asm__(".pushsection mysec,\"a\"\n.globl t0110_gmysec\nt0110_gmysec: .long 1\n.popsection\n");
	EOF
	${CC:-gcc} -O1 -g -shared -fPIC -Wl,--build-id=sha1 -o liblabel.so label.c &&
	bid=$(build_id_of liblabel.so) &&
	DEBUG_FILE=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug &&
	rm -f "$DEBUG_FILE" &&
	echo "$DEBUG_FILE" >debug-file-path
'
DEBUG_FILE=$(cat "$TEST_TMP/debug-file-path" 2>/dev/null)
test_cleanup '[ -z "$DEBUG_FILE" ] || rm -f "$DEBUG_FILE"'
test_expect_success SYSTEM_PERF '-F lists a label in code or data, not in .bss or mysec, as perf does' '
	readelf -sW liblabel.so | grep -q "NOTYPE  LOCAL  DEFAULT .* t0110_label$" &&
	readelf -sW liblabel.so | grep -q "NOTYPE  LOCAL  DEFAULT .* t0110_bss$" &&
	readelf -sW liblabel.so | grep -q "NOTYPE  GLOBAL DEFAULT .* t0110_gmysec$" &&
	same_funcs "$TEST_TMP/liblabel.so" "*" && grep -x t0110_label ours &&
	grep -x t0110_data ours && ! grep -e "t0110_.*bss" -e "t0110_.*mysec" ours &&
	test "$(grep -cx lib_a ours)" = 2
'
test_expect_success SYSTEM_PERF 'with a debug file, -F lists its .symtab: each name once, as perf does' '
	mkdir -p "$(dirname "$DEBUG_FILE")" &&
	objcopy --only-keep-debug liblabel.so "$DEBUG_FILE" &&
	same_funcs "$TEST_TMP/liblabel.so" "*" && grep -x t0110_label ours &&
	grep -x t0110_data ours && ! grep -e "t0110_.*bss" -e "t0110_.*mysec" ours &&
	test "$(grep -cx lib_a ours)" = 1 &&
	same_funcs "$TEST_TMP/liblabel.so"
'
# perf probe -D and buildid-cache -a put the library in the build-id
# cache; from then on perf 6.1 and 6.12 list its .dynsym beside the debug
# file's .symtab, and a stripped copy of it (the same build-id) lists both.
test_expect_success SYSTEM_PERF 'with the library in the build-id cache, -F lists its .dynsym too, as perf does' '
	test_when_finished "rm -rf \"\$HOME/.debug\"" &&
	"$PERF" buildid-cache -a "$TEST_TMP/liblabel.so" &&
	same_funcs "$TEST_TMP/liblabel.so" "*" &&
	test "$(grep -cx lib_a ours)" = 2 &&
	cp liblabel.so liblabel-s.so && strip -s liblabel-s.so &&
	same_funcs "$TEST_TMP/liblabel-s.so" "*" &&
	test "$(grep -cx lib_a ours)" = 2 &&
	rm -rf "$HOME/.debug" &&
	same_funcs "$TEST_TMP/liblabel-s.so" "*" &&
	test "$(grep -cx lib_a ours)" = 1
'
# Without -g the debug file is smaller than the segments its program
# headers (the library's) describe: it is no truncated file for that.
test_expect_success SYSTEM_PERF 'a debug file smaller than the segments it describes is read, as perf reads it' '
	${CC:-gcc} -O1 -shared -fPIC -Wl,--build-id=sha1 -o liblabel.so label.c &&
	bid=$(build_id_of liblabel.so) &&
	DEBUG_FILE=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug &&
	test_when_finished "rm -f $DEBUG_FILE" &&
	objcopy --only-keep-debug liblabel.so "$DEBUG_FILE" &&
	end=$(readelf -lW liblabel.so | awk "\$1 == \"LOAD\" { e = \$2 \" + \" \$5 } END { print e }") &&
	test "$(stat -c %s "$DEBUG_FILE")" -lt $(($end)) &&
	same_funcs "$TEST_TMP/liblabel.so" "*" &&
	test "$(grep -cx lib_a ours)" = 1
'
test_expect_success SYSTEM_PERF 'a label is listed, not probed: perf fails the same way' '
	test_same_as_system_perf --status probe -x "$TEST_TMP/liblabel.so" -D t0110_label
'

test_expect_success GCC 'a stripped PIE has no symbols' '
	cp pie stripped && strip stripped &&
	build_workload symbols stripped2 -O0 -fPIE -pie -Wl,--build-id=0x0123456789 && strip stripped2 &&
	test_refuses "$PERF" probe -x stripped2 -F &&
	grep "^Failed to load symbols in .*stripped2$" err
'

test_expect_success KALLSYMS,SYSTEM_PERF 'kernel -F lists what perf lists from kallsyms' '
	test_same_as_system_perf probe -F
'
for spec in vfs_read vfs_read+4 'vfs_read%return'; do
	test_expect_success KALLSYMS,SYSTEM_PERF "kernel $spec is written as perf writes it" "
		same_places kernel '$spec'
	"
done

test_expect_success GCC,SYSTEM_PERF 'an unknown function: the same lines and status as perf 6.1, DWARF or not' '
	for bin in nopie-strip-g nopie; do
		test_same_as_system_perf --stderr --status probe -x "$TEST_TMP/$bin" -D nosuch || return 1
	done
'

test_expect_success GCC 'bad files give one error and no crash' '
	test_refuses "$PERF" probe -x nosuch -F && grep "No such file" err &&
	test_refuses "$PERF" probe -x . -F && grep -i "Is a directory" err &&
	cp "$WORKLOADS/symbols.c" prog.c &&
	test_refuses "$PERF" probe -x prog.c -F && grep "not an ELF file" err &&
	head -c 3000 nopie >trunc &&
	test_refuses "$PERF" probe -x trunc -F && grep "truncated" err
'

test_done
