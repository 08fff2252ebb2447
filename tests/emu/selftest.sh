# SPDX-License-Identifier: GPL-2.0-only
# The hardware self-test (selftest = yes, hv/selftest.h) on the SVM backend in QEMU (TCG:
# no AVIC): the built-in interrupt test guest in one VM with the emulated APIC, then the
# table: the VM passed, SVM, nested paging and ASIDs pass, AVIC and x2AVIC absent (with
# what is done instead), the guest's IPI costs through the ICR and the PV hypercall, the
# speculation mitigations, the verdict; then the power-off. About 10 seconds.
. "$(dirname "$0")/lib.sh"
boot "[hv]
selftest = yes" 120 2
expect "the self-test announced" "selftest = yes): 1 VM of the built-in test guest"
expect "emulated: its APIC emulated" "hv: VM 'emulated': APIC emulated, interrupts injected (apicv = off)"
expect_selftest emulated pass
for row in "SVM" "nested paging \(NPT\)" "ASIDs"; do
	expect_selftest "$row" pass
done
expect_selftest AVIC absent
expect_selftest x2AVIC absent
expect "self-test: what replaces AVIC" "interrupts injected by the hypervisor, EOIs exit"
expect_selftest_costs emulated
# QEMU's AMD CPU: the mitigations every CPU gets, none of Intel's (speculation.c).
expect "self-test: speculation" "hv: self-test: speculation: Spectre v2: retpolines; no IBPB (the CPU lacks it); RSB filled after exits; L1TF: not affected; MDS/TAA/RFDS: not affected"
expect "the verdict" "hv: self-test: PASS (1 of 1 VMs passed)"
expect "powered off after the table" "hv: no VM left"
grep -a "^hv: self-test" "$LOG" | sed 's/^/      /'
finish
