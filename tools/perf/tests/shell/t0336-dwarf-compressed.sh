#!/bin/sh
test_description='compressed DWARF (zlib SHF_COMPRESSED, .zdebug, a compressed separate debug file) gives what uncompressed DWARF gives, inflated page by page'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# One C++ program (namespaces, a class with methods, a template, an inline
# function of a header used from two units, struct and string parameters,
# a C unit, and a generated unit of 150 functions so that .debug_info
# spans pages), built at -O0 and -O2 without compression (ref-O*/prog)
# and as:
#	gz-O*/prog	g++ -gz=zlib at compile and link (its own build-id)
#	oc-O*/prog	objcopy --compress-debug-sections=zlib of ref's
#	gnu-O*/prog	objcopy --compress-debug-sections=zlib-gnu (.zdebug_*,
#			which libelf inflates whole: not a lazy region)
#	deb-O*/prog	as Debian ships it: ref's stripped, its debug file
#			(--only-keep-debug, then zlib) prog.debug beside it,
#			found through .gnu_debuglink
#	zst-O*/prog	oc's with its sections zstd (lib.sh zstd_sections:
#			binutils 2.40 makes none), which libelf 0.188 and
#			perf 6.1 do not read; always on the lazy path
# Each is named prog in a directory of its own, so the event names are
# the same; outputs are compared with the directory replaced by BIN/.
# Every compressed section is small: PERF_DEBUGINFO_LAZY_MIN=1 puts them
# on the lazy path (1 MiB and more take it by default).

test_lazy_prereq OBJCOPY 'command -v objcopy && command -v strip && command -v readelf'

VARIANTS='gz oc gnu deb'

test_expect_success CXX,GCC,OBJCOPY 'setup: a C++ program of several units, compressed four ways' '
	cat >geo.h <<-\EOT &&
	#ifndef GEO_H
	#define GEO_H
	extern "C" {
	struct tally { int count; long total; const char *tag; };
	long tally_add(struct tally *t, int v, const char *why);
	}
	namespace geo {
	struct Point {
		int x;
		long y;
		const char *label;
	};
	class Shape {
	public:
		explicit Shape(const char *name) : name_(name), sides_(0) {}
		int area(int scale) const;
		void rename(const char *name);
		long move(Point *p, int dx);
		const char *name_;
		int sides_;
	};
	template <typename T> T clampv(T v, T lo, T hi)
	{
		if (v < lo)
			return lo;
		if (v > hi)
			return hi;
		return v;
	}
	inline int mix(int a, int b)
	{
		int m = a * 31 + b;

		if (m < 0)
			m = -m;
		return m % 1000;
	}
	int spread(const Point *p, int n);
	}
	#endif
	EOT
	cat >shape.cc <<-\EOT &&
	#include "geo.h"
	namespace geo {
	__attribute__((noinline)) int Shape::area(int scale) const
	{
		int a = sides_ * scale;

		a += mix(a, scale);
		return clampv<int>(a, 0, 100000);
	}
	__attribute__((noinline)) void Shape::rename(const char *name)
	{
		if (name && *name)
			name_ = name;
		sides_ += mix(sides_, 3);
	}
	__attribute__((noinline)) long Shape::move(Point *p, int dx)
	{
		long d = p->x + dx;

		p->x = (int)d;
		p->y += clampv<long>(d, -50, 50);
		return d + p->y;
	}
	}
	EOT
	cat >spread.cc <<-\EOT &&
	#include "geo.h"
	namespace geo {
	__attribute__((noinline)) int spread(const Point *p, int n)
	{
		int s = 0;

		for (int i = 0; i < n; i++) {
			s += mix(p[i].x, (int)p[i].y);
			s = clampv<int>(s, -1000, 1000);
		}
		return s;
	}
	}
	EOT
	cat >main.cc <<-\EOT &&
	#include "geo.h"
	long gen_all(int x);
	int main(int argc, char **argv)
	{
		geo::Point pts[2] = { { argc, 2, "a" }, { 3, argc * 4L, "b" } };
		geo::Shape s(argv[0]);
		struct tally t = { 0, 0, "main" };

		s.rename(argc > 1 ? argv[1] : "square");
		s.move(&pts[0], argc);
		tally_add(&t, s.area(argc), s.name_);
		return (geo::spread(pts, 2) + (int)t.total + (int)gen_all(argc)) & 1;
	}
	EOT
	cat >tally.c <<-\EOT &&
	#include <string.h>
	struct tally { int count; long total; const char *tag; };
	__attribute__((noinline)) long tally_add(struct tally *t, int v, const char *why)
	{
		long before = t->total;

		t->count++;
		t->total += v + (long)strlen(why);
		if (t->total < before)
			t->tag = why;
		return t->total;
	}
	EOT
	{
		echo "namespace gen {" &&
		echo "struct rec { int a; long b; rec *next; char name[16]; };" &&
		j=0 &&
		while [ $j -lt 150 ]; do
			cat <<-EOT
			__attribute__((noinline)) long g$j(rec *p, int x)
			{
				long y = x * 2 + $j;

				if (p && p->a > y)
					y += p->b + p->next->a;
				return y + (p ? p->name[$j % 16] : 0);
			}
			EOT
			j=$((j + 1))
		done &&
		echo "}" &&
		echo "long gen_all(int x) { return gen::g0(0, x) + gen::g149(0, x); }"
	} >gen.cc &&
	for o in O0 O2; do
		mkdir ref-$o gz-$o oc-$o gnu-$o deb-$o &&
		"${CC:-gcc}" -g -$o -c -o tally-$o.o tally.c &&
		$CXX -g -$o -o ref-$o/prog main.cc shape.cc spread.cc gen.cc tally-$o.o &&
		"${CC:-gcc}" -g -$o -gz=zlib -c -o tallyz-$o.o tally.c &&
		$CXX -g -$o -gz=zlib -o gz-$o/prog main.cc shape.cc spread.cc gen.cc tallyz-$o.o &&
		objcopy --compress-debug-sections=zlib ref-$o/prog oc-$o/prog &&
		objcopy --compress-debug-sections=zlib-gnu ref-$o/prog gnu-$o/prog &&
		objcopy --only-keep-debug ref-$o/prog deb-$o/prog.debug &&
		objcopy --compress-debug-sections=zlib deb-$o/prog.debug &&
		strip --strip-unneeded --remove-section=.comment -o deb-$o/prog ref-$o/prog &&
		(cd deb-$o && objcopy --add-gnu-debuglink=prog.debug prog) || exit 1
		# The build-id kept, the sections compressed as said.
		id=$(build_id_of ref-$o/prog) &&
		test -n "$id" &&
		for v in oc gnu deb; do
			test "$(build_id_of $v-$o/prog)" = "$id" || exit 1
		done &&
		for f in gz-$o/prog oc-$o/prog deb-$o/prog.debug; do
			readelf -SW $f 2>/dev/null | grep -Eq "\.debug_info +PROGBITS .* C " ||
				{ echo "$f: no SHF_COMPRESSED .debug_info"; exit 1; }
		done &&
		readelf -SW gnu-$o/prog | grep -q "\.zdebug_info " &&
		! readelf -SW deb-$o/prog | grep -q "\.debug_info" || exit 1
	done &&
	# The damaged copies of oc-O0 (see the cases at the end).
	cat >patch.py <<-\EOT &&
	import struct, sys
	how, src, dst = sys.argv[1:4]
	d = bytearray(open(src, "rb").read())
	shoff, = struct.unpack_from("<Q", d, 0x28)
	shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
	stroff, = struct.unpack_from("<Q", d, shoff + shstrndx * shentsize + 0x18)
	for i in range(shnum):
	    h = shoff + i * shentsize
	    name, = struct.unpack_from("<I", d, h)
	    if not d[stroff + name:].startswith(b".debug_info\0"):
	        continue
	    off, size = struct.unpack_from("<QQ", d, h + 0x18)
	    # The Elf64_Chdr: ch_type, ch_reserved, ch_size, ch_addralign.
	    if how == "flip":
	        mid = off + 24 + (size - 24) // 2
	        for j in range(mid, mid + 64):
	            d[j] ^= 0x5a
	    elif how == "double":
	        ch, = struct.unpack_from("<Q", d, off + 8)
	        struct.pack_into("<Q", d, off + 8, 2 * ch)
	    elif how == "huge":
	        struct.pack_into("<Q", d, off + 8, 1 << 40)
	    elif how == "cut":
	        struct.pack_into("<Q", d, h + 0x20, size // 2)
	    break
	else:
	    sys.exit(src + ": no .debug_info")
	open(dst, "wb").write(d)
	EOT
	if command -v python3 >/dev/null; then
		for how in flip double huge cut; do
			mkdir bad-$how &&
			python3 patch.py $how oc-O0/prog bad-$how/prog &&
			chmod +x bad-$how/prog || exit 1
		done &&
		mkdir bad-debug && cp deb-O0/prog bad-debug/ &&
		python3 patch.py flip deb-O0/prog.debug bad-debug/prog.debug
	fi
'
test_have_prereq CXX,GCC,OBJCOPY && [ -x deb-O2/prog ] && test_set_prereq BUILT

test_lazy_prereq ZSTD 'command -v zstd'
test_expect_success BUILT,PYTHON3,ZSTD 'setup: the same sections as zstd frames' '
	for o in O0 O2; do
		mkdir zst-$o &&
		zstd_sections oc-$o/prog zst-$o/prog >zst-$o/sections &&
		chmod +x zst-$o/prog &&
		grep -qx .debug_info zst-$o/sections || exit 1
	done
'
[ -x zst-O2/prog ] && VARIANTS="$VARIANTS zst" && test_set_prereq ZSTD_BUILT

# run NAME DIR CMD...: CMD (perf, or env VAR=... perf) into NAME.out,
# NAME.err and NAME.rc, the directory $TEST_TMP/DIR/ spelled BIN/.
run() {
	_n=$1 _d=$2
	shift 2
	"$@" >"$_n.raw" 2>"$_n.rawerr"
	echo $? >"$_n.rc"
	sed "s|$TEST_TMP/$_d/|BIN/|g" "$_n.raw" >"$_n.out"
	sed "s|$TEST_TMP/$_d/|BIN/|g" "$_n.rawerr" >"$_n.err"
}

# same_all VARIANT BUILD ARGS...: perf ARGS (probe ... -x BIN) on
# VARIANT-BUILD/prog, on the default path, with PERF_DEBUGINFO_LAZY_MIN=1
# (through ISA-L, and through zlib with PERF_LAZY_INFLATE=zlib) and with
# PERF_LAZY_SECTION=mprotect too: the stdout, stderr and status of
# ref-BUILD/prog, which succeeded; with PERF_DEBUGINFO_LAZY_MIN=1 -v the
# SHF_COMPRESSED variants say they inflated pages on a fault.
same_all() {
	_v=$1 _o=$2 _cmd=$3
	shift 3
	_x=$TEST_TMP/$_v-$_o/prog
	run ref "ref-$_o" "$PERF" "$_cmd" -x "$TEST_TMP/ref-$_o/prog" "$@"
	run def "$_v-$_o" "$PERF" "$_cmd" -x "$_x" "$@"
	run lazy "$_v-$_o" env PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" "$_cmd" -x "$_x" "$@"
	run prot "$_v-$_o" env PERF_LAZY_SECTION=mprotect PERF_DEBUGINFO_LAZY_MIN=1 \
		"$PERF" "$_cmd" -x "$_x" "$@"
	run zlib "$_v-$_o" env PERF_LAZY_INFLATE=zlib PERF_DEBUGINFO_LAZY_MIN=1 \
		"$PERF" "$_cmd" -x "$_x" "$@"
	_bad=
	for _r in def lazy prot zlib; do
		for _f in out err rc; do
			cmp -s "ref.$_f" "$_r.$_f" || _bad="$_bad $_r.$_f"
		done
	done
	[ "$(cat ref.rc)" = 0 ] && [ -s ref.out ] || _bad="$_bad ref-failed"
	if [ "$_v" != gnu ]; then
		PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" "$_cmd" -v -x "$_x" "$@" >/dev/null 2>lazy.v
		grep -Eq "pages of a compressed section inflated, [1-9][0-9]* on a fault" lazy.v ||
			_bad="$_bad no-fault"
	fi
	[ -z "$_bad" ] && return 0
	echo "== $_v-$_o: perf $_cmd $* (differ:$_bad)"
	for _r in def lazy prot zlib; do
		echo "-- $_r: status $(cat ref.rc) -> $(cat "$_r.rc")"
		diff ref.out "$_r.out"
		diff ref.err "$_r.err"
	done
	grep "debuginfo:" lazy.v
	return 1
}

# The specs: a method by its mangled and its plain name (a member through
# this), member and string arguments, FUNC:N, SRC:LINE, a return value,
# $vars, the inline function of the header (used from two units), the C
# unit's struct and string parameters, a generated function late in
# .debug_info.
SPECS_O2='_ZNK3geo5Shape4areaEi scale
geo::Shape::area scale this->sides_
geo::Shape::move p->x p->y p->label:string dx
geo::spread:4 s
shape.cc:14
spread.cc:9
geo::Shape::area%return $retval
tally_add t->count t->total t->tag:string why:string
geo::Shape::rename name:string
geo::mix a b
gen::g77 $vars
gen::g149 p->next->b x'
# The template is all inlined at -O2.
SPECS_O0="$SPECS_O2
geo::clampv<int> v lo"
VIEWS='-V geo::Shape::move
-V tally_add
-V geo::spread:5
-V gen::g100 --externs
-L geo::Shape::area
-L shape.cc:3-20
-L tally_add
-L gen::g120'

for v in $VARIANTS; do
	V=$v
	test_expect_success BUILT "$v: -D of methods, lines, members, strings and returns as uncompressed" '
		: >differ &&
		for o in O0 O2; do
			eval "specs=\$SPECS_$o" &&
			while IFS= read -r spec; do
				same_all $V $o probe -D "$spec" >>differ 2>&1 ||
					echo "!! $V-$o $spec" >>differ
			done <<-EOT || exit 1
			$specs
			EOT
		done &&
		cat differ && test ! -s differ
	'
	test_expect_success BUILT "$v: -V and -L as uncompressed" '
		: >differ &&
		for o in O0 O2; do
			while IFS= read -r view; do
				# shellcheck disable=SC2086 # the view is an option and its arguments
				same_all $V $o probe $view >>differ 2>&1 ||
					echo "!! $V-$o $view" >>differ
			done <<-EOT || exit 1
			$VIEWS
			EOT
		done &&
		cat differ && test ! -s differ
	'
done

test_expect_success ZSTD_BUILT,SYSTEM_PERF 'perf 6.1 reads no zstd DWARF (libelf 0.188): we do' '
	! "$SYSTEM_PERF" probe -x "$TEST_TMP/zst-O0/prog" -D "geo::Shape::move dx" >theirs 2>&1 &&
	"$PERF" probe -x "$TEST_TMP/zst-O0/prog" -D "geo::Shape::move dx" >ours &&
	grep -q " dx=" ours
'

test_expect_success BUILT 'a spec that is not there fails the same way on every variant' '
	: >differ &&
	run exp ref-O0 "$PERF" probe -x "$TEST_TMP/ref-O0/prog" -D "geo::Shape::nosuch x" &&
	test "$(cat exp.rc)" != 0 &&
	for v in $VARIANTS; do
		for lazy in 0x7fffffffffffffff 1; do
			run got $v-O0 env PERF_DEBUGINFO_LAZY_MIN=$lazy \
				"$PERF" probe -x "$TEST_TMP/$v-O0/prog" -D "geo::Shape::nosuch x"
			cmp -s exp.err got.err && cmp -s exp.rc got.rc ||
				{ echo "== $v $lazy"; diff exp.err got.err; } >>differ
		done
	done &&
	cat differ && test ! -s differ
'

test_expect_success BUILT 'small compressed sections are inflated whole by default, lazily when asked' '
	"$PERF" probe -v -x "$TEST_TMP/oc-O0/prog" -D "geo::Shape::area scale" >out 2>err &&
	! grep "compressed section inflated" err &&
	PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" probe -v -x "$TEST_TMP/oc-O0/prog" \
		-D "geo::Shape::area scale" >out 2>err &&
	grep "compressed section inflated" err >lines &&
	# .debug_info (5 pages here) is read only where libdw looks.
	grep -Eq "^debuginfo: [0-9]+ of [0-9]+ pages of a compressed section inflated, [0-9]+ on a fault \((userfaultfd|mprotect)\), [0-9]+ KiB inflated \(ISA-L\), [0-9]+ restarts$" lines &&
	PERF_LAZY_INFLATE=zlib PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" probe -v -x "$TEST_TMP/oc-O0/prog" \
		-D "geo::Shape::area scale" >out 2>err &&
	grep "compressed section inflated" err >lines &&
	! grep -v "KiB inflated (zlib)" lines &&
	PERF_LAZY_SECTION=mprotect PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" probe -v \
		-x "$TEST_TMP/oc-O0/prog" -D "geo::Shape::area scale" >out 2>err &&
	grep "compressed section inflated" err >lines &&
	! grep -v "(mprotect)" lines
'

# refuses_corrupt BAD GOOD MODE SPEC: perf probe -x BAD MODE SPEC, in at
# most 60 s and 2 GB of address space, exits non-zero (not through the
# timeout, nor a signal: the statuses test_must_fail counts as one), and
# its stderr is one line saying the debuginfo is corrupt, besides perf's
# trailers ("  Error: Failed to add events.").  On the lazy path
# (PERF_DEBUGINFO_LAZY_MIN set) a command that never reads as far as the
# damage may answer instead, from bytes that are the section's own: then
# its stdout, stderr and status are those of GOOD, the intact file.
refuses_corrupt() {
	_bad=$1 _good=$2
	shift 2
	# shellcheck disable=SC3045 # dash, the sh of the tests, has ulimit -v
	(ulimit -v 2000000 && timeout 60 "$PERF" probe -x "$_bad" "$@") >out 2>err
	rc=$?
	grep -v "^  Error: " err >err1
	case $rc in
	0 | 124 | 130 | 131 | 132 | 133 | 134 | 135 | 136 | 137 | 139 | 141 | 143) ;;
	*) [ "$(wc -l <err1)" = 1 ] && grep -q corrupt err1 && return 0 ;;
	esac
	if [ -n "${PERF_DEBUGINFO_LAZY_MIN:-}" ] && [ "$rc" != 124 ] && [ "$rc" -lt 128 ]; then
		"$PERF" probe -x "$_good" "$@" >good.out 2>good.err
		good=$?
		sed "s|$_good|$_bad|g" good.out >good.out1
		sed "s|$_good|$_bad|g" good.err >good.err1
		[ "$rc" = "$good" ] && cmp -s good.out1 out && cmp -s good.err1 err && return 0
	fi
	echo "== perf probe -x $_bad $* (status $rc)"
	cat out err
	return 1
}

# corrupt_cases FILE GOOD: each mode refuses FILE as corrupt, or on the
# lazy path answers as GOOD; what did not, on stdout.
corrupt_cases() {
	refuses_corrupt "$1" "$2" -D geo::Shape::move
	refuses_corrupt "$1" "$2" -D "gen::g149 p->next->b x"
	refuses_corrupt "$1" "$2" -D shape.cc:14
	refuses_corrupt "$1" "$2" -V geo::Shape::move
	refuses_corrupt "$1" "$2" -V gen::g120
	refuses_corrupt "$1" "$2" -L geo::Shape::area
	refuses_corrupt "$1" "$2" -L gen::g120
	return 0
}

for how in flip double huge cut; do
	case $how in
	flip) what="its deflate bytes flipped in the middle" ;;
	double) what="a ch_size of twice what it inflates to" ;;
	huge) what="a ch_size of 1 << 40" ;;
	cut) what="its compressed bytes cut in half (sh_size)" ;;
	esac
	for lazy in "" isal zlib; do
		HOW=$how LAZY=$lazy
		test_expect_success BUILT,PYTHON3,NOT_SANITIZE \
			"a .debug_info with $what${lazy:+ (PERF_DEBUGINFO_LAZY_MIN=1, $lazy)}: refused as corrupt or read only where intact, no hang" '
			: >differ &&
			if [ -n "$LAZY" ]; then
				PERF_DEBUGINFO_LAZY_MIN=1 PERF_LAZY_INFLATE=$LAZY
				export PERF_DEBUGINFO_LAZY_MIN PERF_LAZY_INFLATE
			fi &&
			corrupt_cases "$TEST_TMP/bad-$HOW/prog" "$TEST_TMP/oc-O0/prog" >differ 2>&1 &&
			cat differ && test ! -s differ
		'
	done
done

test_expect_success BUILT,PYTHON3,NOT_SANITIZE 'a corrupt compressed debug file found by its debuglink: refused as corrupt' '
	corrupt_cases "$TEST_TMP/bad-debug/prog" "$TEST_TMP/deb-O0/prog" >differ 2>&1 &&
	PERF_DEBUGINFO_LAZY_MIN=1 &&
	export PERF_DEBUGINFO_LAZY_MIN &&
	corrupt_cases "$TEST_TMP/bad-debug/prog" "$TEST_TMP/deb-O0/prog" >>differ 2>&1 &&
	PERF_LAZY_INFLATE=zlib &&
	export PERF_LAZY_INFLATE &&
	corrupt_cases "$TEST_TMP/bad-debug/prog" "$TEST_TMP/deb-O0/prog" >>differ 2>&1 &&
	cat differ && test ! -s differ
'

test_done
