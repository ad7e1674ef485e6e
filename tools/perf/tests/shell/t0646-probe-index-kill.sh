#!/bin/sh
test_description='the index of the probe caches is never trusted beyond what was committed: its writer killed at each system call, or a search in the middle of a write'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# strace runs the writer as uid 65534 (-u nobody), the owner of the
# build-id cache, and kills it on entering its Nth call of one syscall.
test_have_prereq ROOT,STRACE_INJECT,SETPRIV,NOT_SANITIZE ||
	test_skip_all 'needs root, setpriv and an strace that injects signals (not under ASan)'

G=perftest_idx
U=$TEST_TMP/u
chmod 711 "$TEST_TMP"
mkdir -p "$U/bin" && chown -R 65534:65534 "$U"

as_nobody() {
	setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$U" "$@"
}

# What the search finds is what the probes files say: the events G:ev
# `perf probe -D %G:ev` places (through the index) are as many as the
# probes files that define G:ev.
consistent() {
	want=$(find "$U/.debug" -name probes -exec grep -l "^p:$G/ev " {} + | wc -l) &&
	as_nobody "$PERF" probe -D "%$G:ev" >found 2>found.err
	got=$(grep -c "^p:$G/ev " found)
	[ "$got" = "$want" ] || { echo "the search placed $got, the caches define $want" >&2; return 1; }
}

# reset: c's cache without G:ev again, and an index that knows it.
reset() {
	as_nobody cp "$TEST_TMP/c.probes" "$CPROBES" &&
	rm -f "$U/.debug/.probe-index" "$U/.debug/.probe-index.dirty" &&
	as_nobody "$PERF" probe -D "%$G:ev" >/dev/null &&
	test -e "$U/.debug/.probe-index" && consistent && [ "$want" = 2 ]
}

ADD_C="probe --cache -n -q -x $U/bin/c -a $G:ev=handle"

test_expect_success 'setup: G:ev cached for a and b, c cached without it, an index of them' '
	for b in a b c; do
		id=$(printf "%s" "$b" | od -An -tx1 | tr -d " \n") &&
		build_workload handle-int "$U/bin/$b" -O1 "-Wl,--build-id=0x${id}00112233445566778899aabbccddeeff0011" ||
			return 1
	done &&
	chown 65534:65534 "$U"/bin/* &&
	as_nobody "$PERF" probe --cache -n -q -x "$U/bin/a" -a "$G:ev=handle" &&
	as_nobody "$PERF" probe --cache -n -q -x "$U/bin/b" -a "$G:ev=handle" &&
	as_nobody "$PERF" probe --cache -n -q -x "$U/bin/c" -a "$G:other=handle" &&
	find "$U/.debug$U/bin/c" -name probes >cprobes && test_line_count = 1 cprobes &&
	cp "$(cat cprobes)" c.probes
'
CPROBES=$(cat "$TEST_TMP/cprobes" 2>/dev/null)

test_expect_success 'a search sees what a whole write of c added' '
	reset &&
	# shellcheck disable=SC2086 # the command line
	as_nobody "$PERF" $ADD_C &&
	consistent && test "$got" = 3
'

# The system calls of that write from its first exclusive lock on: each
# "NAME N", the Nth call of NAME (strace counts by syscall and tracee).
test_expect_success 'setup: the system calls of the write' '
	reset &&
	# shellcheck disable=SC2086 # the command line
	HOME=$U strace -u nobody -qq -o trace.log "$PERF" $ADD_C &&
	awk "match(\$0, /^[a-z_0-9]+\\(/) {
		name = substr(\$0, 1, RLENGTH - 1); n[name]++
		if (name == \"flock\" && \$0 ~ /LOCK_EX/) on = 1
		if (on) print name, n[name]
	}" trace.log >points &&
	wc -l <points && grep -q "^renameat " points
'

test_expect_success 'a writer killed at any of them: the search finds what the caches define' '
	killed=0 &&
	while read -r sc when; do
		reset || { echo "reset before $sc #$when" >&2; return 1; }
		# shellcheck disable=SC2086 # the command line
		HOME=$U strace -u nobody -qq -o /dev/null -e trace="$sc" \
			-e inject="$sc":signal=KILL:when="$when" "$PERF" $ADD_C >/dev/null 2>&1
		[ $? -eq 137 ] && killed=$((killed + 1))
		consistent || { echo "after a kill at $sc #$when" >&2; return 1; }
	done <points &&
	echo "$killed writers killed at $(wc -l <points) points" &&
	test $killed -ge 10
'

# A search that reads c while its writer is between its note and its
# rename, and ends after the writer: strace holds the writer 3 s on
# entering that rename and the search 5 s on entering its first rename
# (of the index it made).  The note of c must outlive that search.
test_expect_success 'a search over a write in progress keeps its note, whenever the write ends' '
	reset &&
	k=$(awk "/^renameat\\(/ { i++ } /^renameat\\(.*\"probes\"/ { print i; exit }" trace.log) &&
	test -n "$k" &&
	# shellcheck disable=SC2086 # the command line
	{ HOME=$U strace -u nobody -qq -o /dev/null -e trace=renameat \
		-e inject=renameat:delay_enter=3000000:when="$k" "$PERF" $ADD_C >/dev/null 2>&1 &
	  echo $! >writer.pid; } &&
	dir=$(dirname "$CPROBES") &&
	for _i in $(seq 50); do ls "$dir" | grep -q "^probes.tmp" && break; sleep 0.1; done &&
	ls "$dir" | grep -q "^probes.tmp" &&
	HOME=$U strace -u nobody -qq -o /dev/null -e trace=renameat \
		-e inject=renameat:delay_enter=5000000:when=1 "$PERF" probe -D "%$G:ev" >during &&
	wait "$(cat writer.pid)" &&
	test "$(grep -c "^p:$G/ev " during)" = 2 &&
	consistent && test "$got" = 3
'

# The same for a bundle import (probe-cache-batch.c): c's G:ev comes
# from a bundle made in another build-id cache.
IMPORT="probe --cache --import $TEST_TMP/v/c.bundle"

test_expect_success 'setup: a bundle of c with G:ev, and the system calls of its import' '
	mkdir -p "$TEST_TMP/v" && chown 65534:65534 "$TEST_TMP/v" &&
	setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$TEST_TMP/v" \
		"$PERF" probe --cache -n -q -x "$U/bin/c" -a "$G:ev=handle" &&
	setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$TEST_TMP/v" \
		"$PERF" probe --cache --export "$TEST_TMP/v/c.bundle" -x "$U/bin/c" &&
	reset &&
	# shellcheck disable=SC2086 # the command line
	HOME=$U strace -u nobody -qq -o import.log "$PERF" $IMPORT >/dev/null &&
	consistent && test "$got" = 3 &&
	awk "match(\$0, /^[a-z_0-9]+\\(/) {
		name = substr(\$0, 1, RLENGTH - 1); n[name]++
		if (name == \"flock\" && \$0 ~ /LOCK_EX/) on = 1
		if (on) print name, n[name]
	}" import.log >import.points &&
	wc -l <import.points && grep -q "^renameat " import.points
'

test_expect_success 'an import killed at any of them: the search finds what the caches define' '
	killed=0 &&
	while read -r sc when; do
		reset || { echo "reset before $sc #$when" >&2; return 1; }
		# shellcheck disable=SC2086 # the command line
		HOME=$U strace -u nobody -qq -o /dev/null -e trace="$sc" \
			-e inject="$sc":signal=KILL:when="$when" "$PERF" $IMPORT >/dev/null 2>&1
		[ $? -eq 137 ] && killed=$((killed + 1))
		consistent || { echo "after a kill at $sc #$when" >&2; return 1; }
	done <import.points &&
	echo "$killed importers killed at $(wc -l <import.points) points" &&
	test $killed -ge 10
'

test_done
