# SPDX-License-Identifier: GPL-2.0-only
# The state the hypervisor switches between vCPUs stays each guest's own: two VMs of two
# vCPUs on two pCPUs (each pCPU alternates between them) run fpucheck, which keeps its
# own pattern in YMM0-14 for seconds (XSAVE state: x87, SSE, AVX) and reads IA32_TSC_AUX
# with RDTSCP and RDPID on each CPU; XSETBV from user mode must fault. VM a also checks
# that CR8 and the x2APIC TPR are one register (guest module tprcheck).
. "$(dirname "$0")/lib.sh"
boot "[vm a]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=tprcheck hv.tools=fpucheck hv.fpucheck=seconds=4:seed=1
vcpus = 2
memory = 192M

[vm b]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.tools=fpucheck hv.fpucheck=seconds=4:seed=2
vcpus = 2
memory = 192M" 400
expect "the guests get XSAVE with AVX" "hv: guest FPU state: XSAVE with XCR0 up to 0x7 (x87 SSE AVX)"
for vm in a b; do
	expect_vm $vm "$vm: Linux enabled x87, SSE and AVX in XCR0" "GUEST-fpucheck fpucheck: xcr0=0x7 avx=1"
	expect_vm $vm "$vm: XSETBV from user mode faults" "GUEST-fpucheck fpucheck: xsetbv-user=sigsegv"
	expect_vm $vm "$vm: vCPU 0 kept its YMM registers and TSC_AUX" "GUEST-fpucheck fpucheck: cpu=0 tsc_aux=ok bad=0 "
	expect_vm $vm "$vm: vCPU 1 kept its YMM registers and TSC_AUX" "GUEST-fpucheck fpucheck: cpu=1 tsc_aux=ok bad=0 "
	expect_vm $vm "$vm: fpucheck passed" "GUEST-fpucheck fpucheck: ok"
	expect_guest_ok $vm 2
done
expect_vm a "a: CR8 and the TPR are one register, which holds interrupts back" "GUEST-tprcheck tprcheck: cr8-to-tpr=0x50 tpr-to-cr8=0x7 held=1 delivered=1"
grep -F "GUEST-fpucheck fpucheck: cpu=" "$LOG" | sed 's/^/      /'
finish
