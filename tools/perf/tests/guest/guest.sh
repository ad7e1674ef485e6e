#!/bin/sh
# The kernel-probe guest: Debian's own kernel booted in qemu, running a
# script as root over the host's / (see README in this directory).
#
#	guest.sh check          why a guest cannot run here (one line, exit 1),
#	                        or nothing (exit 0)
#	guest.sh prepare        fetch and unpack the guest kernel into the cache
#	                        (once), build the initramfs; prints the cache
#	guest.sh source FILE... the kernel's source files (for -L), taken
#	                        once out of linux-source-6.1 into the cache;
#	                        prints the directory they are under
#	guest.sh run DIR        boot, run `sh DIR/script` as root in DIR (DIR
#	                        is shared writable at its own path), print its
#	                        output, exit with its status
#
# The kernel is linux-image-$GUEST_KVER, fetched with apt-get download and
# unpacked with dpkg -x into the cache (never installed); its DWARF is the
# vmlinux of linux-image-$GUEST_KVER-dbg (scripts/install-deps.sh --test),
# checked to have the same build-id.  The cache: PERF_TEST_GUEST_CACHE,
# default /var/cache/perf-probe-tests when root, else ~/.cache/perf-probe-tests.
# PERF_TEST_GUEST_ACCEL=kvm|tcg overrides the choice of accelerator
# (KVM only on kvm_intel or kvm_amd: a PVM host's kvm_pvm boots no stock
# kernel).  PERF_TEST_GUEST_TIMEOUT: seconds before a guest is killed
# (default 900).
set -u

GUEST_KVER=${GUEST_KVER:-6.1.0-57-amd64}
GUEST_VMLINUX=${GUEST_VMLINUX:-/usr/lib/debug/boot/vmlinux-$GUEST_KVER}
GUEST_SOURCE=${GUEST_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
GUEST_DIR=$(cd "$(dirname "$0")" && pwd)
QEMU=${QEMU:-qemu-system-x86_64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
if [ -z "${PERF_TEST_GUEST_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		PERF_TEST_GUEST_CACHE=/var/cache/perf-probe-tests
	else
		PERF_TEST_GUEST_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/perf-probe-tests
	fi
fi
CACHE=$PERF_TEST_GUEST_CACHE/$GUEST_KVER
# The modules the initramfs loads to reach the host's /.
INIT_MODULES="virtio_pci 9pnet_virtio 9p overlay"

die() {
	echo "guest.sh: $*" >&2
	exit 1
}

build_id() {
	readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: *//p' | head -n 1
}

# check: the one line saying what is missing, else nothing.
check() {
	command -v "$QEMU" >/dev/null 2>&1 ||
		{ echo "no $QEMU (apt-get install qemu-system-x86)"; return 1; }
	"$BUSYBOX" --list 2>/dev/null | grep -qx cpio ||
		{ echo "no static busybox with cpio (apt-get install busybox-static)"; return 1; }
	[ -r "$GUEST_VMLINUX" ] ||
		{ echo "no $GUEST_VMLINUX (apt-get install linux-image-$GUEST_KVER-dbg)"; return 1; }
	return 0
}

# The cache is root's or ours and nobody else may write it: the guest runs
# what is in it as root.
trusted_dir() {
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	_o=$(stat -c %u "$1") _m=$(stat -c %a "$1")
	[ "$_o" = 0 ] || [ "$_o" = "$(id -u)" ] || return 1
	case $_m in *[2367]? | *[2367]) return 1 ;; esac
	return 0
}

# modules_order ROOT MODULE...: the .ko paths (relative to ROOT/lib/modules/
# VER) in the order insmod takes them, dependencies first.
modules_order() {
	_dep=$1/lib/modules/$GUEST_KVER/modules.dep
	shift
	_seen=" "
	for _m in "$@"; do
		_ko=$(grep -m1 "/$_m\.ko:" "$_dep" | cut -d: -f1)
		[ -n "$_ko" ] || die "no module $_m in $_dep"
		_load "$_ko"
	done
}

_load() {
	case $_seen in *" $1 "*) return 0 ;; esac
	# shellcheck disable=SC2013 # the words of one line
	for _d in $(grep -m1 "^$1:" "$_dep" | cut -d: -f2); do
		_load "$_d"
	done
	case $_seen in *" $1 "*) return 0 ;; esac
	_seen="$_seen$1 "
	echo "$1"
}

# prepare: the kernel unpacked in CACHE/root, its uncompressed vmlinux in
# CACHE/vmlinux (the same build-id as GUEST_VMLINUX), CACHE/initramfs.
# Made once, in a temporary directory renamed into place, under a lock.
prepare() {
	check >/dev/null || die "$(check)"
	if ! mkdir -p "$PERF_TEST_GUEST_CACHE"; then
		die "cannot make $PERF_TEST_GUEST_CACHE"
	fi
	trusted_dir "$PERF_TEST_GUEST_CACHE" ||
		die "$PERF_TEST_GUEST_CACHE may be written by others: refused"
	exec 3>>"$PERF_TEST_GUEST_CACHE/.lock"
	flock 3
	if [ -f "$CACHE/ready" ] && [ "$(cat "$CACHE/ready")" = "$(initramfs_key)" ]; then
		echo "$CACHE"
		return 0
	fi
	_t=$(mktemp -d "$PERF_TEST_GUEST_CACHE/.new.XXXXXX") || exit 1
	trap 'rm -rf "$_t"' EXIT
	if [ -d "$CACHE/root/boot" ] && [ -f "$CACHE/vmlinux" ]; then
		# Only the initramfs is out of date: the rest moves over.
		rm -f "$CACHE/ready"
		for _d in root vmlinux src; do
			[ ! -e "$CACHE/$_d" ] || mv "$CACHE/$_d" "$_t/" || exit 1
		done
	else
		(cd "$_t" && apt-get download -q "linux-image-$GUEST_KVER" >download.log 2>&1) ||
			{ cat "$_t/download.log" >&2; die "apt-get download linux-image-$GUEST_KVER failed"; }
		dpkg -x "$_t"/linux-image-"$GUEST_KVER"_*.deb "$_t/root" || die "dpkg -x failed"
		rm -f "$_t"/*.deb "$_t/download.log"
		"$BUSYBOX" depmod -b "$_t/root" "$GUEST_KVER" || die "depmod failed"
		extract_vmlinux "$_t/root/boot/vmlinuz-$GUEST_KVER" "$_t/vmlinux"
	fi
	_want=$(build_id "$GUEST_VMLINUX")
	_have=$(build_id "$_t/vmlinux")
	[ -n "$_have" ] && [ "$_have" = "$_want" ] && _same=1 || _same=
	[ -n "$_same" ] ||
		die "the build-id of vmlinuz-$GUEST_KVER ($_have) is not $GUEST_VMLINUX's ($_want)"
	make_initramfs "$_t/root" "$_t/initramfs" || die "cannot make the initramfs"
	initramfs_key >"$_t/ready"
	rm -rf "$CACHE.old"
	[ ! -e "$CACHE" ] || mv "$CACHE" "$CACHE.old" || exit 1
	mv "$_t" "$CACHE" || exit 1
	rm -rf "$CACHE.old"
	trap - EXIT
	echo "$CACHE"
}

# source FILE...: CACHE/src/linux-source-VER/FILE from GUEST_SOURCE (the
# tarball of linux-source-6.1), each taken out once.
source_files() {
	_src=$(prepare) || exit 1
	_src=$_src/src
	_top=$(basename "$GUEST_SOURCE" .tar.xz)
	_missing=
	for _f in "$@"; do
		[ -f "$_src/$_top/$_f" ] || _missing="$_missing $_top/$_f"
	done
	if [ -n "$_missing" ]; then
		[ -r "$GUEST_SOURCE" ] || die "no $GUEST_SOURCE (apt-get install linux-source-6.1)"
		exec 3>>"$PERF_TEST_GUEST_CACHE/.lock"
		flock 3
		mkdir -p "$_src" || exit 1
		# shellcheck disable=SC2086 # paths without blanks
		tar -C "$_src" -xJf "$GUEST_SOURCE" $_missing || die "cannot unpack$_missing"
	fi
	echo "$_src/$_top"
}

# A new init or module list makes a new initramfs.
initramfs_key() {
	{ cat "$GUEST_DIR/init"; echo "$INIT_MODULES $GUEST_KVER"; } | cksum | tr ' ' -
}

# extract_vmlinux VMLINUZ OUT: the ELF inside a bzImage, uncompressed (a PVH
# boot of it saves the guest the decompression under emulation).  Debian
# compresses it with xz: the first xz stream that unpacks to an ELF.
extract_vmlinux() {
	# shellcheck disable=SC2013 # numbers
	for _off in $(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | cut -d: -f1); do
		tail -c +$((_off + 1)) "$1" | xz -dc >"$2" 2>/dev/null
		[ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = 177ELF ] && return 0
	done
	die "no xz-compressed ELF in $1"
}

# make_initramfs ROOT OUT: busybox as /bin/busybox, our init, the modules
# INIT_MODULES need and the order to insmod them.
make_initramfs() {
	_i=$2.d
	mkdir -p "$_i/bin" "$_i/modules" || return 1
	cp "$BUSYBOX" "$_i/bin/busybox" && cp "$GUEST_DIR/init" "$_i/init" &&
		chmod 755 "$_i/init" || return 1
	# shellcheck disable=SC2086 # a list of names
	modules_order "$1" $INIT_MODULES >"$_i/order.tmp" || return 1
	while read -r _ko; do
		cp "$1/lib/modules/$GUEST_KVER/$_ko" "$_i/modules/" || return 1
		basename "$_ko"
	done <"$_i/order.tmp" >"$_i/modules/order"
	rm -f "$_i/order.tmp"
	(cd "$_i" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null | gzip -1) >"$2" ||
		return 1
	rm -rf "$_i"
}

# accel: kvm where the host's KVM boots a stock kernel, else tcg.
accel() {
	if [ -n "${PERF_TEST_GUEST_ACCEL:-}" ]; then
		echo "$PERF_TEST_GUEST_ACCEL"
	elif [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
		{ [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
		echo kvm
	else
		echo tcg
	fi
}

# run DIR: boot the guest on DIR/script; its output on stdout, its status.
run() {
	_run=$(cd "$1" && pwd) || die "no directory $1"
	[ -f "$_run/script" ] || die "no $_run/script"
	_cache=$(prepare) || exit 1
	rm -f "$_run/status" "$_run/log" "$_run/console"
	case $(accel) in
	# qemu 7.2 aborts with -cpu host or max under some KVMs ("failed to set
	# MSR 0x10a"): the default CPU model there.
	kvm) _accel="-accel kvm" ;;
	*) _accel="-accel tcg -cpu max" ;;
	esac
	# shellcheck disable=SC2086 # $_accel is a list of words
	timeout -k 10 "${PERF_TEST_GUEST_TIMEOUT:-900}" "$QEMU" $_accel -M q35 -m 2048 -smp 1 \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$_run/console" \
		-kernel "$_cache/vmlinux" -initrd "$_cache/initramfs" \
		-append "console=ttyS0 quiet panic=-1 guest_run=$_run guest_modules=$_cache/root/lib/modules/$GUEST_KVER" \
		-fsdev local,id=host,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=host,mount_tag=host \
		-fsdev local,id=run,path="$_run",security_model=none \
		-device virtio-9p-pci,fsdev=run,mount_tag=run \
		</dev/null >"$_run/qemu.log" 2>&1
	_rc=$?
	[ -f "$_run/log" ] && cat "$_run/log"
	if [ ! -f "$_run/status" ]; then
		echo "guest.sh: the guest did not finish (qemu exited with $_rc); its console:" >&2
		tail -n 30 "$_run/console" "$_run/qemu.log" >&2
		return 125
	fi
	return "$(cat "$_run/status")"
}

case ${1:-} in
check) check ;;
prepare) prepare ;;
source) shift; source_files "$@" ;;
run) [ $# -eq 2 ] || die "usage: guest.sh run DIR"; run "$2" ;;
*) die "usage: guest.sh check|prepare|source FILE...|run DIR" ;;
esac
