#!/bin/sh
test_description='a cached line of every kind is placed on every stripped form of its build, as the build host resolved it'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq STRIP_AS,READELF || test_skip_all 'needs binutils, elfutils (eu-strip) and xz'

# The seed's own scenario: resolve on the build host, use on hosts without
# debuginfo.  For each maker of the cache (ours; the system perf, when
# there) a build of tools/perf/tests/workloads/stripped.c at
# build-MAKER/app, its probe cache made there, and each stripped form
# (strip_as) of the build.  Every kind of spec is then asked with -D on
# each form: at the build's path, at another path, after a bundle import,
# through the .perf.probes section from a debuginfod (and with no -x, the
# search of every cache), and must print exactly what the -g build's -D
# prints.  t0683 plants lines on the same forms.
G=perftest_strip
SDTG=sdt_perftest_strip
test_probe_group $G
test_probe_group $SDTG
test_trace_instance $G

MAKERS=ours
test_have_prereq SYSTEM_PERF_PROBE && MAKERS="ours sys"

# maker M: the perf that made M's cache.
maker() {
	if [ "$1" = sys ]; then echo "$SYSTEM_PERF"; else echo "$PERF"; fi
}

# kinds M: "NAME<tab>SPEC<tab>EVENT" of each kind of spec, EVENT the
# cached event the search with no -x asks for.  perf 6.1 writes the
# header of a lazy pattern without its pattern ("#G:lz=main"): that
# entry answers no request rightly (t0683), so its cache has none.
# OFF: the third instruction of handle_request (set up below).
kinds() {
	tab=$(printf '\t')
	{
		echo "fn${tab}$G:fn=handle_request${tab}%$G:fn"
		echo "fa${tab}$G:fa=handle_request req->len seq${tab}%$G:fa"
		echo "fo${tab}$G:fo=handle_request+$OFF${tab}%$G:fo"
		echo "fl${tab}$G:fl=handle_request:6${tab}%$G:fl"
		echo "sl${tab}$G:sl=stripped.c:37 total cost${tab}%$G:sl"
		[ "$1" = sys ] || echo "lz${tab}$G:lz=main;printf*${tab}%$G:lz"
		echo "rt${tab}$G:rt=handle_request%return \$retval${tab}%$G:rt__return"
		if [ -n "$SDT_NOTE" ]; then echo "sd${tab}%$SDTG:handled${tab}%$SDTG:handled"; fi
	}
}

# placed M WHERE: each kind's -D (with -x WHERE, or with no -x when
# WHERE is "-"), a line "NAME: failed" for one that fails.
placed() {
	kinds "$1" | while IFS="$(printf '\t')" read -r k spec ev; do
		if [ "$2" = - ]; then
			"$PERF" probe -D "$ev" || echo "$k: failed"
		else
			"$PERF" probe -x "$2" -D "$spec" || echo "$k: failed"
		fi
	done
}

# expect M PATH: what the -g build of M resolves, naming PATH.
expect() {
	kinds "$1" | while IFS="$(printf '\t')" read -r k spec ev; do
		sed "s|^\([^ ]* \)[^ :]*:|\1$2:|" "$TEST_TMP/ref-$1-$k"
	done
}

# put_form M HOW: the stripped form HOW at M's build path, and as the copy
# (elf) its build-id cache keeps, which a hard link shares with the build
# or a copy holds whole: the host has no symbol of the build anywhere.
# put_form M build: the build back.
put_form() {
	if [ "$2" = build ]; then _f=$TEST_TMP/build-$1/app.g; else _f=$TEST_TMP/forms-$1/$2/app; fi
	cp "$_f" "$TEST_TMP/build-$1/app" &&
	find "$TEST_TMP/home-$1/.debug" -name elf | while read -r _e; do
		cp "$_f" "$_e" || exit 1
	done
}

test_expect_success 'setup: each maker'"'"'s build, its probe cache, its stripped forms' '
	for m in $MAKERS; do
		B=$TEST_TMP/build-$m/app &&
		mkdir -p build-$m home-$m srv &&
		# the builds differ only in their build-ids (one debuginfod serves both)
		build_workload stripped "$B" -g -O1 \
			-Wl,--build-id=0x$(printf %08x "$(echo "$m" | cksum | cut -d" " -f1)")0123456789abcdef0123456789abcdef &&
		cp "$B" build-$m/app.g || exit 1
	done &&
	B=$TEST_TMP/build-ours/app &&
	# the first and the third instruction of handle_request
	objdump -d --no-show-raw-insn "$B" |
		sed -n "/<handle_request>:/,/^\$/s/^ *\([0-9a-f]*\):.*/\1/p" | sed -n "1p;3p" >insns &&
	echo $((0x$(sed -n 2p insns) - 0x$(sed -n 1p insns))) >off &&
	test "$(cat off)" -gt 0 &&
	if readelf -n "$B" | grep -q "Name: handled"; then echo 1 >sdt-note; fi
'
OFF=$(cat "$TEST_TMP/off" 2>/dev/null)
SDT_NOTE=$(cat "$TEST_TMP/sdt-note" 2>/dev/null)

test_expect_success 'setup: the -g build'"'"'s -D of every kind, the same by both perfs' '
	mkdir -p empty &&
	for m in $MAKERS; do
		B=$TEST_TMP/build-$m/app &&
		kinds $m | while IFS="$(printf "\t")" read -r k spec ev; do
			HOME=$TEST_TMP/empty "$PERF" probe -x "$B" -D "$spec" >ref-$m-$k &&
			grep -q "^[pr]:[^ ]* $B:0x" ref-$m-$k &&
			if [ $m = sys ]; then
				HOME=$TEST_TMP/empty "$SYSTEM_PERF" probe -x "$B" -D "$spec" >theirs 2>/dev/null &&
				test_cmp_file ref-$m-$k theirs
			fi || exit 1
		done || exit 1
	done &&
	test_line_count = 2 ref-ours-fl && test_line_count = 2 ref-ours-lz
'

test_expect_success 'setup: the caches made on the build host, exported, embedded' '
	for m in $MAKERS; do
		B=$TEST_TMP/build-$m/app && M=$(maker $m) &&
		kinds $m | while IFS="$(printf "\t")" read -r k spec ev; do
			case $k in
			sd) HOME=$TEST_TMP/home-$m "$M" buildid-cache -a "$B" ;;
			*) HOME=$TEST_TMP/home-$m "$M" probe --cache -n -q -x "$B" -a "$spec" ;;
			esac 2>err || { cat err; exit 1; }
		done || exit 1
		HOME=$TEST_TMP/home-$m "$PERF" probe -q --cache --export $m.bundle -x "$B" &&
		objcopy --only-keep-debug "$B" srv/$m.debug &&
		HOME=$TEST_TMP/home-$m "$PERF" probe -q --cache --embed srv/$m.debug &&
		for how in $STRIP_HOWS; do
			mkdir -p forms-$m/$how host-$m/$how &&
			strip_as $how "$B" forms-$m/$how/app &&
			test "$(build_id_of forms-$m/$how/app)" = "$(build_id_of "$B")" &&
			cp forms-$m/$how/app host-$m/$how/app || exit 1
		done
	done &&
	! readelf -SW forms-ours/strip-s/app | grep -q "\.symtab" &&
	readelf -SW forms-ours/mdi/app | grep -q "\.gnu_debugdata" &&
	readelf -SW forms-ours/debuglink/app | grep -q "\.gnu_debuglink" &&
	! test -e forms-ours/debuglink/app.debug
'

if test_have_prereq DEBUGINFOD; then
	debuginfod_setup
	test_expect_success 'setup: a debuginfod serving the embedded debug files' '
		debuginfod_start srv && i=0 &&
		for m in $MAKERS; do
			until DEBUGINFOD_URLS="$URL" debuginfod-find section \
				"$(build_id_of build-$m/app)" .perf.probes >/dev/null 2>&1; do
				rm -rf "$DEBUGINFOD_CACHE_PATH"
				i=$((i + 1)); [ $i -lt 100 ] || { cat server.log; exit 1; }
				sleep 0.2
			done
		done
	'
fi

for m in $MAKERS; do
	for how in $STRIP_HOWS; do
		M=$m HOW=$how
		test_expect_success "$m cache, $how, at the build's path (-x and the search with no -x)" '
			B=$TEST_TMP/build-"$M"/app &&
			put_form "$M" "$HOW" && test_when_finished "put_form $M build" &&
			expect "$M" "$B" >expect &&
			HOME=$TEST_TMP/home-"$M" placed "$M" "$B" >actual &&
			test_cmp_file expect actual &&
			HOME=$TEST_TMP/home-"$M" placed "$M" - >actual &&
			test_cmp_file expect actual
		'

		test_expect_success "$m cache, $how, at another path" '
			F=$TEST_TMP/host-"$M"/"$HOW"/app &&
			put_form "$M" "$HOW" && test_when_finished "put_form $M build" &&
			expect "$M" "$F" >expect &&
			HOME=$TEST_TMP/home-"$M" placed "$M" "$F" >actual &&
			test_cmp_file expect actual
		'

		test_expect_success "$m cache, $how, imported from a bundle" '
			B=$TEST_TMP/build-"$M"/app && H=$TEST_TMP/import-"$M"-"$HOW" &&
			put_form "$M" "$HOW" && test_when_finished "put_form $M build" &&
			mkdir -p "$H" &&
			HOME=$H "$PERF" probe -q --cache --import "$M".bundle &&
			expect "$M" "$B" >expect &&
			HOME=$H placed "$M" "$B" >actual &&
			test_cmp_file expect actual &&
			F=$TEST_TMP/host-"$M"/"$HOW"/app &&
			expect "$M" "$F" >expect &&
			HOME=$H placed "$M" "$F" >actual &&
			test_cmp_file expect actual
		'

		test_expect_success DEBUGINFOD "$m cache, $how, through the .perf.probes section" '
			F=$TEST_TMP/host-"$M"/"$HOW"/app && H=$TEST_TMP/section-"$M"-"$HOW" &&
			mkdir -p "$H" &&
			expect "$M" "$F" >expect &&
			HOME=$H DEBUGINFOD_URLS="$URL" placed "$M" "$F" >actual &&
			test_cmp_file expect actual &&
			find "$H/.debug" -name probes | grep -q .
		'
	done
done

# The values the program computes, through the stripped form's cache:
# each line printed is "len=L seq=S cost=C total=T".
test_expect_success ROOT,TRACEFS 'setup: the values the program prints' '
	build-ours/app.g 3 >printed &&
	test_line_count = 4 printed
'

for how in strip-s mdi; do
	HOW=$how
	test_expect_success ROOT,TRACEFS "live on the $how form: every cached kind fires with the program's values" '
		B=$TEST_TMP/build-ours/app &&
		put_form ours "$HOW" &&
		test_when_finished "remove_probe_group $G; remove_probe_group $SDTG; put_form ours build" &&
		kinds ours | while IFS="$(printf "\t")" read -r k spec ev; do
			HOME=$TEST_TMP/home-ours "$PERF" probe -q -x "$B" -a "$spec" || exit 1
		done &&
		echo >"$TI/trace" && echo 1 >"$TI/events/$G/enable" &&
		if [ -n "$SDT_NOTE" ]; then echo 1 >"$TI/events/$SDTG/enable"; fi &&
		"$B" 3 >out &&
		echo 0 >"$TI/events/$G/enable" &&
		if [ -n "$SDT_NOTE" ]; then echo 0 >"$TI/events/$SDTG/enable"; fi &&
		test_cmp_file printed out &&
		grep -o " fa: ([^)]*) len=[0-9]* seq=[0-9]*" "$TI/trace" | sed "s/.*) //" >traced &&
		sed -n "s/^\(len=[0-9]* seq=[0-9]*\) .*/\1/p" printed >want &&
		test_cmp_file want traced &&
		grep -o " sl: ([^)]*) total=[0-9]* cost=[0-9]*" "$TI/trace" | sed "s/.*) //" >traced &&
		sed -n "s/^len=[0-9]* seq=[0-9]* cost=\([0-9]*\) total=\([0-9]*\)/total=\2 cost=\1/p" printed >want &&
		test_cmp_file want traced &&
		grep -o " rt__return: ([^)]*) arg1=0x[0-9a-f]*" "$TI/trace" | sed "s/.*arg1=//" >traced &&
		sed -n "s/.* cost=\([0-9]*\) .*/\1/p" printed | while read -r c; do printf "0x%x\n" "$c"; done >want &&
		test_cmp_file want traced &&
		if [ -n "$SDT_NOTE" ]; then
			grep -o " handled: ([^)]*) arg1=[0-9]* arg2=[0-9]*" "$TI/trace" | sed "s/.*) //" >traced &&
			sed -n "s/^len=[0-9]* seq=\([0-9]*\) cost=\([0-9]*\) .*/arg1=\1 arg2=\2/p" printed >want &&
			test_cmp_file want traced
		fi &&
		for e in fn:3 fo:3 fl:6 lz:4; do
			test "$(grep -c " ${e%:*}: " "$TI/trace")" = "${e#*:}" || { cat "$TI/trace"; exit 1; }
		done
	'
done

test_done
