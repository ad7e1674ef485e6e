#!/bin/sh
test_description='a .debug_info read page by page (lazy-section.c) gives what the mapped one gives'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# PERF_DEBUGINFO_LAZY_MIN=1 puts any .debug_info on the lazy path (64 MiB
# and more take it by default: the vmlinux).  Every output of -D, -V and -L
# must then be the bytes of the normal path; -v says how many pages were
# read, and how many on a fault: some, as libdw reads the section through
# the region, not a copy of it.  The program is made of several units, so
# that libdw walks the headers of the units before the one it wants,
# across pages.

# gen N: unit N, 60 functions over a struct of its own.
gen() {
	{
		echo "struct s$1 { int a; long b; struct s$1 *next; char name[16]; unsigned bits:3; };"
		j=0
		while [ "$j" -lt 60 ]; do
			cat <<-EOT
			long f$1_$j(struct s$1 *p, int x)
			{
				long y = x * 2 + $j;

				if (p && p->a > y)
					y += p->b + p->next->a;
				return y + p->name[$j % 16];
			}
			EOT
			j=$((j + 1))
		done
	} >"u$1.c"
}

units='u0.c u1.c u2.c u3.c u4.c u5.c u6.c u7.c u8.c u9.c u10.c u11.c'
test_expect_success GCC 'setup: a -g program of twelve units' '
	i=0 &&
	while [ $i -lt 12 ]; do gen $i || exit 1; i=$((i + 1)); done &&
	cat >main.c <<-\EOT &&
	struct s11;
	long f11_59(struct s11 *p, int x);
	int main(int argc, char **argv)
	{
		return argc > 5 ? (int)f11_59(0, argc) : 0;
	}
	EOT
	# One at -O2 for location lists, as a kernel is built.
	# shellcheck disable=SC2086 # the list of units
	"${CC:-gcc}" -g -O0 -o prog main.c $units &&
	# shellcheck disable=SC2086
	"${CC:-gcc}" -g -O2 -o prog-O2 main.c $units
'

# same_both ARGS...: perf ARGS, on the normal and the lazy path (both its
# modes: userfaultfd where the kernel allows it, PROT_NONE pages): the
# same stdout, stderr and status, and the lazy one did read pages lazily.
same_both() {
	"$PERF" "$@" >normal.out 2>normal.err
	normal=$?
	PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" "$@" >lazy.out 2>lazy.err
	lazy=$?
	PERF_LAZY_SECTION=mprotect PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" "$@" >prot.out 2>prot.err
	prot=$?
	_cmd=$1
	shift
	PERF_DEBUGINFO_LAZY_MIN=1 "$PERF" "$_cmd" -v "$@" >/dev/null 2>lazy.v
	set -- "$_cmd" "$@"
	if [ "$normal" != "$lazy" ] || [ "$normal" != "$prot" ] || ! cmp -s normal.out lazy.out ||
		! cmp -s normal.err lazy.err || ! cmp -s normal.out prot.out ||
		! cmp -s normal.err prot.err || ! grep -Eq "pages of .debug_info read, [1-9][0-9]* on a fault" lazy.v; then
		echo "== perf $* (status $normal, lazy $lazy, mprotect $prot)"
		diff normal.out lazy.out
		diff normal.err lazy.err
		diff normal.out prot.out
		diff normal.err prot.err
		grep "pages of .debug_info" lazy.v
		return 1
	fi
	[ -s normal.out ]
}

test_expect_success GCC '-D of functions, lines, members and returns is the same on the lazy path' '
	: >differ &&
	for bin in prog prog-O2; do
		for spec in "f0_0 p x" "f3_17 p->name p->next->b" "f11_59:4 y" "f5_4%return \$retval" \
			"f10_42 p->bits p->next->next->a" "u4.c:15" "f2_9 \$vars"; do
			same_both probe -x $bin -D "$spec" >>differ 2>&1 || echo "!! $bin $spec" >>differ
		done
	done &&
	cat differ && test ! -s differ
'

test_expect_success GCC '-V and -L are the same on the lazy path' '
	: >differ &&
	for bin in prog prog-O2; do
		for view in "-V f1_3" "-V f6_20:5" "-V f0_0 --externs" "-L f4_8" "-L u9.c:5-30"; do
			# shellcheck disable=SC2086 # the view is an option and its argument
			same_both probe -x $bin $view >>differ 2>&1 || echo "!! $bin $view" >>differ
		done
	done &&
	cat differ && test ! -s differ
'

test_expect_success GCC 'a spec that is not there fails the same way on the lazy path' '
	test_must_fail "$PERF" probe -x prog -D nosuch_function 2>exp &&
	PERF_DEBUGINFO_LAZY_MIN=1 test_must_fail "$PERF" probe -x prog -D nosuch_function 2>got &&
	test_cmp_file exp got
'

test_expect_success GCC 'below the threshold the section is read as mapped' '
	PERF_DEBUGINFO_LAZY_MIN=1000000000 "$PERF" probe -v -x prog -D "f0_0 p" >out 2>err &&
	! grep "pages of .debug_info read" err
'

test_expect_success VMLINUX_DWARF 'the vmlinux takes the lazy path by default and gives the same lines' '
	: >differ &&
	for spec in "vfs_read file count" "vfs_read file->f_pos" "vfs_read:6" \
		"vfs_write%return \$retval" "tcp_sendmsg sk->__sk_common.skc_dport size"; do
		"$PERF" probe -v -k "$VMLINUX" -D "$spec" >lazy.out 2>lazy.err &&
		grep -Eq "pages of .debug_info read, [1-9][0-9]* on a fault" lazy.err &&
		PERF_LAZY_SECTION=mprotect "$PERF" probe -k "$VMLINUX" -D "$spec" >prot.out &&
		PERF_DEBUGINFO_LAZY_MIN=0x7fffffffffffffff "$PERF" probe -k "$VMLINUX" -D "$spec" \
			>normal.out 2>normal.err &&
		cmp -s normal.out lazy.out && cmp -s normal.out prot.out ||
			{ echo "== $spec"; diff normal.out lazy.out; diff normal.out prot.out; } >>differ
	done &&
	cat differ && test ! -s differ
'

test_expect_success VMLINUX_DWARF '-V and -L on the vmlinux are the same on the lazy path' '
	: >differ &&
	for view in "-V vfs_read" "-L vfs_read"; do
		# shellcheck disable=SC2086 # the view is an option and its argument
		"$PERF" probe -k "$VMLINUX" $view >lazy.out 2>lazy.err
		# shellcheck disable=SC2086
		PERF_DEBUGINFO_LAZY_MIN=0x7fffffffffffffff "$PERF" probe -k "$VMLINUX" $view \
			>normal.out 2>normal.err
		cmp -s normal.out lazy.out && cmp -s normal.err lazy.err ||
			{ echo "== $view"; diff normal.out lazy.out; } >>differ
	done &&
	cat differ && test ! -s differ
'

test_done
