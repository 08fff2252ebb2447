/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 side of VM and vCPU life: creation, start requests and timers. */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/irq/virq.h"
#include "hv/vm_config.h"
#include "hv/arch.h"
#include "arch/x86/vendor.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/pv_features.h"

const u32 arch_pv_features = PV_FEATURES_ALL;

int arch_vm_create(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img)
{
	if (vm->ram_size & (2 * MiB - 1)) {
		printk("hv: VM '%s': memory must be a multiple of 2 MiB\n", vm->name);
		return -1;
	}
	/* RAM beyond GPA_LOW_RAM_END goes above 4 GiB, past the devices' addresses. */
	if (vm->ram_size > GPA_LOW_RAM_END) {
		vm->hole_gpa = GPA_LOW_RAM_END;
		vm->hole_size = 4 * GiB - GPA_LOW_RAM_END;
	}
	vm->arch.boot_tsc = rdtsc();
	if (x86_vendor->vm_init(vm))
		return -1;
	x86_vm_irq_init(vm);
	x86_platform_init(vm);
	if (x86_exit_port_init(vm, cfg))
		return -1;
	return x86_kernel_load(vm, cfg, img, &vm->arch.boot);
}

int arch_vcpu_create(struct vcpu *v)
{
	x86_vcpu_irq_init(v);
	x86_msr_vcpu_init(v);
	if (x86_vendor->vcpu_init(v, &v->vm->arch.boot))
		return -1;
	if (v->id == 0) /* the vendor sets the rest of the entry state (x86_boot) */
		v->arch.gpr[GPR_RAX] = v->vm->arch.boot.eax;
	return 0;
}

/* An INIT (SDM vol. 3A 9.1 and 9.4; KVM's kvm_apic_accept_events, QEMU alike) resets the
 * target's APIC and registers. An AP then waits for a STARTUP; the BSP (IA32_APIC_BASE.BSP:
 * vCPU 0) runs on from the reset vector, F000:FFF0 with CS base FFFF0000, even out of a
 * HLT. There a PC has its firmware; a VM here has none, so its first fetch stops the VM
 * (an access that cannot be emulated, at rip fff0). */
static void take_init(struct vcpu *v)
{
	vlapic_reset(&v->arch.lapic);
	if (!(v->arch.lapic.apic_base & APIC_BASE_BSP)) {
		v->state = VCPU_WAIT_START;
		return;
	}
	x86_vendor->vcpu_reset(v, 0xF000, 0xFFFF0000, 0xFFF0);
	v->state = VCPU_RUNNABLE;
	printk("hv: VM '%s' vcpu%u: INIT to the BSP: it restarts at the reset vector "
	       "(F000:FFF0), where this VM has no firmware\n",
	       v->vm->name, v->id);
}

void arch_vcpu_poll(struct vcpu *v, u64 now)
{
	if (__atomic_exchange_n(&v->arch.init_pending, false, __ATOMIC_ACQ_REL))
		take_init(v);
	s32 sipi = __atomic_exchange_n(&v->arch.sipi_vector, -1, __ATOMIC_ACQ_REL);
	if (sipi >= 0 && v->state == VCPU_WAIT_START) {
		/* Real mode at vector << 12 (SDM vol. 3A, 9.4.4.1). */
		x86_vendor->vcpu_reset(v, (u16)((u8)sipi << 8), (u64)(u8)sipi << 12, 0);
		v->state = VCPU_RUNNABLE;
	}
	if (v->state != VCPU_WAIT_START)
		vlapic_timer_update(&v->arch.lapic, now);
}

bool arch_vcpu_wants_to_run(struct vcpu *v)
{
	if (v->state == VCPU_WAIT_START)
		return false;
	if (__atomic_load_n(&v->arch.nmi_pending, __ATOMIC_ACQUIRE))
		return true;
	if (__atomic_exchange_n(&v->arch.pv_unhalt, false, __ATOMIC_ACQ_REL)) {
		v->arch.pv_unhalts++;
		return true;
	}
	/* HLT with interrupts off waits for NMI/INIT only (SDM vol. 2, HLT). */
	return vlapic_pending_vector(&v->arch.lapic) >= 0 && x86_vendor->interruptible(v);
}

u64 arch_vcpu_next_timer(struct vcpu *v) { return vlapic_next_deadline(&v->arch.lapic); }

void arch_vcpu_describe(struct vcpu *v, char *buf, size_t n)
{
	struct vlapic *l = &v->arch.lapic;
	u8 insn[6] = { 0 };
	x86_fetch_insn(v, insn, sizeof insn);
	snprintf(buf, n,
		 "rip=%llx [%02x %02x %02x %02x %02x %02x] rax=%llx rcx=%llx rdx=%llx "
		 "rflags=%llx apic=%s ppr=%x pending-vec=%d timer=%s "
		 "pv-kicks=%llu pv-unhalts=%llu%s",
		 (unsigned long long)x86_get(v, X86_RIP), insn[0], insn[1], insn[2], insn[3],
		 insn[4], insn[5], (unsigned long long)v->arch.gpr[GPR_RAX],
		 (unsigned long long)v->arch.gpr[GPR_RCX], (unsigned long long)v->arch.gpr[GPR_RDX],
		 (unsigned long long)x86_get(v, X86_RFLAGS),
		 vlapic_x2apic_mode(l) ? "x2apic"
		 : vlapic_enabled(l)   ? "xapic"
				       : "off",
		 vlapic_ppr(l), vlapic_pending_vector(l), vlapic_next_deadline(l) ? "armed" : "off",
		 (unsigned long long)__atomic_load_n(&v->arch.pv_kicks, __ATOMIC_RELAXED),
		 (unsigned long long)v->arch.pv_unhalts,
		 __atomic_load_n(&v->arch.pv_unhalt, __ATOMIC_RELAXED) ? " unhalt-pending" : "");
}
