#!/bin/sh
test_description='the perf config: a bad file stops the command with FILE:LINE, paths in buildid.dir'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success GCC,READELF 'setup: a program and a good config' '
	echo "int main(void) { return 0; }" >prog.c && build_prog prog prog.c &&
	printf "[buildid]\n\tdir = %s\n" "$TEST_TMP/good-cache" >good &&
	PERF_CONFIG=$TEST_TMP/good "$PERF" buildid-cache -a prog &&
	test -d "$TEST_TMP/good-cache$TEST_TMP/prog"
'

test_expect_success GCC,READELF 'an unterminated quote is refused with its file and line' '
	printf "[buildid]\n\n\tdir = \"%s\n" "$TEST_TMP/quote-cache" >quote &&
	PERF_CONFIG=$TEST_TMP/quote test_refuses "$PERF" buildid-cache -a prog &&
	grep -q "^Error: bad perf config: $TEST_TMP/quote:3: an unterminated quote$" err &&
	! test -e "$TEST_TMP/quote-cache" && ! test -e "$HOME/.debug"
'

test_expect_success 'a line neither section nor key = value is refused by every command' '
	printf "[buildid]\nthis is not a setting\n" >junk &&
	for cmd in "buildid-cache -l" "buildid-list -i /bin/true" "probe -l" "list sdt" \
		"probe --cache --list"; do
		# shellcheck disable=SC2086
		PERF_CONFIG=$TEST_TMP/junk test_refuses "$PERF" $cmd &&
		grep -q "^Error: bad perf config: $TEST_TMP/junk:2: neither a \[section\] nor key = value$" err ||
		return 1
	done &&
	PERF_CONFIG=$TEST_TMP/junk "$PERF" version >/dev/null
'

test_expect_success 'the same in ~/.perfconfig' '
	HOME=$TEST_TMP/junkhome && mkdir -p "$HOME" &&
	printf "dir = /x\n" >"$HOME/.perfconfig" &&
	test_refuses "$PERF" buildid-cache -l &&
	grep -q "^Error: bad perf config: $HOME/.perfconfig:1: a setting before any \[section\]$" err
'

for f in fifo /dev/zero /dev/urandom; do
	test_expect_success "a config that is $f is refused at once, no hang" '
		rm -f fifo && mkfifo fifo &&
		case '"$f"' in /*) c='"$f"' ;; *) c=$TEST_TMP/'"$f"' ;; esac &&
		PERF_CONFIG=$c test_refuses timeout 10 "$PERF" buildid-cache -l &&
		grep -q "^Error: bad perf config: $c: not a regular file$" err
	'
done

test_expect_success GCC,READELF 'a ~/ in buildid.dir is under $HOME' '
	HOME=$TEST_TMP/tilde && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = ~/cache\n" >"$HOME/.perfconfig" &&
	"$PERF" buildid-cache -a prog &&
	test -f "$HOME/cache$TEST_TMP/prog/$(build_id_of prog)/elf" &&
	! test -e "$TEST_TMP/tilde/~"
'

test_expect_success GCC,READELF 'a relative buildid.dir is refused, nothing is written' '
	HOME=$TEST_TMP/rel && mkdir -p "$HOME" &&
	printf "[buildid]\n\tdir = relcache\n" >"$HOME/.perfconfig" &&
	test_refuses "$PERF" buildid-cache -a prog &&
	grep -q "^Error: bad perf config: buildid.dir = relcache: not an absolute path" err &&
	! test -e relcache && ! test -e "$HOME/relcache"
'

test_done
