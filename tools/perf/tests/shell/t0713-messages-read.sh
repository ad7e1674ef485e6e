#!/bin/sh
test_description='messages say what happened: a delete that failed, an ELF of the wrong class'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success GCC 'setup: a program with two cached probes; a 64-bit file marked 32-bit' '
	echo "int work(int x) { return x + 1; } int main(int c, char **v) { return work(c); }" >app.c &&
	gcc -g -O0 -o app app.c &&
	"$PERF" probe --cache -n -q -x app -a "perftest_msg:a=work" -a "perftest_msg:b=main" &&
	cp app wrong-class &&
	printf "\001" | dd of=wrong-class bs=1 seek=4 conv=notrunc 2>/dev/null
'

test_expect_success GCC,ROOT,UNSHARE '--cache --del on a read-only cache says only that it failed' '
	probes=$(probes_file app) && dir=${probes%/probes} &&
	test_refuses unshare -m sh -c "mount --bind \"$dir\" \"$dir\" &&
		mount -o remount,bind,ro \"$dir\" &&
		exec \"$PERF\" probe --cache --del \"perftest_msg:*\"" &&
	grep -q "^Error: Failed to write the probe cache $probes: Read-only file system$" err &&
	! grep -q "Removed" err &&
	"$PERF" probe --cache --list >out &&
	grep -q "^perftest_msg:a=work$" out && grep -q "^perftest_msg:b=main$" out
'

test_expect_success GCC '--cache --del says what it removed once it is removed' '
	"$PERF" probe --cache --del "perftest_msg:b*" 2>err &&
	grep -q "^Removed cached event: perftest_msg:b=main$" err &&
	"$PERF" probe --cache --list >out &&
	! grep -q "perftest_msg:b" out
'

test_expect_success GCC 'an ELF whose class does not fit its headers is named so, not "no build-id note"' '
	test_refuses "$PERF" buildid-list -i wrong-class &&
	grep -q "^Couldn.t read a build-id in wrong-class: its ELF class (32- or 64-bit) does not match its header sizes$" err &&
	test_refuses "$PERF" buildid-cache -a wrong-class &&
	grep -q "its ELF class (32- or 64-bit) does not match its header sizes$" err
'

test_done
