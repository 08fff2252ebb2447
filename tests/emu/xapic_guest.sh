# SPDX-License-Identifier: GPL-2.0-only
# The local APIC in xAPIC mode, as every PC starts it (arch/x86/irq/vlapic.h): 'xapic'
# runs Linux with nox2apic, so it keeps the MMIO window at 0xFEE00000 for everything (its
# 2 vCPUs brought up by INIT and STARTUP through the xAPIC ICR, timers, EOIs, IPIs: PV IPIs
# and PV EOI off, so that these go through the window too);
# 'x2apic' runs the same kernel without it, and Linux switches to x2APIC mode itself
# through IA32_APIC_BASE ("x2apic enabled"). About a minute.
. "$(dirname "$0")/lib.sh"
boot "[vm xapic]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 nox2apic hv.mode=test
vcpus = 2
memory = 192M
pv = all,-ipi,-eoi

[vm x2apic]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
memory = 128M" 400
expect "xapic: every vCPU online" "[xapic] GUEST-READY cpus=2 online=0-1"
expect "xapic: Linux kept xAPIC mode" "[xapic] GUEST-FACT x2apic=0"
expect "xapic: the TSC-deadline timer through the xAPIC LVT" "[xapic] GUEST-FACT clockevent=lapic-deadline"
expect "xapic: test steps finished" "[xapic] GUEST-DONE"
expect "xapic: powered off" "hv: VM 'xapic' powered off;"
expect "xapic: vCPU 1 started by INIT and STARTUP through the xAPIC ICR" "init=1 sipi=2"
expect_counter "xapic: its APIC registers reached through the MMIO window" xapic mmio 1000
expect_counter "xapic: IPIs through the xAPIC ICR" xapic icr 100
expect_guest_ok x2apic 1
expect_not "no entry failure, no fatal guest exit" "stopping the VM"
expect_not "no guest triple fault" "triple fault"
expect_not "nothing fatal" "FATAL"
grep -E "^hv: VM '(xapic|x2apic)' (powered off|interrupts)" "$LOG" | cut -c1-200 | sed 's/^/      /'
finish
