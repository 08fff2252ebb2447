# SPDX-License-Identifier: GPL-2.0-only
# More than 64 pCPUs (MAX_PCPUS is 256): QEMU's q35 with 72 CPUs, every one started by the
# hypervisor, and a VM whose pcpus names two pCPUs past 64 runs there and nowhere else.
. "$(dirname "$0")/lib.sh"
boot "[vm high]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 2
memory = 192M
pcpus = 70-71" 600 72
expect "the MADT's 72 CPUs found" "hv: 72 pCPUs (ACPI MADT)"
expect "all 72 pCPUs started" "hv: 72 of 72 pCPUs running"
expect_guest_ok high 2
for v in 0 1; do
	if tr -d '\r' < "$LOG" | grep -q "^hv: VM 'high' vcpu$v (pcpu7[01]): "; then
		echo "ok:   vcpu$v ran on pCPU 70 or 71"
	else
		echo "FAIL: vcpu$v did not end on pCPU 70 or 71"; failed=1
	fi
done
finish
