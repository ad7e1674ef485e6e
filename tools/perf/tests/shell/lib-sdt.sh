# Shared by the t05NN-sdt-* scripts (after lib.sh): a test program with SDT
# markers of our own provider, perftest_sdt, built as dtrace(1) builds them.
#
#	foo__bar(int, long, const char *)	guarded by its semaphore
#	small(char, short, unsigned char, unsigned short)
#	twice(int)				two markers of one name
#	noargs()
#
# `sdtprog N` runs the loop N times; it prints "foo__bar enabled: 0|1"
# (PERFTEST_SDT_FOO_BAR_ENABLED()) once, then fires foo__bar(100 + i,
# -1000 * i, "hello") for each i: foo__bar fires only while its semaphore
# is raised, i.e. while a uprobe with ref_ctr_offset is enabled on it.

SDT_GROUP=sdt_perftest_sdt

have_sdt_tools() {
	command -v dtrace >/dev/null && command -v gcc >/dev/null &&
		[ -e /usr/include/x86_64-linux-gnu/sys/sdt.h -o -e /usr/include/sys/sdt.h ]
}

# build_sdt_prog OUT [CFLAGS...]: build the program in the current directory.
build_sdt_prog() {
	out=$1
	shift
	cat >sdtprov.d <<'SRC'
provider perftest_sdt {
	probe foo__bar(int, long, const char *);
	probe small(char, short, unsigned char, unsigned short);
	probe twice(int);
	probe noargs();
};
SRC
	cat >sdtprog.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include "sdtprov.h"

__attribute__((noinline)) static void a(int n, long l, const char *s)
{
	if (PERFTEST_SDT_FOO_BAR_ENABLED())
		PERFTEST_SDT_FOO_BAR(n, l, s);
	PERFTEST_SDT_TWICE(n + 1);
}

__attribute__((noinline)) static void b(char c, short s, unsigned char uc, unsigned short us)
{
	PERFTEST_SDT_SMALL(c, s, uc, us);
	PERFTEST_SDT_TWICE(c);
	PERFTEST_SDT_NOARGS();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	printf("foo__bar enabled: %d\n", PERFTEST_SDT_FOO_BAR_ENABLED() ? 1 : 0);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		a(100 + i, -1000L * i, "hello");
		b((char)-i, (short)(-2 * i), (unsigned char)i, (unsigned short)i);
	}
	return 0;
}
SRC
	dtrace -h -s sdtprov.d -o sdtprov.h >/dev/null &&
		CFLAGS="$*" dtrace -G -s sdtprov.d -o sdtprov.o >/dev/null &&
		${CC:-gcc} -O2 "$@" -c -o sdtprog.o sdtprog.c &&
		${CC:-gcc} "$@" -o "$out" sdtprog.o sdtprov.o
}

# probes_file HOME FILE: the probes file of FILE's entry in HOME/.debug.
probes_file() {
	echo "$1"/.debug"$(realpath "$2")"/*/probes
}
