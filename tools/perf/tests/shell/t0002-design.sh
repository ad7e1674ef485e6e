#!/bin/sh
test_description='tools/perf/DESIGN.md names every source file, and its stages are what the includes do'
. "$(dirname "$0")/lib.sh"

DESIGN=$TEST_ROOT/tools/perf/DESIGN.md
SRC=$TEST_ROOT/tools/perf

# The rooms table: "| STAGE | `file`, `file` ... | what it owns |" rows
# between the rooms markers, as "STAGE FILE" lines.
rooms() {
	sed -n '/<!-- rooms:begin -->/,/<!-- rooms:end -->/p' "$DESIGN" |
		awk -F'|' '$2 ~ /^ *[0-9]+ *$/ {
			stage = $2; gsub(/ /, "", stage)
			n = split($3, f, ",")
			for (i = 1; i <= n; i++) {
				name = f[i]; gsub(/[ `]/, "", name)
				if (name != "") print stage, name
			}
		}'
}

test_expect_success 'the design document has a rooms table' '
	test -f "$DESIGN" &&
	rooms >rooms &&
	test "$(wc -l <rooms)" -gt 20
'

test_expect_success 'it names every source file of tools/perf once, and only files that exist' '
	(cd "$SRC" && find . -path ./tests -prune -o \( -name "*.c" -o -name "*.h" \) -print |
		sed "s|^\./||" | sort) >files &&
	cut -d" " -f2 rooms | sort >named &&
	sort -u named >named.u &&
	test_cmp_file named.u named &&
	test_cmp_file files named
'

test_expect_success 'no file includes the header of a higher stage' '
	: >bad &&
	while read -r stage file; do
		base=${file%.*}
		grep -o "^#include \"[^\"]*\"" "$SRC/$file" | sed "s/^#include \"//; s/\"$//; s|^util/|util/|" |
			while read -r inc; do
				[ "${inc%.*}" = "$base" ] && continue
				s=$(awk -v f="$inc" "\$2 == f { print \$1 }" rooms)
				case "$inc" in tests/*) continue ;; esac
				if [ -z "$s" ]; then
					echo "$file includes $inc, which the design does not name" >>bad
				elif [ "$s" -le "$stage" ]; then
					echo "$file (stage $stage) includes $inc (stage $s)" >>bad
				fi
			done
	done <rooms &&
	cat bad && ! test -s bad
'

test_expect_success 'the README and the code point at the design document, not outside the repository' '
	! grep -rn --exclude-dir=tests "shared/DESIGN" "$TEST_ROOT/README.md" "$SRC" "$TEST_ROOT/Documentation" &&
	grep -q "tools/perf/DESIGN.md" "$TEST_ROOT/README.md"
'

test_expect_success 'no file of tools/perf/util is over 1,300 lines' '
	wc -l "$SRC"/util/*.c "$SRC"/util/*.h | awk "\$2 != \"total\" && \$1 > 1300" >big &&
	cat big && ! test -s big
'

test_done
