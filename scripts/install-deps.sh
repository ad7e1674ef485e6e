#!/bin/sh
# Install the Debian packages a make target needs, when missing.
# Usage: install-deps.sh [--demo] [--test] [--check] [--bench] [--fuzz] [--install]
# With no option: the build packages (what `make` needs, and clang-format
# for `make format`); each option adds the packages of its target.
# As root this runs apt-get; otherwise it prints what to install and fails.
set -u

pkgs="build-essential pkg-config libelf-dev libdw-dev libdebuginfod-dev
libtraceevent-dev zlib1g-dev liblzma-dev libzstd-dev libiberty-dev libcapstone-dev libbpf-dev libisal-dev
clang-format"

for opt in "$@"; do
	case "$opt" in
	# `make demo`: gcc and strip, of the build packages; asciidoctor and
	# man-db for its make install.
	--demo) pkgs="$pkgs asciidoctor man-db" ;;
	# The tests: SDT headers, the system perf to compare with, a real
	# debuginfod server, a real DWARF+SDT binary, 32-bit compiler support;
	# C++, Rust and Go compilers for their programs, gdb as the oracle;
	# for other architectures gcc-aarch64-linux-gnu and clang
	# --target=aarch64-linux-gnu over the arm64 sysroot and binutils, and
	# gdb-multiarch.  gcc -m32 comes from gcc-12-multilib: the gcc-multilib
	# package (only an /usr/include/asm link more) conflicts with every
	# cross gcc; 32-bit programs that need <asm/...> add
	# -idirafter /usr/include/x86_64-linux-gnu.  python3 runs the slow
	# debuginfod stand-in, script(1) (bsdutils) gives a test a terminal.
	# The kernel probes run live in a guest (tools/perf/tests/guest/):
	# qemu, busybox for its initramfs, the DWARF of the guest's kernel
	# (linux-image-6.1.0-57-amd64-dbg: 860 MB to download, 5.6 GB
	# unpacked; the guest kernel itself is fetched by the rig with
	# apt-get download, never installed) and its source for -L; xz-utils
	# and elfutils' eu-strip make the stripped forms of t0681; zstd the
	# zstd-compressed DWARF of t0336 (binutils 2.40 here makes none).
	--test) pkgs="$pkgs systemtap-sdt-dev elfutils binutils linux-perf debuginfod zstd
python3.11-dbg gcc-12-multilib libc6-dbg g++ clang rustc golang-go gdb
asciidoctor man-db bash-completion binutils-aarch64-linux-gnu gcc-aarch64-linux-gnu
libc6-dev-arm64-cross libgcc-12-dev-arm64-cross gdb-multiarch python3 bsdutils
qemu-system-x86 busybox-static xz-utils linux-image-6.1.0-57-amd64-dbg linux-source-6.1" ;;
	# `make install` and `make man`: the man pages are made by asciidoctor.
	--install) pkgs="$pkgs asciidoctor" ;;
	# `make check-format` and `make shellcheck`.
	--check) pkgs="$pkgs shellcheck" ;;
	# The benchmark corpus: a 590 MB vmlinux with DWARF, python3.11d, the
	# debug libstdc++ (a large C++ -F and -V, tools/perf/tests/compat.sh),
	# openjdk-17's libjvm.so with its compressed DWARF (156 MB) and, where
	# the disk has 2 GB to spare, ceph-osd with its (230 MB; 512 MB to
	# download with ceph-osd's dependencies).
	--bench)
		pkgs="$pkgs linux-perf python3.11-dbg bc time debuginfod
linux-image-6.1.0-57-cloud-amd64-dbg libstdc++6-12-dbg openjdk-17-dbg"
		[ "$(df -Pk / | awk 'NR == 2 { print $4 }')" -gt 2000000 ] && pkgs="$pkgs ceph-osd ceph-osd-dbg"
		;;
	# `make fuzz`: clang and its libFuzzer runtime.
	--fuzz) pkgs="$pkgs clang-14 libclang-rt-14-dev" ;;
	*)
		echo "install-deps.sh: unknown option '$opt'" >&2
		exit 2
		;;
	esac
done

# One dpkg-query for all of them: it lists those installed.
# shellcheck disable=SC2086
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $pkgs 2>/dev/null |
	sed -n 's/ install ok installed$//p' | tr '\n' ' ') "
missing=""
for p in $pkgs; do
	case "$installed$missing " in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing" >&2
	echo "install them with: sudo apt-get install$missing" >&2
	exit 1
fi

echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || exit 1
# shellcheck disable=SC2086
apt-get install -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends $missing >/dev/null || exit 1
