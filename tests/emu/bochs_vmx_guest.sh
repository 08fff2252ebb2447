# SPDX-License-Identifier: GPL-2.0-only
# The VMX backend under Bochs (boot_bochs in lib.sh) with the x86 interrupt test guest
# (tests/guest/x86/apictest.c) instead of Linux: two VMs of it, 2 vCPUs each on the 2
# pCPUs, one with APICv (the CPU delivers every interrupt and completes its EOI) and one
# with apicv = off (injected, EOIs exit). Each: IOAPIC registers through MMIO (EPT
# violations), 1000 SELF IPIs, 20 APIC timer expiries, vCPU 1 started by INIT and STARTUP
# into its real-mode trampoline, 1000 IPIs each way between its vCPUs, each taken exactly
# once, 1200 IPIs whose cost it measures (ICR and PV hypercall), no interrupt taken with
# IF = 0 in a handler that EOIed with another vector waiting (20 rounds, each with a kick
# from vCPU 1 meanwhile: Bochs 2.7 took it there in all 20 before the run's EOIs exited
# while a vector waited, issue 31), and its ACPI power-off.
# About 30 seconds.
. "$(dirname "$0")/lib.sh"
ESP_FILES=$APICTEST
boot_bochs "$(apictest_vm apicv)
$(apictest_vm emulated 'apicv = off')" 600
expect "the VMX backend chosen" "(x86_64, Intel VMX backend)"
expect "apicv: APICv" "hv: VM 'apicv': APICv: the CPU delivers interrupts and completes EOIs"
expect "emulated: its APIC emulated" "hv: VM 'emulated': APIC emulated, no APICv (apicv = off)"
expect_apictest apicv
expect_apictest emulated
# 1000 SELF IPIs, 20 timer interrupts, 2000 IPIs (and the costs' 1200, some coalesced):
# by the CPU for one, injected for the other.
expect_counter "apicv: interrupts delivered by the CPU" apicv cpu-delivered 3020
expect_counter "apicv: EOIs completed by the CPU" apicv virtual-eois 3020
expect_counter_zero "apicv: none injected" apicv injected
expect_counter "emulated: interrupts injected" emulated injected 3020
expect_counter_zero "emulated: none by the CPU" emulated cpu-delivered
expect_not "no step failed" "X86TEST FAIL"
expect_not "no entry failure, no fatal guest exit" "stopping the VM"
expect_not "nothing fatal" "FATAL"
grep -E "^hv: VM '(apicv|emulated)' (powered off|interrupts)" "$LOG" | cut -c1-240 | sed 's/^/      /'
grep "^bochs stopped" "$LOG" | sed 's/^/      /'
finish
