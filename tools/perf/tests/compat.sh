#!/bin/bash
# Side by side with the reference perfs: the same command lines run by our
# perf and by each reference (the system perf 6.1, and perf 6.12 when
# PERF612 names it: sh /work/shared/perf612.sh DIR gives DIR/usr/bin/perf),
# and what a user or a script would notice counted: stdout, stderr and the
# exit status, each compared byte for byte.
#
#   tools/perf/tests/compat.sh [-k] [-o DIR] [PATTERN]
#
# -o DIR: where the workloads, outputs and the report go (default
# build/compat).  PATTERN: only the commands whose line matches (grep -E).
# -k: keep the outputs of every command (DIR/out/N.{ours,ref}.{1,2}).
# The commands: tools/perf/tests/workloads built at -O0 and -O2 (C, C++,
# Rust), python3.11, libc, the debug libstdc++ and the Debian vmlinux where
# they are installed (scripts/install-deps.sh --bench); each class of
# command (views, definitions, errors, option misuse, -v, -q, --cache,
# buildid-cache, buildid-list, list) over each of them.  Nothing is added
# to tracefs: adds are -n (dry runs) or refused ones.
#
# DIR/report lists each command that differs from 6.1 and how
# (out/err/status; "err-": only by the usage lines of our own options,
# --btf, --embed, --export, --import); the last line is "N commands,
# N differ from 6.1 (N of them only by our options)" (and "N from
# 6.12").  Run as root, like the tests.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
OURS=${OURS:-$top/tools/perf/perf}
REF1=${REF1:-/usr/bin/perf}
REF2=${PERF612:-}
DIR=$top/build/compat
keep=
while [ $# -gt 0 ]; do
	case $1 in
	-o) DIR=$2; shift 2 ;;
	-k) keep=1; shift ;;
	*) break ;;
	esac
done
PATTERN=${1:-}
mkdir -p "$DIR/bin" "$DIR/out" || exit 1
DIR=$(cd "$DIR" && pwd)
W=$top/tools/perf/tests/workloads
export HOME=$DIR/home
rm -rf "$HOME"
mkdir -p "$HOME"
unset PERF_CONFIG PERF_BUILDID_DIR

# The programs, as the tests build them.
b() { # OUT SRC FLAGS...
	local out=$1 src=$2
	shift 2
	[ -x "$DIR/bin/$out" ] && [ "$DIR/bin/$out" -nt "$src" ] && return 0
	case $src in
	*.cc) g++ "$@" -o "$DIR/bin/$out" "$src" ;;
	*.rs) /usr/bin/rustc "$@" -o "$DIR/bin/$out" "$src" ;;
	*) gcc "$@" -o "$DIR/bin/$out" "$src" ;;
	esac 2>/dev/null
}
b conn "$W/conn.c" -g -O0
b conn2 "$W/conn.c" -g -O2
b compat "$W/probe-compat.c" -g -O2
b dlive "$W/dwarf-live.c" -g -O0
b dlive2 "$W/dwarf-live.c" -g -O2
b bad "$W/bad.c" -g -O0
b grid "$W/grid.c" -g -O0
b ustr "$W/ustr.c" -g -O0
b cxx "$W/cxx-shop.cc" -g -O0
b cxx2 "$W/cxx-shop.cc" -g -O2
b rs "$W/rust-app.rs" -g -C opt-level=0
b va "$W/varargs.c" -g -O0
b va2 "$W/varargs.c" -g -O2
cp -f "$DIR/bin/conn" "$DIR/bin/stripped" && strip "$DIR/bin/stripped"
b clangp "$W/clang-prologue.c" -g -O2 2>/dev/null
[ -x "$DIR/bin/clangp" ] || true
command -v clang >/dev/null && [ ! -x "$DIR/bin/clangp" ] &&
	clang -g -O2 -o "$DIR/bin/clangp" "$W/clang-prologue.c"

PY=/usr/bin/python3.11
LIBC=/lib/x86_64-linux-gnu/libc.so.6
LIBSTDCXX=$(ls /usr/lib/x86_64-linux-gnu/libstdc++.so.6 2>/dev/null)
[ -d /usr/lib/debug/.build-id ] && [ -n "$LIBSTDCXX" ] &&
	dpkg -s libstdc++6-12-dbg >/dev/null 2>&1 || LIBSTDCXX=
VMLINUX=$(ls /usr/lib/debug/boot/vmlinux-6.1.0-*-cloud-amd64 2>/dev/null | head -n 1)

# The command lines, one a line, "perf" left out; a line may start with
# VAR=VALUE words.  Run in $DIR/bin.
gen() {
	local x f
	for x in conn conn2 compat dlive dlive2 bad grid ustr cxx cxx2 rs va va2; do
		[ -x "$DIR/bin/$x" ] || continue
		echo "probe -x $x -F"
		echo "probe -x $x -F '*'"
		echo "probe -x $x -F '!m*'"
		echo "probe -x $x --funcs --no-demangle"
		# Every function perf lists, through each view and definition.
		"$REF1" probe -x "$DIR/bin/$x" -F 2>/dev/null | head -n 6 | while read -r f; do
			case $f in *' '* | *'('* | *'<'*) continue ;; esac
			echo "probe -x $x -V $f"
			echo "probe -x $x -V $f --externs"
			echo "probe -x $x -L $f"
			echo "probe -x $x -D $f"
			echo "probe -x $x -D $f:"
			echo "probe -x $x -D $f:1"
			echo "probe -x $x -D $f:2"
			echo "probe -x $x -D $f:999"
			echo "probe -x $x -D $f+1"
			echo "probe -x $x -D $f+4"
			echo "probe -x $x -D $f%return"
			echo "probe -x $x -D '$f \$vars'"
			echo "probe -x $x -D '$f \$params'"
			echo "probe -x $x -D '$f%return \$retval'"
			echo "probe -x $x -D '$f nosuchvar'"
			echo "probe -x $x -D '$f;return*'"
			echo "probe -x $x -n -a $f"
			echo "probe -v -x $x -D $f"
			echo "probe -q -x $x -D $f:999"
		done
		echo "probe -x $x -D nosuch"
		echo "probe -x $x -V nosuch"
		echo "probe -x $x -L nosuch"
		echo "probe -x $x -n -a nosuch"
		echo "probe -q -x $x -n -a nosuch"
		echo "probe -v -x $x -n -a nosuch"
		echo "probe -x $x -D main:"
		echo "probe -x $x -D main:0"
		echo "probe -x $x -D main:-1"
		echo "probe -x $x -D main:x"
		echo "probe -x $x -D main+"
		echo "probe -x $x -D main@"
		echo "probe -x $x -D main%ret"
		echo "probe -x $x -D 1main"
		echo "probe -x $x -D 'main arg='"
		echo "probe -x $x -D 'main =x'"
		echo "probe -x $x -D 'main \$nosuch'"
		echo "probe -x $x -D 'main %ax:u128'"
		echo "probe -x $x -D 'main;'"
		echo "probe -x $x -D '*:1'"
		echo "probe -x $x -D ev=main"
		echo "probe -x $x -D g:ev=main"
		echo "probe -x $x -D g.x:ev=main"
		echo "probe -x $x -D 0x1000"
		echo "probe -x $x -D 0x0"
		echo "probe -x $x -L main:0"
		echo "probe -x $x -L main:1-2"
		echo "probe -x $x -L main:1+2"
		echo "probe -x $x -L main:x"
		echo "probe -x $x -V main:1"
		echo "probe -x $x -V main --range"
		echo "probe -x $x -V main%return"
		echo "probe -x $x -d nosuch"
		echo "probe -x $x -l"
		echo "probe -x $x --cache -l"
		echo "probe -x $x --cache -d nosuch"
		echo "buildid-list -i $x"
		echo "buildid-list -H -i $x"
	done
	# Option misuse: exclusive modes, unknown and malformed options.
	local a b2
	for a in "-a main" "-d x" "-l" "-L main" "-V main" "-F" "-D main"; do
		for b2 in "-a main" "-d x" "-l" "-L main" "-V main" "-F" "-D main"; do
			[ "$a" = "$b2" ] && continue
			echo "probe -x conn $a $b2"
		done
	done
	echo "probe"
	echo "probe --zzz"
	echo "probe -Z"
	echo "probe -x"
	echo "probe -x conn -a"
	echo "probe -x conn --max-probes x -a main"
	echo "probe -x conn --max-probes=0 -D main"
	echo "probe -x nosuchfile -D main"
	echo "probe -x conn -m mod -D main"
	echo "probe -x conn -l '['"
	echo "probe -x conn -F '['"
	echo "probe -x conn -d '['"
	echo "probe -x conn --add=main --dry-run"
	echo "probe -x conn -k /nonexistent -D main"
	echo "probe -x stripped -D main"
	echo "probe -x stripped -F"
	echo "probe -x stripped -V main"
	echo "probe -x stripped -L main"
	echo "probe -x stripped -D main:1"
	echo "probe -x clangp -D 'mix x k'"
	echo "probe -l"
	echo "probe -l 'nosuch*'"
	echo "probe -d 'nosuch*'"
	echo "probe -q -d 'nosuch*'"
	echo "probe --cache -l"
	echo "PERF_CONFIG=/dev/null probe -l"
	echo "PERF_CONFIG=/dev/null probe -x conn -D main"
	echo "PERF_CONFIG=/nonexistent probe -x conn -D main"
	for x in "$PY" "$LIBC" ${LIBSTDCXX:+"$LIBSTDCXX"}; do
		for f in main malloc free printf vprintf fopen strlen PyList_Append list_resize \
			PyObject_GetAttr builtin_print; do
			"$REF1" probe -x "$x" -F "$f" 2>/dev/null | grep -qx "$f" || continue
			echo "probe -x $x -V $f"
			echo "probe -x $x -D $f"
			echo "probe -x $x -D '$f \$vars'"
			echo "probe -x $x -D $f:3"
			echo "probe -x $x -L $f"
		done
		echo "probe -x $x -F"
		echo "probe -x $x -D nosuch"
		echo "probe -x $x -D listobject.c:923"
		echo "probe -x $x -D listobject.c:924"
	done
	if [ -n "$VMLINUX" ]; then
		for f in vfs_read vfs_kern_mount do_sys_open kfree tcp_sendmsg; do
			echo "probe -k $VMLINUX -V $f"
			echo "probe -k $VMLINUX -D $f"
			echo "probe -k $VMLINUX -D '$f \$vars'"
			echo "probe -k $VMLINUX -D $f:3"
			echo "probe -k $VMLINUX -D '$f%return \$retval'"
		done
		echo "probe -k $VMLINUX -D nosuch"
		echo "probe -k $DIR/bin/conn -D vfs_read"
	fi
	echo "buildid-list -k"
	echo "buildid-list -H -k"
	echo "buildid-cache -l"
	echo "buildid-cache -M /nonexistent"
	echo "buildid-cache -k /proc/kcore"
	echo "buildid-cache -a nosuch"
	echo "list sdt"
	echo "list --raw-dump sdt"
	echo "list --raw-dump tracepoint"
	echo "list -j -o $DIR/out/list.json sdt"
	echo "check feature libdw"
	echo "check feature dwarf"
	echo "check feature nosuch"
}

gen | { if [ -n "$PATTERN" ]; then grep -E -- "$PATTERN"; else cat; fi; } >"$DIR/commands"

# run PERF N LINE SUFFIX: outputs in out/N.SUFFIX{,.err,.rc}
run() {
	local perf=$1 n=$2 line=$3 sfx=$4 envs=()
	# the words of the line, as the shell quotes them
	eval "set -- $line"
	while [ $# -gt 0 ]; do
		case $1 in *=*) envs+=("$1"); shift ;; *) break ;; esac
	done
	(cd "$DIR/bin" && env "${envs[@]}" timeout 120 "$perf" "$@" \
		>"$DIR/out/$n.$sfx" 2>"$DIR/out/$n.$sfx.err" </dev/null
	echo $? >"$DIR/out/$n.$sfx.rc")
	# The path of the perf itself in messages is not a difference.
	sed -i "s|$perf|perf|g" "$DIR/out/$n.$sfx" "$DIR/out/$n.$sfx.err"
}

# diffs N SUFFIX: which of out, err and status differ from ours ("err-"
# when stderr differs only by the lines of our own options in the usage)
diffs() {
	local n=$1 s=$2 d=
	cmp -s "$DIR/out/$n.ours" "$DIR/out/$n.$s" || d="$d out"
	if ! cmp -s "$DIR/out/$n.ours.err" "$DIR/out/$n.$s.err"; then
		if grep -v -e '^        --btf ' -e '^        --embed ' -e '^        --export ' \
			-e '^        --import ' "$DIR/out/$n.ours.err" | cmp -s - "$DIR/out/$n.$s.err"; then
			d="$d err-"
		else
			d="$d err"
		fi
	fi
	cmp -s "$DIR/out/$n.ours.rc" "$DIR/out/$n.$s.rc" ||
		d="$d status($(cat "$DIR/out/$n.ours.rc") vs $(cat "$DIR/out/$n.$s.rc"))"
	echo "$d"
}

: >"$DIR/report"
n=0 d1=0 d2=0 u1=0
while IFS= read -r line; do
	n=$((n + 1))
	run "$OURS" $n "$line" ours
	run "$REF1" $n "$line" ref1
	r1=$(diffs $n ref1)
	r2=
	if [ -n "$REF2" ]; then
		run "$REF2" $n "$line" ref2
		r2=$(diffs $n ref2)
		[ -n "$r2" ] && d2=$((d2 + 1))
	fi
	if [ -n "$r1" ]; then
		d1=$((d1 + 1))
		[ "$r1" = " err-" ] && u1=$((u1 + 1))
		printf '%d\t6.1:%s\t6.12:%s\t%s\n' $n "$r1" "${r2:- same}" "$line" >>"$DIR/report"
	elif [ -n "$r2" ]; then
		printf '%d\t6.1: same\t6.12:%s\t%s\n' $n "$r2" "$line" >>"$DIR/report"
	fi
	[ -z "$keep" ] && [ -z "$r1$r2" ] && rm -f "$DIR/out/$n".*
done <"$DIR/commands"
# A command that added an event after all (a bug of ours or theirs): gone.
for f in uprobe_events kprobe_events; do
	[ -w "/sys/kernel/tracing/$f" ] || continue
	grep "$DIR/bin/" "/sys/kernel/tracing/$f" | sed 's/^[pr][0-9]*:\([^ ]*\) .*/-:\1/' |
		while read -r ev; do echo "$ev" >>"/sys/kernel/tracing/$f"; done
done
echo "$n commands, $d1 differ from 6.1 ($u1 of them only by our options in the usage)${REF2:+, $d2 from 6.12}" | tee -a "$DIR/report"
