#!/bin/sh
test_description='the fallback to the system perf never runs a perf of the current directory, of a relative PATH entry, or one another user could have written'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_have_prereq ROOT,SETPRIV || test_skip_all 'needs root and setpriv (the planted files are uid 65534'"'"'s)'
test_trusted_dir
test_have_prereq TRUSTED_DIR || test_skip_all 'no directory whose every ancestor is trusted'

# Root runs `perf record x` through this perf, in W, the attacker's
# (uid 65534) directory; every stand-in perf but the planted ones is
# root's, under T, a directory nobody else can write.
T=$TRUSTED
W=$TEST_TMP/w
chmod 711 "$TEST_TMP"
mkdir -p "$W" "$T/ours" "$T/sys" "$T/evil" &&
	chown 65534:65534 "$W" "$T/evil" &&
	ln -s "$PERF" "$T/ours/perf" &&
	printf '#!/bin/sh\necho "the system perf $*"\n' >"$T/sys/perf" &&
	chmod 755 "$T/sys/perf"

as_nobody() {
	setpriv --reuid 65534 --regid 65534 --clear-groups "$@"
}

# plant FILE: uid 65534 writes a perf that notes the uid it ran as in W/ran.
plant() {
	as_nobody sh -c 'printf "#!/bin/sh\nid -u >%s/ran\necho planted\n" "$2" >"$1" && chmod 755 "$1"' \
		sh "$1" "$W"
}

# unsafe FILE: the same perf, written by root where others could change it.
unsafe() {
	printf "#!/bin/sh\nid -u >%s/ran\necho planted\n" "$W" >"$1" && chmod 755 "$1"
}

# run ENTRY: `perf record x` in W with ENTRY between this perf and T/sys on PATH.
run() {
	rm -f "$W/ran"
	(cd "$W" && PATH="$T/ours:$1:$T/sys:/usr/bin:/bin" perf record x) >out 2>err
}

# ran_the_system_perf: T/sys/perf ran, nothing planted did.
ran_the_system_perf() {
	cat out err &&
	test "$(cat out)" = "the system perf record x" &&
	! test -e "$W/ran"
}

test_expect_success 'an empty PATH entry: the perf another user put in the current directory is not run' '
	plant "$W/perf" &&
	run "" && ran_the_system_perf && ! test -s err
'

test_expect_success '"." on PATH: the same' '
	run . && ran_the_system_perf && ! test -s err
'

test_expect_success 'a relative PATH entry: the same' '
	as_nobody mkdir "$W/bin" && plant "$W/bin/perf" &&
	run bin && ran_the_system_perf && ! test -s err
'

# refused ENTRY WHY: run with ENTRY on PATH: T/sys ran, and one warning
# says why ENTRY/perf was not.
refused() {
	run "$1" && ran_the_system_perf &&
	test_line_count "=" 1 err &&
	grep -qxF "Warning: not running $1/perf as the system perf: $2" err
}

test_expect_success 'a directory another user owns' '
	plant "$T/evil/perf" &&
	refused "$T/evil" "refusing $T/evil: owned by uid 65534 (nobody), not by you or root; chown or remove it"
'

test_expect_success 'a directory its group may write' '
	mkdir -p "$T/gw" && unsafe "$T/gw/perf" && chmod 775 "$T/gw" &&
	refused "$T/gw" "refusing $T/gw: writable by its group; chmod go-w it or remove it"
'

test_expect_success 'a file another user owns, in a directory of root'"'"'s' '
	mkdir -p "$T/f" && unsafe "$T/f/perf" && chown 65534 "$T/f/perf" &&
	refused "$T/f" "refusing $T/f/perf: owned by uid 65534 (nobody), not by you or root; chown or remove it"
'

test_expect_success 'a link, in a directory of root'"'"'s, to a file another user could change' '
	mkdir -p "$T/l" && ln -s "$T/evil/perf" "$T/l/perf" &&
	refused "$T/l" "refusing $T/evil: owned by uid 65534 (nobody), not by you or root; chown or remove it"
'

test_expect_success 'a script of root'"'"'s whose interpreter another user could change' '
	as_nobody cp /bin/sh "$T/evil/sh" &&
	mkdir -p "$T/i" && printf "#!%s\necho interpreted\n" "$T/evil/sh" >"$T/i/perf" &&
	chmod 755 "$T/i/perf" &&
	refused "$T/i" "refusing $T/evil: owned by uid 65534 (nobody), not by you or root; chown or remove it"
'

test_expect_success 'a script with a relative interpreter' '
	mkdir -p "$T/r" && printf "#!sh\necho interpreted\n" >"$T/r/perf" && chmod 755 "$T/r/perf" &&
	refused "$T/r" "refusing sh: not an absolute path"
'

# Debian's /usr/bin/perf is a script that runs perf_X.Y by name.
test_expect_success 'a wrapper that runs perf_X.Y by name finds a trusted one, not the planted one' '
	rm -f "$W/perf" &&
	mkdir -p "$T/deb" "$T/ver" &&
	printf "#!/bin/sh\nexec perf_9.9 \"\$@\"\n" >"$T/deb/perf" &&
	printf "#!/bin/sh\necho \"the versioned perf \$*\"\n" >"$T/ver/perf_9.9" &&
	chmod 755 "$T/deb/perf" "$T/ver/perf_9.9" &&
	plant "$W/perf_9.9" &&
	rm -f "$W/ran" &&
	(cd "$W" && PATH="$T/ours:.:$T/deb:$T/ver:/usr/bin:/bin" perf record x) >out 2>err &&
	cat out err &&
	test "$(cat out)" = "the versioned perf record x" &&
	! test -e "$W/ran" && ! test -s err
'

test_expect_success 'perf version names the one it runs, and says once why not the other' '
	plant "$T/evil/perf" &&
	(cd "$W" && PATH="$T/ours:$T/evil:$T/sys:/usr/bin:/bin" perf version) >out 2>err &&
	cat out err &&
	sed -n 2p out | grep -q "^system perf: $T/sys/perf (" &&
	test_line_count = 1 err &&
	grep -q "^Warning: not running $T/evil/perf as the system perf: refusing $T/evil: owned by uid 65534" err
'

test_done
