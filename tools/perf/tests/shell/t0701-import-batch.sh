#!/bin/sh
test_description='bundle import as one batch: a constant number of syncs, all or nothing before the renames, concurrent writers kept'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_impb
test_probe_group $G
test_lazy_prereq STRACE 'command -v strace'

# mkbundle OUT NAME:SPECS...: a bundle (probe-bundle.h's layout) of one
# entry per NAME, each with a build-id of its own and SPECS specs; the
# NAMEs are not on this host, so their lines are checked where used.
mkbundle() {
	python3 - "$@" <<'PY'
import hashlib, struct, sys, zlib
out, specs = sys.argv[1], sys.argv[2:]
payload = bytearray()
for s in specs:
    name, _, per = s.rpartition(":")
    bid = hashlib.sha1(name.encode()).hexdigest()
    text = "".join("#ev%d\np:perftest_impb/ev%d %s:0x%x\n" % (i, i, name, 0x1000 + i)
                   for i in range(int(per))).encode()
    nb = name.encode()
    payload += b"%s %d %d\n" % (bid.encode(), len(nb), len(text)) + nb + text
z = zlib.compress(bytes(payload), 9)
hdr = b"PRBCACHE" + struct.pack("<IIQQI", 1, len(specs), len(payload), len(z), zlib.crc32(payload))
hdr += struct.pack("<I", zlib.crc32(hdr))
open(out, "wb").write(hdr + z)
PY
}

bid_of() {
	python3 -c 'import hashlib, sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())' "$1"
}

# syncs FILE: the fsync, fdatasync and syncfs calls of an strace -c summary.
syncs() {
	awk '$NF ~ /^(fsync|fdatasync|syncfs)$/ { n += $4 } END { print n + 0 }' "$1"
}

# status_to FILE CMD...: run CMD and leave its exit status in FILE too.
status_to() {
	_file=$1
	shift
	"$@"
	_rc=$?
	echo "$_rc" >"$_file"
	return "$_rc"
}

names() {
	i=1
	while [ "$i" -le "$1" ]; do
		printf '/srv/%s%d:%d\n' "$2" "$i" "$3"
		i=$((i + 1))
	done
}

test_expect_success PYTHON3,STRACE 'an import of 40 entries syncs as often as one of 10: not once per entry' '
	# shellcheck disable=SC2046 # one argument per entry
	mkbundle b10 $(names 10 s 2) && mkbundle b40 $(names 40 t 2) &&
	# LeakSanitizer does not run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -c -e trace=fsync,fdatasync,syncfs -o sc10 "$PERF" probe --cache -q --import b10 &&
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -c -e trace=fsync,fdatasync,syncfs -o sc40 "$PERF" probe --cache -q --import b40 &&
	cat sc40 >&2 &&
	n10=$(syncs sc10) && n40=$(syncs sc40) &&
	echo "# syncs: $n10 for 10 entries, $n40 for 40" >&2 &&
	test "$n40" -le 4 && test "$n40" = "$n10"
'

test_expect_success PYTHON3 'every entry of the batch is there: its probes, its .build-id link, its line for the index' '
	for i in $(seq 1 40); do
		bid=$(bid_of /srv/t$i) &&
		test "$(grep -c "^#" "$HOME/.debug/srv/t$i/$bid/probes")" = 2 &&
		test "$(readlink "$HOME/.debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)")" = \
			"../../srv/t$i/$bid" || return 1
	done &&
	grep -c "^$HOME/.debug/srv/t[0-9]*/" "$HOME/.debug/.probe-index.dirty" >n &&
	test "$(cat n)" -ge 40 &&
	! find "$HOME/.debug" -name "*.tmp.*" | grep -q . &&
	"$PERF" probe --cache --import b40 2>err &&
	test_line_count = 40 err && ! grep -v ": 0 new, 0 updated, 2 already cached$" err
'

test_expect_success PYTHON3,STRACE_INJECT 'a directory made untrusted halfway: refused, nothing changed, no temporaries' '
	HOME=$TEST_TMP/half && mkdir -p "$HOME" &&
	mkbundle base /srv/h1:1 /srv/h2:1 /srv/h3:1 &&
	# h0 is new: its directories and .build-id link are made, then taken back
	mkbundle more /srv/h0:3 /srv/h1:3 /srv/h2:3 /srv/h3:3 &&
	"$PERF" probe --cache -q --import base &&
	h3=$HOME/.debug/srv/h3/$(bid_of /srv/h3) &&
	test_when_finished "chmod g-w \"$h3\"" &&
	# the batch is held at its first lock (entry h0) while h3 turns untrusted
	{ (sleep 0.5 && chmod g+w "$h3") & } &&
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" test_refuses status_to rc \
		strace -qq -f -o /dev/null -e trace=flock -e inject=flock:delay_enter=1500000:when=1 \
		"$PERF" probe --cache --import more &&
	wait &&
	test "$(cat rc)" = 243 &&
	grep -q "^Error: Failed to import the probes of /srv/h3 (.*): refusing $h3: writable by its group" err &&
	for h in h1 h2 h3; do
		test "$(grep -c "^#" "$HOME/.debug/srv/$h/$(bid_of /srv/$h)/probes")" = 1 || return 1
	done &&
	test ! -e "$HOME/.debug/srv/h0" &&
	h0=$(bid_of /srv/h0) &&
	test ! -e "$HOME/.debug/.build-id/$(echo "$h0" | cut -c1-2)/$(echo "$h0" | cut -c3-)" &&
	! find "$HOME/.debug" -name "*.tmp.*" | grep -q .
'

M=$TEST_TMP/small
test_cleanup 'umount "$M" 2>/dev/null'

test_expect_success ROOT,PYTHON3 'a full disk during the batch: no probes file changed, no temporaries, nothing made' '
	mkdir "$M" && mount -t tmpfs -o size=256k nodev "$M" &&
	HOME=$M/home && mkdir -p "$HOME" &&
	mkbundle base /srv/f1:1 /srv/f2:1 &&
	"$PERF" probe --cache -q --import base &&
	# six entries of some 45k each: the fourth or so runs out of space
	mkbundle big /srv/f1:1000 /srv/f2:1000 /srv/f3:1000 /srv/f4:1000 /srv/f5:1000 /srv/f6:1000 &&
	test_refuses --cache "$HOME/.debug" "$PERF" probe --cache --import big &&
	grep -q "^Error: Failed to import the probes of /srv/f[1-6] (.*): No space left on device$" err &&
	! find "$HOME/.debug" -name "*.tmp.*" | grep -q .
'

test_expect_success ROOT,PYTHON3 'the same import fits once there is room' '
	mount -o remount,size=2m "$M" &&
	HOME=$M/home "$PERF" probe --cache -q --import big &&
	test "$(grep -c "^#" "$M/home/.debug/srv/f6/$(bid_of /srv/f6)/probes")" = 1000
'

test_expect_success STRACE_INJECT 'an add to an entry while the batch waits for its lock is kept' '
	build_workload req-peer app -O1 &&
	SRC=$TEST_TMP/src-home && mkdir -p "$SRC" &&
	HOME=$SRC "$PERF" probe --cache -n -q -x app -a "$G:m=main" &&
	HOME=$SRC "$PERF" probe --cache -q --export one -x app &&
	HOME=$TEST_TMP/conc && mkdir -p "$HOME" &&
	# flock 1: the batch locks the entry to write its temporary; flock 2:
	# again to rename it, held there while another perf adds a probe
	{ ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -qq -f -o /dev/null -e trace=flock -e inject=flock:delay_enter=1500000:when=2 \
		"$PERF" probe --cache --import one 2>imp & } &&
	sleep 0.7 &&
	"$PERF" probe --cache -n -q -x app -a "$G:h=handle" &&
	wait &&
	grep -q "^Imported $TEST_TMP/app (.*): 1 new, 0 updated, 0 already cached$" imp &&
	"$PERF" probe --cache --list >out &&
	grep -qx "$G:m=main" out && grep -qx "$G:h=handle" out
'

test_done
