#!/bin/sh
test_description='-L reads only regular source files, and says so when the debuginfo names none'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success GCC 'setup: a -g program, its source, and one whose DWARF names no files' '
	mkdir -p src &&
	printf "int work(int x)\n{\n\treturn x * 2 + 1;\n}\n\nint main(int argc, char **argv)\n{\n\treturn work(argc);\n}\n" >src/app.c &&
	gcc -g -O0 -o app src/app.c &&
	"$PERF" probe -x app -L work >out &&
	grep -q "^<work@$TEST_TMP/src/app.c:0>$" out &&
	# DW_AT_decl_file (0x3a) renamed to a user attribute in the abbreviations.
	gcc -g -O0 -gdwarf-4 -S -o app.s src/app.c &&
	sed "s/^\t\.uleb128 0x3a\$/\t.uleb128 0x2001/" app.s >nofile.s &&
	gcc -o nofile nofile.s
'

test_expect_success GCC 'a function whose debuginfo names no source file gets a clear line' '
	test_refuses "$PERF" probe -x nofile -L work &&
	grep -q "^Failed to find the source file of work: its debuginfo names none\.$" err &&
	! grep -q "(null)" err
'

for f in fifo /dev/zero /dev/urandom; do
	test_expect_success GCC "a source planted under --source that is $f is refused at once" '
		rm -rf planted && mkdir -p "planted$TEST_TMP/src" &&
		case '"$f"' in
		fifo) mkfifo "planted$TEST_TMP/src/app.c" ;;
		*) ln -s '"$f"' "planted$TEST_TMP/src/app.c" ;;
		esac &&
		test_refuses timeout 10 "$PERF" probe -x app -s planted -L work &&
		grep -q "^Failed to open planted$TEST_TMP/src/app.c: not a regular file$" err &&
		test_refuses timeout 10 "$PERF" probe -x app -s planted -L app.c &&
		grep -q "^Failed to open planted$TEST_TMP/src/app.c: not a regular file$" err
	'
done

test_expect_success GCC 'a FIFO at the compiled path itself is refused at once too' '
	mv src/app.c app.c.keep && mkfifo src/app.c &&
	test_when_finished "rm -f src/app.c && mv app.c.keep src/app.c" &&
	test_refuses timeout 10 "$PERF" probe -x app -L work &&
	grep -q "^Failed to open $TEST_TMP/src/app.c: not a regular file$" err
'

test_done
