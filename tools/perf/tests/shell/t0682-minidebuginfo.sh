#!/bin/sh
test_description='MiniDebugInfo (.gnu_debugdata) is the symbol table of a stripped file, as gdb reads it'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq STRIP_AS,READELF || test_skip_all 'needs binutils, elfutils (eu-strip) and xz'

# Fedora and RHEL strip every binary and add .gnu_debugdata: an xz'ed ELF
# file whose .symtab holds the functions .dynsym lacks (strip_as mdi, as
# their find-debuginfo does).  gdb reads it; perf 6.1 does not.  Here -F,
# FUNC, FUNC+OFF, FUNC%return and -l's names on such a file are those of
# the same build stripped of DWARF only (its .symtab), with gdb as the
# oracle of names and addresses; a .gnu_debugdata that lies or is corrupt
# is one warning, and .dynsym is read as perf reads it.
G=perftest_mdi
test_probe_group $G

# funcs FILE: the functions gdb finds in FILE, as -F names them (no _*,
# no PLT entries).
funcs() {
	gdb -batch -ex "info functions" "$1" 2>/dev/null |
		awk '/^0x/ { print $2 }' | grep -v "^_" | grep -v "@plt$" | sort
}

# with_section FILE DATA OUT: OUT is FILE with DATA as its .gnu_debugdata.
with_section() {
	cp "$1" "$3" &&
	objcopy --update-section .gnu_debugdata="$2" "$3"
}

test_expect_success 'setup: a build, stripped with MiniDebugInfo, of DWARF only, of everything' '
	build_workload stripped app.g -g -O1 &&
	strip_as mdi app.g app.mdi &&
	strip_as strip-g app.g app.sym &&
	strip_as strip-s app.g app.bare &&
	readelf -SW app.mdi | grep -q " \.gnu_debugdata " &&
	! readelf -SW app.mdi | grep -q " \.symtab " &&
	readelf -SW app.mdi | sed "s/^ *\[ *[0-9]*\]//" |
		awk "\$1 == \".gnu_debugdata\" { print \$4, \$5 }" >sec &&
	read -r off size <sec &&
	dd if=app.mdi of=mini.xz bs=1 skip=$((0x$off)) count=$((0x$size)) 2>/dev/null &&
	xz -t mini.xz
'

test_expect_success GDB '-F lists the functions gdb reads from MiniDebugInfo, as of .symtab' '
	funcs app.mdi >gdb.funcs &&
	grep -qx handle_request gdb.funcs && grep -qx main gdb.funcs &&
	"$PERF" probe -x app.mdi -F >mdi.F &&
	grep -Fx -f gdb.funcs mdi.F >mdi.funcs &&
	test_cmp_file gdb.funcs mdi.funcs &&
	"$PERF" probe -x app.sym -F | grep -Fx -f gdb.funcs >sym.funcs &&
	test_cmp_file gdb.funcs sym.funcs &&
	"$PERF" probe -x app.bare -F >bare.F 2>&1 || true &&
	! grep -qx handle_request bare.F
'

test_expect_success GDB 'FUNC, FUNC+OFF, FUNC%return and globs resolve as on .symtab, where gdb says' '
	for spec in "$G:f=handle_request" "$G:o=handle_request+3" "$G:r=handle_request%return" \
		"$G:m=main %di" "$G:g=handle_*"; do
		"$PERF" probe -x "$TEST_TMP/app.mdi" -D "$spec" >mdi.D &&
		"$PERF" probe -x "$TEST_TMP/app.sym" -D "$spec" | sed "s|/app.sym:|/app.mdi:|" >sym.D &&
		test_cmp_file sym.D mdi.D && test -s mdi.D || exit 1
	done &&
	"$PERF" probe -x "$TEST_TMP/app.mdi" -D "$G:f=handle_request" >mdi.D &&
	gdb -batch -ex "info address handle_request" app.mdi >gdb.addr &&
	addr=$(sed -n "s/.* is at \(0x[0-9a-f]*\) .*/\1/p" gdb.addr) &&
	grep -q ":$(file_offset app.mdi "$addr")$" mdi.D &&
	test_must_fail "$PERF" probe -x "$TEST_TMP/app.bare" -D "$G:f=handle_request" 2>err &&
	grep -q "Failed to find symbol handle_request" err
'

test_expect_success SYSTEM_PERF 'perf 6.1 does not read MiniDebugInfo: it finds no handle_request' '
	"$SYSTEM_PERF" probe -x "$TEST_TMP/app.mdi" -F >theirs.F 2>&1 || true &&
	! grep -qx handle_request theirs.F &&
	test_must_fail "$SYSTEM_PERF" probe -x "$TEST_TMP/app.mdi" -D "$G:f=handle_request" 2>err &&
	grep -q "Failed to find symbol handle_request" err
'

test_expect_success ROOT,TRACEFS,GDB '-l names a probe on MiniDebugInfo as on .symtab, as gdb names the address' '
	test_when_finished "remove_probe_group $G" &&
	for f in sym mdi; do
		"$PERF" probe -q -x "$TEST_TMP/app.$f" -a "$G:e$f=handle_request+3" &&
		"$PERF" probe -q -x "$TEST_TMP/app.$f" -a "$G:r$f=handle_request%return" || exit 1
	done &&
	"$PERF" probe -l "$G:*sym*" | sed "s/sym/mdi/g" >expect &&
	"$PERF" probe -l "$G:*mdi*" >actual &&
	test_cmp_file expect actual &&
	grep -q "(on handle_request+3 in $TEST_TMP/app.mdi)" actual &&
	grep -q "(on handle_request%return in $TEST_TMP/app.mdi)" actual &&
	addr=$(printf "0x%x" $((0x$(nm app.g | awk "\$3 == \"handle_request\" { print \$1 }") + 3))) &&
	gdb -batch -ex "info symbol $addr" app.mdi | grep -q "^handle_request + 3 in section .text"
'

# A .gnu_debugdata that lies or is corrupt: one warning, then the file is
# as if stripped of everything (.dynsym, and its frame descriptions for a
# cached line).  Under a small address-space limit: nothing large is
# allocated for what the section claims or decompresses to.
test_expect_success PYTHON3 'setup: MiniDebugInfos that lie about their size, do not decompress, are no ELF, explode' '
	cp app.mdi lies &&
	python3 -c "
import struct, sys
f = open(sys.argv[1], \"r+b\"); d = f.read()
shoff, = struct.unpack_from(\"<Q\", d, 0x28); shentsize, shnum, shstrndx = struct.unpack_from(\"<HHH\", d, 0x3a)
stroff, = struct.unpack_from(\"<Q\", d, shoff + shstrndx * shentsize + 0x18)
for i in range(shnum):
    h = shoff + i * shentsize
    name, = struct.unpack_from(\"<I\", d, h)
    if d[stroff + name:].startswith(b\".gnu_debugdata\\0\"):
        f.seek(h + 0x20); f.write(struct.pack(\"<Q\", 1 << 40))
" lies &&
	readelf -SW lies 2>/dev/null | grep -q "gnu_debugdata" &&
	python3 -c "
import sys; d = bytearray(open(sys.argv[1], \"rb\").read())
for i in range(len(d) // 3, len(d) // 3 + 64): d[i] ^= 0x5a
open(sys.argv[2], \"wb\").write(d)" mini.xz broken.xz &&
	with_section app.mdi broken.xz broken &&
	echo "not an ELF file" | xz >text.xz && with_section app.mdi text.xz noelf &&
	head -c 12M /dev/zero | xz --lzma2=preset=6,dict=64KiB >bomb.xz &&
	test "$(wc -c <bomb.xz)" -lt 8192 && with_section app.mdi bomb.xz bomb &&
	"$PERF" probe -x app.bare -F >bare.F 2>bare.err
'

for bad in lies broken noelf bomb; do
	BAD=$bad
	case $bad in
	lies) what="lies about its size" ;;
	broken) what="does not decompress" ;;
	noelf) what="holds no ELF file" ;;
	bomb) what="decompresses to 12 MB of zeros" ;;
	esac
	test_expect_success PYTHON3,NOT_SANITIZE "a MiniDebugInfo that $what: one warning, .dynsym as perf reads it" '
		(ulimit -v 12000 && "$PERF" probe -x "$TEST_TMP/$BAD" -F) >out 2>err &&
		test_line_count = 1 err &&
		case $BAD in
		bomb) grep -qx "Warning: $TEST_TMP/$BAD: its MiniDebugInfo (.gnu_debugdata) is too large once decompressed; only its .dynsym is read" err ;;
		*) grep -qx "Warning: $TEST_TMP/$BAD: its MiniDebugInfo (.gnu_debugdata) is corrupt; only its .dynsym is read" err ;;
		esac &&
		test_cmp_file bare.F out
	'
done

test_expect_success PYTHON3 'a cached line on a file whose MiniDebugInfo is corrupt: checked as if stripped' '
	export HOME=$TEST_TMP/cached && mkdir -p "$HOME" &&
	cp app.g build.app &&
	"$PERF" probe --cache -n -q -x "$TEST_TMP/build.app" -a "$G:f=handle_request" &&
	"$PERF" probe -q -x "$TEST_TMP/build.app" -D "$G:f=handle_request" | sed "s|/build.app:|/broken:|" >expect &&
	# no symbol of the build left: the build-id cache keeps the broken form
	find "$HOME/.debug" -name elf | while read -r e; do cp broken "$e" || exit 1; done &&
	"$PERF" probe -v -x "$TEST_TMP/broken" -D "$G:f=handle_request" >actual 2>err &&
	test_cmp_file expect actual &&
	grep -q "is corrupt; only its .dynsym is read" err &&
	P=$(probes_file "$TEST_TMP/build.app") &&
	sed -i "2s/:0x[0-9a-f]*/:0x$(printf %x $((0x$(nm app.g | awk "\$3 == \"handle_request\" { print \$1 }") + 1)))/" "$P" &&
	test_refuses --ignore "^Warning: " "$PERF" probe -x "$TEST_TMP/broken" -D "$G:f=handle_request" &&
	grep -q "is not the entry of handle_request (at 0x.* by .eh_frame)" err
'

test_done
