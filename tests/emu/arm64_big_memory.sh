# SPDX-License-Identifier: GPL-2.0-only
# arm64: a VM of more than 4 GiB (its RAM from 1 GiB up, one range in the device tree and
# stage 2); Linux uses all of it.
export ARCH=aarch64 GIC=3
export MEM=8192 # QEMU's RAM: the VM's 4.5 GiB in one block, and the hypervisor's own
. "$(dirname "$0")/lib.sh"
boot "$(linux_vm big 2 4608M hv.mode=test)" 600
expect "the VM was created with 4.5 GiB" "hv: VM 'big': 2 vCPUs, 4608 MiB"
expect_guest_ok big 2
kb=$(tr -d '\r' < "$LOG" | sed -n 's/.*GUEST-FACT mem_kb=\([0-9]*\).*/\1/p' | head -n1)
if [ "${kb:-0}" -gt $((4 * 1024 * 1024)) ]; then
	echo "ok:   the guest has more than 4 GiB (MemTotal ${kb} kB)"
else
	echo "FAIL: the guest's MemTotal is ${kb:-missing} kB, not above 4 GiB"; failed=1
fi
finish
