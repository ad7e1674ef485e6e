#!/bin/sh
test_description='perf buildid-cache --add caches SDT markers, perf list sdt lists them, as perf does'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=lib-sdt.sh
. "$TEST_ROOT/tools/perf/tests/shell/lib-sdt.sh"

PYTHON=/usr/bin/python3.11
test_probe_group perftest_sdtlist

# ours_and_theirs FILE...: add FILE... to two fresh caches, ours in
# $TEST_TMP/ours, the system perf's in $TEST_TMP/theirs.
ours_and_theirs() {
	rm -rf "$TEST_TMP/ours" "$TEST_TMP/theirs" &&
	mkdir -p "$TEST_TMP/ours" "$TEST_TMP/theirs" &&
	for f in "$@"; do
		HOME=$TEST_TMP/ours "$PERF" buildid-cache -a "$f" &&
		HOME=$TEST_TMP/theirs "$SYSTEM_PERF" buildid-cache -a "$f" >/dev/null 2>&1 ||
		return 1
	done
}

# same_probes FILE: both caches hold the same probes file for FILE.
same_probes() {
	test -f "$(probes_file --home "$TEST_TMP/theirs" "$1")" &&
	test_cmp_file "$(probes_file --home "$TEST_TMP/theirs" "$1")" "$(probes_file --home "$TEST_TMP/ours" "$1")"
}

# A program with hand-written notes: ARGS strings no compiler emits, a
# semaphore address of our choosing.  note NAME SEMAPHORE ARGS
note() {
	cat <<SRC
	__asm__ volatile("990: nop\n"
		".pushsection .note.stapsdt,\"?\",\"note\"\n"
		".balign 4\n"
		".4byte 992f-991f, 994f-993f, 3\n"
		"991: .asciz \"stapsdt\"\n"
		"992: .balign 4\n"
		"993: .8byte 990b\n"
		".8byte _.stapsdt.base\n"
		".8byte $2\n"
		".asciz \"perftest_raw\"\n"
		".asciz \"$1\"\n"
		".asciz \"$3\"\n"
		"994: .balign 4\n"
		".popsection\n");
SRC
}

# raw_prog OUT NOTES...: NOTES are "NAME|SEMAPHORE|ARGS".
raw_prog() {
	out=$1
	shift
	{
		echo 'unsigned short sem __attribute__((section(".probes")));'
		echo 'int main(void) {'
		for n in "$@"; do
			note "$(echo "$n" | cut -d'|' -f1)" "$(echo "$n" | cut -d'|' -f2)" \
				"$(echo "$n" | cut -d'|' -f3)"
		done
		cat <<'SRC'
	__asm__ volatile(".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
		".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"
		"_.stapsdt.base: .space 1\n.size _.stapsdt.base, 1\n.popsection\n");
	return 0;
}
SRC
	} >"$out.c" &&
	build_prog "$out" "$out.c"
}

test_expect_success GCC 'setup: a plain program' '
	build_workload true "$TEST_TMP/plain"
'

test_expect_success SDT,READELF 'setup: a dtrace -G program, 64-bit and 32-bit' '
	build_sdt_prog "$TEST_TMP/sdtprog" &&
	readelf -n "$TEST_TMP/sdtprog" | grep -q "Name: foo__bar" &&
	if build_sdt_prog "$TEST_TMP/sdtprog32" -m32 -idirafter /usr/include/x86_64-linux-gnu \
		>/dev/null 2>&1; then
		touch "$TEST_TMP/have32"
	fi
'

test_expect_success SDT 'the probes file of the dtrace program has its markers in perf format' '
	mkdir -p h && HOME=$TEST_TMP/h "$PERF" buildid-cache -a sdtprog &&
	P="$(probes_file --home "$TEST_TMP/h" sdtprog)" &&
	PROG=$(realpath sdtprog) &&
	grep -q "^%sdt_perftest_sdt:foo__bar=foo__bar$" $P &&
	grep -q "^p:sdt_perftest_sdt/foo__bar $PROG:0x[0-9a-f]*(0x[0-9a-f]*) arg1=%[a-z0-9]*:s32 arg2=%[a-z0-9]*:s64 arg3=%[a-z0-9]*:u64$" $P &&
	grep -q "^p:sdt_perftest_sdt/small $PROG:0x[0-9a-f]*(0x[0-9a-f]*) arg1=.*:s8 arg2=.*:s16 arg3=.*:u8 arg4=.*:u16$" $P &&
	grep -q "^p:sdt_perftest_sdt/noargs $PROG:0x[0-9a-f]*(0x[0-9a-f]*)$" $P &&
	test "$(grep -c "^%sdt_perftest_sdt:twice=twice$" $P)" = 1 &&
	test "$(grep -c "^p:sdt_perftest_sdt/twice " $P)" = 2
'

test_expect_success SYSTEM_PERF 'python3.11: byte-identical to the system perf' '
	test -x $PYTHON || exit 0
	ours_and_theirs $PYTHON &&
	same_probes $PYTHON &&
	grep -q "^%sdt_python:function__entry=function__entry$" "$(probes_file --home "$TEST_TMP/ours" $PYTHON)"
'

test_expect_success SYSTEM_PERF 'system libraries with markers: byte-identical to the system perf' '
	for f in /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
		/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0; do
		test -e $f || continue
		f=$(realpath $f) &&
		ours_and_theirs $f && same_probes $f || exit 1
	done
'

test_expect_success SYSTEM_PERF,SDT 'the dtrace program: byte-identical to the system perf' '
	ours_and_theirs sdtprog && same_probes sdtprog
'

test_expect_success SYSTEM_PERF,SDT 'the 32-bit dtrace program: byte-identical to the system perf' '
	test -e have32 || exit 0
	ours_and_theirs sdtprog32 && same_probes sdtprog32
'

test_expect_success SYSTEM_PERF,GCC 'a file without SDT notes keeps an empty probes file, as perf' '
	ours_and_theirs plain && same_probes plain &&
	! test -s "$(probes_file --home "$TEST_TMP/ours" plain)"
'

test_expect_success SYSTEM_PERF,GCC 'argument forms: converted, or skipped, exactly as perf does' '
	raw_prog raw "regs|0|8@%rax -4@%r8d 2@%si -1@%ah 1@%sil 8@%es 8@%r1 8@%rip 4@%cs" \
		"mem|0|8@-16(%rbp) -4@8(%rsp) 4@(%rax) 8@8(%rax 8@%rax)" \
		"skipped|0|-8@\$5 4@foo(%rip) 8@(%rax,%rbx,8) -2@-0x10(%rbx) 4@glob 8@%rflags 8@%rbx" \
		"notype|0|%rax 3@%rbx 0@%rcx @%rdx x@%rsi -8(%rbp)" \
		"spaces|0|  8@%rax \t 4@%rcx 8@8 (%rax)" \
		"sem|sem|4@%eax" \
		"empty|0|" &&
	ours_and_theirs raw && same_probes raw
'

test_expect_success SYSTEM_PERF,GCC 'the lines of one name are sorted and merged as perf does' '
	raw_prog dup "m|0|8@%rbx" "m|0|8@%rax" "n|0|-4@%eax" "m|0|1@%al" &&
	ours_and_theirs dup && same_probes dup &&
	test "$(grep -c "^p:sdt_perftest_raw/m " "$(probes_file --home "$TEST_TMP/ours" dup)")" = 3
'

test_expect_success SYSTEM_PERF,GCC 'an argument of more than 8 bytes: one warning, no marker cached, as perf' '
	raw_prog big "ok|0|8@%rax" "big|0|16@%rax" &&
	rm -rf ours theirs && mkdir ours theirs &&
	HOME=$TEST_TMP/ours "$PERF" buildid-cache -a big 2>err &&
	HOME=$TEST_TMP/theirs "$SYSTEM_PERF" buildid-cache -a big >/dev/null 2>&1 &&
	same_probes big &&
	! test -s "$(probes_file --home "$TEST_TMP/ours" big)" &&
	test_line_count = 1 err &&
	grep -q "16@%rax" err &&
	HOME=$TEST_TMP/ours "$PERF" buildid-cache -l | grep -q " $(realpath big)$"
'

test_expect_success SYSTEM_PERF,SDT 'adding again changes nothing, as perf' '
	ours_and_theirs sdtprog &&
	HOME=$TEST_TMP/ours "$PERF" buildid-cache -a sdtprog 2>err &&
	HOME=$TEST_TMP/theirs "$SYSTEM_PERF" buildid-cache -a sdtprog >/dev/null 2>&1 &&
	! test -s err &&
	same_probes sdtprog
'

test_expect_success SYSTEM_PERF,SDT 'a stale line of a marker gets the new one merged in, as perf' '
	ours_and_theirs sdtprog &&
	for h in ours theirs; do
		P=$(probes_file --home "$TEST_TMP/$h" sdtprog) &&
		printf "%%sdt_perftest_sdt:twice=twice\np:sdt_perftest_sdt/twice %s:0x99\n" \
			"$(realpath sdtprog)" >$P || exit 1
	done &&
	HOME=$TEST_TMP/ours "$PERF" buildid-cache -a sdtprog &&
	HOME=$TEST_TMP/theirs "$SYSTEM_PERF" buildid-cache -a sdtprog >/dev/null 2>&1 &&
	same_probes sdtprog
'

test_expect_success SYSTEM_PERF,SDT,GCC 'perf list sdt: the same lines as the system perf' '
	build_sdt_prog "$TEST_TMP/sdtprog-O1" -O1 &&
	ours_and_theirs $PYTHON sdtprog sdtprog-O1 raw &&
	HOME=$TEST_TMP/ours "$PERF" list sdt >ours.list &&
	HOME=$TEST_TMP/theirs "$SYSTEM_PERF" list sdt >theirs.list 2>/dev/null &&
	test_cmp_file theirs.list ours.list &&
	grep -q "^  sdt_perftest_sdt:twice@$(realpath sdtprog)(" ours.list &&
	grep -q "^  sdt_python:audit  *\[SDT event\]$" ours.list
'

# The system perf lists kernel tracepoints too: compare the SDT lines.
test_expect_success SYSTEM_PERF,SDT,GCC 'perf list with globs: the same SDT lines as the system perf' '
	for g in "sdt_python:*" "sdt_perftest_sdt:foo*" "*:small" "func*" "sdt_python*"; do
		HOME=$TEST_TMP/ours "$PERF" list "$g" | grep "\[SDT event\]$" >ours.list
		HOME=$TEST_TMP/theirs "$SYSTEM_PERF" list "$g" 2>/dev/null |
			grep "\[SDT event\]$" >theirs.list
		test_cmp_file theirs.list ours.list || exit 1
		test_cmp_file theirs.list ours.list || exit 1
	done
'

test_expect_success SDT,READELF 'a truncated note section: one warning, no marker cached, the file is' '
	off=$(readelf -SW sdtprog | sed -n "s/.*\.note\.stapsdt *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p") &&
	test -n "$off" &&
	cp sdtprog badnote &&
	printf "\377\377\377\177" | dd of=badnote bs=1 seek=$((0x$off + 4)) conv=notrunc 2>/dev/null &&
	mkdir -p h2 &&
	HOME=$TEST_TMP/h2 "$PERF" buildid-cache -a badnote 2>err &&
	test_line_count = 1 err &&
	grep -q "badnote" err && grep -q "truncated" err &&
	! test -s "$(probes_file --home "$TEST_TMP/h2" badnote)" &&
	HOME=$TEST_TMP/h2 "$PERF" buildid-cache -l | grep -q "badnote$"
'

test_expect_success GCC 'a semaphore outside every segment: that marker is skipped with a warning' '
	raw_prog badsem "good|sem|8@%rax" "bad|0x123456789|8@%rax" &&
	mkdir -p h3 &&
	HOME=$TEST_TMP/h3 "$PERF" buildid-cache -a badsem 2>err &&
	test_line_count = 1 err &&
	grep -q "perftest_raw:bad" err && grep -q "0x123456789" err &&
	P="$(probes_file --home "$TEST_TMP/h3" badsem)" &&
	grep -q "^%sdt_perftest_raw:good=good$" $P &&
	! grep -q "perftest_raw[:/]bad" $P
'

test_expect_success SDT '--update refreshes the SDT entries and keeps the cached probes' '
	mkdir -p h4 &&
	HOME=$TEST_TMP/h4 "$PERF" buildid-cache -a sdtprog &&
	P="$(probes_file --home "$TEST_TMP/h4" sdtprog)" &&
	cp $P expect &&
	{
		echo "#mine=main" &&
		echo "p:probe_sdtprog/mine $(realpath sdtprog):0x1000" &&
		echo "%sdt_perftest_sdt:gone=gone" &&
		echo "p:sdt_perftest_sdt/gone $(realpath sdtprog):0x1"
	} >>$P &&
	HOME=$TEST_TMP/h4 "$PERF" buildid-cache -u sdtprog &&
	head -n 2 $P | grep -q "^#mine=main$" &&
	tail -n +3 $P >got &&
	test_cmp_file expect got
'

test_expect_success ROOT,TRACEFS,SYSTEM_PERF,GCC,READELF 'perf list shows probe events as the system perf does' '
	off=$(printf "0x%x" $(( $(readelf -hW plain | sed -n "s/.*Entry point address: *//p") ))) &&
	echo "p:perftest_sdtlist/ev_b $(realpath plain):$off" >>"$TRACEFS/uprobe_events" &&
	echo "p:perftest_sdtlist/ev_a $(realpath plain):$off" >>"$TRACEFS/uprobe_events" &&
	for g in "perftest_sdtlist:*" "perftest_sdtlist:ev_a" "ev_?"; do
		"$PERF" list "$g" | grep "perftest_sdtlist" >ours.list &&
		"$SYSTEM_PERF" list "$g" 2>/dev/null | grep "perftest_sdtlist" >theirs.list
		test_cmp_file theirs.list ours.list || exit 1
	done &&
	"$PERF" list tracepoint | grep -q "^  perftest_sdtlist:ev_a  *\[Tracepoint event\]$" &&
	"$PERF" list | grep -q "^  perftest_sdtlist:ev_b  *\[Tracepoint event\]$"
'

test_expect_success GCC '--update of a file without markers drops its stale SDT entries' '
	mkdir -p h6 &&
	HOME=$TEST_TMP/h6 "$PERF" buildid-cache -a plain &&
	P="$(probes_file --home "$TEST_TMP/h6" plain)" &&
	printf "%%sdt_x:gone=gone\np:sdt_x/gone %s:0x1\n" "$(realpath plain)" >$P &&
	HOME=$TEST_TMP/h6 "$PERF" buildid-cache -u plain &&
	! test -s $P
'

test_expect_success 'perf list sdt with an empty cache prints nothing' '
	mkdir -p h5 &&
	HOME=$TEST_TMP/h5 "$PERF" list sdt >out 2>err &&
	! test -s out && ! test -s err
'

test_done
