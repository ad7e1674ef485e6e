#!/bin/sh
# `make demo`: the main job on the bundled example, step by step.
# Everything happens in a private build-id cache that is removed at the end.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
perf="$top/tools/perf/perf"
work=$(mktemp -d "${TMPDIR:-/tmp}/pdemo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PERF_BUILDID_DIR="$work/debug"

step() {
	printf '\n$ %s\n' "$*"
	"$@"
}

echo "== Build the example with debuginfo"
step gcc -g -O1 -o "$work/app" "$top/examples/app.c"
step "$perf" buildid-list -i "$work/app"

echo
echo "== Put it in the build-id cache (here: $PERF_BUILDID_DIR)"
step "$perf" buildid-cache -v --add "$work/app"
step "$perf" buildid-cache --list
(cd "$PERF_BUILDID_DIR" && find . | sort | sed 's/^/    /')

echo
echo "== A stripped copy has the same build-id: the cache entry serves it too"
step strip -g -o "$work/app.stripped" "$work/app"
step "$perf" buildid-list -i "$work/app.stripped"

echo
echo "== Remove the entry again"
step "$perf" buildid-cache -v --remove "$work/app"
step "$perf" buildid-cache --list
echo "(empty)"
