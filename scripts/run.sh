#!/bin/sh
# make run: the default configuration (one VM, 2 vCPUs) with the guest's shell on the console.
# Quit QEMU with Ctrl-A x; `poweroff -f` in the guest ends the VM and then QEMU.
TOP=$(cd "$(dirname "$0")/.." && pwd)
ESP=$TOP/build/run-esp.img
"$TOP/scripts/mkesp.sh" "$ESP" "${CFG:-$TOP/scripts/default.cfg}" || exit 1
"$TOP/scripts/qemu.sh" "$ESP"
rc=$?
# The hypervisor powers off through QEMU's isa-debug-exit, which exits with status 1.
[ $rc = 1 ] && exit 0
exit $rc
