#!/bin/sh
test_description='the test library itself: prerequisites, cleanups, test_refuses and friends'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# sub FILE: run FILE as a test script of its own (named t9999-sub, in this
# directory, so that it finds lib.sh and the workloads); TAP in ./tap, its
# exit status in ./status.
sub() {
	sh -c '. "$(dirname "$0")/lib.sh" && . "$1"' \
		"$TEST_ROOT/tools/perf/tests/shell/t9999-sub.sh" "$TEST_TMP/$1" >tap 2>&1
	echo $? >status
}

test_expect_success 'a case whose prerequisite is missing is skipped and names it' '
	cat >prereq.sh <<-\EOF &&
	test_lazy_prereq NEVER false
	test_lazy_prereq ALWAYS true
	test_expect_success NEVER "a" true
	test_expect_success ALWAYS,NEVER "b" true
	test_expect_success ALWAYS "c" true
	test_expect_success !NEVER "d" true
	test_expect_success !ALWAYS "e" false
	test_expect_success "f" true
	test_done
	EOF
	sub prereq.sh &&
	cat >expect <<-\EOF &&
	ok 1 - a # skip missing NEVER
	ok 2 - b # skip missing NEVER
	ok 3 - c
	ok 4 - d
	ok 5 - e # skip missing !ALWAYS
	ok 6 - f
	1..6
	EOF
	test_cmp_file expect tap &&
	test "$(cat status)" = 0
'

test_expect_success 'a failing case fails the script and shows its body' '
	cat >fail.sh <<-\EOF &&
	test_expect_success "passes" true
	test_expect_success "fails" "echo the-output; false"
	test_done
	EOF
	sub fail.sh &&
	grep -q "^ok 1 - passes$" tap &&
	grep -q "^not ok 2 - fails$" tap &&
	grep -q "^#   | echo the-output; false$" tap &&
	grep -q "^#   the-output$" tap &&
	test "$(cat status)" != 0
'

test_expect_success 'a lazy prerequisite is evaluated once, with test_set_prereq set at once' '
	cat >once.sh <<-EOF &&
	test_lazy_prereq COUNTED "echo x >>$TEST_TMP/count"
	test_set_prereq SET
	test_expect_success COUNTED,SET "a" true
	test_expect_success COUNTED "b" true
	test_have_prereq COUNTED && test_have_prereq SET,COUNTED || exit 1
	test_done
	EOF
	sub once.sh &&
	test "$(cat status)" = 0 &&
	test_line_count = 1 count
'

test_expect_success 'test_when_finished runs after the case, pass, fail or exit, last first' '
	cat >finished.sh <<-EOF &&
	test_expect_success "pass" "
		test_when_finished \\"echo pass-1 >>$TEST_TMP/log\\" &&
		test_when_finished \\"echo pass-2 >>$TEST_TMP/log\\" &&
		echo body >>$TEST_TMP/log
	"
	test_expect_success "fail" "
		test_when_finished \\"echo fail >>$TEST_TMP/log\\" &&
		false
	"
	test_expect_success "exit" "
		test_when_finished \\"echo exit >>$TEST_TMP/log\\"
		exit 0
	"
	test_expect_success "a failing cleanup fails the case" "
		test_when_finished false
	"
	test_done
	EOF
	sub finished.sh &&
	printf "%s\n" body pass-2 pass-1 fail exit >expect &&
	test_cmp_file expect log &&
	grep -q "^ok 1 - pass$" tap &&
	grep -q "^not ok 2 - fail$" tap &&
	grep -q "^ok 3 - exit$" tap &&
	grep -q "^not ok 4 - a failing cleanup fails the case$" tap
'

test_expect_success 'test_skip_all ends the script as one skipped case' '
	cat >skipall.sh <<-\EOF &&
	test_expect_success "first" true
	test_skip_all "no reason at all"
	test_expect_success "never" false
	EOF
	sub skipall.sh &&
	test "$(cat status)" = 0 &&
	grep -q "^ok 2 - t9999-sub # skip no reason at all$" tap &&
	! grep -q never tap
'

test_expect_success 'test_refuses: a plain refusal with one line passes' '
	test_refuses sh -c "echo no >&2; exit 1" &&
	test "$(cat err)" = no &&
	! test -s out
'

test_expect_success 'test_refuses: success, a signal, stdout, 0 or 2 lines fail it' '
	! test_refuses true &&
	! test_refuses sh -c "echo no >&2; kill -TERM \$\$" &&
	! test_refuses sh -c "echo out; echo no >&2; exit 1" &&
	! test_refuses sh -c "exit 1" &&
	! test_refuses sh -c "echo one >&2; echo two >&2; exit 1" &&
	! test_refuses sh -c "echo >&2; exit 1"
'

test_expect_success 'test_refuses --ignore drops the notes before the one line' '
	test_refuses --ignore "^note" sh -c "echo note 1 >&2; echo no >&2; exit 1" &&
	test "$(cat err1)" = no &&
	! test_refuses --ignore "^note" sh -c "echo no >&2; echo no >&2; exit 1"
'

test_expect_success 'test_refuses: a change to the build-id cache fails it' '
	mkdir -p "$HOME/.debug" &&
	test_refuses sh -c "echo no >&2; exit 1" &&
	! test_refuses sh -c "mkdir \"\$HOME/.debug/x\"; echo no >&2; exit 1" &&
	mkdir -p elsewhere &&
	! test_refuses --cache elsewhere sh -c "echo x >elsewhere/f; echo no >&2; exit 1" &&
	test_refuses sh -c "echo y >elsewhere/g; echo no >&2; exit 1"
'

test_expect_success 'test_refuses --tracefs: a change to a stand-in tracefs fails it' '
	mkdir fs && : >fs/uprobe_events && : >fs/kprobe_events &&
	export PERF_TRACEFS_DIR="$TEST_TMP/fs" &&
	test_refuses --tracefs sh -c "echo no >&2; exit 1" &&
	! test_refuses --tracefs sh -c "echo p:g/e /bin/true:0x1 >>fs/kprobe_events; echo no >&2; exit 1" &&
	test_refuses sh -c "echo p:g/f /bin/true:0x1 >>fs/uprobe_events; echo no >&2; exit 1"
'

test_expect_success 'test_same_as_system_perf compares stdout, and stderr and status when asked' '
	cat >fake <<-\EOF &&
	#!/bin/sh
	echo "$@"
	echo fake >&2
	exit 3
	EOF
	chmod +x fake &&
	SYSTEM_PERF=$TEST_TMP/fake &&
	! test_same_as_system_perf version &&
	PERF=$TEST_TMP/fake &&
	test_same_as_system_perf --status --stderr version &&
	test "$(cat ours)" = version &&
	SYSTEM_PERF=/bin/echo &&
	! test_same_as_system_perf --status version &&
	cp fake fake2 && sed -i "s/exit 3/exit 0/" fake2 && PERF=$TEST_TMP/fake2 &&
	test_same_as_system_perf version &&
	! test_same_as_system_perf --stderr version
'

test_expect_success GCC,READELF 'build_workload builds once per flags and copies the build' '
	build_workload true one &&
	build_workload true two &&
	build_workload true three -O2 &&
	cmp one two &&
	test -n "$(build_id_of one)" &&
	test "$(build_id_of one)" = "$(build_id_of two)" &&
	dir=${PERF_TEST_WORKLOADS:-$TEST_TMP/.workloads} &&
	test "$(ls "$dir"/true-* | wc -l)" -ge 2 &&
	bin= &&
	for b in "$dir"/true-*; do
		if cmp -s "$b" one; then bin=$b; fi
	done &&
	test -n "$bin" &&
	before=$(stat -c %Y:%i "$bin") &&
	build_workload true four &&
	test "$(stat -c %Y:%i "$bin")" = "$before" &&
	! build_workload no-such-workload five 2>err &&
	grep -q "no-such-workload" err
'

test_expect_success GCC,READELF 'probes_file names the probes file of the cache entry' '
	build_workload true prog &&
	"$PERF" buildid-cache -a prog &&
	f=$(probes_file prog) &&
	test "$f" = "$HOME/.debug$(realpath prog)/$(build_id_of prog)/probes" &&
	test -f "$f" &&
	mkdir other && HOME=$TEST_TMP/other "$PERF" buildid-cache -a prog &&
	test -f "$(probes_file --home "$TEST_TMP/other" prog)"
'

test_expect_success 'test_line_count counts lines' '
	printf "a\nb\n" >two &&
	test_line_count = 2 two &&
	test_line_count -gt 1 two &&
	! test_line_count = 1 two 2>/dev/null
'

test_done
