# SPDX-License-Identifier: GPL-2.0-only
# The x86 backend (only built for ARCH=x86_64).
objs-y += $(addprefix arch/x86/,alu.o boot.o boot_tables.o bzimage.o cpuid.o cpuid_policy.o cr4.o decode.o elf.o elf_pvh.o entry.o exit_port.o guest_acpi.o \
	critical_section.o guest_memory.o irq/inject.o guest_walk.o hypercall.o kernel_load.o kvmclock.o linux_boot.o linux_bzimage.o linux_pvh.o msr.o multiboot.o multiboot_boot.o nested_paging.o pcpu.o platform.o power.o random.o retpoline.o irq/pv_eoi.o \
	irq/pv_ipi.o selftest.o selftest_guest.o speculation.o split_access.o steal_time.o timebase.o irq/vioapic.o irq/virq.o vcpu.o virt_probe.o irq/vlapic.o vm.o xstate.o)
objs-y += arch/x86/svm/avic.o arch/x86/svm/svm.o arch/x86/svm/svm_run.o
objs-y += arch/x86/vmx/vmx.o arch/x86/vmx/vmx_apicv.o arch/x86/vmx/vmx_caps.o arch/x86/vmx/vmx_exit.o arch/x86/vmx/vmx_run.o \
	arch/x86/vmx/vmxon.o
# The self-test's built-in guest (selftest_guest.asm) is the interrupt test guest.
$(BUILD)/arch/x86/selftest_guest.o: $(BUILD)/guests-test/apictest.elf
