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
ARCH=${ARCH:-x86_64}
OUT=$1 CFG=$2
shift 2
G=$TOP/build/guests/$ARCH
case "$ARCH" in
x86_64) BOOT=BOOTX64.EFI KERNEL=vmlinuz ;;
aarch64) BOOT=BOOTAA64.EFI KERNEL=Image ;;
*) echo "mkesp: ARCH=$ARCH not supported (x86_64 or aarch64)" >&2; exit 1 ;;
esac
HV_EFI=${HV_EFI:-$TOP/build/$ARCH/hv.efi}
[ $# -gt 0 ] || set -- "$G/$KERNEL=/guests/$KERNEL" "$G/initrd.gz=/guests/initrd.gz"
if [ -d "$OUT" ]; then
	mkdir -p "$OUT/EFI/BOOT" "$OUT/guests"
	cp "$HV_EFI" "$OUT/EFI/BOOT/$BOOT"
	cp "$CFG" "$OUT/hv.cfg"
	for f in "$@"; do
		mkdir -p "$OUT$(dirname "${f#*=}")"
		cp "${f%%=*}" "$OUT${f#*=}"
	done
	exit 0
fi
size_kb=16384
for f in "$@"; do size_kb=$((size_kb + $(du -k "${f%%=*}" | cut -f1))); done
rm -f "$OUT"
mkfs.vfat -C "$OUT" $((size_kb + size_kb / 8)) >/dev/null
export MTOOLS_SKIP_CHECK=1
mmd -i "$OUT" ::/EFI ::/EFI/BOOT ::/guests
mcopy -i "$OUT" "$HV_EFI" ::/EFI/BOOT/$BOOT
mcopy -i "$OUT" "$CFG" ::/hv.cfg
for f in "$@"; do mcopy -i "$OUT" "${f%%=*}" "::${f#*=}"; done
