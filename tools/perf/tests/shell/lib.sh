# Shared library of the shell tests, in the spirit of git's t/test-lib.sh.
#
#	test_description='what this script checks'
#	. "$(dirname "$0")/lib.sh"
#	test_expect_success 'a sentence naming the behaviour' '
#		"$PERF" buildid-list -i "$TEST_TMP/prog" >out &&
#		grep -q ... out
#	'
#	test_expect_success ROOT,TRACEFS 'a case needing both' '...'
#	test_done
#
# Each case runs in a subshell inside $TEST_TMP (a fresh directory per
# script, removed at exit) with HOME=$TEST_TMP/home, so the build-id cache of
# both our perf and the system perf is private to the script.  Output of a
# case is shown only when it fails.
#
# Prerequisites: test_expect_success PREREQ[,PREREQ...] TITLE BODY runs
# BODY only when every PREREQ holds ("!PREREQ": when it does not), else
# reports "ok N - TITLE # skip missing PREREQ".  test_lazy_prereq NAME SCRIPT
# defines one, evaluated (once) when first asked; test_set_prereq NAME sets
# one; test_have_prereq NAME[,NAME...] asks.  Defined here: ROOT, TRACEFS,
# SYSTEM_PERF, SYSTEM_PERF_PROBE, SDT, VMLINUX_DWARF, GCC, READELF, PYTHON3,
# M32, STRACE_INJECT, VALGRIND, DEBUGINFOD, SETPRIV, UNSHARE, NOT_SANITIZE,
# CXX, CLANGXX, RUSTC, GO, GDB,
# KALLSYMS, QEMU_GUEST, STRIP_AS (the tools of strip_as).
#
# Cleanup: test_when_finished CMD (inside a case) runs CMD after the case,
# pass or fail; test_cleanup CMD (at the top level) runs CMD when the script
# exits.  test_probe_group GROUP claims a probe group: every uprobe/kprobe
# event of it is removed now and at exit, through tracefs directly.
#
# Checks: test_must_fail CMD..., test_expect_code_is N CMD..., test_error_lines FILE,
# test_refuses [--cache DIR] [--tracefs]
# CMD..., test_same_as_system_perf [--stderr] [--status] ARGS...,
# test_cmp_file EXPECTED ACTUAL, test_line_count OP N FILE.
#
# Files: build_workload NAME OUT [CFLAGS...] (tools/perf/tests/workloads/
# NAME.c, compiled once per flags), build_prog OUT SRC [CFLAGS...],
# build_id_of FILE, probes_file [--home DIR] FILE, file_offset FILE VADDR,
# tree_snapshot DIR, test_trusted_dir (sets TRUSTED and the prerequisite
# TRUSTED_DIR), strip_as HOW IN OUT (the stripped forms distributions ship,
# MiniDebugInfo included).
#
# Live traces: test_trace_instance GROUP (sets TI).
#
# Servers: debuginfod_setup, debuginfod_start DIR, debuginfod_fetch BIN,
# debuginfod_stop (a real debuginfod on loopback).
#
# The kernel-probe guest (tools/perf/tests/guest/): QEMU_GUEST (qemu,
# busybox and the guest kernel's vmlinux are here), guest_why_not (the one
# line saying why not), GUEST_SH, GUEST_VMLINUX, guest_replay FILE.

TEST_ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
# PERF_BIN: the perf under test (make test SANITIZE=1 passes build-san/perf).
PERF=${PERF_BIN:-$TEST_ROOT/tools/perf/perf}
SYSTEM_PERF=${SYSTEM_PERF:-/usr/bin/perf}
# The guest kernel's cache (guest.sh) outlives the test's HOME.
if [ -z "${PERF_TEST_GUEST_CACHE:-}" ] && [ "$(id -u)" != 0 ]; then
	PERF_TEST_GUEST_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/perf-probe-tests
	export PERF_TEST_GUEST_CACHE
fi
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptest-$TEST_NAME.XXXXXX") || exit 1
WORKLOADS=$TEST_ROOT/tools/perf/tests/workloads
export HOME="$TEST_TMP/home"
unset PERF_BUILDID_DIR PERF_CONFIG
mkdir -p "$HOME"
cd "$TEST_TMP" || exit 1

test_count=0
test_failed=0
_test_cleanups=""
_test_groups=""

# test_cleanup CMD: run CMD when the script exits (top level only; inside a
# case use test_when_finished).
test_cleanup() {
	_test_cleanups="$1
$_test_cleanups"
}

_test_exit() {
	rc=$?
	cd /
	if [ -n "$_test_cleanups" ]; then
		(eval "$_test_cleanups") >/dev/null 2>&1
	fi
	rm -rf "$TEST_TMP"
	exit $rc
}
trap _test_exit EXIT
trap 'exit 130' INT TERM

say() {
	printf '# %s\n' "$*"
}

# Prerequisites -------------------------------------------------------------

_test_prereq_ok=" "
_test_prereq_missing=" "

# test_lazy_prereq NAME SCRIPT: NAME holds when SCRIPT succeeds, asked once.
test_lazy_prereq() {
	eval "_test_lazy_$1=\$2"
}

# test_set_prereq NAME: NAME holds from now on.
test_set_prereq() {
	_test_prereq_ok="$_test_prereq_ok$1 "
}

_test_one_prereq() {
	case "$_test_prereq_ok" in *" $1 "*) return 0 ;; esac
	case "$_test_prereq_missing" in *" $1 "*) return 1 ;; esac
	eval "_script=\${_test_lazy_$1-}"
	# shellcheck disable=SC2154 # set by the eval above
	if [ -n "$_script" ] && (cd "$TEST_TMP" && eval "$_script") >/dev/null 2>&1; then
		_test_prereq_ok="$_test_prereq_ok$1 "
		return 0
	fi
	_test_prereq_missing="$_test_prereq_missing$1 "
	return 1
}

# test_have_prereq P[,P...]: every P holds (!P: P does not).  The ones that
# do not are left in $test_missing_prereq.
test_have_prereq() {
	test_missing_prereq=
	_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split on commas
	set -- $1
	IFS=$_ifs
	for _p in "$@"; do
		case $_p in
		!*) ! _test_one_prereq "${_p#!}" ;;
		*) _test_one_prereq "$_p" ;;
		esac || test_missing_prereq="${test_missing_prereq:+$test_missing_prereq,}$_p"
	done
	[ -z "$test_missing_prereq" ]
}

test_lazy_prereq ROOT '[ "$(id -u)" = 0 ]'
# Live uprobes: tracefs mounted (by us when root and it is absent) and
# uprobe_events writable.
test_lazy_prereq TRACEFS '
	if [ ! -e "$TRACEFS/uprobe_events" ] && [ "$(id -u)" = 0 ]; then
		mount -t tracefs nodev "$TRACEFS"
	fi
	[ -w "$TRACEFS/uprobe_events" ]
'
test_lazy_prereq SYSTEM_PERF '[ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" version'
# The system perf as the reference for perf probe -D/-V/-L: it reads tracefs
# (its README for the types, the events in place for the names) even
# then, and writes other lines without it.
test_lazy_prereq SYSTEM_PERF_PROBE 'test_have_prereq SYSTEM_PERF,ROOT,TRACEFS'
test_lazy_prereq GCC 'command -v "${CC:-gcc}"'
# The other languages' compilers (Debian's: install-deps.sh --test) and gdb,
# the oracle of values.  RUSTC defaults to Debian's /usr/bin/rustc, not a
# rustup one earlier on PATH.
: "${CXX:=g++}" "${RUSTC:=/usr/bin/rustc}" "${GO:=go}"
export CXX RUSTC GO
test_lazy_prereq CXX 'command -v "$CXX"'
test_lazy_prereq CLANGXX 'command -v clang++'
test_lazy_prereq RUSTC '"$RUSTC" --version'
test_lazy_prereq GO '"$GO" version'
test_lazy_prereq GDB 'command -v gdb'
test_lazy_prereq STRIP_AS '
	command -v strip && command -v objcopy && command -v nm && command -v eu-strip &&
	command -v xz
'
test_lazy_prereq READELF 'command -v readelf'
test_lazy_prereq PYTHON3 'command -v python3'
test_lazy_prereq SCRIPT 'command -v script'
test_lazy_prereq SDT '
	command -v dtrace && command -v "${CC:-gcc}" &&
	{ [ -e /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -e /usr/include/sys/sdt.h ]; }
'
# VMLINUX: the vmlinux of linux-image-*-dbg (CI does not have it).
test_lazy_prereq VMLINUX_DWARF '[ -n "$VMLINUX" ] && [ -r "$VMLINUX" ]'
test_lazy_prereq M32 '
	"${CC:-gcc}" -m32 -o m32-probe "$WORKLOADS/true.c"
'
test_lazy_prereq STRACE_INJECT '
	strace -qq -o /dev/null -e trace=getpid -e inject=getpid:retval=7 true
'
test_lazy_prereq VALGRIND 'command -v valgrind'
# valgrind cannot run an AddressSanitizer binary.
test_lazy_prereq NOT_SANITIZE '[ "${SANITIZE:-}" != 1 ]'
test_lazy_prereq DEBUGINFOD 'command -v debuginfod'
test_lazy_prereq SETPRIV 'command -v setpriv'
test_lazy_prereq UNSHARE 'command -v unshare'
# Kernel symbols with their addresses: root and a readable kallsyms.
test_lazy_prereq KALLSYMS '
	[ "$(id -u)" = 0 ] && [ "$(head -c 16 /proc/kallsyms)" != 0000000000000000 ]
'

# Cases ---------------------------------------------------------------------

# test_when_finished CMD: inside a case, run CMD after it, pass or fail; a
# failing CMD fails the case.
test_when_finished() {
	_test_when_finished="$1
${_test_when_finished:-}"
}

# Runs in the subshell of a case: the EXIT trap runs the test_when_finished
# commands also when the body calls exit.
_test_finish() {
	_rc=$1
	if [ -n "$_test_when_finished" ]; then
		(eval "$_test_when_finished") || { [ "$_rc" -eq 0 ] && _rc=1; }
	fi
	exit "$_rc"
}

_test_run_body() {
	_test_when_finished=
	trap '_test_finish $?' EXIT
	cd "$TEST_TMP" && eval "$1"
}

# test_expect_success [PREREQ] TITLE BODY
test_expect_success() {
	if [ $# -ge 3 ]; then
		_prereq=$1
		shift
	else
		_prereq=
	fi
	test_count=$((test_count + 1))
	if [ -n "$_prereq" ] && ! test_have_prereq "$_prereq"; then
		echo "ok $test_count - $1 # skip missing $test_missing_prereq"
		return 0
	fi
	if (_test_run_body "$2") >"$TEST_TMP/.case.log" 2>&1 9>&- 8>&- 7>&- 6>&- 5>&-; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		printf '%s\n' "$2" | sed 's/^/#   | /'
		sed 's/^/#   /' "$TEST_TMP/.case.log" | tail -n 40
	fi
}

# test_skip NAME REASON: report one case as skipped.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # skip $2"
}

# test_skip_all REASON: skip the rest of the script.
test_skip_all() {
	echo "1..0 # skip $1"
	echo "ok $((test_count + 1)) - $TEST_NAME # skip $1"
	exit 0
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
	exit $?
}

# Checks --------------------------------------------------------------------

# test_must_fail CMD...: CMD exits non-zero, and not through a signal.
# perf exits with 256 - errno (254 for ENOENT), so only the statuses of the
# signals a crash or a kill gives (128 + INT QUIT ILL TRAP ABRT BUS FPE KILL
# SEGV PIPE TERM) count as one.
test_must_fail() {
	"$@"
	rc=$?
	case $rc in
	0)
		echo "test_must_fail: '$*' succeeded" >&2
		return 1 ;;
	130 | 131 | 132 | 133 | 134 | 135 | 136 | 137 | 139 | 141 | 143)
		echo "test_must_fail: '$*' died of a signal ($rc)" >&2
		return 1 ;;
	esac
	return 0
}

# test_expect_code_is N CMD...: CMD exits with status N.
test_expect_code_is() {
	_want=$1
	shift
	"$@"
	_rc=$?
	[ "$_rc" = "$_want" ] && return 0
	echo "test_expect_code_is: '$*' exited with $_rc, not $_want" >&2
	return 1
}

# test_cmp_file EXPECTED ACTUAL: the same content, else show the diff.
test_cmp_file() {
	diff -u "$1" "$2"
}

# test_line_count OP N FILE: the number of lines of FILE compares to N with
# test's OP (=, -ge, ...).
test_line_count() {
	_n=$(wc -l <"$3")
	if ! test "$_n" "$1" "$2"; then
		echo "test_line_count: $3 has $_n lines, expected $1 $2:" >&2
		cat "$3" >&2
		return 1
	fi
}

# tree_snapshot DIR: names, link targets and sizes of everything below DIR
# (nothing when DIR does not exist), for "unchanged" checks.
tree_snapshot() {
	if [ -d "$1" ]; then
		(cd "$1" && find . -printf '%p %l %s\n' | sort)
	fi
}

# The events of tracefs this script may look at: those of its probe groups
# and those on its own files (other test runs add and remove theirs
# meanwhile); all of a stand-in PERF_TRACEFS_DIR.
_test_tracefs_snapshot() {
	if [ -n "${PERF_TRACEFS_DIR:-}" ]; then
		cat "$PERF_TRACEFS_DIR/uprobe_events" "$PERF_TRACEFS_DIR/kprobe_events" 2>/dev/null
		return 0
	fi
	for _f in uprobe_events kprobe_events; do
		[ -r "$TRACEFS/$_f" ] || continue
		while IFS= read -r _line; do
			case "$_line" in *"$TEST_TMP"*)
				echo "$_f $_line"
				continue
				;;
			esac
			for _g in $_test_groups; do
				case "$_line" in [pr]:"$_g"/* | [pr][0-9]*:"$_g"/*)
					echo "$_f $_line"
					break
					;;
				esac
			done
		done <"$TRACEFS/$_f"
	done
	return 0
}

# test_refuses [--cache DIR] [--tracefs] [--ignore ERE] CMD...: CMD is
# refused with one line: it exits non-zero but not through a signal, prints
# nothing on stdout and exactly one line on stderr besides perf's trailer
# ("  Error: Failed to add events.") and the usage after a parse error
# (stderr is left in ./err, without those and the lines matching ERE in
# ./err1, stdout in ./out), and the
# build-id cache DIR (default $HOME/.debug) is unchanged, and with --tracefs
# so are the uprobe/kprobe events of this script (see
# _test_tracefs_snapshot).  --ignore: for notes perf prints before its
# error (e.g. "Target program is compiled without optimization").
test_refuses() {
	_cache=$HOME/.debug
	_tracefs=
	_ignore=
	while :; do
		case "$1" in
		--cache) _cache=$2; shift 2 ;;
		--tracefs) _tracefs=1; shift ;;
		--ignore) _ignore=$2; shift 2 ;;
		*) break ;;
		esac
	done
	tree_snapshot "$_cache" >.refuses.cache.before
	[ -n "$_tracefs" ] && _test_tracefs_snapshot >.refuses.tracefs.before
	test_must_fail "$@" >out 2>err || return 1
	if test -s out; then
		echo "test_refuses: '$*' wrote to stdout:" >&2
		cat out >&2
		return 1
	fi
	test_error_lines err "$_ignore"
	if [ "$(wc -l <err1)" -ne 1 ] || ! grep -q . err1; then
		echo "test_refuses: '$*': expected one line on stderr, got:" >&2
		cat err >&2
		return 1
	fi
	cat err
	tree_snapshot "$_cache" >.refuses.cache.after
	if ! cmp -s .refuses.cache.before .refuses.cache.after; then
		echo "test_refuses: '$*' changed the cache $_cache:" >&2
		diff .refuses.cache.before .refuses.cache.after >&2
		return 1
	fi
	if [ -n "$_tracefs" ]; then
		_test_tracefs_snapshot >.refuses.tracefs.after
		if ! cmp -s .refuses.tracefs.before .refuses.tracefs.after; then
			echo "test_refuses: '$*' changed tracefs:" >&2
			diff .refuses.tracefs.before .refuses.tracefs.after >&2
			return 1
		fi
	fi
	return 0
}

# test_error_lines FILE [ERE]: FILE's lines of what went wrong into FILE1
# (err -> err1): without perf's last line of a failed mode ("  Error:
# Failed to add events.") and its fixed hints, without the usage after a
# parse error (from " Usage:" on), and without the lines matching ERE.
test_error_lines() {
	_trailer='^  Error: (Failed to (add|delete) events|Failed to show (vars|lines|functions)|Command Parse Error)\.( Reason: .*)?$'
	_trailer="$_trailer|^Please ensure the file is not stripped\.$|^Rebuild with -g, or install an appropriate debuginfo package\.$"
	awk '/^ Usage: / { exit } { if (held) print prev; prev = $0; held = 1 }
		END { if (held && prev != "") print prev }' "$1" |
		grep -E -v "$_trailer${2:+|$2}" >"${1}1"
	return 0
}

# vars_as_perf61: -V output (stdin) with perf 6.12's type names, which
# ours are, spelled as perf 6.1 spells them: "void*" as "(unknown_type)",
# "char[]" as "char*".
vars_as_perf61() {
	sed -E 's/(^|\t)void\*+\t/\1(unknown_type)\t/; s/\[\]/*/g'
}

# test_same_as_system_perf [--stderr] [--status] ARGS...: $PERF ARGS and
# $SYSTEM_PERF ARGS print the same stdout, byte for byte (left in ./ours
# and ./theirs); with --stderr the same stderr too (ours.err, theirs.err);
# with --status the same exit status, else both must succeed.
test_same_as_system_perf() {
	_stderr='' _status=
	while :; do
		case "$1" in
		--stderr) _stderr=1; shift ;;
		--status) _status=1; shift ;;
		*) break ;;
		esac
	done
	"$PERF" "$@" >ours 2>ours.err
	_ours=$?
	"$SYSTEM_PERF" "$@" >theirs 2>theirs.err
	_theirs=$?
	if [ -n "$_status" ]; then
		if [ $_ours -ne $_theirs ]; then
			echo "exit status: ours $_ours, the system perf's $_theirs" >&2
			cat ours.err >&2
			return 1
		fi
	elif [ $_ours -ne 0 ] || [ $_theirs -ne 0 ]; then
		echo "perf $*: ours exited with $_ours, the system perf with $_theirs" >&2
		cat ours.err theirs.err >&2
		return 1
	fi
	diff -u theirs ours || return 1
	if [ -n "$_stderr" ]; then
		diff -u theirs.err ours.err || return 1
	fi
	return 0
}

# Files ---------------------------------------------------------------------

# build_prog OUT SRC [CFLAGS...]: build a C program.
build_prog() {
	out=$1 src=$2
	shift 2
	${CC:-gcc} "$@" -o "$out" "$src"
}

# build_workload NAME OUT [CFLAGS...]: tools/perf/tests/workloads/NAME.c
# built with CFLAGS, copied to OUT (a copy keeps the build-id).  Each
# combination of source, flags and compiler is built once into
# $PERF_TEST_WORKLOADS (run.sh: under the build directory, shared by the
# scripts of a run), else into $TEST_TMP.  A NAME.d beside it makes it an
# SDT program: its provider header and object come from dtrace(1).
build_workload() {
	_name=$1 _out=$2
	shift 2
	# NAME.c (CC), NAME.cc (CXX), NAME.rs (RUSTC) or NAME.go (GO, flags
	# for "go build", e.g. -gcflags=all=-N).
	_src=
	for _s in "$WORKLOADS/$_name".c "$WORKLOADS/$_name".cc "$WORKLOADS/$_name".rs \
		"$WORKLOADS/$_name".go; do
		[ -f "$_s" ] && _src=$_s && break
	done
	[ -n "$_src" ] || { echo "build_workload: no $WORKLOADS/$_name.c, .cc, .rs or .go" >&2; return 1; }
	case $_src in
	*.cc) _cc=$CXX ;;
	*.rs) _cc=$RUSTC ;;
	*.go) _cc="$GO build" ;;
	*) _cc=${CC:-gcc} ;;
	esac
	_dir=${PERF_TEST_WORKLOADS:-$TEST_TMP/.workloads}
	# The key: NAME.* (the source, an SDT provider, a version script...),
	# the compiler and the flags.
	_key=$({ cat "$WORKLOADS/$_name".*; echo "$_cc $*"; } | cksum | tr ' ' -)
	_bin=$_dir/$_name-$_key
	if [ ! -x "$_bin" ]; then
		# A shared directory we may not write (another user's build):
		# our own copy then.
		if ! { mkdir -p "$_dir" && [ -w "$_dir" ]; } 2>/dev/null; then
			_dir=$TEST_TMP/.workloads
			_bin=$_dir/$_name-$_key
			mkdir -p "$_dir" || return 1
		fi
		_b=$(mktemp -d "$_dir/.build.XXXXXX") || return 1
		case $_src in
		*.go)
			# A module of its own, built offline, its caches in the build.
			(cd "$_b" && cp "$_src" main.go &&
				printf 'module %s\n\ngo 1.19\n' "$_name" >go.mod &&
				HOME=$_b GOCACHE=$_b/.cache GOPATH=$_b/.gopath GOPROXY=off \
					GOTOOLCHAIN=local $GO build "$@" -o "$_name" . &&
				chmod -R u+w . && rm -rf .cache .gopath)
			;;
		*.rs) $RUSTC "$@" -o "$_b/$_name" "$_src" ;;
		*.cc) $CXX "$@" -o "$_b/$_name" "$_src" ;;
		*)
			if [ -f "$WORKLOADS/$_name.d" ]; then
				(cd "$_b" && cp "$_src" "$WORKLOADS/$_name.d" . &&
					dtrace -h -s "$_name.d" -o "$_name-provider.h" >/dev/null &&
					CFLAGS="$*" dtrace -G -s "$_name.d" -o "$_name-provider.o" >/dev/null &&
					${CC:-gcc} -O2 "$@" -c -o "$_name.o" "$_name.c" &&
					${CC:-gcc} "$@" -o "$_name" "$_name.o" "$_name-provider.o")
			else
				${CC:-gcc} "$@" -o "$_b/$_name" "$_src"
			fi
			;;
		esac || { rm -rf "$_b"; return 1; }
		# Published whole: a concurrent build of the same key wins or loses.
		mv -f "$_b/$_name" "$_bin" && rm -rf "$_b" || return 1
	fi
	cp "$_bin" "$_out"
}

# test_trusted_dir (top level): TRUSTED, a directory of the script's own
# (removed at exit) whose every directory from / is owned by root or you
# and writable by nobody else, as the fallback to the system perf wants
# the programs it runs ($TEST_TMP is not: /tmp is writable by all).  It is
# made under the build directory; the prerequisite TRUSTED_DIR is set
# when it could be.
test_trusted_dir() {
	_base=${PERF_TEST_WORKLOADS:+$(dirname "$PERF_TEST_WORKLOADS")}
	_base=${_base:-$TEST_ROOT/build/tests}
	mkdir -p "$_base" 2>/dev/null || return 0
	TRUSTED=$(mktemp -d "$_base/trusted-$TEST_NAME.XXXXXX" 2>/dev/null) || return 0
	TRUSTED=$(realpath "$TRUSTED") && chmod 755 "$TRUSTED" || return 0
	test_cleanup "rm -rf '$TRUSTED'"
	_p=$TRUSTED
	while :; do
		_m=$(stat -c %a "$_p") && _u=$(stat -c %u "$_p") || return 0
		[ "$_u" = 0 ] || [ "$_u" = "$(id -u)" ] || return 0
		# the group's and others' digits: no write bit
		_g=${_m%?} _o=${_m#"${_m%?}"}
		_g=${_g#"${_g%?}"}
		[ $((_g & 2)) = 0 ] && [ $((_o & 2)) = 0 ] || return 0
		[ "$_p" = / ] && break
		_p=$(dirname "$_p")
	done
	test_set_prereq TRUSTED_DIR
}

# strip_as HOW IN OUT: OUT is IN stripped as HOW says, its build-id kept:
#	strip-g strip-s unneeded	strip -g, strip -s, strip --strip-unneeded
#	eu-strip			elfutils' eu-strip (no .symtab)
#	debuglink			objcopy --only-keep-debug + strip -s +
#					--add-gnu-debuglink, the debug file then gone
#	mdi				MiniDebugInfo as Fedora's find-debuginfo adds
#					it: strip -s, and .gnu_debugdata, an xz'ed ELF
#					file whose .symtab has the functions (and
#					global data) .dynsym lacks
STRIP_HOWS="strip-g strip-s unneeded eu-strip debuglink mdi"
strip_as() {
	case $1 in
	strip-g) strip -g -o "$3" "$2" ;;
	strip-s) strip -s -o "$3" "$2" ;;
	unneeded) strip --strip-unneeded -o "$3" "$2" ;;
	eu-strip) eu-strip -o "$3" "$2" ;;
	debuglink)
		objcopy --only-keep-debug "$2" "$3.debug" && strip -s -o "$3" "$2" &&
			objcopy --add-gnu-debuglink="$3.debug" "$3" && rm -f "$3.debug"
		;;
	mdi)
		objcopy --only-keep-debug "$2" "$3.debug" && strip -s -o "$3" "$2" &&
			nm -D "$3" --format=posix --defined-only | awk '{ print $1 }' | sort >"$3.dynsyms" &&
			nm "$3.debug" --format=posix --defined-only |
			awk '$2 == "T" || $2 == "t" || $2 == "D" { print $1 }' | sort >"$3.funcsyms" &&
			comm -13 "$3.dynsyms" "$3.funcsyms" >"$3.keep" &&
			objcopy -S --remove-section .gdb_index --remove-section .comment \
				--keep-symbols="$3.keep" "$3.debug" "$3.mini" &&
			xz -f "$3.mini" && objcopy --add-section .gnu_debugdata="$3.mini.xz" "$3" &&
			rm -f "$3.debug" "$3.dynsyms" "$3.funcsyms" "$3.keep" "$3.mini.xz"
		;;
	*)
		echo "strip_as: no way '$1'" >&2
		return 1
		;;
	esac
}

# build_id_of FILE: the build-id readelf shows for FILE, empty when none.
build_id_of() {
	readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: *//p' | head -n 1
}

# file_offset FILE VADDR: the file offset of VADDR (hex, no 0x) through
# FILE's PT_LOAD segments, as 0x...
file_offset() {
	readelf -lW "$1" | awk -v a="$2" '
	function hex(s,   n, i) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	$1 == "LOAD" { v = hex(a); if (v >= hex($3) && v < hex($3) + hex($5)) { printf "0x%x\n", v - hex($3) + hex($2); exit } }'
}

# zstd_sections IN OUT: OUT is IN with each zlib SHF_COMPRESSED section
# whose zstd frame (zstd -19, written over it in place) is no larger made
# a zstd section (ch_type 2), as ld --compress-debug-sections=zstd would
# (binutils 2.40 and gcc 12 here make none).  Prints the names converted.
zstd_sections() {
	python3 - "$1" "$2" <<-\EOF
	import struct, subprocess, sys, zlib
	d = bytearray(open(sys.argv[1], "rb").read())
	shoff, = struct.unpack_from("<Q", d, 0x28)
	shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
	stroff, = struct.unpack_from("<Q", d, shoff + shstrndx * shentsize + 0x18)
	for i in range(shnum):
	    h = shoff + i * shentsize
	    name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", d, h)
	    if not flags & 0x800 or struct.unpack_from("<I", d, off)[0] != 1:
	        continue
	    ct, res, chsize, chalign = struct.unpack_from("<IIQQ", d, off)
	    raw = zlib.decompress(bytes(d[off + 24:off + size]))
	    z = subprocess.run(["zstd", "-q", "-19", "-c", "-"], input=raw,
	                       stdout=subprocess.PIPE, check=True).stdout
	    new = struct.pack("<IIQQ", 2, 0, chsize, chalign) + z
	    if len(new) > size:
	        continue
	    d[off:off + size] = new + bytes(size - len(new))
	    struct.pack_into("<Q", d, h + 0x20, len(new))
	    print(d[stroff + name:d.index(b"\0", stroff + name)].decode())
	open(sys.argv[2], "wb").write(d)
	EOF
}

# probes_file [--home DIR] FILE: the probes file of FILE's entry in the
# build-id cache of DIR (default $HOME): DIR/.debug/<path>/<build-id>/probes.
probes_file() {
	_home=$HOME
	if [ "$1" = --home ]; then
		_home=$2
		shift 2
	fi
	echo "$_home/.debug$(realpath "$1")/$(build_id_of "$1")/probes"
}

# test_trace_instance GROUP: TI, a tracefs instance of this script's own
# (TRACEFS/instances/GROUP) for live cases that read the trace: other
# scripts clear and fill the top-level buffer meanwhile.  Made when ROOT
# and TRACEFS hold; GROUP's events in it are disabled and it is removed
# at exit.
test_trace_instance() {
	TI=$TRACEFS/instances/$1
	if test_have_prereq ROOT,TRACEFS; then
		[ -d "$TI" ] || mkdir "$TI"
		test_cleanup "echo 0 >\"$TI/events/$1/enable\"; rmdir \"$TI\""
	fi
}

# A real debuginfod on loopback ----------------------------------------------

# debuginfod_setup: URL of a server on a port of this script's own, a
# debuginfod client cache of its own, and the server stopped at exit.
# debuginfod_start DIR serves the ELF files under DIR; debuginfod_stop
# stops it and waits until it is gone.  debuginfod_fetch BIN runs
# "perf buildid-cache --debuginfod=URL -a BIN" until the server's first
# scan has BIN's debuginfo (a miss is cached by the client, so the client
# cache is dropped between tries).
debuginfod_setup() {
	DEBUGINFOD_PORT=$((20000 + $$ % 20000))
	URL="http://127.0.0.1:$DEBUGINFOD_PORT"
	export DEBUGINFOD_CACHE_PATH="$TEST_TMP/client-cache"
	export DEBUGINFOD_TIMEOUT=10
	test_cleanup 'kill $(cat "$TEST_TMP/server.pid" 2>/dev/null) 2>/dev/null'
}

debuginfod_start() {
	# One server at a time: a case that failed before its debuginfod_stop
	# would otherwise leave its server running past the script's exit (the
	# pid file names the last one only), holding the descriptors of the
	# test run, such as a lock on it.
	[ -f "$TEST_TMP/server.pid" ] && debuginfod_stop
	(debuginfod -p "$DEBUGINFOD_PORT" -F "$1" -d "$TEST_TMP/db.sqlite" \
		>"$TEST_TMP/server.log" 2>&1 & echo $! >"$TEST_TMP/server.pid")
}

debuginfod_stop() {
	kill "$(cat "$TEST_TMP/server.pid")" 2>/dev/null
	while kill -0 "$(cat "$TEST_TMP/server.pid")" 2>/dev/null; do sleep 0.1; done
}

debuginfod_fetch() {
	_i=0
	until "$PERF" buildid-cache --debuginfod="$URL" -a "$1" 2>/dev/null; do
		rm -rf "$DEBUGINFOD_CACHE_PATH"
		_i=$((_i + 1))
		[ $_i -lt 100 ] || { cat "$TEST_TMP/server.log"; return 1; }
		sleep 0.2
	done
}

# The kernel-probe guest -----------------------------------------------------

GUEST_SH=$TEST_ROOT/tools/perf/tests/guest/guest.sh
GUEST_KVER=6.1.0-57-amd64
GUEST_VMLINUX=/usr/lib/debug/boot/vmlinux-$GUEST_KVER
export GUEST_KVER GUEST_VMLINUX
test_lazy_prereq QEMU_GUEST 'sh "$GUEST_SH" check'

guest_why_not() {
	sh "$GUEST_SH" check
}

# guest_replay FILE: the TAP lines of a script that ran in the guest
# (FILE) as cases of this one, "guest: " before their titles, their
# diagnostics kept; its plan dropped.
guest_replay() {
	while IFS= read -r _line; do
		case $_line in
		"ok "[0-9]*)
			test_count=$((test_count + 1))
			echo "ok $test_count - guest: ${_line#ok * - }" ;;
		"not ok "[0-9]*)
			test_count=$((test_count + 1))
			test_failed=$((test_failed + 1))
			echo "not ok $test_count - guest: ${_line#not ok * - }" ;;
		"#"*) printf '%s\n' "$_line" ;;
		esac
	done <"$1"
}

# Probe groups --------------------------------------------------------------

TRACEFS=/sys/kernel/tracing
VMLINUX=${VMLINUX:-$(find /usr/lib/debug/boot -maxdepth 1 -name 'vmlinux-*' 2>/dev/null | sort | head -n 1)}

# remove_probe_group GROUP: disable and delete every uprobe/kprobe event of
# GROUP straight through tracefs (not through the tool under test).
remove_probe_group() {
	for f in uprobe_events kprobe_events; do
		[ -w "$TRACEFS/$f" ] || continue
		[ -d "$TRACEFS/events/$1" ] && echo 0 >"$TRACEFS/events/$1/enable"
		grep -o "^[pr][0-9]*:$1/[^ ]*" "$TRACEFS/$f" | sed 's/^[pr][0-9]*:/-:/' |
			while read -r line; do echo "$line" >>"$TRACEFS/$f"; done
	done
	return 0
}

# Claims of groups are held with flock(1) on a file per group, so that two
# runs of one script (two checkouts on one machine) take turns instead of
# deleting each other's events.  The locks live in a directory of our own,
# and the descriptors (9 down to 5) are closed in the cases' commands, so a
# process a case leaves behind does not keep a group claimed.
_test_lock_fd=9
_test_lock_dir=${TMPDIR:-/tmp}/perf-test-groups-$(id -u)

_test_lock_group() {
	command -v flock >/dev/null 2>&1 || return 0
	[ "$_test_lock_fd" -ge 5 ] || { echo "test_probe_group: too many groups" >&2; return 1; }
	mkdir -m 700 "$_test_lock_dir" 2>/dev/null
	# Another user's directory, or a link in its place: no locking.
	[ -d "$_test_lock_dir" ] && [ ! -L "$_test_lock_dir" ] && [ -O "$_test_lock_dir" ] || return 0
	eval "exec $_test_lock_fd>>\"\$_test_lock_dir/\$1\""
	flock -w 900 "$_test_lock_fd" || { echo "test_probe_group: $1 is still claimed" >&2; return 1; }
	_test_lock_fd=$((_test_lock_fd - 1))
}

# test_probe_group GROUP: this script owns GROUP: its events are removed
# now and when the script ends, and test_refuses --tracefs watches them.
# Other groups are never touched.  Another run claiming GROUP is waited for.
test_probe_group() {
	_test_groups="$_test_groups $1"
	_test_lock_group "$1" || exit 1
	test_cleanup "remove_probe_group $1"
	if test_have_prereq TRACEFS; then
		remove_probe_group "$1" 2>/dev/null
	fi
	return 0
}
