#!/bin/sh
# usage: qemu.sh ESP.img [extra qemu args]   (env: SMP=2 MEM=2048)
# Boots OVMF + the boot volume in QEMU TCG with an emulated AMD CPU that has SVM.
# Serial console on stdio; the hypervisor powers the machine off when its last VM stops.
TOP=$(cd "$(dirname "$0")/.." && pwd)
ESP=$1
shift
VARS=$ESP.vars
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$VARS"
exec qemu-system-x86_64 -nodefaults -machine q35,accel=tcg -cpu max -smp "${SMP:-2}" -m "${MEM:-2048}" \
	-drive if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
	-drive if=pflash,format=raw,file="$VARS" \
	-drive file="$ESP",format=raw,if=ide \
	-net none -nographic -serial mon:stdio -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@"
