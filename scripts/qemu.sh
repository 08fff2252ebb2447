#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: qemu.sh ESP.img|TFTP_DIR [extra qemu args]   (env: ARCH=x86_64|aarch64 SMP=2 MEM=2048 GIC=3
#        QEMU=10: QEMU 10 from bookworm-backports, unpacked by scripts/qemu10.sh; default
#        Debian 12's QEMU 7.2; x86 SERIAL=com2: stdio is COM2 and COM1 goes nowhere;
#        ACCEL=tcg|kvm|auto, see scripts/accel.sh; CPU: the CPU model; BUS=usb: the image
#        is a USB stick, see below; x86 TCG_THREADS=multi: one host thread per emulated
#        CPU, see below)
# Boots the UEFI firmware + the boot volume in QEMU, under TCG or, with ACCEL, nested in
# the host's KVM (-cpu host). Serial console on stdio; the hypervisor powers the machine
# off when its last VM stops.
#   x86_64:  q35, an emulated AMD CPU with SVM, OVMF; the hypervisor powers off through
#            ACPI S5, as the firmware's tables say (QEMU then exits with status 0).
#   aarch64: virt with EL2 (virtualization=on) and GICv3 (GIC=3) or GICv2 (GIC=2), AAVMF,
#            the volume as a virtio disk; the hypervisor powers off with PSCI SYSTEM_OFF
#            (QEMU then exits with status 0).
# A folder (scripts/mkesp.sh lays one out) is network-booted instead of a disk: QEMU's user
# networking serves it over TFTP, its DHCP names the boot file, and the firmware PXE-boots
# through a virtio-net NIC (x86: OVMF with the iPXE driver of Debian's ipxe-qemu,
# efi-virtio.rom, which QEMU loads as the NIC's option ROM).
ARCH=${ARCH:-x86_64}
BIN='' DATA=''
case "${QEMU:-}" in
"" | 7) ;;
10)
	Q10=$(cd "$(dirname "$0")/.." && pwd)/build/qemu10
	[ -x "$Q10/usr/bin/qemu-system-x86_64" ] ||
		{ echo "qemu: QEMU=10 but no $Q10: run scripts/qemu10.sh (as root)" >&2; exit 1; }
	BIN=$Q10/usr/bin/ DATA="-L $Q10/usr/share/qemu"
	;;
*) echo "qemu: QEMU=$QEMU: 7 (Debian 12's, the default) or 10 (bookworm-backports)" >&2; exit 1 ;;
esac
ACCEL=$("$(dirname "$0")/accel.sh") || exit 1
# x86 under TCG: the emulated CPUs take turns on one host thread unless TCG_THREADS=multi.
# QEMU's multi-threaded TCG (7.2 and 10.0) corrupts CPU 0's SVM state whenever another
# CPU restores x87 state at the same moment (cpu_clear_ignne writes CPU 0's hflags2 from
# the other CPU's thread): a VM then dies of "the state saved at #VMEXIT is the host's" or
# an IDT triple fault (docs/emulator_faults.md). Single-threaded TCG never interleaves them.
X86_ACCEL=$ACCEL
if [ "$ACCEL" = tcg ]; then
	case "${TCG_THREADS:-single}" in
	single | multi) X86_ACCEL=tcg,thread=${TCG_THREADS:-single} ;;
	*) echo "qemu: TCG_THREADS=$TCG_THREADS: single (the default) or multi" >&2; exit 1 ;;
	esac
fi
# cpu_model TCG_DEFAULT: CPU if set, else the host's CPU under KVM, else TCG_DEFAULT
cpu_model() {
	if [ -n "${CPU:-}" ]; then echo "$CPU"; elif [ "$ACCEL" = kvm ]; then echo host; else echo "$1"; fi
}
SERIALS="-serial mon:stdio"
[ "${SERIAL:-com1}" = com2 ] && SERIALS="-serial null -serial mon:stdio"
ESP=$1
shift
VARS=$ESP.vars
# The boot volume: a disk on x86's IDE or arm64's virtio, or with BUS=usb the only disk, a
# USB mass-storage device on an xHCI controller (a stick made by scripts/mkusb.sh); a
# folder is network-booted instead, no disk: QEMU's user networking serves it over TFTP
# to a virtio NIC, the architecture's removable-media boot file as the boot file.
if [ -d "$ESP" ]; then
	TOP=$(cd "$(dirname "$0")/.." && pwd)
	. "$TOP/scripts/arch-defaults.sh"
	arch_defaults "$ARCH" || exit 1
	set -- -netdev user,id=n0,tftp="$ESP",bootfile=/EFI/BOOT/"$BOOT" \
		-device virtio-net-pci,netdev=n0 "$@"
elif [ "${BUS:-}" = usb ]; then
	set -- -drive if=none,id=stick,format=raw,file="$ESP" -device qemu-xhci \
		-device usb-storage,drive=stick -net none "$@"
elif [ "$ARCH" = aarch64 ]; then
	set -- -drive file="$ESP",format=raw,if=virtio -net none "$@"
else
	set -- -drive file="$ESP",format=raw,if=ide -net none "$@"
fi
# shellcheck disable=SC2086 # DATA, SERIALS: options and their arguments (or nothing)
case "$ARCH" in
x86_64)
	cp /usr/share/OVMF/OVMF_VARS_4M.fd "$VARS"
	exec "${BIN}qemu-system-x86_64" $DATA -nodefaults -machine q35 -accel "$X86_ACCEL" -cpu "$(cpu_model max)" -smp "${SMP:-2}" -m "${MEM:-2048}" \
		-drive if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
		-drive if=pflash,format=raw,file="$VARS" \
		-nographic $SERIALS -no-reboot "$@"
	;;
aarch64)
	# AAVMF's pflash images are 64 MiB each; the VARS copy is sparse.
	cp --sparse=always /usr/share/AAVMF/AAVMF_VARS.fd "$VARS"
	exec "${BIN}qemu-system-aarch64" $DATA -nodefaults -machine virt,accel="$ACCEL",virtualization=on,gic-version="${GIC:-3}" \
		-cpu "$(cpu_model max,pauth-impdef=on)" -smp "${SMP:-2}" -m "${MEM:-2048}" \
		-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/AAVMF/AAVMF_CODE.fd \
		-drive if=pflash,format=raw,unit=1,file="$VARS" \
		-nographic -serial mon:stdio -no-reboot "$@"
	;;
*)
	echo "qemu: ARCH=$ARCH not supported (x86_64 or aarch64)" >&2
	exit 1
	;;
esac
