#!/bin/sh
test_description='installed like a real tool: make install and uninstall, man pages, bash completion, and the system perf behind ours for the commands we do not implement'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_inst
test_probe_group $G

test_lazy_prereq ASCIIDOCTOR 'command -v asciidoctor'
test_lazy_prereq MAN 'command -v man'
test_lazy_prereq BASH 'command -v bash'
test_lazy_prereq BASH_COMPLETION 'command -v bash && test -r /usr/share/bash-completion/bash_completion'
# No Debian perf_X.Y for the fallback to find when PATH has no perf.
test_lazy_prereq NO_VERSIONED_PERF '! ls /usr/bin/perf_[0-9]* >/dev/null 2>&1'

# make, not the one running this test: its flags and jobserver stay out.
run_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TEST_ROOT" "$@"
}

D=$TEST_TMP/dest
P=$D/usr/local

# The files make install puts where, under DESTDIR=$D.
{
	echo "$P/bin/perf"
	echo "$P/share/bash-completion/completions/perf"
	echo "$P/share/doc/perf/DESIGN.md"
	echo "$P/share/doc/perf/README.md"
	echo "$P/share/doc/perf/installed-files"
	for f in "$TEST_ROOT"/Documentation/*.txt; do
		n=$(basename "$f" .txt)
		echo "$P/share/doc/perf/$n.txt"
		echo "$P/share/man/man1/$n.1"
	done
} | sort >"$TEST_TMP/expect-files"

# 1. make install, the man pages, make uninstall.
test_expect_success ASCIIDOCTOR 'make install DESTDIR puts every file under DESTDIR/usr/local' '
	run_make install DESTDIR="$D" >out 2>err &&
	! test -s err &&
	find "$D" -type f | sort >files &&
	test_cmp_file expect-files files &&
	test "$(find "$D" -mindepth 1 -maxdepth 1)" = "$D/usr" &&
	test -x "$P/bin/perf" &&
	grep -q "^installed $P/bin/perf$" out &&
	cmp "$P/bin/perf" "$PERF" &&
	cmp "$P/share/bash-completion/completions/perf" "$TEST_ROOT/tools/perf/perf-completion.bash"
'

test_expect_success ASCIIDOCTOR,MAN 'man -l renders every page without a warning' '
	n=0 &&
	for page in "$P"/share/man/man1/*.1; do
		MANWIDTH=80 man -l --warnings "$page" 2>err >page.out || return 1
		test_cmp_file /dev/null err || return 1
		name=$(basename "$page" .1)
		grep -q "^NAME$" page.out && grep -q "^ *$name - " page.out || return 1
		n=$((n + 1))
	done &&
	test $n -eq "$(ls "$TEST_ROOT"/Documentation/*.txt | wc -l)" &&
	test $n -ge 6
'

test_expect_success ASCIIDOCTOR,MAN 'man perf-probe finds the installed page' '
	MANPATH=$P/share/man: man -w perf-probe >where &&
	grep -qx "$P/share/man/man1/perf-probe.1" where &&
	MANPATH=$P/share/man: MANPAGER=cat MANWIDTH=80 man perf-probe >page 2>/dev/null &&
	grep -q "all of them or none" page
'

test_expect_success ASCIIDOCTOR,MAN 'perf probe --help and perf help probe open our manual, -h the options' '
	MANPAGER=cat MANWIDTH=80 "$P/bin/perf" probe --help >page 2>err &&
	head -n 1 page | grep -q "^PERF-PROBE(1) " &&
	grep -q "all of them or none" page &&
	MANPAGER=cat MANWIDTH=80 "$P/bin/perf" help probe >page2 2>err &&
	cmp page page2 &&
	MANPAGER=cat MANWIDTH=80 "$P/bin/perf" list --help >page3 &&
	head -n 1 page3 | grep -q "^PERF-LIST(1) " &&
	MANPAGER=cat "$P/bin/perf" probe -h >usage 2>&1 &&
	grep -q "Usage: perf probe" usage &&
	! grep -q "PERF-PROBE(1)" usage
'

test_expect_success 'without installed pages, perf help probe says so and prints the options' '
	"$PERF" help probe >out 2>err &&
	test_line_count = 1 err &&
	grep -q "no manual page .*perf-probe.1" err &&
	grep -q "Usage: perf probe" out
'

test_expect_success ASCIIDOCTOR 'make install again over our own install keeps the same files' '
	run_make install DESTDIR="$D" >out 2>err &&
	find "$D" -type f | sort >files &&
	test_cmp_file expect-files files
'

test_expect_success ASCIIDOCTOR,BASH_COMPLETION 'bash-completion loads the installed completion of perf' '
	XDG_DATA_DIRS=$P/share bash -c ". /usr/share/bash-completion/bash_completion;
		__load_completion perf && complete -p perf && type __perf_split_line" >out 2>err &&
	grep -qx "complete -o default -F _perf perf" out &&
	grep -q "^__perf_split_line is a function$" out
'

test_expect_success ASCIIDOCTOR 'make uninstall removes exactly what was installed' '
	run_make uninstall DESTDIR="$D" >out 2>err &&
	! test -s err &&
	test "$(find "$D" -mindepth 1)" = "" &&
	grep -q "^removed $P/bin/perf$" out
'

test_expect_success ASCIIDOCTOR 'make uninstall leaves what was there before the install' '
	d2=$TEST_TMP/dest2 &&
	mkdir -p "$d2/usr/local/share/man/man1" &&
	echo theirs >"$d2/usr/local/share/man/man1/other.1" &&
	run_make install DESTDIR="$d2" >/dev/null &&
	run_make uninstall DESTDIR="$d2" >/dev/null &&
	find "$d2" -mindepth 1 | sort >left &&
	printf "%s\n" "$d2/usr" "$d2/usr/local" "$d2/usr/local/share" \
		"$d2/usr/local/share/man" "$d2/usr/local/share/man/man1" \
		"$d2/usr/local/share/man/man1/other.1" >expect &&
	test_cmp_file expect left
'

test_expect_success 'make uninstall with nothing installed: one line, nothing changed' '
	mkdir -p empty &&
	test_must_fail run_make uninstall DESTDIR="$TEST_TMP/empty" >out 2>err &&
	grep -q "^install.sh: nothing to uninstall" err &&
	test "$(find empty -mindepth 1)" = ""
'

test_expect_success ASCIIDOCTOR 'make install never replaces a perf that is not ours (the system /usr/bin/perf)' '
	d3=$TEST_TMP/dest3 &&
	mkdir -p "$d3/usr/bin" &&
	printf "#!/bin/sh\necho the system perf\n" >"$d3/usr/bin/perf" &&
	cp "$d3/usr/bin/perf" theirs &&
	tree_snapshot "$d3" >before &&
	test_must_fail run_make install DESTDIR="$d3" PREFIX=/usr >out 2>err &&
	grep -q "^install.sh: $d3/usr/bin/perf is not this perf" err &&
	test "$(grep -c "^install.sh" err)" = 1 &&
	tree_snapshot "$d3" >after &&
	test_cmp_file before after &&
	cmp theirs "$d3/usr/bin/perf"
'

test_expect_success 'make install refuses a relative PREFIX' '
	test_must_fail run_make install DESTDIR="$TEST_TMP/dest4" PREFIX=rel >out 2>err &&
	grep -q "PREFIX must be an absolute path" err &&
	! test -e "$TEST_TMP/dest4/rel"
'

# 2. The system perf behind ours, our binary first on PATH.  The stand-in
# system perfs are in TRUSTED: the fallback runs none another user could
# have written, and /tmp is writable by all.
test_trusted_dir
mkdir -p "$TEST_TMP/ourbin"
ln -s "$PERF" "$TEST_TMP/ourbin/perf"
OURS_PATH=$TEST_TMP/ourbin:$(dirname "$SYSTEM_PERF"):$PATH

test_expect_success SYSTEM_PERF,GCC 'setup: conn.c, which prints what it passes to handle()' '
	build_workload conn app -g -O0 &&
	./app 3 >app.out &&
	test_line_count = 3 app.out
'

test_expect_success SYSTEM_PERF,ROOT,TRACEFS,GCC 'perf record and perf script, through ours, of a probe ours placed' '
	PATH=$OURS_PATH perf probe -q -x ./app -a "$G:handle_hit=handle len=r->len seq" &&
	PATH=$OURS_PATH perf record -q -e $G:handle_hit -o "$TEST_TMP/perf.data" -- ./app 3 >rec.out 2>rec.err &&
	test_cmp_file app.out rec.out &&
	PATH=$OURS_PATH perf script -i "$TEST_TMP/perf.data" >script.out 2>script.err &&
	test_line_count = 3 script.out &&
	# The program prints len=41+i; handle() gets seq=i.
	sed -n "s/.* $G:handle_hit: ([0-9a-f]*) \(len=[0-9]* seq=[0-9]*\)$/\1/p" script.out >got &&
	printf "len=41 seq=0\nlen=42 seq=1\nlen=43 seq=2\n" >expect &&
	test_cmp_file expect got &&
	sed "s/ peer=.*//" app.out >lens &&
	sed "s/ seq=.*//" got >got-lens &&
	test_cmp_file lens got-lens
'

test_expect_success SYSTEM_PERF,ROOT,TRACEFS,GCC 'perf stat -e of that event, through ours, counts its hits' '
	PATH=$OURS_PATH perf stat -x, -e $G:handle_hit -- ./app 5 >/dev/null 2>stat.out &&
	grep -q "^5,,$G:handle_hit," stat.out
'

test_expect_success SYSTEM_PERF 'a failing command of the system perf exits with its status' '
	PATH=$OURS_PATH perf report -i "$TEST_TMP/no-such.data" >ours.out 2>ours.err
	ours=$?
	"$SYSTEM_PERF" report -i "$TEST_TMP/no-such.data" >theirs.out 2>theirs.err
	theirs=$?
	test $theirs -ne 0 &&
	test $ours -eq $theirs &&
	test_cmp_file theirs.err ours.err
'

test_expect_success TRUSTED_DIR 'the system perf gets the same arguments and environment, and its exit status is ours' '
	mkdir -p "$TRUSTED/fake" &&
	cat >"$TRUSTED/fake/perf" <<-EOF &&
	#!/bin/sh
	printf "%s\n" "\$@" >"$TEST_TMP/args"
	echo "\$PERF_FALLBACK_PID \$\$ \$PERFTEST_VAR" >"$TEST_TMP/env"
	exit 7
	EOF
	chmod +x "$TRUSTED/fake/perf" &&
	PATH=$TEST_TMP/ourbin:$TRUSTED/fake:$PATH PERFTEST_VAR=kept "$PERF" record -e "a b" -- "x  y" ""
	test $? -eq 7 &&
	printf "%s\n" record -e "a b" -- "x  y" "" >expect &&
	test_cmp_file expect args &&
	read -r guard pid var <env &&
	test "$guard" = "$pid" &&
	test "$var" = kept
'

test_expect_success NO_VERSIONED_PERF 'without a system perf: version, help and list say so and keep ours' '
	mkdir -p none &&
	PATH=$TEST_TMP/none "$PERF" version >out &&
	grep -qx "system perf: none found; the other commands are not available" out &&
	PATH=$TEST_TMP/none "$PERF" help >out &&
	grep -q "^   probe " out &&
	grep -q "^ No system perf was found" out &&
	PATH=$TEST_TMP/none "$PERF" list hw >out 2>err &&
	! test -s out &&
	echo "perf list: '"'"'hw'"'"' events are the system perf'"'"'s, and there is none" >expect &&
	test_cmp_file expect err &&
	PATH=$TEST_TMP/none "$PERF" --list-cmds >out &&
	grep -q "^buildid-cache buildid-list check help list probe trace version $" out
'

# An absolute path: PATH is changed for the command these run.
TIMEOUT=$(command -v timeout)

test_expect_success SYSTEM_PERF 'a perf the system perf runs (perf stat -- perf version) is ours, and not a loop' '
	sys=$(PATH=$OURS_PATH "$PERF" version | sed -n "s/^system perf: \([^ ]*\) .*/\1/p") &&
	test -n "$sys" &&
	PATH=$OURS_PATH perf stat -x, -e task-clock -- perf version >out 2>err &&
	head -n 1 out | grep -q "^perf version 0\." &&
	sed -n 2p out | grep -q "^system perf: $sys (perf version "
'

test_expect_success NO_VERSIONED_PERF 'no perf on PATH but this one (a symlink): one line, exit 1, no loop' '
	mkdir -p only &&
	ln -s "$PERF" only/perf &&
	PATH=$TEST_TMP/only "$TIMEOUT" 10 "$TEST_TMP/only/perf" record true >out 2>err
	test $? -eq 1 &&
	test_line_count = 1 err &&
	grep -q "^perf: .record. is not a command of this perf, and no system perf was found" err &&
	! test -s out
'

for kind in exec child; do
	test_expect_success TRUSTED_DIR "a wrapper script that runs this perf ($kind) is caught: one line, no loop" '
		mkdir -p "$TRUSTED/wrap-'$kind'" &&
		if [ '$kind' = exec ]; then
			printf "#!/bin/sh\nexec \"%s\" \"\$@\"\n" "$PERF" >"$TRUSTED/wrap-'$kind'/perf"
		else
			printf "#!/bin/sh\n\"%s\" \"\$@\"\n" "$PERF" >"$TRUSTED/wrap-'$kind'/perf"
		fi &&
		chmod +x "$TRUSTED/wrap-'$kind'/perf" &&
		W=$TEST_TMP/ourbin:$TRUSTED/wrap-'$kind' &&
		PATH=$W "$TIMEOUT" 10 "$PERF" record true >out 2>err
		test $? -eq 1 &&
		test_line_count = 1 err &&
		grep -q "^perf: .record. is not a command of this perf, and the system perf found runs this perf again$" err &&
		PATH=$W "$TIMEOUT" 10 "$PERF" version >out &&
		grep -qx "system perf: $TRUSTED/wrap-'$kind'/perf runs this perf again; the other commands are not available" out &&
		PATH=$W "$TIMEOUT" 10 "$PERF" help >out &&
		grep -q "^   probe " out &&
		PATH=$W "$TIMEOUT" 10 "$PERF" --list-cmds >out &&
		PATH=$W "$TIMEOUT" 10 "$PERF" list sw >out &&
		PATH=$W "$TIMEOUT" 10 "$PERF" help record >out 2>err
		test $? -eq 1 &&
		PATH=$W "$TIMEOUT" 10 "$PERF" --no-pager version >out 2>err
		test $? -eq 129
	'
done

# 3. version, help and list of both perfs.
test_expect_success SYSTEM_PERF 'perf help lists our commands, then those the system perf adds' '
	PATH=$OURS_PATH perf help >out &&
	sed -n "/most commonly used/,/Run by the system perf/p" out >ours.part &&
	grep -q "^   probe  *Define new dynamic tracepoints$" ours.part &&
	grep -q "^   buildid-cache " ours.part &&
	! grep -q "^   record " ours.part &&
	sys=$(PATH=$OURS_PATH "$PERF" version | sed -n "s/^system perf: \([^ ]*\) .*/\1/p") &&
	grep -q "^ Run by the system perf ($sys):$" out &&
	sed -n "/Run by the system perf/,\$p" out >theirs.part &&
	grep -q "^   record  *Run a command and record its profile into perf.data$" theirs.part &&
	grep -q "^   stat " theirs.part &&
	! grep -q "^   probe " theirs.part
'

test_expect_success SYSTEM_PERF 'perf --list-cmds names the commands of both' '
	PATH=$OURS_PATH perf --list-cmds | tr " " "\n" >cmds &&
	grep -qx probe cmds && grep -qx record cmds && grep -qx script cmds &&
	test "$(grep -cx probe cmds)" = 1
'

test_expect_success SYSTEM_PERF 'perf help record is the system perf'"'"'s' '
	PATH=$OURS_PATH MANPAGER=cat MANWIDTH=80 perf help record >ours.out 2>&1 &&
	MANPAGER=cat MANWIDTH=80 "$SYSTEM_PERF" help record >theirs.out 2>&1 &&
	test_cmp_file theirs.out ours.out
'

test_expect_success SYSTEM_PERF 'perf list: the system perf'"'"'s kinds of events with ours in their place' '
	# Probe events of other scripts come and go between the two runs.
	PATH=$OURS_PATH perf list | grep -v -E "^  (probe|perftest|sdt_)" >ours &&
	"$SYSTEM_PERF" list | grep -v -E "^  (probe|perftest|sdt_)" >theirs &&
	test_cmp_file theirs ours &&
	grep -q "\[Software event\]$" ours &&
	PATH=$OURS_PATH perf list sw >ours.sw &&
	"$SYSTEM_PERF" list sw >theirs.sw &&
	test_cmp_file theirs.sw ours.sw &&
	grep -q "^  task-clock  *\[Software event\]$" ours.sw
'

test_expect_success SYSTEM_PERF,ROOT,TRACEFS 'perf list GLOB lists the system perf'"'"'s matches beside ours' '
	PATH=$OURS_PATH perf list "task-clock" >ours &&
	grep -q "^  task-clock  *\[Software event\]$" ours &&
	PATH=$OURS_PATH perf list "$G:*" >ours &&
	grep -q "^  $G:handle_hit  *\[Tracepoint event\]$" ours
'

# 4. Bash completion, from the installed file, in a real bash.
# complete WORD...: the replies of _perf for the words, the last one being
# completed, one a line.
complete_words() {
	bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _perf; printf "%s\n" "${COMPREPLY[@]}"' \
		"$COMPLETION" "$@"
}
COMPLETION=$TEST_ROOT/tools/perf/perf-completion.bash

test_expect_success BASH 'the completion file is a bash script that defines _perf for perf' '
	bash -c ". \"$COMPLETION\" && complete -p perf" >out &&
	grep -q "_perf perf$" out
'

test_expect_success BASH 'perf pro<TAB> is probe; perf <TAB> lists both perfs'"'"' commands' '
	complete_words "$PERF" pro >out &&
	echo probe >expect &&
	test_cmp_file expect out &&
	PATH=$OURS_PATH complete_words "$PERF" "" >all &&
	grep -qx probe all && grep -qx buildid-cache all &&
	if test_have_prereq SYSTEM_PERF; then grep -qx record all; fi
'

test_expect_success BASH 'perf probe --ca<TAB> and perf list -<TAB> complete long options' '
	complete_words "$PERF" probe --ca >out &&
	echo --cache >expect &&
	test_cmp_file expect out &&
	complete_words "$PERF" probe -x app --fu >out &&
	echo --funcs >expect &&
	test_cmp_file expect out
'

test_expect_success BASH,SYSTEM_PERF 'perf record -e <TAB> offers the events of perf list; record -<TAB> its options' '
	PATH=$OURS_PATH complete_words "$PERF" record -e task-c >out &&
	echo task-clock >expect &&
	test_cmp_file expect out &&
	PATH=$OURS_PATH complete_words "$PERF" record --call-g >out &&
	echo --call-graph >expect &&
	test_cmp_file expect out &&
	complete_words "$PERF" help rec >out &&
	echo record >expect &&
	test_cmp_file expect out
'

test_expect_success BASH,ROOT,TRACEFS,GCC 'perf probe -d <TAB> and -l <TAB> list the live events' '
	complete_words "$PERF" probe -d "" >out &&
	grep -qx "$G:handle_hit" out &&
	complete_words "$PERF" probe -l "$G:" >out &&
	echo "$G:handle_hit" >expect &&
	test_cmp_file expect out &&
	complete_words "$PERF" probe "--del=$G:h" >out &&
	echo "--del=$G:handle_hit" >expect &&
	test_cmp_file expect out
'

test_expect_success BASH,ROOT,TRACEFS,GCC 'in a line typed in bash, a colon in the event name is kept' '
	bash -c ". \"$COMPLETION\"; COMP_LINE=\"$PERF probe -d $G:hand\"; COMP_POINT=\${#COMP_LINE};
		COMP_WORDS=(\"$PERF\" probe -d $G : hand); COMP_CWORD=5; _perf; printf \"%s\n\" \"\${COMPREPLY[@]}\"" >out &&
	echo handle_hit >expect &&
	test_cmp_file expect out
'

test_expect_success BASH,GCC 'perf probe -x ./app -a <TAB> and -F <TAB> offer the functions of ./app' '
	complete_words "$PERF" probe -x ./app -a "" >out &&
	grep -qx handle out && grep -qx main out &&
	complete_words "$PERF" probe -x ./app -a ha >out &&
	echo handle >expect &&
	test_cmp_file expect out &&
	complete_words "$PERF" probe --exec=./app -F "" >out &&
	grep -qx handle out &&
	complete_words "$PERF" probe -x ./app "" >out &&
	grep -qx handle out
'

test_expect_success BASH,GCC 'perf probe -x ./app -a %<TAB> offers the cached events' '
	"$PERF" probe -q --cache -n -x ./app -a "$G:cached=handle r->len" >/dev/null 2>&1 &&
	complete_words "$PERF" probe -x ./app -a % >out &&
	echo "%$G:cached" >expect &&
	test_cmp_file expect out
'

test_expect_success ROOT,TRACEFS 'cleanup: the probe events of this script are gone' '
	"$PERF" probe -q -d "$G:*" 2>/dev/null
	! "$PERF" probe -l 2>/dev/null | grep -q "$G:"
'

test_done
