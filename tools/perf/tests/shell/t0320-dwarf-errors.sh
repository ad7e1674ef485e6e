#!/bin/sh
test_description='bad DWARF specs: one clear line, non-zero exit, nothing written'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup' '
	build_workload bad bad -g -O0
'

# check_bad SPEC: -D SPEC is refused with one line (in err1) after the
# notes perf prints on the way.
check_bad() {
	test_refuses --ignore "^Target program is compiled|^Probe on address|^$" \
		"$PERF" probe -x bad -D "$1"
}

test_expect_success 'a variable that does not exist' '
	check_bad "f nosuch" &&
	grep -q "the .nosuch. variable at this address: f has no local, parameter or global" err1
'
test_expect_success 'a member of a non-struct' '
	check_bad "f n->x" && grep -q "n is not a data structure nor a union" err1
'
test_expect_success 'an index on a non-array' '
	check_bad "f n[1]" && grep -q "n is not an array nor a pointer" err1
'
test_expect_success 'a member that does not exist' '
	check_bad "f p->zz" && grep -q "has no member zz" err1
'
test_expect_success '$retval on an entry probe' '
	check_bad "f \$retval" && grep -q "retval" err1
'
test_expect_success 'a line with no code' '
	check_bad "bad.c:6" && grep -q "Probe point .* not found" err1
'
test_expect_success 'an unknown source file' '
	check_bad "nosuch.c:3" && grep -q "source file" err1
'
test_expect_success ':string on an int' '
	check_bad "f n:string" && grep -q "Failed to cast into string" err1
'
test_expect_success 'a corrupt .debug_info' '
	cp bad corrupt &&
	off=$(readelf -SW corrupt | awk "/ .debug_info / { print \$5 }") &&
	printf "\377\377\377\377\377\377\377\377\377\377\377\377" |
		dd of=corrupt bs=1 seek=$((0x$off)) conv=notrunc 2>/dev/null &&
	test_refuses "$PERF" probe -x corrupt -D "f n" &&
	grep -q "debuginfo of .*corrupt: it is corrupt" err
'

test_done
