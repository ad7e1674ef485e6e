#!/bin/sh
test_description='DWARF arguments of C++, Rust and Go programs: live values are what gdb prints'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=perftest_args
test_probe_group $G
test_trace_instance $G

# runtime_addr BIN OFF: where file offset OFF of BIN is when gdb runs it
# (no address randomization: a PIE at 0x555555554000).
runtime_addr() {
	_base=0
	readelf -hW "$1" | grep -q 'Type: *DYN' && _base=$((0x555555554000))
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }' |
		while read -r _po _va _fs; do
			if [ $(($2)) -ge $((_po)) ] && [ $(($2)) -lt $((_po + _fs)) ]; then
				printf '0x%x\n' $(($2 - _po + _va + _base))
			fi
		done
}

# sym BIN PATTERN: the (mangled) name of the one function symbol matching PATTERN.
sym() {
	nm "$1" | awk -v p="$2" '$2 ~ /^[tTW]$/ && $3 ~ p { print $3 }' | head -n 1
}

# live_vs_gdb BIN EVENT POINT ARGS GDBEXPRS [prefix]: probe POINT of BIN
# with ARGS (NAME=EXPR:TYPE words) as $G:EVENT, run BIN, and compare the
# values of every hit with what gdb prints for GDBEXPRS (";"-separated
# print arguments, one per ARGS word) at the probe's address, hit for hit
# (sorted: goroutines run in any order).  With "prefix" the last argument
# is a Rust or Go string: the kernel reads it up to a NUL, past its length,
# so gdb's text must start what the probe fetched.
live_vs_gdb() {
	_bin=$1 _ev=$2 _pt=$3 _args=$4 _gdb=$5 _prefix=${6:-}
	"$PERF" probe -x "$_bin" -D "$_pt $_args" >def 2>/dev/null && cat def &&
		test_line_count -eq 1 def || return 1
	_off=$(sed -n 's/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\) .*/\1/p' def)
	_addr=$(runtime_addr "$_bin" "$_off")
	[ -n "$_addr" ] || return 1
	"$PERF" probe -q -x "$_bin" -a "$G:$_ev=$_pt $_args" || return 1
	echo >"$TI/trace" &&
		echo 1 >"$TI/events/$G/$_ev/enable" &&
		"./$_bin" >printed && echo 0 >"$TI/events/$G/$_ev/enable" &&
		grep " $_ev: " "$TI/trace" | sed 's/^.* '"$_ev"': ([^)]*) //' | sort >live
	# (the trace is read while the event's format is there)
	"$PERF" probe -q -d "$G:$_ev" || return 1
	cat live
	_hits=$(wc -l <live)
	[ "$_hits" -ge 2 ] || { echo "only $_hits hits" >&2; return 1; }
	set -- -batch -ex 'handle SIGURG nostop noprint' -ex starti -ex "break *$_addr"
	_i=0
	while [ "$_i" -lt "$_hits" ]; do
		set -- "$@" -ex continue
		_rest=$_gdb
		while [ -n "$_rest" ]; do
			_e=${_rest%%;*}
			case $_e in
			@c*) set -- "$@" -ex 'set language c' -ex "print ${_e#@c}" \
				-ex 'set language auto' ;;
			*) set -- "$@" -ex "print $_e" ;;
			esac
			case $_rest in *";"*) _rest=${_rest#*;} ;; *) _rest= ;; esac
		done
		_i=$((_i + 1))
	done
	# Go's asynchronous preemption (SIGURG) can make gdb report one
	# goroutine's breakpoint twice and another's never: not in the oracle.
	GODEBUG=asyncpreemptoff=1 gdb "$@" "./$_bin" >gdb.out 2>&1
	_names=$(for _w in $_args; do printf '%s ' "${_w%%=*}"; done)
	# "$N = VALUE" lines, one per argument of each hit; Go strings as
	# gdb prints them (0xADDR "text") without the address; memory gdb
	# cannot read is what the kernel says of it, (fault).
	sed -n 's/^\$[0-9]* = //p' gdb.out | sed 's/^0x[0-9a-f]* "/"/' |
		sed 's/<error: Cannot access memory at address 0x[0-9a-f]*>/(fault)/g' |
		awk -v names="$_names" '
			BEGIN { n = split(names, nm, " ") }
			{ line = line (k ? " " : "") nm[k + 1] "=" $0; k++
			  if (k == n) { print line; line = ""; k = 0 } }' | sort >oracle
	cat oracle
	[ -n "$_prefix" ] || { test_cmp_file oracle live; return; }
	test_line_count -eq "$(wc -l <oracle)" live &&
		awk 'NR == FNR { want[NR] = substr($0, 1, length($0) - 1); next }
			index($0, want[FNR]) != 1 { print "hit " FNR ": " $0; bad = 1 }
			END { exit bad }' oracle live
}

# C++ ---------------------------------------------------------------------

cxx_add='t=this->total:s64 p=it.price:s64 q=it->price:s64 n=n:s32 i=this->id:s64 g=this->tag:s64 c=this->created:s64'
cxx_add_gdb='/d this->total;/d it.price;/d it.price;/d n;/d this->id;/d this->tag;/d shop::Base::created'
for cxx in g++ clang++; do
	pre=CXX
	[ $cxx = clang++ ] && pre=CLANGXX
	for o in O0 O2; do
		b=cxx_${cxx%++}_$o
		test_expect_success "$pre" "$cxx -$o: this, members of classes, references, a base class, \$params" "
			CXX=$cxx build_workload cxx-args $b -g -$o &&
			add=\$(sym $b Cart3add) && echo \$add &&
			\"\$PERF\" probe -x $b -D \"\$add this this->total it.price it->price this->id this->tag\" >out 2>err &&
			cat out && test_line_count = 1 out &&
			grep -q ' this=[^ ]*:x64 total=+24([^ ]*):s64 price=+0([^ ]*):s64 price=+0([^ ]*):s64 id=+16([^ ]*):s64 tag=+8([^ ]*):s64\$' out &&
			\"\$PERF\" probe -x $b -D \"\$add \\\$params\" >out 2>err && cat out &&
			grep -q ' this=[^ ]*:x64 it=[^ ]*:x64 n=[^ ]*:s32\$' out
		"
		test_expect_success "$pre",GDB,ROOT,TRACEFS "$cxx -$o: live members through this and references are gdb's" "
			CXX=$cxx build_workload cxx-args $b -g -$o &&
			live_vs_gdb $b cxx_add_${cxx%++}_$o \$(sym $b Cart3add) '$cxx_add' '$cxx_add_gdb'
		"
	done
done

# clang -O0 declares std::string without its members (libstdc++ has them):
# no layout to read, gdb has none either (below).
for v in g++:O0:CXX g++:O2:CXX clang++:O2:CLANGXX; do
	c=${v%%:*} o=${v#*:} pre=${v##*:}
	o=${o%:*}
	b=cxx_${c%++}_$o
	test_expect_success "$pre",GDB,ROOT,TRACEFS "$c -$o: :string on std::string values and references is gdb's" "
		CXX=$c build_workload cxx-args $b -g -$o &&
		live_vs_gdb $b cxx_str_${c%++}_$o \$(sym $b Cart5label) 's=s:string o=this->owner:string' 's;this->owner' &&
		live_vs_gdb $b cxx_sum_${c%++}_$o \$(sym $b 3sum) 'a=it.price:s64 b=p->price:s64 c=it.name:string d=p->name:string' '/d it.price;/d p->price;it.name;p->name'
	"
done

test_expect_success CLANGXX,GDB 'clang++ -O0: :string on a std::string without its layout is refused, gdb has none' '
	CXX=clang++ build_workload cxx-args cxs -g -O0 &&
	test_refuses --ignore "^(Skipping prologue|Probe on address|\$)" "$PERF" probe -x cxs -D "$(sym cxs Cart5label) s:string" &&
	grep -q "^Failed to cast into string: s is a basic_string<.*> whose layout the DWARF does not give (only declared)\.\$" err1 &&
	gdb -batch -ex "ptype std::string" ./cxs >gdb.out 2>&1; cat gdb.out &&
	grep -q "incomplete type\|No symbol" gdb.out
'

# Rust --------------------------------------------------------------------

for o in 0 2; do
	b=rs_$o
	test_expect_success RUSTC "rustc -C opt-level=$o: struct fields through & and &mut, &str" "
		build_workload rust-args $b -g -C opt-level=$o &&
		\"\$PERF\" probe -x $b -D \"\$(sym $b rust_args3add) cart.total it.price n cart->count cart.owner:string\" >out 2>err &&
		cat out && grep -q ' total=+0([^ ]*):x64 price=+0([^ ]*):x64 n=[^ ]*:x32 count=+24([^ ]*):x32 owner=+0(+8([^ ]*)):string\$' out
	"
	test_expect_success RUSTC,GDB,ROOT,TRACEFS "rustc -C opt-level=$o: live fields and &str are gdb's" "
		build_workload rust-args $b -g -C opt-level=$o &&
		live_vs_gdb $b rs_add_$o \$(sym $b rust_args3add) 't=cart.total:u64 p=it.price:u64 n=n:u32 c=cart.count:u32 o=cart.owner:string' '/d cart.total;/d it.price;/d n;/d cart.count;cart.owner' prefix
	"
done

test_expect_success RUSTC 'rustc -C opt-level=2: the first member of a struct in a register is the register' '
	build_workload rust-args rs_2 -g -C opt-level=2 &&
	"$PERF" probe -x rs_2 -D "$(sym rs_2 rust_args5apply) f._ref__extra[0]" >out 2>/dev/null &&
	cat out && grep -q " _ref__extra=+0(%di):x64\$" out
'

# The closure's environment: a struct holding &extra (in a register at
# opt-level=2, where gdb stops in the closure inlined there and sees no f).
test_expect_success RUSTC,GDB,ROOT,TRACEFS 'rustc -C opt-level=0: a &str parameter and a closure'"'"'s capture are gdb'"'"'s' '
	build_workload rust-args rs_0 -g -C opt-level=0 &&
	live_vs_gdb rs_0 rs_apply "$(sym rs_0 rust_args5apply)" "v=v:u64 e=f._ref__extra[0]:u64" "/d v;/d *f._ref__extra" &&
	live_vs_gdb rs_0 rs_greet "$(sym rs_0 rust_args5greet)" "t=times:u64 l=name.length:u64 s=name:string" "/d times;/d name.length;name" prefix
'

test_expect_success RUSTC,GDB 'rustc -C opt-level=2: the optimized-out pointer of a &str is refused, as gdb has it' '
	build_workload rust-args rs_2 -g -C opt-level=2 &&
	greet=$(sym rs_2 rust_args5greet) &&
	test_refuses --ignore "^(Skipping prologue|Probe on address|\$)" "$PERF" probe -x rs_2 -D "$greet name:string" &&
	grep -q "^Failed to cast into string: name is not available here (optimized out)\.\$" err1 &&
	off=$("$PERF" probe -x rs_2 -D "$greet times" 2>/dev/null | sed -n "s/^p:[^ ]* [^ ]*:\(0x[0-9a-f]*\) .*/\1/p") &&
	gdb -batch -ex starti -ex "break *$(runtime_addr rs_2 "$off")" -ex continue -ex "print name" ./rs_2 >gdb.out 2>&1 &&
	grep "^\\\$1 = " gdb.out && grep -q "^\\\$1 = .*optimized out" gdb.out
'

# Go ----------------------------------------------------------------------

# go_opt: go build as it is; go_noopt: -gcflags=all=-N -l.
for b in go_opt go_noopt; do
	flags="" gf=""
	[ $b = go_noopt ] && flags='-gcflags=all=-N -l' gf="'$flags'"
	test_expect_success GO "go build $b: register ABI arguments at the entry, \$params without the results, \$retval" "
		build_workload go-args $b $gf &&
		\"\$PERF\" probe -x $b -D 'main.F a b' >out 2>err && cat out err &&
		grep -q '^p:[^ ]* [^ ]*:0x[0-9a-f]* a=%ax:s64 b=%bx:s64\$' out &&
		! grep -q Skipping err &&
		\"\$PERF\" probe -x $b -D 'main.F \$params' >out && cat out &&
		grep -q ' a=%ax:s64 b=%bx:s64\$' out &&
		\"\$PERF\" probe -x $b -D 'main.F%return \$retval' >out && cat out &&
		# (a Go return probe is its return instructions: t0380)
		grep -q '^p:[^ ]*__return [^ ]*:0x[0-9a-f]* %ax:s64\$' out &&
		! grep -q '^r:' out
	"
	test_expect_success GO,SYSTEM_PERF_PROBE "go build $b: the entry and registers are the system perf's" "
		build_workload go-args $b $gf &&
		\"\$PERF\" probe -x $b -D 'main.F a b' >ours 2>/dev/null &&
		\"\$SYSTEM_PERF\" probe -x $b -D 'main.F a b' >theirs 2>/dev/null && cat ours theirs &&
		test \"\$(cut -d' ' -f2- ours)\" = \"\$(cut -d' ' -f2- theirs)\"
	"
	test_expect_success GO,GDB,ROOT,TRACEFS "go build $b: live arguments, struct fields, strings are gdb's" "
		build_workload go-args $b $gf &&
		live_vs_gdb $b f_$b main.F 'a=a:s64 b=b:s64' '/d a;/d b' &&
		live_vs_gdb $b greet_$b main.Greet 't=times:s64 l=name.len:s64 s=name:string' '/d times;@c/d name.len;name' prefix &&
		live_vs_gdb $b add_$b main.go:29 't=c.Total:s64 p=it.Price:s64 n=n:s64 k=c->Count:s64 m=it.Name:string' '/d c.Total;/d it.Price;/d n;/d c.Count;it.Name' prefix
	"
done

# The probe cache -----------------------------------------------------------

# The cache is by build-id: a Go binary has none but with -ldflags=-B.
test_expect_success GO,ROOT,TRACEFS 'go build: no GNU build-id, no probe cache, one line' '
	build_workload go-args gnb &&
	test_refuses --tracefs "$PERF" probe -x gnb --cache -a "$G:gnb=main.F a" &&
	grep -q "^Error: Failed to read the build-id of .*/gnb: no build-id note\$" err
'

test_expect_success CXX,RUSTC,GO,ROOT,TRACEFS 'C++, Rust and Go definitions are served from the cache for a stripped copy' '
	build_workload cxx-args cc -g -O2 && build_workload rust-args rc -g -C opt-level=2 &&
	build_workload go-args gc "-ldflags=-B 0x$(echo t0370 | sha1sum | cut -c1-40)" &&
	strip -g -o cc.s cc && strip -g -o rc.s rc && strip -g -o gc.s gc &&
	for s in "cc $(sym cc Cart3add) it.price this->owner:string" \
		"rc $(sym rc rust_args3add) cart.total cart.owner:string" \
		"gc main.Greet name:string times"; do
		set -- $s && b=$1 && shift &&
		"$PERF" probe -x $b -D "$G:cache_$b=$*" >dwarf 2>/dev/null &&
		test_must_fail "$PERF" probe -x $b.s -D "$G:cache_$b=$*" 2>/dev/null &&
		"$PERF" probe -x $b -q --cache -a "$G:cache_$b=$*" &&
		"$PERF" probe -q -d "$G:cache_$b" &&
		"$PERF" probe -x $b.s -D "$G:cache_$b=$*" >cached 2>err && cat dwarf cached err &&
		test_line_count = 1 cached &&
		test "$(cut -d" " -f3- dwarf)" = "$(cut -d" " -f3- cached)" &&
		"$PERF" probe -x $b.s -q -a "$G:cache_$b=$*" &&
		"$PERF" probe -q -d "$G:cache_$b" || return 1
	done
'

test_done
