#!/bin/sh
test_description='bad DWARF specs: one clear line, non-zero exit, nothing written'
. "$(dirname "$0")/lib.sh"

cat >bad.c <<'SRC'
struct s { int a; };
int arr[4];
int f(struct s *p, int n)
{
	int k = n + 1;

	return p->a + k;
}
int main(void) { struct s v = { 1 }; return f(&v, 2); }
SRC

test_expect_success 'setup' '
	build_prog bad bad.c -g -O0
'

check_bad() {
	test_must_fail "$PERF" probe -x bad -D "$1" >out 2>err &&
	test ! -s out &&
	grep -v -e "^Target program is compiled" -e "^Probe on address" -e "^$" err >err1 &&
	cat err1 &&
	test_one_line err1 || { grep -q "$2" err1 && return 0; return 1; }
}

test_expect_success 'a variable that does not exist' '
	check_bad "f nosuch" && grep -q "variable .nosuch. in f: no local, parameter or global" err1
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
	test_must_fail "$PERF" probe -x corrupt -D "f n" >out 2>err &&
	test ! -s out && cat err && test_one_line err && grep -q "debuginfo of .*corrupt: it is corrupt" err
'

test_done
