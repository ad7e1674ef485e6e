#!/bin/sh
# Install the Debian packages the build and the tests need, when missing.
# As root this runs apt-get; otherwise it prints what to install and fails.
set -u

pkgs="build-essential pkg-config libelf-dev libdw-dev libdebuginfod-dev
libtraceevent-dev zlib1g-dev systemtap-sdt-dev elfutils binutils
clang-format linux-perf"

# Extra packages for tests: a real debuginfod server, a real DWARF+SDT binary,
# 32-bit compiler support.
case "${1:-}" in
--test) pkgs="$pkgs debuginfod python3.11-dbg gcc-multilib libc6-dbg shellcheck" ;;
# The benchmark corpus: a 590 MB vmlinux with DWARF, python3.11d.
--bench) pkgs="$pkgs python3.11-dbg bc time linux-image-6.1.0-57-cloud-amd64-dbg" ;;
esac

# Extra packages for `make fuzz`: clang and its libFuzzer runtime.
if [ "${1:-}" = "--fuzz" ]; then
	pkgs="$pkgs clang-14 libclang-rt-14-dev"
fi

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
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
apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
