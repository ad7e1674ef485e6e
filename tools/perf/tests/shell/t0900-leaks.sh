#!/bin/sh
test_description='the main commands leak nothing and touch no freed or uninitialised memory (valgrind)'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq VALGRIND || test_skip_all 'valgrind is not installed'
# valgrind cannot run an AddressSanitizer binary; LeakSanitizer checks the
# same commands in that build.
test_have_prereq NOT_SANITIZE || test_skip_all 'SANITIZE=1: LeakSanitizer checks leaks in this build'

G=perftest_leak
test_probe_group $G

# vg CMD...: run our perf under valgrind; fails (status 1) on any leak
# (definite or indirect) or memory error, or (status 2) when the command
# itself fails.  vg_refused CMD...: the command must fail, cleanly.
vg() {
	valgrind -q --leak-check=full --error-exitcode=99 \
		--errors-for-leak-kinds=definite,indirect --log-file=vg.log "$PERF" "$@" >out 2>err
	rc=$?
	if [ "$rc" -eq 99 ] || [ -s vg.log ]; then
		echo "valgrind: perf $* (status $rc):" >&2
		cat vg.log >&2
		return 1
	fi
	[ "$rc" -eq 0 ] && return 0
	echo "perf $* failed ($rc):" >&2
	cat err >&2
	return 2
}

vg_refused() {
	vg "$@"
	[ $? -eq 2 ]
}

test_expect_success 'setup: a -g build and a stripped copy' '
	build_workload req-len "$TEST_TMP/app" -g -O0 &&
	cp "$TEST_TMP/app" "$TEST_TMP/app.debug" &&
	strip -g "$TEST_TMP/app"
'

test_expect_success 'buildid-list -i' 'vg buildid-list -i "$TEST_TMP/app" && test -s out'
test_expect_success 'buildid-cache -a, -l, -r, -P' '
	vg buildid-cache -a "$TEST_TMP/app" &&
	vg buildid-cache -l && grep -q "$TEST_TMP/app" out &&
	vg buildid-cache -r "$TEST_TMP/app" &&
	vg buildid-cache -a "$TEST_TMP/app.debug" &&
	vg buildid-cache -P
'
test_expect_success 'probe -x BIN -D and -F' '
	vg probe -x "$TEST_TMP/app" -D "$G:d=handle %di:s32" -D "handle%return \$retval" &&
	grep -q "^p:$G/d " out &&
	vg probe -x "$TEST_TMP/app" -F && grep -q "^handle$" out
'
# The PROT_NONE mode: valgrind does not know userfaultfd (it warns).
test_expect_success 'probe -D and -V on a .debug_info read page by page' '
	PERF_LAZY_SECTION=mprotect PERF_DEBUGINFO_LAZY_MIN=1 \
		vg probe -x "$TEST_TMP/app.debug" -D "handle r->len seq" &&
	grep -q "len=" out &&
	PERF_LAZY_SECTION=mprotect PERF_DEBUGINFO_LAZY_MIN=1 \
		vg probe -x "$TEST_TMP/app.debug" -V handle && grep -q seq out
'
test_expect_success 'probe -x BIN refusing a spec, a missing binary, a directory' '
	vg_refused probe -x "$TEST_TMP/app" -D "handle b=c=d" &&
	vg_refused probe -x "$TEST_TMP/nosuch" -D handle &&
	vg_refused probe -x "$TEST_TMP" -D handle
'
test_expect_success 'probe --cache -a, --list, --del' '
	vg probe --cache -n -q -x "$TEST_TMP/app.debug" -a "$G:c=handle x=%di:s32" &&
	vg probe --cache --list && grep -q "handle x=%di:s32" out &&
	vg probe -x "$TEST_TMP/app" -D "%$G:c" && grep -q "^p:$G/c " out &&
	vg probe --cache --del "$G:c*" &&
	vg probe --cache --list && ! grep -q "handle x=%di:s32" out
'
test_expect_success ROOT,TRACEFS 'probe -x BIN -a, -l, -d on live tracefs' '
	vg probe -q -x "$TEST_TMP/app" -a "$G:a=handle %di:s32" -a "$G:r=handle%return \$retval" &&
	vg probe -l "$G:*" && grep -q "$G:a" out &&
	vg probe -q -d "$G:*" &&
	! grep -q "$G/" "$TRACEFS/uprobe_events"
'
test_done
