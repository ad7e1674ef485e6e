# Shared by the t05NN-sdt-* scripts (after lib.sh): a test program with SDT
# markers of our own provider, perftest_sdt, built as dtrace(1) builds them
# (tools/perf/tests/workloads/sdtprog.c and sdtprog.d).
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

# build_sdt_prog OUT [CFLAGS...]: build the program as OUT.
build_sdt_prog() {
	build_workload sdtprog "$@"
}
