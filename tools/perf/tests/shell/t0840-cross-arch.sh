#!/bin/sh
test_description='probes of aarch64 files on this host: registers, SDT operands, offsets, the cache'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The cross compilers: Debian's gcc-aarch64-linux-gnu, and clang for
# aarch64 over the same arm64 sysroot (libc6-dev-arm64-cross) and
# binutils-aarch64-linux-gnu.
A64CC="clang --target=aarch64-linux-gnu -Wno-asm-operand-widths"
A64GCC=aarch64-linux-gnu-gcc
test_lazy_prereq AARCH64_CC "$A64CC -o a64-probe \"\$WORKLOADS/true.c\""
test_lazy_prereq AARCH64_GCC "$A64GCC -o a64-gcc-probe \"\$WORKLOADS/true.c\""
test_lazy_prereq GDB_MULTIARCH 'command -v gdb-multiarch'

# <sys/sdt.h> is the same header on every architecture, but Debian keeps
# it in the x86-64 multiarch directory the cross sysroot does not search.
mkdir -p inc/sys &&
	for h in /usr/include/x86_64-linux-gnu/sys/sdt*.h /usr/include/sys/sdt*.h; do
		[ -e "$h" ] && cp "$h" inc/sys/
	done

# build_a64 OUT -OPT [COMPILER]: the SDT test program for aarch64, by
# clang unless COMPILER is given.
build_a64() {
	CC=${3:-$A64CC} build_workload cross-sdt "$1" -I"$TEST_TMP/inc" -g "$2"
}

# cfa_at BIN ADDR: "REG OFF" of the call frame address at ADDR, from the
# CFI readelf interprets ("sp+32" is "sp 32").
cfa_at() {
	readelf --debug-dump=frames-interp "$1" | awk -v addr="$2" '
	function hex(s,   n, i) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	/ FDE / {
		r = $NF; sub(/^pc=/, "", r); split(r, pc, /\.\./)
		in_fde = hex(pc[1]) <= hex(addr) && hex(addr) < hex(pc[2]); next
	}
	in_fde && /^[0-9a-f]+ +[a-z0-9]+[+-][0-9]+/ && hex($1) <= hex(addr) { cfa = $2 }
	/^$/ { in_fde = 0 }
	END { if (cfa != "") { sub(/\+/, " ", cfa); print cfa } }'
}

# gdb's view of FUNC's variables at ADDR as "NAME=FETCHARG" lines, in the
# kernel's arm64 spelling: "frame base reg $sp offset 0+24" is +24(%sp),
# "a variable in $x1" is %x1, a lone "DW_OP_fbreg N" (gcc's frame base is
# the CFA) is CFA+N; of a multi-location variable the range that holds
# ADDR.  Other forms gdb calls complex are left out.
gdb_locations() {
	_cfa=$(cfa_at "$1" "$3")
	gdb-multiarch -batch -ex "info scope $2" "$1" 2>/dev/null | awk -v addr="$3" -v cfa="$_cfa" '
	function hex(s,   n, i, c) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	function loc(s,   r, o) {
		if (match(s, /frame base reg \$[a-z0-9]+ offset 0\+-?[0-9]+/)) {
			s = substr(s, RSTART, RLENGTH)
			r = s; sub(/.*reg \$/, "", r); sub(/ .*/, "", r)
			o = s; sub(/.*offset 0\+/, "", o)
			return (o ~ /^-/ ? o : "+" o) "(%" r ")"
		}
		if (match(s, /a variable in \$[a-z0-9]+/)) {
			s = substr(s, RSTART, RLENGTH); sub(/.*\$/, "", s)
			return "%" s
		}
		return ""
	}
	BEGIN { split(cfa, c, " ") }
	/^Symbol / {
		name = $2; fb = ""; l = loc($0); if (l != "") print name "=" l
		complex = $0 ~ /is a complex DWARF expression:$/; next
	}
	complex && /^ +0: DW_OP_fbreg -?[0-9]+$/ && c[1] != "" {
		o = c[2] + $3; fb = (o < 0 ? o : "+" o) "(%" c[1] ")"; next
	}
	complex && /^, length/ { if (fb != "") print name "=" fb; complex = 0; next }
	complex { fb = ""; complex = 0 }
	{ sub(/^  Base address 0x[0-9a-f]+ +/, "  ") }
	/^  Range 0x/ {
		split($2, a, "-"); sub(/:$/, "", a[2])
		if (hex(a[1]) <= hex(addr) && hex(addr) < hex(a[2])) {
			l = loc($0); if (l != "") print name "=" l
		}
	}'
}

# Our -D of FUNC with each of gdb's variables, as "NAME=FETCHARG" (no type).
our_locations() {
	"$PERF" probe -x "$1" -D "$2 $3" 2>/dev/null |
		tr ' ' '\n' | sed -n 's/:[a-z0-9]*$//; /=/p'
}

# The notes' operands in the kernel's arm64 spelling: -4@[x8] is
# +0(%x8):s32, -4@[sp, 12] (gcc) or -4@[sp, #12] (clang) +12(%sp):s32,
# -8@x9 %x9:s64, w registers x.
sdt_from_notes() {
	readelf -n "$1" | awk '
	function hex(s,   n, i, c) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	/Name:/ { name = $2 }
	/Location:/ { loc = $2; sub(/,$/, "", loc) }
	/Arguments:/ {
		line = name " " sprintf("0x%x", hex(loc)); k = 0
		for (i = 2; i <= NF; i++) {
			s = $i
			# gcc: "-4@[sp, 4]" is one operand over two fields
			while (s ~ /\[/ && s !~ /\]/ && i < NF) s = s $(++i)
			k++; size = s; sub(/@.*/, "", size); op = s; sub(/^[^@]*@/, "", op)
			t = (size < 0 ? "s" : "u") (size < 0 ? -size : size) * 8
			if (op ~ /^\[/) {
				gsub(/[\[\]#]/, "", op); n = split(op, p, ",")
				off = n > 1 ? p[2] + 0 : 0
				sub(/^w/, "x", p[1])
				op = (off < 0 ? off : "+" off) "(%" p[1] ")"
			} else {
				sub(/^w/, "x", op); op = "%" op
			}
			line = line " arg" k "=" op ":" t
		}
		print line
	}'
}

# compare_gdb BIN FUNC...: each variable of each FUNC, at our probe of it,
# where gdb-multiarch says it is there; the comparisons go to "compared".
# gdb speaks addresses, -D file offsets: FUNC's own (from "FUNC%return")
# relates them.  The probe is placed past the prologue only when there
# are variables to fetch (-O0), so its place is read with them.
compare_gdb() {
	_bin=$1
	shift
	for f in "$@"; do
		ent=$("$PERF" probe -x "$_bin" -D "$f%return" | sed -n 's/.*:\(0x[0-9a-f]*\)$/\1/p') &&
			base=$(gdb-multiarch -batch -ex "info address $f" "$_bin" | sed -n 's/.* at address \(0x[0-9a-f]*\)\.$/\1/p') &&
			names=$(gdb_locations "$_bin" "$f" "$base" | sed 's/=.*//' | tr '\n' ' ') &&
			off=$("$PERF" probe -x "$_bin" -D "$f $names" 2>/dev/null | sed -n 's/.*:\(0x[0-9a-f]*\) .*/\1/p; s/.*:\(0x[0-9a-f]*\)$/\1/p') &&
			addr=$(printf '0x%x' $((off + base - ent))) &&
			gdb_locations "$_bin" "$f" "$addr" | sed 's/(%fp)/(%s0)/' >want &&
			vars=$(sed 's/=.*//' want | tr '\n' ' ') &&
			our_locations "$_bin" "$f" "$vars" >got &&
			test_cmp_file want got &&
			sed "s/^/$_bin $f /" got >>compared || return 1
	done
}

# On the stack at -O0 (frame base sp or x29), in registers at -O2.
for opt in O0 O2; do
	case $opt in O0) where='(%sp)\|(%x29)' ;; O2) where='=%x[0-9]' ;; esac
	test_expect_success AARCH64_CC,GDB_MULTIARCH "-$opt: every variable is where gdb-multiarch says it is" "
		build_a64 a64_$opt -$opt &&
		: >compared &&
		compare_gdb a64_$opt handle main regs &&
		say \"-$opt: \$(wc -l <compared) variables at the same place as gdb-multiarch\" &&
		test_line_count -ge 6 compared &&
		grep -q '$where' compared
	"
done

# The same oracle over what Debian's cross gcc makes of the program.
test_expect_success AARCH64_GCC,GDB_MULTIARCH,READELF 'gcc-aarch64-linux-gnu: variables as gdb-multiarch says, SDT operands as the notes' '
	: >compared &&
	for opt in O0 O2; do
		build_a64 g64_$opt -$opt "$A64GCC" &&
		readelf -h g64_$opt | grep -q AArch64 &&
		compare_gdb g64_$opt handle main regs &&
		sdt_from_notes g64_$opt | sort >want &&
		test_line_count -eq 3 want &&
		: >got &&
		for ev in handled regs start; do
			"$PERF" probe -x g64_$opt -D "%$ev" >one &&
			sed -n "s|^p:sdt_cross/\([a-z]*\) .*:\(0x[0-9a-f]*\)|\1 \2|p" one >>got || exit 1
		done &&
		sort got >got1 && test_cmp_file want got1 || exit 1
	done &&
	say "gcc: $(wc -l <compared) variables at the same place as gdb-multiarch" &&
	test_line_count -ge 12 compared &&
	grep -q "g64_O0 .*(%x29)\|g64_O0 .*(%sp)" compared && grep -q "g64_O2 .*=%x[0-9]" compared
'

# riscv64: freestanding (there is no riscv64 sysroot here), linked by lld.
RVCC="clang --target=riscv64-linux-gnu -Wno-asm-operand-widths -ffreestanding -nostdlib -static -fuse-ld=lld"
test_lazy_prereq RISCV_CC "$RVCC -o rv-probe -x c - <<EOF
void _start(void) { for (;;); }
EOF"

test_expect_success RISCV_CC,GDB_MULTIARCH,READELF 'riscv64: variables as gdb-multiarch says, SDT operands as the notes' '
	: >compared &&
	for opt in O0 O2; do
		CC=$RVCC build_workload cross-rv rv_$opt -I"$TEST_TMP/inc" -g -$opt &&
		compare_gdb rv_$opt handle &&
		sdt_from_notes rv_$opt | cut -d" " -f3- >want &&
		"$PERF" probe -x rv_$opt -D %handled | cut -d" " -f3- >got &&
		test_cmp_file want got || exit 1
	done &&
	say "riscv64: $(wc -l <compared) variables at the same place as gdb-multiarch" &&
	grep -q "rv_O0 handle r=-24(%s0)" compared && grep -q "rv_O2 handle r=%a0" compared &&
	grep -q "arg1=%a0:s32 arg2=%a1:s32" got
'

test_expect_success AARCH64_CC,GDB_MULTIARCH 'the probe offsets are the addresses gdb-multiarch gives' '
	build_a64 a64_O2 -O2 &&
	for f in handle main regs; do
		want=$(gdb-multiarch -batch -ex "info address $f" a64_O2 | sed -n "s/.* at address \(0x[0-9a-f]*\)\.$/\1/p") &&
		# a PIE whose text segment starts at offset 0: offsets are addresses
		"$PERF" probe -x a64_O2 -D "$f%return" >got &&
		grep -q "a64_O2:$want\$" got || { cat got; echo "gdb: $want"; exit 1; }
	done
'

test_expect_success AARCH64_CC,READELF 'SDT operands: the notes, in the arm64 spelling, at their offsets' '
	build_a64 a64_O0 -O0 && build_a64 a64_O2 -O2 &&
	for b in a64_O0 a64_O2; do
		sdt_from_notes $b >want &&
		test_line_count -eq 3 want &&
		grep -q "=+0(%x[0-9]*):s32" want && grep -q "=%x[0-9]*:s64" want &&
		: >got &&
		for ev in handled regs start; do
			"$PERF" probe -x $b -D "%$ev" >one &&
			sed -n "s|^p:sdt_cross/\([a-z]*\) .*:\(0x[0-9a-f]*\)|\1 \2|p" one >>got || exit 1
		done &&
		sort want >want1 && sort got >got1 && test_cmp_file want1 got1 || exit 1
	done
'

test_expect_success AARCH64_CC,SYSTEM_PERF_PROBE '-D: the system perf prints the same registers and places' '
	build_a64 a64_O0 -O0 && build_a64 a64_O2 -O2 &&
	: >same &&
	for b in a64_O0 a64_O2; do
		for spec in "handle r seq" "main argc argv" "regs a b c" "handle%return \$retval" "handle+8" "regs"; do
			"$SYSTEM_PERF" probe -x $b -D "$spec" >exp 2>/dev/null || continue
			"$PERF" probe -x $b -D "$spec" >got 2>/dev/null &&
			# perf 6.1 leaves a pointer untyped off its own arch: x64 here
			sed "s/\(=[^ ]*\)\$/\1 /; s/ \([a-z]*=[^ :]*\) / \1:x64 /g; s/ \$//" exp >exp1 &&
			{ cmp -s exp got || cmp -s exp1 got || { cat exp got; exit 1; }; } &&
			echo "$b $spec" >>same
		done
	done &&
	say "$(wc -l <same) specs as the system perf resolves them" &&
	test_line_count -ge 8 same
'

test_expect_success AARCH64_CC 'raw fetchargs name the registers of the file, not of the host' '
	build_a64 a64_O2 -O2 &&
	"$PERF" probe -x a64_O2 -D "handle %x0 +8(%sp):u32 %pc" >got 2>/dev/null &&
	grep -q " %x0 +8(%sp):u32 %pc$" got &&
	test_refuses "$PERF" probe -x a64_O2 -D "handle %ax" &&
	grep -q "'"'"'%ax'"'"' is not a register of aarch64" err
'

test_expect_success AARCH64_CC '-V lists the variables of an aarch64 function' '
	build_a64 a64_O0 -O0 &&
	"$PERF" probe -x a64_O0 -V handle >out &&
	grep -q "struct req\*	r" out && grep -q "int	sum" out
'

test_expect_success AARCH64_CC,ROOT,TRACEFS '--cache -a: the cache keeps arm64 lines, tracefs is untouched' '
	test_probe_group probe_a64_O2 &&
	build_a64 a64_O2 -O2 &&
	_test_tracefs_snapshot >before &&
	"$PERF" probe -x a64_O2 --cache -a "handle r seq" 2>err &&
	grep -q "^Cached for AArch64 hosts (not placed on this x86-64 host):" err &&
	_test_tracefs_snapshot >after && test_cmp_file before after &&
	"$PERF" probe --cache --list >list &&
	grep -q "^handle r seq$" list &&
	grep -q "^p:probe_a64_O2/handle .*a64_O2:0x[0-9a-f]* r=%x0:x64 seq=%x1:s32$" "$(probes_file a64_O2)" &&
	"$PERF" buildid-cache --add a64_O2 &&
	"$PERF" probe --cache --list >list &&
	grep -q "^sdt_cross:regs=regs$" list &&
	grep -q "^p:sdt_cross/regs .* arg1=%x0:s32 arg2=%x1:s64 arg3=%x2:u8$" "$(probes_file a64_O2)" &&
	grep -q "^p:sdt_cross/handled .* arg1=+0(%x[0-9]*):s32" "$(probes_file a64_O2)" &&
	# what an arm64 host places: the cached line, found by build-id
	"$PERF" probe -x a64_O2 -D "handle r seq" 2>/dev/null >got &&
	grep -q " r=%x0:x64 seq=%x1:s32$" got
'

test_expect_success AARCH64_CC '--cache --export and --import carry the arm64 lines' '
	build_a64 a64_O2 -O2 &&
	"$PERF" probe -x a64_O2 --cache -n -a "main argc" 2>/dev/null &&
	"$PERF" probe --cache --export a64.bundle -x a64_O2 &&
	HOME=$TEST_TMP/host2 && mkdir -p "$HOME" && export HOME &&
	"$PERF" probe --cache --import a64.bundle &&
	"$PERF" probe --cache --list >list &&
	grep -q "^main argc$" list &&
	grep -q "^p:probe_a64_O2/main .* argc=%x0:s32$" "$(probes_file a64_O2)"
'

test_expect_success AARCH64_CC,ROOT,TRACEFS 'an aarch64 file without --cache: one line, nothing placed' '
	build_a64 a64_O2 -O2 &&
	test_refuses --tracefs "$PERF" probe -x a64_O2 -a "handle r" &&
	grep -q "^Error: a64_O2 is an AArch64 file: this x86-64 host can not place its probes" err
'

test_expect_success AARCH64_CC 'a file of a machine without registers: one line, nothing placed' '
	build_a64 ppc -O2 &&
	# e_machine (offset 18, little-endian) := EM_PPC64 (21)
	printf "\025\000" | dd of=ppc bs=1 seek=18 conv=notrunc 2>/dev/null &&
	readelf -h ppc | grep -q "PowerPC64" &&
	for args in "-D handle" "-a handle" "--cache -a handle" "-V handle" "-D %regs"; do
		# shellcheck disable=SC2086
		test_refuses "$PERF" probe -x ppc $args &&
		grep -q "^Error: ppc is an ELF file for PowerPC64, a machine perf probe has no registers for$" err ||
			exit 1
	done
'

test_done
