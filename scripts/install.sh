#!/bin/sh
# `make install` and `make uninstall`.
# Usage: install.sh install PERF MAN_PAGE... | install.sh uninstall
# Environment (from the Makefile): DESTDIR, PREFIX.
#
# install copies the binary to PREFIX/bin/perf, the man pages to
# PREFIX/share/man/man1, the bash completion to
# PREFIX/share/bash-completion/completions/perf and the docs to
# PREFIX/share/doc/perf, and lists every file it wrote and every directory
# it made in PREFIX/share/doc/perf/installed-files.  uninstall removes
# exactly those, then the directories it made when they are empty.
# Neither touches a perf that is not a copy of this one (the system's
# /usr/bin/perf with PREFIX=/usr): install refuses, uninstall leaves it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}
bindir=$prefix/bin
man1dir=$prefix/share/man/man1
compdir=$prefix/share/bash-completion/completions
docdir=$prefix/share/doc/perf
manifest=$root$docdir/installed-files
# A string only this perf's binary holds (the name of its loop guard).
mark=PERF_FALLBACK_PID

die() {
	echo "install.sh: $*" >&2
	exit 1
}

# ours FILE: FILE is a copy of this perf.
ours() {
	grep -q "$mark" "$1" 2>/dev/null
}

case "$prefix" in
/*) ;;
*) die "PREFIX must be an absolute path, not '$prefix'" ;;
esac

# mkdirs DIR: make DIR and its missing parents, noting each one made.
mkdirs() {
	[ -d "$root$1" ] && return 0
	if [ "$1" = / ]; then
		mkdir -p "$root/"
		return
	fi
	mkdirs "$(dirname "$1")" || return 1
	mkdir "$root$1" || return 1
	made_dirs="$1
$made_dirs"
}

do_install() {
	perf=$1
	shift
	[ -x "$perf" ] || die "no $perf: run make first"
	for page in "$@"; do
		[ -f "$page" ] || die "no man page $page"
	done
	dest=$root$bindir/perf
	if [ -e "$dest" ] && ! ours "$dest"; then
		die "$dest is not this perf (the system's perf?): not replaced; choose another PREFIX"
	fi
	made_dirs=
	files=
	for d in "$bindir" "$man1dir" "$compdir" "$docdir"; do
		mkdirs "$d" || die "cannot create $root$d"
	done
	# put SRC DEST MODE: copy through a temporary file and a rename.
	put() {
		if ! { cp "$1" "$root$2.tmp.$$" && chmod "$3" "$root$2.tmp.$$" &&
			mv -f "$root$2.tmp.$$" "$root$2"; }; then
			rm -f "$root$2.tmp.$$"
			die "cannot install $root$2"
		fi
		files="$files$2
"
	}
	put "$perf" "$bindir/perf" 755
	for page in "$@"; do
		put "$page" "$man1dir/$(basename "$page")" 644
	done
	put "$top/tools/perf/perf-completion.bash" "$compdir/perf" 644
	for doc in "$top/README.md" "$top/tools/perf/DESIGN.md" "$top"/Documentation/*.txt; do
		put "$doc" "$docdir/$(basename "$doc")" 644
	done
	# Directories made by an earlier install stay ours to remove.
	if [ -f "$manifest" ]; then
		old_dirs=$(sed -n 's/^dir //p' "$manifest")
		made_dirs="$made_dirs$old_dirs"
	fi
	if ! {
		printf '%s' "$files" | sed 's/^/file /'
		echo "file $docdir/installed-files"
		printf '%s\n' "$made_dirs" | sed '/^$/d' | sort -u | sed 's/^/dir /'
	} >"$manifest.tmp.$$" || ! mv -f "$manifest.tmp.$$" "$manifest"; then
		rm -f "$manifest.tmp.$$"
		die "cannot write $manifest"
	fi
	printf '%s' "$files" | sed "s|^|installed $root|"
}

do_uninstall() {
	[ -f "$manifest" ] || die "nothing to uninstall: no $manifest"
	sed -n 's/^file //p' "$manifest" | while IFS= read -r f; do
		if [ "$f" = "$bindir/perf" ] && [ -e "$root$f" ] && ! ours "$root$f"; then
			echo "install.sh: $root$f is not this perf: left in place" >&2
			continue
		fi
		[ "$f" = "$docdir/installed-files" ] && continue
		rm -f "$root$f" && echo "removed $root$f"
	done
	dirs=$(sed -n 's/^dir //p' "$manifest")
	rm -f "$manifest"
	# Deepest first: a directory before its parent.
	printf '%s\n' "$dirs" | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- |
		while IFS= read -r d; do
			[ -n "$d" ] && rmdir "$root$d" 2>/dev/null
		done
	return 0
}

case "${1:-}" in
install)
	shift
	do_install "$@"
	;;
uninstall) do_uninstall ;;
*) die "usage: install.sh install PERF MAN_PAGE... | install.sh uninstall" ;;
esac
