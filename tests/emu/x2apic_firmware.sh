# SPDX-License-Identifier: GPL-2.0-only
# A server whose firmware hands over in x2APIC mode, with a CPU whose APIC ID (256) only
# x2APIC can name: QEMU 10 with the second socket of 256 cores holding the second CPU, and
# an IOMMU with interrupt remapping and x2APIC (EIM), which QEMU requires for APIC IDs
# above 255. OVMF then switches every CPU to x2APIC mode and lists them in the MADT's
# x2APIC entries. The hypervisor keeps the mode, starts the second pCPU through the x2APIC
# ICR, and a 2-vCPU VM runs with kicks and timer interrupts on both pCPUs.
export QEMU=10
export QEMU_ARGS="-device max-x86_64-cpu,socket-id=1,core-id=0,thread-id=0 -device intel-iommu,intremap=on,eim=on -machine kernel-irqchip=split"
. "$(dirname "$0")/lib.sh"
boot "$(linux_vm a 2 256M hv.mode=test)" 300 1,sockets=2,cores=256,threads=1,maxcpus=512
expect "the firmware's x2APIC mode kept" ", x2APIC (as the firmware left it)"
expect "the CPU with APIC ID 256 started" "hv: 2 of 2 pCPUs running"
expect_guest_ok a 2
expect_pcpu_irqs "through the x2APIC, APIC IDs 0 and 256"
finish
