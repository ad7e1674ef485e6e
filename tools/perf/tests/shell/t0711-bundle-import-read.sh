#!/bin/sh
test_description='bundle import: linear in its size, safe entry names, nothing after the stream, regular files only'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

BID=0123456789abcdef0123456789abcdef01234567

# mkbundle OUT SPEC...: a bundle written as probe-bundle.h lays it out.
# SPEC: NAME=ENTRIES:SPECS, ENTRIES entries for NAME of SPECS specs each;
# TRAIL=N appends N bytes after the zlib stream (counted in its size).
mkbundle() {
	python3 - "$BID" "$@" <<'PY'
import struct, sys, zlib
bid, out, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
payload, nr, trail, k = bytearray(), 0, 0, 0
for s in specs:
    name, _, counts = s.rpartition("=")
    if name == "TRAIL":
        trail = int(counts)
        continue
    entries, per = (int(x) for x in counts.split(":"))
    for _ in range(entries):
        text = "".join("#ev%d\np:perftest_imp/ev%d /srv/app:0x%x\n" % (k + i, k + i, 0x1000 + k + i)
                       for i in range(per)).encode()
        k += per
        nb = name.encode()
        payload += b"%s %d %d\n" % (bid.encode(), len(nb), len(text)) + nb + text
        nr += 1
z = zlib.compress(bytes(payload), 9) + b"\0" * trail
hdr = b"PRBCACHE" + struct.pack("<IIQQI", 1, nr, len(payload), len(z), zlib.crc32(payload))
hdr += struct.pack("<I", zlib.crc32(hdr))
open(out, "wb").write(hdr + z)
PY
}

specs_of() {
	grep -c "^#" "$HOME/.debug$1/$BID/probes"
}

test_expect_success PYTHON3 'a bundle of 100000 entries of one binary imports in time' '
	mkbundle many /srv/app=100000:1 &&
	ls -l many >&2 &&
	start=$(date +%s.%N) &&
	timeout 20 "$PERF" probe --cache --import many 2>err &&
	end=$(date +%s.%N) &&
	echo "# import of 100000 entries: $(echo "$end - $start" | bc) s" >&2 &&
	grep -q "^Imported /srv/app ($BID): 100000 new, 0 updated, 0 already cached$" err &&
	test_line_count = 1 err &&
	test "$(specs_of /srv/app)" = 100000
'

test_expect_success PYTHON3 'one entry of 100000 specs imports in time, and again as already cached' '
	mkbundle wide /srv/wide=1:100000 &&
	start=$(date +%s.%N) &&
	timeout 20 "$PERF" probe --cache --import wide 2>err &&
	end=$(date +%s.%N) &&
	echo "# import of one entry of 100000 specs: $(echo "$end - $start" | bc) s" >&2 &&
	grep -q "^Imported /srv/wide ($BID): 100000 new" err &&
	timeout 20 "$PERF" probe --cache --import wide 2>err &&
	grep -q "^Imported /srv/wide ($BID): 0 new, 0 updated, 100000 already cached$" err
'

test_expect_success PYTHON3 'entries of one binary merge in their order into one cache' '
	mkbundle two /srv/two=2:1 /srv/three=1:2 &&
	"$PERF" probe --cache --import two 2>err &&
	grep -q "^Imported /srv/two ($BID): 2 new, 0 updated, 0 already cached$" err &&
	grep -q "^Imported /srv/three ($BID): 2 new, 0 updated, 0 already cached$" err &&
	test "$(specs_of /srv/two)" = 2 && test "$(specs_of /srv/three)" = 2
'

test_expect_success PYTHON3 'an import killed at any moment leaves each cache old or new, never half' '
	mkbundle pair /srv/k1=1:100000 /srv/k2=1:100000 &&
	for delay in 0.02 0.05 0.1 0.15 0.2 0.3 0.4; do
		HOME=$TEST_TMP/kill && rm -rf "$HOME" && mkdir -p "$HOME" &&
		{ "$PERF" probe --cache --import pair 2>/dev/null & pid=$!; } &&
		sleep $delay && kill -9 $pid 2>/dev/null; wait $pid
		for b in k1 k2; do
			f=$HOME/.debug/srv/$b/$BID/probes
			# old: no probes file, or the empty one of a new entry (as perf makes it)
			if test -s "$f"; then
				n=$(grep -c "^#" "$f") &&
				echo "# killed after $delay s: $b has $n specs" &&
				test "$n" = 100000 && tail -n 1 "$f" | grep -q "^p:perftest_imp/" || return 1
			fi
		done
	done
'

for name in /.build-id /.build-id/12 / "[..]" "[.]" /tmp/./x /tmp/../x /tmp//x /tmp/x/ /.probe-index; do
	test_expect_success PYTHON3 "an entry named '$name' is refused, nothing is imported" '
		mkbundle bad /srv/ok=1:1 "'"$name"'=1:1" &&
		test_refuses "$PERF" probe --cache --import bad &&
		grep -q "^Error: bad is refused: entry 2: not a cached file name: " err
	'
done

test_expect_success PYTHON3 'a name with a component too long is refused, saying so' '
	long=$(printf "%0300d" 0) &&
	mkbundle longc /srv/ok=1:1 "/srv/$long/x=1:1" &&
	test_refuses "$PERF" probe --cache --import longc &&
	grep -q "^Error: longc is refused: entry 2: a path component longer than NAME_MAX (255 bytes): " err
'

test_expect_success PYTHON3 'a name whose cache path would pass PATH_MAX is refused, saying so' '
	c=$(printf "%0200d" 0) && name= && i=0 &&
	while [ $i -lt 20 ]; do name="$name/$c"; i=$((i + 1)); done &&
	mkbundle longp /srv/ok=1:1 "$name=1:1" &&
	test_refuses "$PERF" probe --cache --import longp &&
	grep -q "^Error: longp is refused: the probe cache of .* would be at a path of [0-9]* bytes, longer than PATH_MAX; nothing was imported$" err
'

test_expect_success PYTHON3 'bytes after the zlib stream are refused' '
	mkbundle trail /srv/ok=1:1 TRAIL=7 &&
	test_refuses "$PERF" probe --cache --import trail &&
	grep -q "^Error: trail is refused: corrupted: 7 bytes after the compressed payload; nothing was imported$" err
'

for f in fifo /dev/zero /dev/urandom; do
	test_expect_success "a bundle that is $f is refused at once, no hang" '
		rm -f fifo && mkfifo fifo &&
		test_refuses timeout 10 "$PERF" probe --cache --import '"$f"' &&
		grep -q "^Error: '"$f"': not a regular file$" err
	'
done

test_done
