#!/bin/sh
# usage: mkesp.sh OUT.img CONFIG [FILE=PATH ...]
# Makes a FAT boot volume: EFI/BOOT/BOOTX64.EFI (hv.efi), /hv.cfg (CONFIG), and each
# FILE at PATH inside the volume (default: the guest kernel and initrd under /guests).
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1 CFG=$2
shift 2
G=$TOP/build/guests/x86_64
[ $# -gt 0 ] || set -- "$G/vmlinux=/guests/vmlinux" "$G/initrd.gz=/guests/initrd.gz"
size_kb=16384
for f in "$@"; do size_kb=$((size_kb + $(du -k "${f%%=*}" | cut -f1))); done
rm -f "$OUT"
mkfs.vfat -C "$OUT" $((size_kb + size_kb / 8)) >/dev/null
export MTOOLS_SKIP_CHECK=1
mmd -i "$OUT" ::/EFI ::/EFI/BOOT ::/guests
mcopy -i "$OUT" "$TOP/build/x86_64/hv.efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$OUT" "$CFG" ::/hv.cfg
for f in "$@"; do mcopy -i "$OUT" "${f%%=*}" "::${f#*=}"; done
