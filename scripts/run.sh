#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make run: the default configuration (one VM, 2 vCPUs) with the guest's shell on the console.
# Quit QEMU with Ctrl-A x; `poweroff -f` in the guest ends the VM and then QEMU.
# env: ARCH=x86_64|aarch64 (default x86_64), CFG (default scripts/default.cfg, or
# scripts/default-aarch64.cfg for aarch64), and qemu.sh's SMP, MEM, GIC.
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/scripts/arch-defaults.sh"
ARCH=${ARCH:-x86_64}
export ARCH
arch_defaults "$ARCH" || exit 1
ESP=$TOP/build/run-esp-$ARCH.img
[ "$ARCH" = x86_64 ] && ESP=$TOP/build/run-esp.img
"$TOP/scripts/mkesp.sh" "$ESP" "${CFG:-$DEFAULT_CFG}" || exit 1
"$TOP/scripts/qemu.sh" "$ESP"
rc=$?
# The hypervisor powers off through ACPI S5 (x86) or PSCI SYSTEM_OFF (arm64): QEMU then
# exits with status 0; status 1 is QEMU's own failure.
exit $rc
