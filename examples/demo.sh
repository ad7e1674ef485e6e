#!/bin/sh
# `make demo`: the main job on the bundled example.  Analyse once where
# debuginfo exists, place the same probe where it does not, from the probe
# cache alone, and watch it fire.  Everything happens in a private build-id
# cache and a private event group, removed at the end.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
perf="$top/tools/perf/perf"
work=$(mktemp -d "${TMPDIR:-/tmp}/pdemo.XXXXXX")
export PERF_BUILDID_DIR="$work/debug"
group=demo_app
spec="$group:request=handle_request len=req->len peer=req->conn->peer:string seq"
live=
if [ "$(id -u)" = 0 ] && { [ -w /sys/kernel/tracing/uprobe_events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	live=1
fi

cleanup() {
	[ -n "$live" ] && "$perf" probe -q -d "$group:*" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() {
	printf '\n$ %s\n' "$*"
	"$@" 2>&1
}

# make install into a private DESTDIR: what goes where, the man page.
show_install() {
	echo
	echo "== Installed like a real tool: make install (PREFIX=/usr/local) into a DESTDIR"
	if ! command -v asciidoctor >/dev/null; then
		echo "(no asciidoctor for the man pages: apt-get install asciidoctor)"
		return 0
	fi
	printf '\n$ make install DESTDIR=%s\n' "$work/root"
	env -u MAKEFLAGS -u MAKELEVEL make -s -C "$top" install DESTDIR="$work/root" || return 1
	printf '\n$ MANPATH=%s: man perf-probe | head -n 4\n' "$work/root/usr/local/share/man"
	MANPATH="$work/root/usr/local/share/man:" MANPAGER=cat MANWIDTH=80 man perf-probe 2>/dev/null |
		head -n 4
	printf '\n$ make uninstall DESTDIR=%s\n' "$work/root"
	env -u MAKEFLAGS -u MAKELEVEL make -s -C "$top" uninstall DESTDIR="$work/root" | tail -n 1
	echo "(and everything else installed, then DESTDIR is empty again: $(find "$work/root" -type f | wc -l) files)"
}

echo "== 1. The build host: the example built with debuginfo"
step gcc -g -O1 -o "$work/app" "$top/examples/app.c" || exit 1
step "$perf" buildid-list -i "$work/app"

echo
echo "== 2. Resolve the probe once, with DWARF, and keep it in the probe cache (-n: no tracefs)"
step "$perf" probe -x "$work/app" -D "$spec" || exit 1
step "$perf" probe --cache -n -x "$work/app" -a "$spec" || exit 1
step "$perf" probe --cache --list
printf '\n$ cat %s\n' "$PERF_BUILDID_DIR/.../probes"
cat "$PERF_BUILDID_DIR$work/app"/*/probes

echo
echo "== 3. A production host: the same build, stripped of its debuginfo"
step strip -g "$work/app"
step "$perf" buildid-list -i "$work/app"
step "$perf" probe -x "$work/app" -V handle_request ||
	echo "(no debuginfo here, as expected)"

echo
echo "== 4. The probe comes from the cache alone"
if [ -z "$live" ]; then
	echo "(not root or no tracefs: showing the definition only)"
	step "$perf" probe -x "$work/app" -D "$spec"
	show_install
	exit 0
fi
step "$perf" probe -x "$work/app" -a "$spec" || exit 1

echo
echo "== 5. Run the example and watch the probe fire"
if "$perf" trace -h >/dev/null 2>&1; then
	step "$perf" trace -e "$group:request" -- "$work/app" 3
else
	echo 1 >"/sys/kernel/tracing/events/$group/enable"
	step "$work/app" 3
	echo 0 >"/sys/kernel/tracing/events/$group/enable"
	grep "request:" /sys/kernel/tracing/trace | tail -n 3
fi

echo
echo "== 6. The system perf behind ours records and prints the same event"
step "$perf" version
printf '\n$ %s\n' "$perf record -q -e $group:request -o $work/perf.data -- $work/app 3"
if "$perf" record -q -e "$group:request" -o "$work/perf.data" -- "$work/app" 3 >/dev/null 2>&1; then
	step "$perf" script -i "$work/perf.data"
else
	echo "(no system perf to run perf record here)"
fi

echo
echo "== 7. Clean up"
step "$perf" probe -d "$group:*"
show_install
