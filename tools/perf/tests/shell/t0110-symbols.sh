#!/bin/sh
# shellcheck disable=SC2016
test_description='ELF symbols and uprobe offsets agree with the system perf'
# perf takes any file under /tmp/perf-* for a JIT map (/tmp/perf-PID.map) and
# reads it as text: keep our binaries out of lib.sh's default /tmp/perf-NAME.*.
TMPDIR=$(mktemp -d /tmp/t0110.XXXXXX) || exit 1
export TMPDIR
. "$(dirname "$0")/lib.sh"
test_cleanup 'rm -rf "$TMPDIR"'

# The builtin is not there yet: a small driver of util/symbol-elf.c stands
# in for `perf probe -x BIN -F` and the place part of `perf probe -D`.
O=${O:-build}
LIB="$TEST_ROOT/$O/libperf-util.a"
have_system_perf || test_skip_all 'no system perf'
[ -f "$LIB" ] || test_skip_all "no $LIB (run make first)"

cat >symtool.c <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/probe-spec.h"
#include "util/strfilter.h"
#include "util/symbol-elf.h"

/*
 * symtool -F BIN [FILTER] | symtool -D BIN FUNC[+OFFS][%return]|0xADDR
 * BIN "kernel": /proc/kallsyms, and -D prints kprobe places.
 */
/* Frees all it allocates, so that LeakSanitizer (make test SANITIZE=1) can
 * check symbol-elf.c through it. */
int main(int argc, char **argv)
{
	struct probe_trace_event tev = { 0 };
	struct probe_trace_point *tp = &tev.point;
	const struct elf_symbol **syms = NULL;
	struct symbol_elf *se;
	char *spec, *p;
	unsigned long offs = 0;
	int ret, nr, retprobe, kernel, rc = 0;

	if (argc < 3)
		return 2;
	kernel = !strcmp(argv[2], "kernel");
	ret = kernel ? symbol_elf__load_kallsyms(NULL, &se) : symbol_elf__load(argv[2], &se);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", argv[2], symbol_elf__strerror(ret));
		return 1;
	}
	if (!strcmp(argv[1], "-F")) {
		struct strfilter *f = strfilter__new(argc > 3 ? argv[3] : STRFILTER_DEFAULT_FUNCS, NULL);
		char **names;

		nr = symbol_elf__func_names(se, f, &names);
		for (int i = 0; i < nr; i++) {
			puts(names[i]);
			free(names[i]);
		}
		if (nr >= 0)
			free(names);
		strfilter__delete(f);
		goto out;
	}
	spec = argv[3];
	retprobe = (p = strstr(spec, "%return")) != NULL;
	if (p)
		*p = '\0';
	if (!strncmp(spec, "0x", 2)) {
		ret = symbol_elf__uprobe_point_abs(se, strtoull(spec, NULL, 0), retprobe, tp);
		if (ret < 0)
			rc = 1;
		else
			printf("%c %s:0x%lx\n", retprobe ? 'r' : 'p', tp->module, tp->offset);
		goto out;
	}
	if ((p = strchr(spec, '+'))) {
		*p = '\0';
		offs = strtoul(p + 1, NULL, 0);
	}
	nr = symbol_elf__find_name(se, spec, &syms);
	if (!nr) {
		fprintf(stderr, "Probe point '%s' not found.\n", spec);
		rc = 1;
		goto out;
	}
	for (int i = 0; i < nr; i++) {
		clear_probe_trace_event(&tev);
		if (kernel) {
			ret = symbol_elf__kprobe_point(se, syms[i], offs, retprobe, tp);
			if (!ret)
				printf("%c %s+%lu\n", retprobe ? 'r' : 'p', tp->symbol, tp->offset);
			continue;
		}
		ret = symbol_elf__uprobe_point(se, syms[i], offs, retprobe, tp);
		if (ret < 0) {
			fprintf(stderr, "Offset %lu is bigger than the size of %s\n", offs, spec);
			rc = 1;
			break;
		}
		printf("%c %s:0x%lx\n", retprobe ? 'r' : 'p', tp->module, tp->offset);
	}
out:
	free(syms);
	clear_probe_trace_event(&tev);
	symbol_elf__delete(se);
	return rc;
}
EOC
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined -fno-omit-frame-pointer"
# shellcheck disable=SC2086
${CC:-gcc} $san -I"$TEST_ROOT/tools/perf" -o symtool symtool.c "$LIB" \
	$(pkg-config --libs libelf libdw zlib libtraceevent) ||
	test_skip_all 'cannot build the driver'

cat >prog.c <<'EOC'
#include <stdio.h>
int work(int x) { int s = 0; for (int i = 0; i < x; i++) s += i; return s; }
static int helper(int y) { return y * 2; }
int _hidden(void) { return 1; }
int main(int argc, char **argv) { printf("%d\n", work(argc) + helper(argc) + _hidden()); return 0; }
EOC
build_prog nopie prog.c -g -O0 -no-pie
build_prog pie prog.c -g -O0 -fPIE -pie
build_prog rdyn prog.c -g -O0 -no-pie -rdynamic
build_prog libprog.so prog.c -g -O1 -shared -fPIC
cp pie pie-strip-g && strip -g pie-strip-g
cp libprog.so libprog-strip-g.so && strip -g libprog-strip-g.so
cat >ver.c <<'EOC'
int foo_v1(int x) { return x; }
int foo_v2(int x) { return x + 1; }
int bar(int x) { return x * 3; }
__asm__(".symver foo_v1,foo@V1");
__asm__(".symver foo_v2,foo@@V2");
EOC
printf 'V1 { global: foo; bar; local: *; };\nV2 { global: foo; } V1;\n' >ver.map
build_prog libver.so ver.c -O1 -shared -fPIC -Wl,--version-script=ver.map && strip libver.so
m32=
build_prog prog32 prog.c -m32 -g -O0 2>/dev/null && m32=prog32
LIBC=$(ldd ./pie | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')

# The place part of perf's -D lines: "p:grp/ev PATH:0xOFF" -> "p PATH:0xOFF".
perf_places() {
	if [ "$1" = kernel ]; then set -- "" "$2"; fi
	"$SYSTEM_PERF" probe ${1:+-x "$1"} -D "$2" 2>/dev/null | sed -n 's/^\([pr]\):[^ ]* \([^ ]*\).*/\1 \2/p'
}

same_funcs() {
	"$SYSTEM_PERF" probe -x "$1" -F ${2:+--filter "$2"} >expect 2>&1 &&
	./symtool -F "$1" ${2:+"$2"} >actual &&
	diff expect actual
}

for bin in nopie pie rdyn libprog.so pie-strip-g libver.so $m32 /bin/true "$LIBC"; do
	case $bin in /*) path=$bin ;; *) path=$TEST_TMP/$bin ;; esac
	test_expect_success "-F lists what perf lists for $(basename "$bin")" "
		same_funcs '$path'
	"
	test_expect_success "-F --filter '*' lists what perf lists for $(basename "$bin")" "
		same_funcs '$path' '*'
	"
done

# With debuginfo perf looks names up in DWARF, which knows no work@plt: a
# library calling its own work() is compared without it.
for bin in nopie pie rdyn libprog-strip-g.so pie-strip-g $m32; do
	for spec in work work+4 'work%return' main+1; do
		test_expect_success "$spec in $bin is where perf puts it" "
			perf_places '$TEST_TMP/$bin' '$spec' >expect &&
			test -s expect &&
			./symtool -D '$TEST_TMP/$bin' '$spec' >actual &&
			diff expect actual
		"
	done
done

test_expect_success 'both versions of a versioned name are probed' '
	perf_places "$TEST_TMP/libver.so" foo >expect &&
	test "$(wc -l <expect)" = 2 &&
	./symtool -D "$TEST_TMP/libver.so" foo >actual &&
	diff expect actual
'

test_expect_success 'a function called through the PLT is probed there too' '
	perf_places "$TEST_TMP/libprog-strip-g.so" work+4 >expect &&
	test "$(wc -l <expect)" = 2 &&
	./symtool -D "$TEST_TMP/libprog-strip-g.so" work+4 >actual &&
	diff expect actual
'

test_expect_success 'malloc and its alias __libc_malloc are one place in libc' '
	perf_places "$LIBC" malloc >expect &&
	./symtool -D "$LIBC" malloc >actual &&
	diff expect actual &&
	./symtool -D "$LIBC" __libc_malloc >actual2 &&
	diff expect actual2
'

test_expect_success 'a PIE absolute address is its own file offset' '
	perf_places "$TEST_TMP/pie" 0x1139 >expect &&
	./symtool -D "$TEST_TMP/pie" 0x1139 >actual &&
	diff expect actual
'

test_expect_success 'an offset beyond the function is refused' '
	size=$(nm -S nopie | sed -n "s/^[0-9a-f]* 0*\([0-9a-f]*\) T work$/\1/p") &&
	./symtool -D nopie "work+$((0x$size))" &&
	test_must_fail ./symtool -D nopie "work+$((0x$size + 1))"
'

test_expect_success 'an unknown function is not found' '
	test_must_fail ./symtool -D nopie nosuch 2>err &&
	grep "Probe point .nosuch. not found." err
'

test_expect_success 'a stripped PIE has no symbols' '
	cp pie stripped && strip stripped &&
	build_prog stripped2 prog.c -O0 -fPIE -pie -Wl,--build-id=0x0123456789 && strip stripped2 &&
	test_must_fail ./symtool -F stripped2 2>err &&
	grep "no symbols" err
'

if have_root && [ "$(head -c 16 /proc/kallsyms)" != 0000000000000000 ]; then
	test_expect_success 'kernel -F lists what perf lists from kallsyms' '
		"$SYSTEM_PERF" probe -F >expect 2>&1 &&
		./symtool -F kernel >actual &&
		diff expect actual
	'
	for spec in vfs_read vfs_read+4 'vfs_read%return'; do
		test_expect_success "kernel $spec is written as perf writes it" "
			perf_places kernel '$spec' >expect &&
			test -s expect &&
			./symtool -D kernel '$spec' >actual &&
			diff expect actual
		"
	done
else
	test_skip 'kernel symbols' 'needs root and readable kallsyms'
fi

test_expect_success 'bad files give one error and no crash' '
	test_must_fail ./symtool -F nosuch 2>err && grep "No such file" err &&
	test_must_fail ./symtool -F . 2>err && grep "Is a directory" err &&
	test_must_fail ./symtool -F prog.c 2>err && grep "not an ELF file" err &&
	head -c 3000 nopie >trunc &&
	test_must_fail ./symtool -F trunc 2>err && grep "truncated" err
'

test_done
