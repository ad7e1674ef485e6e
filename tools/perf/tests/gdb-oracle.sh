#!/bin/bash
# gdb as the oracle of perf probe's fetchargs: for each spec of a list,
# where perf -D places it, what gdb prints at that address on the first hit
# and what a live uprobe of the -D line fetches on the first hit, compared.
#
#   tools/perf/tests/gdb-oracle.sh BIN SPECS [-- CMD ARGS...]
#
# BIN the file the specs name (-x), SPECS one spec a line ("POINT ARG..."),
# CMD the program to run (default BIN), run under gdb and under the probe
# with no address randomization and an empty environment, so that both see
# the same addresses (ORACLE_ENV="VAR=VALUE ..." is their environment:
# PYTHONHASHSEED=0 for python).  PERF picks the perf (default ours; PERF=/usr/bin/perf
# for the system one), GROUP the probe group (default gdb_oracle_PID; its
# events are removed at exit), TRACEFS where tracefs is.  One line per spec:
#
#   right|wrong|refused|nogdb|both-refuse|nohit SPEC  [details]
#
# right: gdb prints every argument and the probe fetched the same values;
# wrong: it fetched another value; refused: perf refused the spec though gdb
# prints every argument there; nogdb: gdb cannot print one (optimized out)
# and perf fetched it anyway; both-refuse: neither can; nohit: the place is
# not reached by CMD.  Then a summary line.  Needs root and tracefs.
set -u
ORACLE_ENV=${ORACLE_ENV:-}
PERF=${PERF:-$(cd "$(dirname "$0")/.." && pwd)/perf}
TRACEFS=${TRACEFS:-/sys/kernel/tracing}
G=${GROUP:-gdb_oracle_$$}
bin=$(realpath "$1")
specs=$2
shift 2
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- "$bin"
cmd=("$@")
cmd[0]=$(realpath "$(command -v "${cmd[0]}")")
# The hits of the program itself (a library's probe fires in every process).
comm=$(basename "${cmd[0]}" | cut -c1-15)
work=$(mktemp -d /tmp/gdb-oracle.XXXXXX) || exit 1
ti=$TRACEFS/instances/$G
mkdir "$ti" || exit 1
cleanup() {
	{ echo 0 >"$ti/events/$G/enable"; } 2>/dev/null
	local left
	left=$(grep "^[pr]:$G/" "$TRACEFS/uprobe_events" 2>/dev/null | cut -d' ' -f1 |
		sed 's/^[pr]:/-:/')
	[ -z "$left" ] || echo "$left" >>"$TRACEFS/uprobe_events"
	rmdir "$ti"
	rm -rf "$work"
}
trap cleanup EXIT

# runtime_addr BIN OFF: the address of file offset OFF with no randomization.
runtime_addr() {
	local base=0 po va fs
	readelf -hW "$1" | grep -q 'Type: *DYN' && base=$((0x555555554000))
	case $1 in *.so | *.so.*) base=-1 ;; esac
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }' |
		while read -r po va fs; do
			if [ $(($2)) -ge $((po)) ] && [ $(($2)) -lt $((po + fs)) ]; then
				if [ "$base" = -1 ]; then
					# A library: the breakpoint by its symbol's offset, through gdb.
					printf 'lib:0x%x\n' $(($2 - po + va))
				else
					printf '0x%x\n' $(($2 - po + va + base))
				fi
			fi
		done
}

# gdb_values ADDR FMT:EXPR...: gdb's "$N = " values at the first hit of ADDR,
# one a line ("?" when gdb has none).
gdb_values() {
	local addr=$1 bp e
	shift
	bp="break *$addr"
	case $addr in
	lib:*)
		# The library's load address is known once it is mapped.
		bp="break *($(printf '0x%x' $((${addr#lib:}))) + \$libbase)"
		;;
	esac
	local args=(-nx -batch -ex 'set startup-with-shell off' -ex 'set confirm off'
		-ex 'unset environment' -ex 'set print elements 256')
	for e in $ORACLE_ENV; do
		args+=(-ex "set environment ${e%%=*} ${e#*=}")
	done
	case $addr in
	lib:*)
		# Its load address is known at main: its first mapping.
		args+=(-ex 'break main' -ex run -ex "python m=[l.split() for l in gdb.execute('info proc mappings', to_string=True).splitlines() if l.split()[-1:] == ['$bin']]; gdb.execute('set \$libbase = %d' % (int(m[0][0], 16) - int(m[0][3], 16)))")
		;;
	*) args+=(-ex starti) ;;
	esac
	args+=(-ex "$bp" -ex continue)
	# At the entry of inlined code gdb shows the caller's frame: the
	# probed function's own frame then (an error when it is the same).
	[ -n "$func" ] && args+=(-ex "python
f = gdb.newest_frame()
while f and not (f.function() and f.function().name.split('(')[0] == '$func'):
    f = f.older()
if f: f.select()")
	for e in "$@"; do
		args+=(-ex "echo @@\\n" -ex "print${e%%:*} ${e#*:}")
	done
	gdb "${args[@]}" --args "${cmd[@]}" </dev/null >"$work/gdb.out" 2>&1; [ -n "${ORACLE_DEBUG:-}" ] && cat "$work/gdb.out" >&2
	awk '/^@@$/ { if (n++) print (v == "" ? "?" : v); v = ""; next }
		n && /^\$[0-9]+ = / { sub(/^\$[0-9]+ = /, ""); v = $0 }
		END { if (n) print (v == "" ? "?" : v) }' "$work/gdb.out"
}

# gdb's spelling into the kernel's: strings without their address and
# array tail, <optimized out> as none.
gdb_norm() {
	sed -e 's/^([^)]*) \(0x[0-9a-f]*\)$/\1/' -e 's/^0x[0-9a-f]* \(".*"\).*$/\1/' -e 's/^\(".*"\)\(, .*\| <repeats.*\)\?$/\1/' \
		-e "s/ '.*'$//" -e 's/^<optimized out>$/?/' -e 's/^.*<error:.*$/?/' -e 's/^<synthetic pointer>$/?/'
}

# The gdb format of a fetch type.
gdb_fmt() {
	case $1 in
	string | ustring) echo "" ;;
	s*) echo /d ;;
	u* | b*) echo /u ;;
	x*) echo /x ;;
	*) echo "" ;;
	esac
}

n_right=0 n_wrong=0 n_refused=0 n_nogdb=0 n_both=0 n_nohit=0 i=0
while IFS= read -r spec; do
	[ -n "$spec" ] || continue
	case $spec in \#*) continue ;; esac
	i=$((i + 1))
	read -r point rest <<<"$spec"
	func=
	# shellcheck disable=SC2001 # an alternative, not a substitution
	case $point in
	*.c:* | *.cc:* | *.h:* | 0x*) ;;
	*) func=$(sed 's/\(:[0-9].*\|[+@%;].*\)$//' <<<"$point") ;;
	esac
	read -ra words <<<"$rest"
	exprs=()
	for w in "${words[@]}"; do
		w=${w#*=}
		exprs+=("${w%%:*}")
	done
	"$PERF" probe -x "$bin" -D "$spec" >"$work/def" 2>"$work/err"
	rc=$?
	line=$(grep -m1 '^p:' "$work/def")
	if [ $rc = 0 ] && [ -n "$line" ]; then
		off=$(sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
		read -ra fa <<<"$(cut -d' ' -f3- <<<"$line")"
	else
		# Where gdb is asked then: the place of the point with one argument
		# that resolves, else with none.
		off=
		for w in "${exprs[@]}" '$params' ''; do
			l=$("$PERF" probe -x "$bin" -D "$point $w" 2>/dev/null | grep -m1 '^p:')
			[ -n "$l" ] && off=$(sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\).*/\1/p' <<<"$l") && break
		done
		fa=()
	fi
	if [ -z "$off" ]; then
		echo "both-refuse $spec  [no place: $(head -n1 "$work/err")]"
		n_both=$((n_both + 1))
		continue
	fi
	addr=$(runtime_addr "$bin" "$off")
	fmts=()
	for k in "${!exprs[@]}"; do
		t=
		[ ${#fa[@]} -gt "$k" ] && t=${fa[$k]##*:}
		fmts+=("$(gdb_fmt "$t"):${exprs[$k]}")
	done
	mapfile -t gv < <(gdb_values "$addr" "${fmts[@]}" | gdb_norm)
	if [ ${#gv[@]} -eq 0 ]; then
		echo "nohit $spec"
		n_nohit=$((n_nohit + 1))
		continue
	fi
	gdb_all=1
	for v in "${gv[@]}"; do [ "$v" = "?" ] && gdb_all=0; done
	if [ ${#fa[@]} -eq 0 ]; then
		if [ $gdb_all = 1 ]; then
			echo "refused $spec  [gdb: ${gv[*]}] [ours: $(grep -v '^\(Skipping\|Probe on\|Target program\|$\)' "$work/err" | head -n1)]"
			n_refused=$((n_refused + 1))
		else
			echo "both-refuse $spec  [gdb: ${gv[*]}]"
			n_both=$((n_both + 1))
		fi
		continue
	fi
	# Live: the -D line itself, in a group of ours, the first hit.
	ev="e$i"
	echo "p:$G/$ev $(cut -d' ' -f2- <<<"$line")" >>"$TRACEFS/uprobe_events" 2>"$work/werr" || {
		echo "wrong $spec  [the kernel refused: $line]"
		n_wrong=$((n_wrong + 1))
		continue
	}
	echo >"$ti/trace"
	echo 1 >"$ti/events/$G/$ev/enable"
	# shellcheck disable=SC2086 # words
	setarch -R env -i $ORACLE_ENV "${cmd[@]}" </dev/null >"$work/live.out" 2>&1
	echo 0 >"$ti/events/$G/$ev/enable"
	hit=$(grep " $ev: " "$ti/trace" | grep -m1 "^ *$comm-[0-9]* " | sed 's/^.* '"$ev"': ([^)]*) *//')
	echo "-:$G/$ev" >>"$TRACEFS/uprobe_events"
	if [ -z "$hit" ]; then
		echo "nohit $spec"
		n_nohit=$((n_nohit + 1))
		continue
	fi
	# name=value pairs in order (string values may hold spaces).
	mapfile -t lv < <(awk -v n=${#fa[@]} '{
		s = $0
		for (k = 0; k < n; k++) {
			sub(/^ */, "", s); sub(/^[^=]*=/, "", s)
			if (substr(s, 1, 1) == "\"") { m = index(substr(s, 2), "\""); v = substr(s, 1, m + 1); s = substr(s, m + 2) }
			else { m = index(s, " "); if (!m) m = length(s) + 1; v = substr(s, 1, m - 1); s = substr(s, m) }
			print v
		}
	}' <<<"$hit")
	verdict=right
	for k in "${!gv[@]}"; do
		g=${gv[$k]} l=${lv[$k]:-}
		[ "$g" = "?" ] && { verdict=nogdb; break; }
		[ "$g" = "$l" ] || verdict=wrong
	done
	echo "$verdict $spec  [gdb: ${gv[*]}] [ours: ${lv[*]}]"
	case $verdict in
	right) n_right=$((n_right + 1)) ;;
	wrong) n_wrong=$((n_wrong + 1)) ;;
	nogdb) n_nogdb=$((n_nogdb + 1)) ;;
	esac
done <"$specs"
gdb_prints=$((n_right + n_wrong + n_refused))
echo "summary $(basename "$bin"): $i specs, gdb prints $gdb_prints: right $n_right, wrong $n_wrong, refused $n_refused; gdb none: fetched $n_nogdb, both refuse $n_both; not hit $n_nohit"
