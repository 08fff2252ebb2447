#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: mkesp.sh OUT.img CONFIG [FILE=PATH ...]   (env: ARCH=x86_64|aarch64, HV_EFI)
# Makes a FAT boot volume: the removable-media boot path EFI/BOOT/BOOTX64.EFI (x86_64) or
# EFI/BOOT/BOOTAA64.EFI (aarch64) holding build/ARCH/hv.efi (or HV_EFI), /hv.cfg (CONFIG),
# and each FILE at PATH inside the volume (default: the guest kernel and initrd under
# /guests: vmlinuz + initrd.gz on x86_64, Image + initrd.gz on aarch64).
# When OUT is a folder, the same tree is copied into it instead: a TFTP server's root for
# a network boot (scripts/qemu.sh boots a folder so).
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/scripts/arch-defaults.sh"
ARCH=${ARCH:-x86_64}
OUT=$1 CFG=$2
shift 2
arch_defaults "$ARCH"
G=$TOP/build/guests/$ARCH
[ $# -gt 0 ] || set -- "$G/$KERNEL=/guests/$KERNEL" "$G/initrd.gz=/guests/initrd.gz"
set -- "${HV_EFI:-$TOP/build/$ARCH/hv.efi}=/EFI/BOOT/$BOOT" "$CFG=/hv.cfg" "$@"
if [ -d "$OUT" ]; then
	for f in "$@"; do
		mkdir -p "$OUT$(dirname "${f#*=}")"
		cp "${f%%=*}" "$OUT${f#*=}"
	done
	exit 0
fi
exec "$TOP/scripts/mkfat.sh" "$OUT" "$@"
