# SPDX-License-Identifier: GPL-2.0-only
# The hardware self-test (selftest = yes, hv/selftest.h) on the VMX backend in Bochs
# (boot_bochs in lib.sh; corei7_skylake_x: APICv without posted interrupts): the built-in
# interrupt test guest in a VM with the emulated APIC and one with APICv, then the table:
# both VMs passed, VMX, EPT, VPID, unrestricted guest and the three APICv parts pass,
# posted interrupts absent (with what is done instead), the IPI costs of both VMs, the
# speculation mitigations, the verdict. About 40 seconds.
. "$(dirname "$0")/lib.sh"
boot_bochs "[hv]
selftest = yes" 300
expect "the self-test announced" "selftest = yes): 2 VMs of the built-in test guest"
expect_selftest emulated pass
expect_selftest apicv pass
for row in VMX EPT VPID "unrestricted guest" "x2APIC virtualization" \
	"APIC-register virtualization" "virtual-interrupt delivery"; do
	expect_selftest "$row" pass
done
expect_selftest "posted interrupts" absent
expect "self-test: what replaces posted interrupts" "an interrupt for a running vCPU is a kick (an exit)"
expect_selftest_costs emulated
expect_selftest_costs apicv
# Bochs's Intel CPU (a Skylake-X): no ARCH_CAPABILITIES, IBRS, IA32_FLUSH_CMD or MD_CLEAR,
# so affected by Retbleed and MDS, unmitigated, and by L1TF (the L1D flushed by reading,
# before entries) (speculation.c).
expect "self-test: speculation" "hv: self-test: speculation: Spectre v2: retpolines; no IBPB (the CPU lacks it); RSB filled after exits; Retbleed: EXPOSED (no IBRS: update the microcode); L1TF: L1D flushed before entries (by reading 64 KiB); MDS/TAA/RFDS: EXPOSED (the microcode lacks MD_CLEAR: update it)"
expect "the verdict" "hv: self-test: PASS (2 of 2 VMs passed)"
grep -a "^hv: self-test" "$LOG" | sed 's/^/      /'
grep "^bochs stopped" "$LOG" | sed 's/^/      /'
finish
