#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: mkusb.sh OUT.img   (make usb-image writes build/hv-usb.img)
# Makes the disk image of a USB stick that boots the hypervisor on x86_64 and arm64 UEFI
# machines alike: a GPT with one EFI system partition (from 1 MiB) holding
#   /EFI/BOOT/BOOTX64.EFI and BOOTAA64.EFI   build/x86_64/hv.efi and build/aarch64/hv.efi
#   /hv-x86_64.cfg and /hv-aarch64.cfg       the default configurations (arch-defaults.sh),
#                                            their guests' paths moved to /guests/ARCH/
#   /guests/x86_64/, /guests/aarch64/        the guest files those name under /guests/
# The firmware starts its architecture's boot file, and hv.efi reads hv-ARCH.cfg before
# hv.cfg. Both architectures and their guests must be built (make usb-image does it).
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/scripts/arch-defaults.sh"
OUT=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set --
for a in x86_64 aarch64; do
	arch_defaults $a
	{
		echo "# Read by hv.efi on $a (before any hv.cfg): make run's configuration, its guest"
		echo "# files under /guests/$a/. Edit it here; docs/configuration.md has the keys."
		sed "1{/^#/d}; s|/guests/|/guests/$a/|" "$DEFAULT_CFG"
	} > "$tmp/hv-$a.cfg"
	set -- "$@" "$TOP/build/$a/hv.efi=/EFI/BOOT/$BOOT" "$tmp/hv-$a.cfg=/hv-$a.cfg"
	sed -n 's#^\(kernel\|initrd\) *= */guests/##p' "$DEFAULT_CFG" > "$tmp/files"
	while read -r f; do set -- "$@" "$TOP/build/guests/$a/$f=/guests/$a/$f"; done < "$tmp/files"
done
"$TOP/scripts/mkfat.sh" "$tmp/esp.img" "$@"
# The partition starts at 1 MiB; the 1 MiB after it leaves room for the backup GPT.
esp_kb=$(($(stat -c %s "$tmp/esp.img") / 1024))
rm -f "$OUT"
truncate -s $(((esp_kb + 2048) * 1024)) "$OUT"
printf 'label: gpt\nstart=2048, size=%d, type=uefi, name=hv\n' $((esp_kb * 2)) | sfdisk -q "$OUT"
dd if="$tmp/esp.img" of="$OUT" bs=1M seek=1 conv=notrunc status=none
echo "usb-image: $OUT ($(($(stat -c %s "$OUT") >> 20)) MiB); write it to a stick with dd (docs/usb_boot.md)"
