# SPDX-License-Identifier: GPL-2.0-only
# arm64: a VM of more than 4 GiB (its RAM from 1 GiB up, one range in the device tree and
# stage 2); Linux uses all of it.
export ARCH=aarch64 GIC=3
export MEM=8192 # QEMU's RAM: the VM's 4.5 GiB in one block, and the hypervisor's own
. "$(dirname "$0")/lib.sh"
boot "$(linux_vm big 2 4608M hv.mode=test)" 600
expect "the VM was created with 4.5 GiB" "hv: VM 'big': 2 vCPUs, 4608 MiB"
expect_guest_ok big 2
expect_mem_above big 4
finish
