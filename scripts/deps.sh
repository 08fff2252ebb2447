#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs the build and test dependencies of both architectures from Debian's packages
# (when run as root), or prints the exact commands to run. Quiet when everything is present.
#   x86_64:  gcc, gnu-efi, nasm, qemu-system-x86, ovmf, ipxe-qemu (the virtio-net NIC's
#            option ROM, efi-virtio.rom, that network-boots hv.efi in tests/emu/pxe_boot.sh),
#            bochs (an Intel CPU with VMX, tests/emu/bochs_intel.sh; bochs-term as its
#            smallest display), ...
#   aarch64: the aarch64-linux-gnu cross toolchain, qemu-system-arm, qemu-efi-aarch64 (AAVMF),
#            and GNU-EFI for arm64 (Debian's gnu-efi:arm64, multiarch) unpacked, not
#            installed, into build/gnu-efi-arm64 (the Makefile's GNUEFI for ARCH=aarch64).
#   both:    libfdt's source (scripts/libfdt.sh: a pinned Debian source package, fetched
#            with a deb-src entry of the project's own and checksum-verified) in build/src/.
#            QEMU 10 from bookworm-backports (scripts/qemu10.sh, unpacked into build/qemu10,
#            not installed: the x2APIC host test runs under it, QEMU=10 selects it).
# As a normal user, only what the ARCH in use (env, default x86_64) needs is an error;
# what the other architecture lacks is reported as a note.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${ARCH:-x86_64}
PKGS_X86="gcc libc6-dev make binutils nasm gnu-efi qemu-system-x86 ovmf ipxe-qemu bochs bochs-term bochsbios mtools dosfstools fdisk cpio busybox-static python3 python3-prometheus-client chromium xz-utils clang-format clang libclang-rt-dev llvm"
PKGS_ARM64="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm qemu-efi-aarch64"
GNUEFI_ARM64=$TOP/build/gnu-efi-arm64

missing_pkgs() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf ' %s' "$p"
	done
}
gnuefi_arm64_ok() {
	[ -f "$GNUEFI_ARM64/usr/include/efi/efi.h" ] && [ -f "$GNUEFI_ARM64/usr/lib/crt0-efi-aarch64.o" ] &&
		[ -f "$GNUEFI_ARM64/usr/lib/libgnuefi.a" ] && [ -f "$GNUEFI_ARM64/usr/lib/elf_aarch64_efi.lds" ]
}
arm64_enabled() { dpkg --print-foreign-architectures | grep -qx arm64; }
# True when apt knows a candidate for an arm64 package (the arm64 lists are there).
arm64_lists() { apt-cache policy gnu-efi:arm64 2>/dev/null | grep -q 'Candidate: [0-9]'; }
# Third-party source the build compiles; quiet and instant once there. As a normal user
# without the deb-src entry it prints the commands for root and fails.
sources() { "$TOP/scripts/libfdt.sh" && "$TOP/scripts/qemu10.sh"; }

# shellcheck disable=SC2086 # lists of package names
missing=$(missing_pkgs $PKGS_X86 $PKGS_ARM64)
gnuefi_ok=1
gnuefi_arm64_ok || gnuefi_ok=0
[ -z "$missing" ] && [ $gnuefi_ok = 1 ] && { sources; exit 0; }

if [ "$(id -u)" = 0 ]; then
	updated=0
	if [ $gnuefi_ok = 0 ] && ! arm64_enabled; then
		echo "deps: dpkg --add-architecture arm64"
		dpkg --add-architecture arm64
	fi
	if [ -n "$missing" ]; then
		echo "deps: installing$missing"
		apt-get update -qq
		updated=1
		# shellcheck disable=SC2086 # a list of package names
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
	fi
	if [ $gnuefi_ok = 0 ]; then
		[ $updated = 1 ] || arm64_lists || apt-get update -qq
		echo "deps: unpacking gnu-efi:arm64 into build/gnu-efi-arm64"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		chown _apt "$tmp" 2>/dev/null || true # lets apt fetch without its "unsandboxed" note
		(cd "$tmp" && apt-get download -q gnu-efi:arm64 >/dev/null)
		rm -rf "$GNUEFI_ARM64"
		mkdir -p "$GNUEFI_ARM64"
		dpkg-deb -x "$tmp"/gnu-efi_*_arm64.deb "$GNUEFI_ARM64"
		rm -rf "$tmp"
		gnuefi_arm64_ok || { echo "deps: gnu-efi:arm64 lacks an expected file under $GNUEFI_ARM64/usr" >&2; exit 1; }
	fi
	sources
	exit 0
fi

# Not root: say what to run. gnu-efi:arm64 needs no root once apt has the arm64 lists.
if [ $gnuefi_ok = 0 ] && arm64_enabled && arm64_lists; then
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -q gnu-efi:arm64 >/dev/null 2>&1); then
		rm -rf "$GNUEFI_ARM64"
		mkdir -p "$GNUEFI_ARM64"
		dpkg-deb -x "$tmp"/gnu-efi_*_arm64.deb "$GNUEFI_ARM64"
		echo "deps: unpacked gnu-efi:arm64 into build/gnu-efi-arm64"
	fi
	rm -rf "$tmp"
	gnuefi_arm64_ok && gnuefi_ok=1
fi
[ -z "$missing" ] && [ $gnuefi_ok = 1 ] && { sources; exit 0; }
{
	echo "deps: missing packages; run as root (or run scripts/deps.sh as root):"
	if [ $gnuefi_ok = 0 ] && ! arm64_enabled; then
		echo "  dpkg --add-architecture arm64"
	fi
	[ -z "$missing" ] || echo "  apt-get update && apt-get install -y --no-install-recommends$missing"
	[ $gnuefi_ok = 1 ] || echo "  (then scripts/deps.sh unpacks gnu-efi:arm64 into build/gnu-efi-arm64)"
} >&2
# What the ARCH in use needs decides whether this is an error.
# shellcheck disable=SC2086 # lists of package names
if [ "$ARCH" = aarch64 ]; then
	[ $gnuefi_ok = 1 ] && [ -z "$(missing_pkgs $PKGS_ARM64 make mtools dosfstools cpio)" ] && ok=1
else
	[ -z "$(missing_pkgs $PKGS_X86)" ] && ok=1
fi
[ "${ok:-0}" = 1 ] || exit 1
sources
echo "deps: (ARCH=$ARCH has what it needs; going on)" >&2
