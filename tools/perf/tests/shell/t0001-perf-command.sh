#!/bin/sh
test_description='perf itself: version, help and the dispatch of commands'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'perf version prints its version and the system perf behind it' '
	"$PERF" version >out 2>err &&
	test_line_count = 2 out &&
	head -n 1 out | grep -q "^perf version [0-9]" &&
	sed -n 2p out | grep -q "^system perf: " &&
	! test -s err
'

test_expect_success SYSTEM_PERF 'perf version names the system perf and its version' '
	sys=$(PATH=$(dirname "$SYSTEM_PERF"):$PATH command -v perf) &&
	sysv=$("$sys" version | head -n 1) &&
	PATH=$(dirname "$SYSTEM_PERF"):$PATH "$PERF" version >out &&
	grep -qxF "system perf: $sys ($sysv), for the other commands" out
'

test_expect_success 'perf --version is perf version' '
	"$PERF" version >expect &&
	"$PERF" --version >out &&
	cmp expect out
'

test_expect_success 'perf help lists the build-id commands on stdout' '
	"$PERF" help >out 2>err &&
	grep -q "^ *buildid-cache " out &&
	grep -q "^ *buildid-list " out &&
	grep -q "^ *probe " out &&
	! test -s err
'

test_expect_success 'perf --help is perf help' '
	"$PERF" help >expect &&
	"$PERF" --help >out &&
	cmp expect out
'

test_expect_success 'perf help COMMAND shows the options of that command' '
	"$PERF" help buildid-cache >out &&
	grep -q "perf buildid-cache" out &&
	grep -q -- "--purge-all" out
'

echo "perf: 'foo' is not a perf-command. See 'perf --help'." >"$TEST_TMP/expect-unknown"

test_expect_success SYSTEM_PERF 'an unknown command is named in one line and fails' '
	test_refuses "$PERF" foo &&
	cmp expect-unknown err
'

test_expect_success 'perf help of an unknown command fails the same way' '
	test_must_fail "$PERF" help foo 2>err &&
	cmp expect-unknown err
'

test_expect_success 'an unknown option of a subcommand exits with 129 and the usage' '
	for cmd in buildid-list buildid-cache; do
		"$PERF" "$cmd" --no-such-option >out 2>err
		test $? -eq 129 || return 1
		grep -q "no-such-option" err &&
		grep -q "Usage: perf $cmd" err || return 1
	done
'

test_expect_success 'an unknown global option exits with 129' '
	"$PERF" --no-such-option >out 2>err
	test $? -eq 129 &&
	grep -q "no-such-option" err
'

test_expect_success 'perf COMMAND -h prints the usage on stdout and succeeds' '
	"$PERF" buildid-list -h >out 2>err &&
	grep -q "Usage: perf buildid-list" out &&
	! test -s err
'

test_done
