# SPDX-License-Identifier: GPL-2.0-only
# arm64 on firmware that gives a device tree instead of ACPI (QEMU's acpi=off): the
# hypervisor finds the CPUs, the GICv3 and the console in the device tree.
export ARCH=aarch64 GIC=3 QEMU_ARGS="-machine acpi=off"
. "$(dirname "$0")/lib.sh"
boot "[vm dt]
kernel = /guests/Image
initrd = /guests/initrd.gz
cmdline = console=ttyAMA0 quiet hv.mode=test
vcpus = 2
memory = 192M" 150
expect "platform from the device tree" "hv: 2 pCPUs (device tree)"
expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
expect_guest_ok dt 2
finish
