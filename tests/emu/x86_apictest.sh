# SPDX-License-Identifier: GPL-2.0-only
# The x86 interrupt test guest (tests/guest/x86/apictest.c) on the SVM backend in QEMU:
# the image that bochs_vmx_guest.sh runs under VMX, here with the emulated local APIC
# (every interrupt injected, EOIs exit): IOAPIC registers through MMIO (nested page
# faults), SELF IPIs, the APIC timer, INIT and STARTUP into a real-mode trampoline, IPIs
# both ways, each taken exactly once, and the ACPI power-off. About 15 seconds.
. "$(dirname "$0")/lib.sh"
ESP_FILES=$APICTEST
boot "$(apictest_vm a)" 120 2
expect_apictest a
expect_counter "a: interrupts injected" a injected 3020
expect_not "no step failed" "X86TEST FAIL"
finish
