#!/bin/sh
# make bench: each case for our perf and the system perf, in one run, with
# several repetitions; prints the median wall time and peak RSS of both and
# the ratio ours/perf.  Cases whose corpus is absent are skipped with a reason.
#
#   REPS=5 (repetitions, three times that for cases under 50 ms)
#   CASES="pattern" (run only matching case names)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OURS=${OURS:-$top/tools/perf/perf}
THEIRS=${THEIRS:-/usr/bin/perf}
REPS=${REPS:-5}
CASES=${CASES:-}
WORK=${BENCH_WORK:-$top/bench/.work}
mkdir -p "$WORK"
TIMEIT="$WORK/timeit"
${CC:-gcc} -O2 -o "$TIMEIT" "$top/bench/timeit.c" || exit 1
export HOME="$WORK/home"
mkdir -p "$HOME"

# The first match of a glob, or empty.
first() {
	for f in "$@"; do
		[ -e "$f" ] && echo "$f" && return
	done
}
VMLINUX=$(first /usr/lib/debug/boot/vmlinux-6.1.0-*-cloud-amd64)
PY=/usr/bin/python3.11d
[ -x "$PY" ] || PY=$(first /usr/bin/python3.*d)

# median of the numbers on stdin
median() {
	sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# The repetitions of a case whose first run is in FILE: 3 x REPS under
# 50 ms, where a millisecond of noise is a tenth of the ratio.
reps_after() {
	if [ "$(head -n 1 "$1" | awk '{ print ($1 != "fail" && $1 < 0.05) }')" = 1 ]; then
		echo $((REPS * 3))
	else
		echo "$REPS"
	fi
}

# measure OUTFILE CMD...: REPS runs; "seconds maxrss_kb" per line in OUTFILE,
# or "fail" when the command fails (its stderr is kept in OUTFILE.err).
measure() {
	out=$1
	shift
	"$TIMEIT" 1 "$@" >"$out"
	_reps=$(reps_after "$out")
	[ "$_reps" -gt 1 ] && "$TIMEIT" $((_reps - 1)) "$@" >>"$out"
	if grep -q fail "$out"; then
		TIMEIT_STDERR=1 "$TIMEIT" 1 "$@" 2>"$out.err" >/dev/null
	fi
}

header_done=
report() {
	name=$1 ours=$2 theirs=$3
	if [ -z "$header_done" ]; then
		printf '%-34s %10s %10s %7s %10s %10s %7s\n' case "ours ms" "perf ms" ratio "ours MB" "perf MB" ratio
		header_done=1
	fi
	if grep -q fail "$ours"; then
		printf '%-34s %s\n' "$name" "ours failed: $(head -c 200 "$ours.err" | head -n 1)"
		return
	fi
	ot=$(cut -d' ' -f1 "$ours" | median) om=$(cut -d' ' -f2 "$ours" | median)
	if grep -q fail "$theirs"; then
		printf '%-34s %10.1f %10s %7s %10.1f %10s %7s\n' "$name" "$(echo "$ot * 1000" | bc -l)" fail - \
			"$(echo "$om / 1024" | bc -l)" fail -
		return
	fi
	tt=$(cut -d' ' -f1 "$theirs" | median) tm=$(cut -d' ' -f2 "$theirs" | median)
	printf '%-34s %10.1f %10.1f %7.2f %10.1f %10.1f %7.2f\n' "$name" \
		"$(echo "$ot * 1000" | bc -l)" "$(echo "$tt * 1000" | bc -l)" \
		"$(echo "if ($tt > 0) $ot / $tt else 0" | bc -l)" \
		"$(echo "$om / 1024" | bc -l)" "$(echo "$tm / 1024" | bc -l)" \
		"$(echo "if ($tm > 0) $om / $tm else 0" | bc -l)"
}

skip() {
	printf '%-34s skipped: %s\n' "$1" "$2"
}

want() {
	[ -z "$CASES" ] && return 0
	case "$1" in *$CASES*) return 0 ;; esac
	return 1
}

# bench_both [--apart] NAME ARGS...: perf ARGS for both.  --apart: a
# command that changes what its next run finds (buildid-cache -f -a
# rewrites the entry): each tool's runs in a row, each after its own.
bench_both() {
	if [ "$1" = --apart ]; then
		name=$2
		shift 2
		want "$name" || return 0
		sync
		measure "$WORK/o" "$OURS" "$@"
		measure "$WORK/t" "$THEIRS" "$@"
		report "$name" "$WORK/o" "$WORK/t"
		return
	fi
	name=$1
	shift
	want "$name" || return 0
	# Dirty pages of the last case written back first; then ours and
	# theirs taken in turn, so a disturbance (writeback, another process)
	# falls on both rather than on the REPS runs of one.
	sync
	: >"$WORK/o"
	: >"$WORK/t"
	_i=0 _reps=$REPS
	while [ "$_i" -lt "$_reps" ]; do
		"$TIMEIT" 1 "$OURS" "$@" >>"$WORK/o"
		"$TIMEIT" 1 "$THEIRS" "$@" >>"$WORK/t"
		[ "$_i" = 0 ] && _reps=$(reps_after "$WORK/t")
		_i=$((_i + 1))
	done
	for _f in o t; do
		if grep -q fail "$WORK/$_f"; then
			[ $_f = o ] && _cmd=$OURS || _cmd=$THEIRS
			TIMEIT_STDERR=1 "$TIMEIT" 1 "$_cmd" "$@" 2>"$WORK/$_f.err" >/dev/null
		fi
	done
	report "$name" "$WORK/o" "$WORK/t"
}

# bench_changed NAME ARGS...: perf ARGS for both, each run after a change
# to the build-id cache (a link made again in .build-id/00).
bench_changed() {
	name=$1
	shift
	want "$name" || return 0
	# shellcheck disable=SC2016 # expanded by the wrapper shell
	wrap='ln -sfn "../../gone/$$" "$HOME/.debug/.build-id/00/ffffff" && exec "$0" "$@"'
	measure "$WORK/o" sh -c "$wrap" "$OURS" "$@"
	measure "$WORK/t" sh -c "$wrap" "$THEIRS" "$@"
	report "$name" "$WORK/o" "$WORK/t"
}

echo "# $(date -u '+%Y-%m-%d %H:%M') REPS=$REPS ours=$OURS perf=$($THEIRS version 2>/dev/null)"

# 1. Kernel DWARF resolution on the Debian vmlinux.
if [ -n "$VMLINUX" ]; then
	bench_both "vmlinux: vfs_read file count" probe -k "$VMLINUX" -D 'vfs_read file count'
	bench_both "vmlinux: struct member" probe -k "$VMLINUX" -D 'vfs_read file->f_pos'
else
	skip "vmlinux DWARF" "no vmlinux (apt-get install linux-image-6.1.0-57-cloud-amd64-dbg)"
fi

# 1b. BTF (issue 16): ours from the running kernel's /sys/kernel/btf/vmlinux,
# no DWARF at all, against perf's DWARF resolution of the same spec on the
# Debian vmlinux (perf 6.1 can not use BTF).
name="btf: vfs_read file count"
if ! want "$name"; then
	:
elif [ -z "$VMLINUX" ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip "$name" "needs /sys/kernel/btf/vmlinux and the Debian vmlinux"
else
	measure "$WORK/o" "$OURS" probe -D 'vfs_read file count'
	measure "$WORK/t" "$THEIRS" probe -k "$VMLINUX" -D 'vfs_read file count'
	report "$name" "$WORK/o" "$WORK/t"
fi

# 2. User DWARF resolution on python3.11d.
if [ -n "$PY" ] && [ -x "$PY" ]; then
	bench_both "python3.11d: PyList_Append" probe -x "$PY" -D 'PyList_Append op newitem'
	bench_both "python3.11d: member" probe -x "$PY" -D 'PyList_Append op->ob_refcnt'
	bench_both "python3.11d: return" probe -x "$PY" -D "PyDict_GetItem%return \$retval"
	# a line: its place checked to start an instruction (issue 27)
	bench_both "python3.11d: line" probe -x "$PY" -D 'PyList_Append:3'
else
	skip "python3.11d DWARF" "no python3.11d (apt-get install python3.11-dbg)"
fi

# 3. 20 cached probes placed on a stripped copy of python3.11d (-n: no tracefs).
if [ -n "$PY" ] && [ -x "$PY" ] && want "cached"; then
	cp "$PY" "$WORK/python.dbg"
	strip -g -o "$WORK/python.stripped" "$WORK/python.dbg"
	funcs="PyList_Append PyList_New PyDict_New PyDict_SetItem PyDict_GetItem PyObject_Repr \
PyObject_Str PyObject_Hash PyLong_FromLong PyLong_AsLong PyFloat_FromDouble PyTuple_New \
PyUnicode_FromString PyBytes_FromString PyErr_SetString PyErr_Occurred PyImport_ImportModule \
PyObject_GetAttr PyObject_SetAttr PyIter_Next"
	set --
	for f in $funcs; do set -- "$@" -a "$f"; done
	rm -rf "$HOME/.debug"
	"$THEIRS" probe --cache -n -q -x "$WORK/python.dbg" "$@" >/dev/null 2>&1
	cp "$WORK/python.stripped" "$WORK/python.dbg.s"
	# the stripped copy replaces the -g file at the cached path
	mv "$WORK/python.dbg.s" "$WORK/python.dbg"
	bench_both "20 cached probes, stripped" probe -n -q -x "$WORK/python.dbg" "$@"
fi

# 4. buildid-cache --add of python3.11 with its SDT markers.
if [ -x /usr/bin/python3.11 ] && want "buildid-cache"; then
	# -f: the file is added again in full each time, SDT scan included
	bench_both --apart "buildid-cache --add python3.11" buildid-cache -f -a /usr/bin/python3.11
fi

# fake_cache N ROOT: N binaries (one tiny program, each copy patched to its
# own build-id, spread as hashes are: perf skips entries whose binary is
# gone) in $WORK/binshN and
# their build-id cache entries under ROOT, each with two cached probes,
# written directly in the on-disk layout.  Kept between runs.
fake_cache() {
	[ -e "$2/.done3" ] && return 0
	rm -rf "$2"
	printf 'int main(void){return 0;}\n' >"$WORK/tiny.c"
	${CC:-gcc} -o "$WORK/tiny" "$WORK/tiny.c" -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567
	# main's real offset: the cached lines must pass the check of placed lines
	off=$("$OURS" probe -x "$WORK/tiny" -D main 2>/dev/null | sed -n 's/.*:\(0x[0-9a-f]*\)$/\1/p')
	[ -n "$off" ] || return 1
	python3 - "$WORK" "$2" "$1" "$off" <<'PY' || return 1
import hashlib, os, sys
work, root, n, off = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
tiny = open(work + '/tiny', 'rb').read()
mark = bytes.fromhex('0123456789abcdef0123456789abcdef01234567')
bins = '%s/binsh%d' % (work, n)
os.makedirs(bins, exist_ok=True)
for i in range(n):
    # spread over .build-id/XX as real (hash) build-ids are
    bid = hashlib.sha1(b'fake build %d' % i).hexdigest()
    name = '%s/b%d' % (bins, i)
    if not os.path.exists(name):
        with open(name, 'wb') as f:
            f.write(tiny.replace(mark, bytes.fromhex(bid)))
        os.chmod(name, 0o755)
    d = root + name + '/' + bid
    os.makedirs(d, exist_ok=True)
    with open(d + '/probes', 'w') as f:
        f.write('#main\np:probe_b%d/main %s:%s\n#main%%return\nr:probe_b%d/main__return %s:%s\n' % (i, name, off, i, name, off))
    if not os.path.exists(d + '/elf'):
        os.link(name, d + '/elf')
    l = root + '/.build-id/' + bid[:2]
    os.makedirs(l, exist_ok=True)
    try:
        os.symlink('../..' + name + '/' + bid, l + '/' + bid[2:])
    except FileExistsError:
        pass
PY
	touch "$2/.done3"
}

# 5. --cache --list over a cache of 1,000 binaries.
if want "cache --list"; then
	rm -rf "$HOME/.debug"
	fake_cache 1000 "$HOME/.debug"
	bench_both "cache --list, 1000 binaries" probe --cache --list
fi

# 5b. An SDT event with no -x: found by searching every cached binary, in
# caches of 1,000 and 10,000 binaries that also hold python3.11.
if [ -x /usr/bin/python3.11 ] && want "sdt search"; then
	home=$HOME
	for n in 1000 10000; do
		export HOME="$WORK/home-sdt$n"
		fake_cache "$n" "$HOME/.debug" &&
			"$THEIRS" buildid-cache -a /usr/bin/python3.11 2>/dev/null
		bench_both "sdt search, $n binaries" probe -n -q -a sdt_python:function__entry
		# The first search after the cache changed: before each run a
		# link is made in .build-id/00, the bucket that holds all the
		# fake builds (the worst case of the index's update).
		bench_changed "sdt search after a change, $n" probe -n -q -a sdt_python:function__entry
	done
	export HOME="$home"
fi

# median_ms FILE: the median wall time of a measure file, in ms.
median_ms() {
	cut -d' ' -f1 "$1" | median | awk '{ printf "%.1f", $1 * 1000 }'
}

# The same in seconds, unrounded (for ratios of sub-millisecond cases).
median_s() {
	cut -d' ' -f1 "$1" | median
}

# 5c. The cache's growth (issue 20): a cached add, --cache --list and a
# %EVENT add without -x, in caches of 1,000 and 10,000 binaries (the same
# as 5b: they also hold python3.11); each must grow less than 2x.
if [ -x /usr/bin/python3.11 ] && want "growth"; then
	home=$HOME
	for n in 1000 10000; do
		export HOME="$WORK/home-sdt$n"
		fake_cache "$n" "$HOME/.debug" &&
			"$THEIRS" buildid-cache -a /usr/bin/python3.11 2>/dev/null
		bench_both "growth: cached add, $n" probe -n -q -x "$WORK/binsh$n/b$((n / 2))" -a main
		cp "$WORK/o" "$WORK/growth-add-$n"
		bench_both "growth: cache --list, $n" probe --cache --list
		cp "$WORK/o" "$WORK/growth-list-$n"
		bench_both "growth: %EVENT add no -x, $n" probe -n -q -a %sdt_python:function__entry
		cp "$WORK/o" "$WORK/growth-sdt-$n"
	done
	export HOME="$home"
	for what in add list sdt; do
		if [ ! -s "$WORK/growth-$what-1000" ] || [ ! -s "$WORK/growth-$what-10000" ]; then
			continue
		fi
		a=$(median_ms "$WORK/growth-$what-1000") b=$(median_ms "$WORK/growth-$what-10000")
		printf '%-34s %10s %10s %7.2f (under 2)\n' "growth: $what 1000 -> 10000" "$a" "$b" \
			"$(echo "$b / $a" | bc -l)"
	done
fi

# 5d. Start-up: the cached add (what a host without debuginfo runs: the
# probe found in the cache, no --cache) against starting an empty C program
# (at most 2x), on the program and on its strip -s copy; and, for the
# record, the same add with --cache, which also stores it again, and a
# source line on a strip -s copy (no bound).  Ours only.
if want "startup"; then
	printf 'int main(void){return 0;}\n' >"$WORK/empty.c"
	${CC:-gcc} -O2 -o "$WORK/empty" "$WORK/empty.c"
	rm -rf "$HOME/.debug"
	"$OURS" probe --cache -n -q -x "$WORK/empty" -a main >/dev/null 2>&1
	measure "$WORK/e" "$WORK/empty"
	measure "$WORK/o" "$OURS" probe -n -q -x "$WORK/empty" -a main
	measure "$WORK/c" "$OURS" probe --cache -n -q -x "$WORK/empty" -a main
	a=$(median_ms "$WORK/e") b=$(median_ms "$WORK/o") c=$(median_ms "$WORK/c")
	printf '%-34s %10s %10s %7.2f (at most 2)\n' "startup: cached add / empty prog" "$b" "$a" \
		"$(echo "$(median_s "$WORK/o") / $(median_s "$WORK/e")" | bc -l)"
	printf '%-34s %10s %10s %7.2f\n' "startup: --cache add / empty prog" "$c" "$a" \
		"$(echo "$(median_s "$WORK/c") / $(median_s "$WORK/e")" | bc -l)"
	# The same add on the program stripped of every symbol (strip -s), as
	# hosts run it: main is checked by its frame description (.eh_frame),
	# at its entry (at most 2x).  Its own build-id, and the build-id
	# cache's copy stripped too, so no symbol of it is left anywhere.
	${CC:-gcc} -O2 -Wl,--build-id=0x5747191d0123456789abcdef0123456789abcdef \
		-o "$WORK/empty-s" "$WORK/empty.c"
	"$OURS" probe --cache -n -q -x "$WORK/empty-s" -a main >/dev/null 2>&1
	strip -s "$WORK/empty-s"
	find "$HOME/.debug" -path "*empty-s*" -name elf -exec cp "$WORK/empty-s" {} \; 2>/dev/null
	measure "$WORK/s" "$OURS" probe -n -q -x "$WORK/empty-s" -a main
	d=$(median_ms "$WORK/s")
	printf '%-34s %10s %10s %7.2f (at most 2)\n' "startup: strip -s add / empty prog" "$d" "$a" \
		"$(echo "$(median_s "$WORK/s") / $(median_s "$WORK/e")" | bc -l)"
	# For the record (no bound): a cached line off the entry (a source
	# line of a -g -O0 build), stripped the same way, is checked by the
	# decoder too, and loading capstone costs what it costs unstripped.
	printf 'int main(int argc, char **argv)\n{\n\tint n = argc * 3;\n\n\treturn n - 3;\n}\n' \
		>"$WORK/line.c"
	${CC:-gcc} -g -O0 -o "$WORK/line-s" "$WORK/line.c"
	"$OURS" probe --cache -n -q -x "$WORK/line-s" -a 'line.c:5 n' >/dev/null 2>&1
	strip -s "$WORK/line-s"
	find "$HOME/.debug" -path "*line-s*" -name elf -exec cp "$WORK/line-s" {} \; 2>/dev/null
	measure "$WORK/l" "$OURS" probe -n -q -x "$WORK/line-s" -a 'line.c:5 n'
	l=$(median_ms "$WORK/l")
	printf '%-34s %10s %10s %7.2f\n' "startup: strip -s line / empty prog" "$l" "$a" \
		"$(echo "$(median_s "$WORK/l") / $(median_s "$WORK/e")" | bc -l)"
fi

# 5e. Bundles of 10,000 entries (ours only; the system perf has none):
# export and import, linear from 1,000 and under a second.
if want "bundle"; then
	home=$HOME
	# Nothing is removed between the measures: ext4 without a journal (this
	# VM's root) skips the inodes freed in the last minute (five while
	# their table block is dirty) when it makes new ones, so a removal of
	# the 1,000 caches made every creation of the 10,000 scan past them.
	rm -rf "$WORK"/home-import1000/c.* "$WORK"/home-import10000/c.* \
		"$WORK"/home-import1000/f.* "$WORK"/home-import10000/f.*
	${CC:-gcc} -O2 -o "$WORK/inode-floor" "$top/bench/inode-floor.c" || exit 1
	for n in 1000 10000; do
		export HOME="$WORK/home-sdt$n"
		fake_cache "$n" "$HOME/.debug" || continue
		rm -f "$WORK/bundle$n"
		measure "$WORK/o" sh -c 'rm -f "$1" && exec "$0" probe --cache -q --export "$1"' \
			"$OURS" "$WORK/bundle$n"
		cp "$WORK/o" "$WORK/bundle-export-$n"
		"$OURS" probe --cache -q --export "$WORK/bundle$n" 2>/dev/null
		# into an empty cache of its own each time
		export HOME="$WORK/home-import$n"
		mkdir -p "$HOME"
		# shellcheck disable=SC2016 # expanded by the wrapper shell
		measure "$WORK/o" sh -c 'PERF_BUILDID_DIR="$HOME/c.$$" exec "$0" probe --cache -q --import "$1"' \
			"$OURS" "$WORK/bundle$n"
		cp "$WORK/o" "$WORK/bundle-import-$n"
		# the floor: the same files made by a C loop, nothing else
		measure "$WORK/o" sh -c 'exec "$0" "$HOME/f.$$" "$1" "$2"' \
			"$WORK/inode-floor" "$n" "$WORK/binsh$n"
		cp "$WORK/o" "$WORK/bundle-floor-$n"
	done
	rm -rf "$WORK"/home-import1000/c.* "$WORK"/home-import10000/c.* \
		"$WORK"/home-import1000/f.* "$WORK"/home-import10000/f.*
	export HOME="$home"
	for what in export import; do
		f1="$WORK/bundle-$what-1000" f2="$WORK/bundle-$what-10000"
		if grep -q fail "$f1" "$f2" 2>/dev/null || [ ! -s "$f2" ]; then
			printf '%-34s failed\n' "bundle $what"
			continue
		fi
		a=$(median_ms "$f1") b=$(median_ms "$f2")
		printf '%-34s %10s %10s %7.2f (x10 entries; under 1000 ms)\n' "bundle $what 1000 -> 10000" \
			"$a" "$b" "$(echo "$b / $a" | bc -l)"
	done
	if [ -s "$WORK/bundle-floor-10000" ] && ! grep -q fail "$WORK/bundle-floor-10000"; then
		a=$(median_ms "$WORK/bundle-floor-1000") b=$(median_ms "$WORK/bundle-floor-10000")
		c=$(median_ms "$WORK/bundle-import-10000")
		printf '%-34s %10s %10s %7.2f (import 10000 / floor 10000)\n' \
			"bundle import floor 1000, 10000" "$a" "$b" "$(echo "$c / $b" | bc -l)"
	fi
fi

# 6. Scaling: one func:line var probe in programs of 1k, 10k and 100k
# functions, written as real programs are, 1,000 functions per source file
# (so 1, 10 and 100 compilation units).
if want "scaling"; then
	for n in 1000 10000 100000; do
		dir="$WORK/gen$n" bin="$WORK/gen$n/prog"
		if [ ! -x "$bin" ]; then
			mkdir -p "$dir"
			awk -v n=$n -v dir="$dir" 'BEGIN {
				for (i = 0; i < n; i++) {
					f = sprintf("%s/part%d.c", dir, int(i / 1000))
					printf "int f%d(int x)\n{\n\tint y = x + %d;\n\treturn y * 2;\n}\n", i, i >f
				}
				print "int f0(int x);\nint main(void) { return f0(1) == 0; }" >(dir "/main.c")
			}'
			(cd "$dir" && ${CC:-gcc} -g -O0 -o prog ./*.c) || continue
		fi
		mid=$((n / 2))
		bench_both "scaling: $n functions" probe -x "$bin" -D "f$mid:2 y"
	done
fi

# 6b. A large C++ binary (issue 20): 50,000 methods over 500 files (a
# class of 100 methods each, in 10 namespaces), built with -g; -D of a
# method and of a source line.
if command -v g++ >/dev/null && want "c++"; then
	dir="$WORK/cxx" bin="$WORK/cxx/prog"
	if [ ! -x "$bin" ]; then
		rm -rf "$dir" && mkdir -p "$dir"
		awk -v dir="$dir" 'BEGIN {
			for (f = 0; f < 500; f++) {
				h = sprintf("%s/part%d.h", dir, f)
				c = sprintf("%s/part%d.cc", dir, f)
				printf "namespace ns%d {\nstruct C%d {\n", f % 10, f >h
				for (m = 0; m < 100; m++)
					printf "\tint m%d(int x);\n", m >h
				printf "};\n}\n" >h
				printf "#include \"part%d.h\"\n", f >c
				for (m = 0; m < 100; m++)
					printf "int ns%d::C%d::m%d(int x)\n{\n\tint y = x + %d;\n\treturn y * 2;\n}\n", f % 10, f, m, m >c
				close(h)
				close(c)
			}
			m = dir "/main.cc"
			print "#include \"part250.h\"\nint main() { ns0::C250 c; return c.m50(1) == 0; }" >m
		}'
		(cd "$dir" && for f in ./*.cc; do echo "${f%.cc}.o: $f"; printf '\t%s\n' '${CXX} -g -O0 -c -o $@ $<'; done >Makefile &&
			printf 'prog:' >>Makefile && for f in ./*.cc; do printf ' %s' "${f%.cc}.o"; done >>Makefile &&
			printf '\n\t$(CXX) -o $@ $^\n' >>Makefile &&
			nice make -s -j2 CXX="${CXX:-g++}" prog) || rm -f "$bin"
	fi
	if [ -x "$bin" ]; then
		# part250.cc: method m50 starts at line 2 + 50 * 5; its "return" is 3 lines on
		# the mangled name: perf 6.1 takes no "::" in a function name
		bench_both "c++: method" probe -x "$bin" -D '_ZN3ns04C2503m50Ei x'
		bench_both "c++: source line" probe -x "$bin" -D "part250.cc:$((2 + 50 * 5 + 3)) y"
	else
		skip "c++" "the generated program did not build"
	fi
fi

# 6c. Giant C++ programs as Debian ships them (issue 30), their DWARF in a
# -dbg package's debug file with every .debug_* section SHF_COMPRESSED
# (zlib): openjdk-17's libjvm.so (openjdk-17-dbg: 156 MB; .debug_info 124
# MB, 257 MB inflated) and ceph-osd (ceph-osd-dbg: 230 MB; .debug_info 174
# MB, 363 MB inflated).  A method, a line of it, -V, -F and a first
# --cache -a.  perf 6.1 takes no "::": ceph-osd's method by its mangled name.
#
# bench_giant LABEL BIN METHOD LINE VFUNC
bench_giant() {
	_label=$1 _bin=$2 _method=$3 _line=$4 _vfunc=$5
	_bid=$(readelf -n "$_bin" | sed -n 's/.*Build ID: //p')
	if [ ! -f "/usr/lib/debug/.build-id/$(echo "$_bid" | cut -c1-2)/$(echo "$_bid" | cut -c3-).debug" ]; then
		skip "$_label" "no debug file (make bench installs its -dbg package)"
		return
	fi
	bench_both "$_label: method" probe -x "$_bin" -D "$_method"
	bench_both "$_label: source line" probe -x "$_bin" -D "$_line"
	bench_both "$_label: -V" probe -x "$_bin" -V "$_vfunc"
	bench_both "$_label: -F" probe -x "$_bin" -F
	# the first add to the cache: each run after the cache is emptied
	_home=$HOME
	export HOME="$WORK/home-$_label"
	mkdir -p "$HOME"
	if want "$_label: --cache -a"; then
		# shellcheck disable=SC2016 # expanded by the wrapper shell
		_wrap='rm -rf "$HOME/.debug" && exec "$0" "$@"'
		measure "$WORK/o" sh -c "$_wrap" "$OURS" probe -q --cache -n -x "$_bin" -a "$_method"
		measure "$WORK/t" sh -c "$_wrap" "$THEIRS" probe -q --cache -n -x "$_bin" -a "$_method"
		report "$_label: --cache -a" "$WORK/o" "$WORK/t"
	fi
	export HOME="$_home"
}
JVM=$(find /usr/lib/jvm -path '*17*/server/libjvm.so' 2>/dev/null | head -n 1)
if [ -n "$JVM" ] && want "libjvm"; then
	bench_giant libjvm "$JVM" 'jni_FindClass name' 'jni_FindClass:1 name' jni_FindClass
fi
if want "ceph-osd"; then
	if [ -x /usr/bin/ceph-osd ]; then
		bench_giant ceph-osd /usr/bin/ceph-osd '_ZN3OSD4tickEv this' 'main:3 argc' _ZN3OSD4tickEv
	else
		skip "ceph-osd" "no ceph-osd (make bench installs ceph-osd-dbg where the disk has 2 GB)"
	fi
fi

# 7. The first probe on a cold host (empty build-id cache, empty debuginfod
# client cache), through a local debuginfod serving python3.11d's debuginfo:
# the probe cache section embedded in it (--embed) against the full
# debuginfo (a second server of the file without the section).  Bytes: what
# the client cache holds afterwards.
if [ -n "$PY" ] && [ -x "$PY" ] && command -v debuginfod >/dev/null && want "cold host"; then
	d="$WORK/embed" port=$((30000 + $$ % 10000))
	rm -rf "$d" && mkdir -p "$d/srv" "$d/full" "$d/build"
	objcopy --only-keep-debug "$PY" "$d/full/python.debug"
	cp "$d/full/python.debug" "$d/srv/python.debug"
	# the host's copy has the build host's name: the default group of the
	# cached line (probe_python3) is checked against the one asked for
	strip -g -o "$d/$(basename "$PY")" "$PY"
	spec='PyList_Append op newitem'
	HOME="$d/build" "$OURS" probe --cache -n -q -x "$PY" -a "$spec" &&
		HOME="$d/build" "$OURS" probe --cache -q --embed "$d/srv/python.debug"
	debuginfod -p $port -F "$d/srv" -d "$d/srv.sqlite" >"$d/srv.log" 2>&1 &
	spid=$!
	debuginfod -p $((port + 1)) -F "$d/full" -d "$d/full.sqlite" >"$d/full.log" 2>&1 &
	fpid=$!
	# until both servers have scanned their file
	bid=$(readelf -n "$PY" | sed -n 's/.*Build ID: //p')
	for u in "http://127.0.0.1:$port" "http://127.0.0.1:$((port + 1))"; do
		i=0
		until DEBUGINFOD_CACHE_PATH="$d/probe-cc" DEBUGINFOD_URLS=$u \
			debuginfod-find executable "$bid" >/dev/null 2>&1; do
			rm -rf "$d/probe-cc"
			i=$((i + 1))
			[ $i -lt 300 ] || break
			sleep 0.2
		done
		rm -rf "$d/probe-cc"
	done
	for which in section full; do
		u="http://127.0.0.1:$port"
		[ $which = full ] && u="http://127.0.0.1:$((port + 1))"
		: >"$d/$which.times"
		bytes=0
		for _ in $(seq "$REPS"); do
			rm -rf "$d/host" "$d/cc" && mkdir -p "$d/host"
			HOME="$d/host" DEBUGINFOD_CACHE_PATH="$d/cc" DEBUGINFOD_URLS=$u \
				"$TIMEIT" 1 "$OURS" probe -q -x "$d/$(basename "$PY")" -D "$spec" >>"$d/$which.times"
			bytes=$(find "$d/cc" -type f ! -name 'cache_*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
		done
		ms=$(cut -d' ' -f1 "$d/$which.times" | median)
		if grep -q fail "$d/$which.times"; then
			printf '%-34s %s\n' "cold host: $which" "failed"
		else
			printf '%-34s %10.1f ms %12d bytes fetched\n' "cold host: $which" \
				"$(echo "$ms * 1000" | bc -l)" "$bytes"
		fi
		eval "bytes_$which=$bytes"
	done
	# shellcheck disable=SC2154 # set by the eval above
	[ "$bytes_full" -gt 0 ] &&
		printf '%-34s %12.6f (at most 0.001)\n' "cold host: bytes section/full" \
			"$(echo "$bytes_section / $bytes_full" | bc -l)"
	kill $spid $fpid 2>/dev/null
	wait $spid $fpid 2>/dev/null
fi
