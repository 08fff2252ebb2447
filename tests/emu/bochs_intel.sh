# SPDX-License-Identifier: GPL-2.0-only
# The VMX backend on an Intel CPU under Bochs (boot_bochs in lib.sh). Its OVMF publishes
# no ACPI tables (QEMU hands them over
# fw_cfg, which Bochs has not): the hypervisor finds both CPUs through UEFI's MP services,
# shows what the CPU's VMX offers (its capability MSRs, arch/x86/vmx/vmx_caps.c), tries
# VMX operation on the boot CPU before the takeover (vmxon.c: Bochs's OVMF leaves
# IA32_FEATURE_CONTROL unlocked, the hypervisor locks it with VMX on), and runs two VMs of
# Debian's stock Linux, 3 vCPUs on the 2 pCPUs. linux0, 2 vCPUs with APICv (the CPU
# delivers their interrupts and completes their EOIs, x2APIC virtualization): vCPU 0 from
# the bzImage's 64-bit entry, vCPU 1 from INIT and STARTUP in real mode (unrestricted
# guest); vCPUs that move between the pCPUs (their VMCS cleared on one, loaded on the
# other), spin exits (PAUSE-loop exiting) for the directed yield. emulated, 1 vCPU with
# apicv = off: the emulated local APIC (interrupts injected by the hypervisor, EOIs exit).
# Each: the test init's facts and the guest's ACPI power-off. About 4-5 minutes alone;
# 8-9.5 minutes beside a QEMU (Bochs is one thread): hence 900 s before it counts as hung.
# (Without the VMX-preemption timer this hung, and with linux0's 3 vCPUs it stalled now
# and then at its power-off: docs/testing.md.)
. "$(dirname "$0")/lib.sh"
boot_bochs "[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 hv.mode=test
vcpus = 2
memory = 256M

[vm emulated]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
apicv = off
memory = 160M" 900
expect "the VMX backend chosen" "(x86_64, Intel VMX backend)"
expect "what its VMX offers, from the capability MSRs" \
	"hv: CPU GenuineIntel; VMX rev 43, EPT (2M, A/D) VPID unrestricted-guest; APICv: x2APIC-virt register-virt VID; no posted interrupts; PLE"
expect "no ACPI tables: both CPUs from UEFI MP services" \
	"hv: 2 pCPUs (UEFI MP services; no valid ACPI RSDP)"
expect "the machine taken over, both pCPUs in VMX operation" "hv: 2 of 2 pCPUs running"
expect "linux0: APICv" "hv: VM 'linux0': APICv: the CPU delivers interrupts and completes EOIs"
expect "emulated: its APIC emulated" "hv: VM 'emulated': APIC emulated, no APICv (apicv = off)"
expect_guest_ok linux0 2
expect_guest_ok emulated 1
expect "the KVM PV features found" "kvm-guest: setup PV IPIs"
expect "vCPU 1 started by INIT and STARTUP" "init=1 sipi=2"
# How each VM's interrupts went: by the CPU (APICv) or injected (emulated).
line() { grep "^hv: VM '$1' interrupts injected=" "$LOG"; }
if line linux0 | grep -q "injected=0 .* cpu-delivered=[1-9][0-9]* virtual-eois=[1-9]"; then
	echo "ok:   linux0: every interrupt delivered and EOIed by the CPU, none injected"
else
	echo "FAIL: linux0's interrupts not all through APICv: $(line linux0 | cut -c1-200)"
	failed=1
fi
if line emulated | grep -q "injected=[1-9][0-9]* .* cpu-delivered=0 virtual-eois=0"; then
	echo "ok:   emulated: interrupts injected, none by the CPU"
else
	echo "FAIL: emulated's interrupts not injected: $(line emulated | cut -c1-200)"
	failed=1
fi
expect_not "no pCPU stuck in guest mode" "has not left guest mode"
grep -E "^hv: VM '(linux0|emulated)' (powered off|interrupts)" "$LOG" | cut -c1-240 | sed 's/^/      /'
for what in migrations spin-exits; do
	if grep -q "^hv: VM 'linux0' vcpu[0-9].* $what=[1-9]" "$LOG"; then
		echo "ok:   $what above 0 on the VMX backend"
	else
		echo "FAIL: no vCPU with $what above 0"
		failed=1
	fi
done
expect_not "no entry failure, no fatal guest exit" "stopping the VM"
expect_not "no guest triple fault" "triple fault"
expect_not "nothing fatal" "FATAL"
expect_not "no exception in the firmware" "X64 Exception"
grep "^bochs stopped" "$LOG" | sed 's/^/      /'
finish
