# SPDX-License-Identifier: GPL-2.0-only
# The VMX backend under Bochs (boot_bochs in lib.sh) with the x86 interrupt test guest
# (tests/guest/x86/apictest.c) instead of Linux: two VMs of it, 2 vCPUs each on the 2
# pCPUs, one with APICv (the CPU delivers every interrupt and completes its EOI) and one
# with apicv = off (injected, EOIs exit). Each: IOAPIC registers through MMIO (EPT
# violations), 1000 SELF IPIs, 20 APIC timer expiries, vCPU 1 started by INIT and STARTUP
# into its real-mode trampoline, 1000 IPIs each way between its vCPUs, each taken exactly
# once, and its ACPI power-off. About 2 minutes.
. "$(dirname "$0")/lib.sh"
ESP_FILES="$TOP/build/x86_64/guests-test/apictest.elf=/guests/apictest.elf"
vm() { printf '[vm %s]\nkernel = /guests/apictest.elf\nvcpus = 2\nmemory = 16M\n%s\n' "$1" "$2"; }
boot_bochs "$(vm apicv)
$(vm emulated 'apicv = off')" 600
expect "the VMX backend chosen" "(x86_64, Intel VMX backend)"
expect "apicv: APICv" "hv: VM 'apicv': APICv: the CPU delivers interrupts and completes EOIs"
expect "emulated: its APIC emulated" "hv: VM 'emulated': APIC emulated, no APICv (apicv = off)"
for v in apicv emulated; do
	for step in "mmio: ioapic version 11, entries 24, entry 0 10055" "self-ipi: 1000 of 1000" \
		"timer: 20 of 20" "ap: 1 of 1" "ipi bsp->ap: 1000 of 1000" "ipi ap->bsp: 1000 of 1000"; do
		expect "$v: ${step%%:*}" "[$v] X86TEST ok $step"
	done
	expect "$v: all steps passed" "[$v] X86TEST DONE"
	expect "$v: powered off" "hv: VM '$v' powered off;"
	expect_counter "$v: MMIO through EPT violations" "$v" mmio 4
done
# 1000 SELF IPIs, 20 timer interrupts, 2000 IPIs: by the CPU for one, injected for the other.
expect_counter "apicv: interrupts delivered by the CPU" apicv cpu-delivered 3020
expect_counter "apicv: EOIs completed by the CPU" apicv virtual-eois 3020
expect_counter_zero "apicv: none injected" apicv injected
expect_counter "emulated: interrupts injected" emulated injected 3020
expect_counter_zero "emulated: none by the CPU" emulated cpu-delivered
expect_counter "apicv: SELF IPIs through the x2APIC" apicv self 1000
expect_not "no step failed" "X86TEST FAIL"
expect_not "no entry failure, no fatal guest exit" "stopping the VM"
expect_not "nothing fatal" "FATAL"
grep -E "^hv: VM '(apicv|emulated)' (powered off|interrupts)" "$LOG" | cut -c1-240 | sed 's/^/      /'
grep "^bochs stopped" "$LOG" | sed 's/^/      /'
finish
