#!/bin/sh
test_description='probe-cache bundles: export on a build host, import on a farm host'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_bundle
test_probe_group $G

BUILD="$TEST_TMP/build-home"
FARM="$TEST_TMP/farm-home"

test_expect_success 'setup: a build host with a -g binary, a farm host with the stripped one' '
	mkdir -p "$BUILD" "$FARM" build farm &&
	build_workload req-peer build/app -g -O0 &&
	strip -g -o farm/app build/app
'

test_expect_success 'the build host caches probes and exports them in one bundle' '
	HOME="$BUILD" "$PERF" probe --cache -n -q -x build/app -a "$G:h=handle x=%di:x64" -a "$G:m=main" &&
	if HOME="$BUILD" "$PERF" probe -x build/app -D "handle r->len" >/dev/null 2>&1; then
		HOME="$BUILD" "$PERF" probe --cache -n -q -x build/app -a "$G:d=handle r->len r->peer:string"
	fi &&
	HOME="$BUILD" "$PERF" probe --cache --export bundle -x build/app 2>err &&
	grep -q "^Exported [0-9]* cached probes of 1 binary to bundle$" err &&
	test -s bundle
'

test_expect_success 'the farm host imports it and places the probe with no debuginfo' '
	HOME="$FARM" "$PERF" probe --cache --import bundle 2>err &&
	grep -q "^Imported $TEST_TMP/build/app (.*): [0-9]* new, 0 updated, 0 already cached$" err &&
	HOME="$FARM" "$PERF" probe -x farm/app -D "$G:h=handle x=%di:x64" >out &&
	grep -q "^p:$G/h $TEST_TMP/farm/app:0x[0-9a-f]* x=%di:x64$" out &&
	HOME="$FARM" "$PERF" probe -x farm/app -D "%$G:m" >out &&
	grep -q "^p:$G/m $TEST_TMP/farm/app:0x" out
'

test_expect_success 'a DWARF probe from the bundle fires on the farm host' '
	grep -q "$G:d=" "$BUILD/.debug$TEST_TMP/build/app"/*/probes 2>/dev/null || {
		echo "# skip: no DWARF entry in the bundle"; exit 0; }
	test_have_prereq ROOT,TRACEFS || exit 0
	HOME="$FARM" "$PERF" probe -q -x farm/app -a "$G:d=handle r->len r->peer:string" &&
	echo >"$TRACEFS/trace" && echo 1 >"$TRACEFS/events/$G/d/enable" &&
	farm/app >/dev/null && echo 0 >"$TRACEFS/events/$G/d/enable" &&
	test "$(grep -c "len=41 peer=\"peer-one\"" "$TRACEFS/trace")" -eq 3 &&
	HOME="$FARM" "$PERF" probe -q -d "$G:*"
'

test_expect_success 'importing the same bundle again adds no duplicates' '
	HOME="$FARM" "$PERF" probe --cache --import bundle 2>err &&
	grep -q ": 0 new, 0 updated, [0-9]* already cached$" err &&
	f=$(ls "$FARM/.debug$TEST_TMP/build/app"/*/probes) &&
	test "$(grep -c "^#" "$f")" -eq "$(sort -u "$f" | grep -c "^#")"
'

# refused NAME: importing NAME is refused with one line and changes
# nothing in the farm cache, the probes file byte for byte.
refused() {
	cp "$(ls "$FARM/.debug$TEST_TMP/build/app"/*/probes)" probes.before &&
	test_refuses --cache "$FARM/.debug" env HOME="$FARM" "$PERF" probe --cache --import "$1" &&
	cmp probes.before "$(ls "$FARM/.debug$TEST_TMP/build/app"/*/probes)"
}

test_expect_success 'a truncated bundle is refused and the cache is left as it was' '
	head -c $(($(wc -c <bundle) - 7)) bundle >truncated && refused truncated &&
	grep -q truncated err
'

test_expect_success 'a corrupted bundle is refused and the cache is left as it was' '
	cp bundle corrupted &&
	printf "\377" | dd of=corrupted bs=1 seek=$(($(wc -c <bundle) - 3)) conv=notrunc 2>/dev/null &&
	refused corrupted && grep -q corrupted err
'

test_expect_success 'a bundle of another version is refused' '
	command -v python3 >/dev/null || { echo "# skip: no python3"; exit 0; }
	python3 -c "
import sys, struct, zlib
d = bytearray(open(\"bundle\", \"rb\").read())
d[8:12] = struct.pack(\"<I\", 2)
d[36:40] = struct.pack(\"<I\", zlib.crc32(bytes(d[:36])))
open(\"v2\", \"wb\").write(d)" &&
	refused v2 && grep -q "version 2" err
'

test_expect_success 'an empty bundle is refused' '
	command -v python3 >/dev/null || { echo "# skip: no python3"; exit 0; }
	python3 -c "
import struct, zlib
z = zlib.compress(b\"\")
h = b\"PRBCACHE\" + struct.pack(\"<IIQQI\", 1, 0, 0, len(z), zlib.crc32(b\"\"))
open(\"empty\", \"wb\").write(h + struct.pack(\"<I\", zlib.crc32(h)) + z)" &&
	refused empty && grep -q empty err
'

test_expect_success 'a file that is no bundle at all is refused' '
	echo "hello" >text && refused text
'

test_expect_success '--export without --cache is a usage error' '
	test_must_fail "$PERF" probe --export x 2>err
'

test_done
