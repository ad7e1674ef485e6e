#!/bin/sh
test_description='planted cached lines are refused on every stripped form of their build, where perf 6.1 places them'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq STRIP_AS,READELF || test_skip_all 'needs binutils, elfutils (eu-strip) and xz'

# The build of t0681 (stripped.c, -g -O1) and its stripped forms, with an
# honest cache; each case plants one entry's line and asks for it with -D
# on each form: it is refused with the same reason whether the function
# comes from .symtab, MiniDebugInfo or the frame description standing for
# it (probe-verify.h), and nothing is placed.  The system perf places
# every one: each of its cases then shows, from the -g build (gdb, the
# disassembly, the segments), that the line is not what the entry asks.
G=perftest_strip
test_probe_group $G

B=$TEST_TMP/build/app
FORMS="build $STRIP_HOWS"

# put_form HOW: the form HOW (build: the -g build) at the build's path and
# as the copy its build-id cache keeps (see t0681).
put_form() {
	if [ "$1" = build ]; then _f=$TEST_TMP/app.g; else _f=$TEST_TMP/forms/$1/app; fi
	cp "$_f" "$B" &&
	find "$HOME/.debug" -name elf | while read -r _e; do
		cp "$_f" "$_e" || exit 1
	done
}

# hexof NAME: the address of NAME in the -g build, hex without 0x or zeros.
hexof() {
	nm "$TEST_TMP/app.g" | awk -v n="$1" '$3 == n { sub(/^0*/, "", $1); print $1 }'
}

# plant EVENT LINE: the probes file holds EVENT's entry alone, its honest
# header (line 1) and LINE (line 2); LINE's OFFSET is the file offset of
# address 0xOFFSET... written as @ADDR (hex, no 0x).
plant() {
	_hdr=$(awk -v ev="$G/$1 " '/^#/ { h = $0 } !/^#/ && index($0, ev) { print h; exit }' \
		"$TEST_TMP/probes.honest") &&
	test -n "$_hdr" &&
	_addr=$(echo "$2" | sed -n "s/.*@\([0-9a-f]*\).*/\1/p") &&
	printf "%s\n%s\n" "$_hdr" "$(echo "$2" | sed "s|@$_addr|$B:$(file_offset "$B" "$_addr")|")" >"$P"
}

# segment_flags FILE VADDR: the flags (R W E) of FILE's PT_LOAD holding VADDR.
segment_flags() {
	readelf -lW "$1" | awk -v a="$2" '
	function hex(s,   n, i) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	$1 == "LOAD" && hex(a) >= hex($3) && hex(a) < hex($3) + hex($6) {
		f = ""; for (i = 7; i < NF; i++) f = f $i; print f; exit
	}'
}

# refused_on_all SPEC WHY: -D SPEC is refused on every form, one line,
# "perf: refusing cached probe P:2: WHY...".
refused_on_all() {
	for _how in $FORMS; do
		put_form "$_how" &&
		if ! test_refuses "$PERF" probe -x "$B" -D "$1" ||
			! grep -qF "perf: refusing cached probe $P:2: $2" err; then
			echo "on the $_how form:" >&2
			cat err >&2
			put_form build
			return 1
		fi
	done
	put_form build
}

test_expect_success 'setup: a -g build, its honest cache, its stripped forms, the addresses' '
	mkdir -p build &&
	build_workload stripped app.g -g -O1 &&
	cp app.g "$B" &&
	for spec in "$G:fn=handle_request" "$G:fa=handle_request req->len seq" \
		"$G:fo=handle_request+3" "$G:fl=handle_request:6" \
		"$G:sl=stripped.c:37 total cost" "$G:rt=handle_request%return \$retval"; do
		"$PERF" probe --cache -n -q -x "$B" -a "$spec" || exit 1
	done &&
	cp "$(probes_file "$B")" probes.honest &&
	for how in $STRIP_HOWS; do
		mkdir -p forms/$how && strip_as $how app.g forms/$how/app || exit 1
	done &&
	# handle_request: push %rbx; mov (%rdi),%eax; lea (3 bytes); ...
	objdump -d --no-show-raw-insn app.g |
		sed -n "/<handle_request>:/,/^\$/s/^ *\([0-9a-f]*\):\t\(.*\)/\1 \2/p" >insns &&
	test "$(sed -n 1p insns | cut -d" " -f1)" = "$(hexof handle_request)" &&
	test "$(sed -n 3p insns | cut -d" " -f1)" = "$(printf %x $((0x$(hexof handle_request) + 3)))" &&
	grep -q "^$(printf %x $((0x$(hexof handle_request) + 3))) lea " insns
'
P=$(probes_file "$B" 2>/dev/null)
HR=$(hexof handle_request)
MAIN=$(hexof main)
I2=$(sed -n 2p "$TEST_TMP/insns" 2>/dev/null | cut -d" " -f1)
MID=$(printf %x $((0x${HR:-0} + 4)))
# the first instruction after handle_request's first return
ARET=$(awk 'r { print $1; exit } $2 == "ret" { r = 1 }' "$TEST_TMP/insns" 2>/dev/null)
# the first byte past _start (its padding: no symbol, no frame description)
GAP=$(nm -S "$TEST_TMP/app.g" 2>/dev/null | awk '$4 == "_start" { print $1, $2 }' |
	{ read -r a z && printf %x $((0x$a + 0x$z)); })
RODATA=$(readelf -SW "$TEST_TMP/app.g" 2>/dev/null | awk '$2 == ".rodata" { sub(/^0*/, "", $4); print $4 }')

test_expect_success 'the honest cache is placed on every form' '
	for how in $FORMS; do
		put_form $how &&
		"$PERF" probe -x "$B" -D "$G:fo=handle_request+3" >out &&
		grep -q "^p:$G/fo $B:$(file_offset "$B" "$(printf %x $((0x$HR + 3)))")$" out || exit 1
	done &&
	put_form build
'

test_expect_success 'FUNC alone past its entry is refused' '
	plant fn "p:$G/fn @$I2" &&
	refused_on_all "$G:fn=handle_request" "address 0x$I2 is not the entry of handle_request"
'

test_expect_success 'FUNC+OFF at another offset is refused' '
	plant fo "p:$G/fo @$I2" &&
	refused_on_all "$G:fo=handle_request+3" \
		"address 0x$I2 is not handle_request+3 but +$((0x$I2 - 0x$HR)) in handle_request"
'

test_expect_success 'a return probe (r:) past the entry is refused' '
	plant rt__return "r:$G/rt__return @$I2 \$retval" &&
	refused_on_all "$G:rt=handle_request%return \$retval" \
		"a return probe (r:) at 0x$I2, not at the entry of handle_request"
'

test_expect_success 'a line inside an instruction is refused' '
	plant fl "p:$G/fl @$MID" &&
	refused_on_all "$G:fl=handle_request:6" "address 0x$MID is not an instruction start in handle_request"
'

test_expect_success 'a source line in data is refused' '
	plant sl "p:$G/sl @$RODATA total=%r13:s64 cost=%cx:s32" &&
	refused_on_all "$G:sl=stripped.c:37 total cost" "address 0x$RODATA is not in an executable segment"
'

test_expect_success 'a source line between functions is refused' '
	plant sl "p:$G/sl @$GAP total=%r13:s64 cost=%cx:s32" &&
	refused_on_all "$G:sl=stripped.c:37 total cost" "address 0x$GAP is in no function"
'

test_expect_success 'a DWARF argument read past a return (no prologue is) is refused' '
	plant fa "p:$G/fa @$ARET len=+0(%di):s32 seq=%si:s32" &&
	refused_on_all "$G:fa=handle_request req->len seq" "address 0x$ARET is not the entry of handle_request" &&
	grep -q "nor past its prologue alone$" err
'

# What no check without a name can tell: FUNC at the entry of another
# function.  .symtab and MiniDebugInfo name main; .dynsym alone does not,
# and the frame description of main is then as good as handle_request's.
test_expect_success 'FUNC at another function'"'"'s entry: refused where a table names it' '
	plant fn "p:$G/fn @$MAIN" &&
	for how in build strip-g mdi; do
		put_form $how &&
		test_refuses "$PERF" probe -x "$B" -D "$G:fn=handle_request" &&
		grep -qF "perf: refusing cached probe $P:2: address 0x$MAIN is in main, not in handle_request" err ||
			{ echo "on the $how form" >&2; put_form build; exit 1; }
	done &&
	for how in strip-s unneeded eu-strip debuglink; do
		put_form $how &&
		"$PERF" probe -x "$B" -D "$G:fn=handle_request" >out &&
		grep -q "^p:$G/fn $B:$(file_offset "$B" "$MAIN")$" out || { put_form build; exit 1; }
	done &&
	put_form build
'

test_expect_success ROOT,TRACEFS 'a planted line added live on a stripped form places nothing' '
	plant fn "p:$G/fn @$I2" &&
	put_form strip-s && test_when_finished "put_form build" &&
	test_refuses --tracefs "$PERF" probe -x "$B" -a "$G:fn=handle_request" "$G:fl=handle_request:6" &&
	grep -qF "perf: refusing cached probe $P:2: address 0x$I2 is not the entry of handle_request" err
'

test_expect_success 'a bundle with a planted line is refused on a stripped host, nothing imported' '
	plant fl "p:$G/fl @$MID" &&
	"$PERF" probe -q --cache --export planted.bundle -x "$B" &&
	mkdir -p host &&
	put_form strip-s && test_when_finished "put_form build" &&
	test_refuses --cache "$TEST_TMP/host/.debug" env HOME="$TEST_TMP/host" \
		"$PERF" probe --cache --import planted.bundle &&
	grep -q "^perf: refusing planted.bundle: the probes of $B (.*), line 2: address 0x$MID is not an instruction start in handle_request (at 0x$HR by .eh_frame); nothing was imported$" err
'

# The system perf reads the same probes file and places each planted line
# on the stripped form; the -g build says each is not what its entry asks.
# sysplaced SPEC LINE-ADDR: the system perf's -D of SPEC on the strip -s
# form prints the planted line.
sysplaced() {
	put_form strip-s || return 1
	if ! "$SYSTEM_PERF" probe -x "$B" -D "$1" >theirs 2>theirs.err ||
		! grep -q " $B:$(file_offset "$B" "$2")\( \|$\)" theirs; then
		cat theirs theirs.err
		put_form build
		return 1
	fi
	put_form build
}

test_expect_success SYSTEM_PERF_PROBE,GDB 'perf 6.1 places FUNC past its entry; gdb: that is handle_request+N' '
	plant fn "p:$G/fn @$I2" &&
	sysplaced "$G:fn=handle_request" "$I2" &&
	gdb -batch -ex "info symbol 0x$I2" app.g >where &&
	grep -q "^handle_request + $((0x$I2 - 0x$HR)) in section .text" where &&
	HOME=$TEST_TMP/empty "$PERF" probe -x app.g -D "$G:fn=handle_request" | grep -q ":$(file_offset app.g "$HR")$"
'

test_expect_success SYSTEM_PERF_PROBE,GDB 'perf 6.1 places an r: probe mid-function, where no return address is' '
	plant rt__return "r:$G/rt__return @$I2 \$retval" &&
	sysplaced "$G:rt=handle_request%return \$retval" "$I2" &&
	gdb -batch -ex "info symbol 0x$I2" app.g | grep -q "^handle_request + [1-9]"
'

test_expect_success SYSTEM_PERF_PROBE 'perf 6.1 places a probe inside an instruction; the disassembly has none there' '
	plant fl "p:$G/fl @$MID" &&
	sysplaced "$G:fl=handle_request:6" "$MID" &&
	! objdump -d app.g | grep -q "^ *$MID:" &&
	objdump -d app.g | grep -q "^ *$(printf %x $((0x$MID - 1))):"
'

test_expect_success SYSTEM_PERF_PROBE 'perf 6.1 places a source line in .rodata, a segment that does not execute' '
	plant sl "p:$G/sl @$RODATA total=%r13:s64 cost=%cx:s32" &&
	sysplaced "$G:sl=stripped.c:37 total cost" "$RODATA" &&
	segment_flags app.g "$RODATA" >flags &&
	grep -q R flags && ! grep -q E flags
'

test_expect_success SYSTEM_PERF_PROBE 'perf 6.1 reads a DWARF argument past a return, in code no prologue reaches' '
	plant fa "p:$G/fa @$ARET len=+0(%di):s32 seq=%si:s32" &&
	sysplaced "$G:fa=handle_request req->len seq" "$ARET" &&
	grep -B1 "^$ARET " insns | head -n 1 | grep -q " ret"
'

# perf 6.1 writes the header of a lazy pattern without the pattern
# ("#G:lz=main"), then answers any pattern of main, and main alone, with
# those lines; we never take that entry for a pattern, and as main alone
# it is refused: its lines are not main's entry.
test_expect_success SYSTEM_PERF_PROBE,GDB 'perf 6.1'"'"'s cached lazy pattern answers other requests; we refuse it' '
	H=$TEST_TMP/sys && mkdir -p "$H" && cp app.g sysapp &&
	HOME=$H "$SYSTEM_PERF" probe --cache -n -q -x "$TEST_TMP/sysapp" -a "$G:lz=main;printf*" &&
	grep -q "^#$G:lz=main$" "$(probes_file --home "$H" sysapp)" &&
	HOME=$TEST_TMP/empty "$PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main;printf*" >printf.lines &&
	HOME=$TEST_TMP/empty "$PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main;total*" >handle.lines &&
	! cmp -s printf.lines handle.lines &&
	strip -s sysapp &&
	HOME=$H "$SYSTEM_PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main;total*" >theirs &&
	test_cmp_file printf.lines theirs &&
	HOME=$H "$SYSTEM_PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main" >theirs &&
	test_cmp_file printf.lines theirs &&
	gdb -batch -ex "info address main" app.g | grep -q "0x0*$MAIN" &&
	! grep -q ":$(file_offset sysapp "$MAIN")$" theirs &&
	test_refuses env HOME="$H" "$PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main" &&
	grep -q "is not the entry of main" err &&
	test_must_fail env HOME="$H" "$PERF" probe -x "$TEST_TMP/sysapp" -D "$G:lz=main;total*" 2>err &&
	grep -q "needs debuginfo" err
'

test_done
