# SPDX-License-Identifier: GPL-2.0-only
# The host's local APICs in x2APIC mode. QEMU 10 gives its TCG CPUs an x2APIC (Debian 12's
# QEMU 7.2 does not; scripts/qemu10.sh unpacks QEMU 10 from bookworm-backports), and the
# hypervisor then runs its APICs through the x2APIC MSRs: the APs' INIT and STARTUP, the
# kicks between pCPUs, the timer and EOIs, here under two VMs of 2 vCPUs on 2 pCPUs.
export QEMU=10
. "$(dirname "$0")/lib.sh"
boot "$(linux_vm a 2 256M hv.mode=test)
$(linux_vm b 2 256M hv.mode=test)" 500
expect "the host APIC in x2APIC mode" ", x2APIC (switched on at the takeover: the CPU has it)"
expect "the AP started through the x2APIC ICR" "hv: 2 of 2 pCPUs running"
expect_guest_ok a 2
expect_guest_ok b 2
expect_pcpu_irqs "through the x2APIC"
finish
