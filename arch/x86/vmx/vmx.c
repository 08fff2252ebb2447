/* SPDX-License-Identifier: GPL-2.0-only */
/* Intel VMX backend (vendor.h): VMX operation on every pCPU, a VMCS per vCPU with its
 * controls adjusted against the CPU's capabilities (vmx_caps.c), EPT and VPID per VM, an
 * unrestricted guest (vCPUs start in real mode from INIT and STARTUP), event injection
 * with virtual NMIs and the interrupt and NMI windows, the decoding of exits and the
 * handling of its own (Intel SDM vol. 3C, chapters 24-29).
 *
 * A VMCS is current on one pCPU at a time: loaded (VMPTRLD) when its vCPU comes to a
 * pCPU, cleared (VMCLEAR) when it leaves, so a vCPU that migrates starts over with
 * VMLAUNCH. The registers the shared code reads are copied out at each exit (vmx_state.h).
 * APIC virtualization where the CPU has it (vmx_apicv.h), with posted interrupts. */
#include "arch/x86/cr4.h"
#include "arch/x86/vmx/vmcs.h"
#include "arch/x86/vmx/vmx_apicv.h"
#include "arch/x86/vmx/vmx_caps.h"
#include "arch/x86/vmx/vmx_exit.h"
#include "arch/x86/vmx/vmx_insn.h"
#include "arch/x86/vmx/vmxon.h"
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/guest_walk.h"
#include "arch/x86/nested_paging.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/vendor.h"
#include "arch/x86/xstate.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/on_exit.h"
#include "hv/sched.h"

#define VEC_DB 1 /* debug exception */
#define VEC_NMI 2
#define VEC_UD 6
#define VEC_GP 13
#define VEC_PF 14
#define VEC_AC 17 /* alignment check */

#define CR0_PE BIT(0)
#define CR0_NW BIT(29)
#define CR0_CD BIT(30)
#define CR0_PG BIT(31)

#define MSR_IA32_PAT 0x277u

static struct vmx_caps caps;
static u32 ctls[VMX_CTLS];	 /* every control the backend may set, adjusted */
static u64 cr0_owned, cr4_owned; /* bits VMX operation wants 1, the guest sees as it set them */
static u32 maxphyaddr = 36;	 /* the CPU's physical-address width (CPUID 80000008h) */
/* The CPU has the three APICv controls: the vCPUs of VMs without apicv = off get them
 * (vmx_apicv.h). */
static bool apicv;
#define PROC2_APICV (PROC2_VIRT_X2APIC_MODE | PROC2_APIC_REGISTER_VIRT | PROC2_VIRT_INTR_DELIVERY)
/* MSR bitmaps: for a guest APIC not in x2APIC mode (every x2APIC MSR exits), and with
 * x2APIC virtualization (the registers vmx_apicv.h names pass). */
static u8 *msr_bitmap, *msr_bitmap_x2apic, *io_bitmaps;

/* The banner comes before the check (boot.c): each reads the MSRs. */
static void vmx_describe(char *buf, size_t n)
{
	vmx_caps_probe(rdmsr, &caps);
	vmx_caps_describe(&caps, buf, n);
}

/* The regions of the check's trial on the boot CPU, before the takeover (the firmware's
 * identity map: their addresses are their physical ones). */
static u8 vmxon_region[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static u8 trial_vmcs[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

/* In VMX operation: a VMCS cleared, made current, a field written and read back (the
 * VMCS works as this backend uses it), then cleared again. */
static bool vmcs_works(const struct vmx_caps *c)
{
	const u64 probe = 0xffffffff81000000ull;
	u64 back = 0;
	*(u32 *)trial_vmcs = c->revision;
	bool ok = vmclear(trial_vmcs) && vmptrld(trial_vmcs) && vmwrite(GUEST_RIP, probe) &&
		  vmread(GUEST_RIP, &back) && back == probe;
	return vmclear(trial_vmcs) && ok;
}

/* What the CPU offers, and a trial of VMX operation on the boot CPU before the machine is
 * taken over (a CPU that refuses it is told now, with the firmware still there). */
static int vmx_check(const char **why)
{
	vmx_caps_probe(rdmsr, &caps);
	if (vmx_caps_check(&caps, why) || vmx_controls(&caps, ctls, why))
		return -1;
	struct vmx_operation op;
	if (vmx_on(&caps, vmxon_region, &op, why))
		return -1;
	bool vmcs_ok = vmcs_works(&caps);
	vmx_off(&op);
	if (!vmcs_ok) {
		*why = "VMCLEAR, VMPTRLD, VMWRITE or VMREAD failed on a VMCS of this CPU";
		return -1;
	}
	/* Unrestricted guest lets CR0.PE and CR0.PG be 0 (SDM vol. 3C, 24.8). */
	cr0_owned = caps.cr0_fixed0 & ~(u64)(CR0_PE | CR0_PG);
	cr4_owned = caps.cr4_fixed0;
	u32 r[4];
	cpu_cpuid(0x80000000, 0, r);
	if (r[0] >= 0x80000008) {
		cpu_cpuid(0x80000008, 0, r);
		maxphyaddr = r[0] & 0xFF;
	}
	apicv = (ctls[VMX_PROC] & PROC_TPR_SHADOW) &&
		(ctls[VMX_PROC2] & PROC2_APICV) == PROC2_APICV;
	return 0;
}

/* Instructions that are #UD in VMX non-root operation unless a secondary control enables
 * them (25.6.2): a CPU without the control has its feature hidden from guests (RDTSCP
 * and RDPID; INVPCID). XSAVES and XRSTORS are never enabled: no guest sees them
 * (xstate.c), so they are #UD, as KVM has them for a guest whose CPUID lacks XSAVES. */
static void vmx_cpuid_filter(u32 leaf, u32 sub, u32 r[4])
{
	u32 proc2 = ctls[VMX_PROC2];
	if (leaf == 0x80000001 && !(proc2 & PROC2_ENABLE_RDTSCP))
		r[3] &= ~BIT(27);
	if (leaf == 7 && sub == 0 && !(proc2 & PROC2_ENABLE_RDTSCP))
		r[2] &= ~BIT(22);
	if (leaf == 7 && sub == 0 && !(proc2 & PROC2_ENABLE_INVPCID))
		r[1] &= ~BIT(10);
}

static void vmx_pcpu_enable(struct arch_pcpu *p)
{
	const char *why;
	struct vmx_operation op;
	p->vmx.vmxon_region = alloc_pages(1);
	if (vmx_on(&caps, p->vmx.vmxon_region, &op, &why)) {
		printk("hv: FATAL: pcpu with APIC ID %u: %s\n", p->apic_id, why);
		hv_exit();
	}
}

/* ---- VM: EPT, VPID, the bitmaps ---- */

/* EPT (SDM vol. 3C, 29.3.2): read, write, execute; a 2 MiB leaf (bit 7) of write-back
 * memory (type 6 in bits 5:3). */
#define EPT_BITS ((struct nested_paging_bits){ 0x7, 0x7 | 6u << 3 | BIT(7) })
/* The EPT pointer (25.6.11): write-back tables, a 4-level walk (3 in bits 5:3). */
#define EPTP_WB_4LEVEL (6u | 3u << 3)

/* The MSR bitmap (25.6.9): read bits of MSRs 0-1FFFh at 0, of C0000000h-C0001FFFh at
 * 1024, the write bits 2048 on. */
static void msr_passthrough(u8 *bitmap, u32 msr, bool read, bool write)
{
	u32 base = msr < 0x2000 ? 0 : 1024;
	msr &= 0x1FFF;
	for (u32 off = base; off < PAGE_SIZE; off += 2048)
		if (off < 2048 ? read : write)
			bitmap[off + msr / 8] &= (u8) ~(1u << (msr % 8));
}

static int vmx_vm_init(struct vm *vm)
{
	if (!msr_bitmap) {
		msr_bitmap = alloc_pages(1);
		io_bitmaps = alloc_pages(2); /* A: ports 0-7FFFh, B: the rest; all exit */
		memset(msr_bitmap, 0xFF, PAGE_SIZE);
		memset(io_bitmaps, 0xFF, 2 * PAGE_SIZE);
		for (size_t i = 0; i < ARRAY_SIZE(x86_msr_passthrough); i++)
			msr_passthrough(msr_bitmap, x86_msr_passthrough[i], true, true);
		msr_bitmap_x2apic = alloc_pages(1);
		memcpy(msr_bitmap_x2apic, msr_bitmap, PAGE_SIZE);
		for (u32 msr = MSR_X2APIC_FIRST; msr <= MSR_X2APIC_LAST; msr++)
			msr_passthrough(msr_bitmap_x2apic, msr, vmx_apicv_read_passthrough(msr),
					vmx_apicv_write_passthrough(msr));
	}
	if (caps.vpid) {
		if (vm->id + 1 > 0xFFFF) {
			printk("hv: VM '%s': no VPID left\n", vm->name);
			return -1;
		}
		vm->arch.vmx.vpid = (u16)(vm->id + 1);
	}
	vm->arch.vmx.eptp = (u64)(uintptr_t)nested_paging_map_ram(vm, EPT_BITS) | EPTP_WB_4LEVEL;
	if (apicv)
		printk("hv: VM '%s': %s\n", vm->name,
		       vm->apicv_off ? "APIC emulated, no APICv (apicv = off)"
				     : "APICv: the CPU delivers interrupts and completes EOIs, "
				       "x2APIC registers read without exits");
	return 0;
}

/* ---- the VMCS ---- */

static void vmcs_write(u32 field, u64 value)
{
	if (!vmwrite(field, value)) {
		u64 err = 0;
		vmread(VM_INSTRUCTION_ERROR, &err);
		printk("hv: FATAL: VMWRITE of field %x failed (VM-instruction error %llu)\n", field,
		       (unsigned long long)err);
		hv_exit();
	}
}

static u64 vmcs_read(u32 field)
{
	u64 value = 0;
	vmread(field, &value);
	return value;
}

static u32 ar_to_vmx(u16 attr) { return (attr & 0xFFu) | (attr & 0xF00u) << 4; }
static u16 ar_from_vmx(u32 ar) { return (u16)((ar & 0xFF) | (ar >> 4 & 0xF00)); }

/* Segment n (enum x86_seg order: ES CS SS DS FS GS, then LDTR 6, TR 7). */
static void write_segment(u32 n, u16 sel, u16 attr, u32 limit, u64 base)
{
	vmcs_write(GUEST_ES_SELECTOR + 2 * n, sel);
	vmcs_write(GUEST_ES_AR_BYTES + 2 * n, ar_to_vmx(attr));
	vmcs_write(GUEST_ES_LIMIT + 2 * n, limit);
	vmcs_write(GUEST_ES_BASE + 2 * n, base);
}

/* The host state an exit loads (SDM vol. 3C, 25.5), this pCPU's. */
static void write_host_state(u32 pcpu)
{
	struct x86_host_tables t = x86_host_tables(pcpu);
	extern char vmx_exit[];
	vmcs_write(HOST_CR0, read_cr0());
	vmcs_write(HOST_CR3, read_cr3());
	vmcs_write(HOST_CR4, read_cr4());
	vmcs_write(HOST_CS_SELECTOR, 0x08);
	vmcs_write(HOST_SS_SELECTOR, 0x10);
	vmcs_write(HOST_DS_SELECTOR, 0x10);
	vmcs_write(HOST_ES_SELECTOR, 0x10);
	vmcs_write(HOST_FS_SELECTOR, 0);
	vmcs_write(HOST_GS_SELECTOR, 0);
	vmcs_write(HOST_TR_SELECTOR, t.tss_selector);
	vmcs_write(HOST_FS_BASE, 0);
	vmcs_write(HOST_GS_BASE, (u64)(uintptr_t)&pcpus[pcpu]); /* arch_pcpu_id's %gs:0 */
	vmcs_write(HOST_TR_BASE, t.tss);
	vmcs_write(HOST_GDTR_BASE, t.gdt);
	vmcs_write(HOST_IDTR_BASE, t.idt);
	vmcs_write(HOST_IA32_SYSENTER_CS, 0);
	vmcs_write(HOST_IA32_SYSENTER_ESP, 0);
	vmcs_write(HOST_IA32_SYSENTER_EIP, 0);
	vmcs_write(HOST_IA32_PAT, rdmsr(MSR_IA32_PAT));
	vmcs_write(HOST_IA32_EFER, rdmsr(MSR_EFER));
	vmcs_write(HOST_RIP, (u64)(uintptr_t)vmx_exit);
}

/* Posted interrupts (SDM vol. 3C, 30.6) where the CPU has them, for a vCPU whose CPU
 * delivers: the vLAPIC's posted requests are the descriptor; a notification (VEC_NOTIFY)
 * that reaches its pCPU while it runs moves them into the IRR and delivers with no exit. */
static bool posts(const struct vcpu *v)
{
	return v->arch.lapic.cpu_delivers && (ctls[VMX_PIN] & PIN_POSTED_INTR);
}

/* arch_notify_running: the notification, unless one is outstanding (ON already set: its
 * processing, or the owner's next entry, takes this request too). */
static bool vmx_notify(struct vcpu *v, u32 pcpu)
{
	if (!posts(v))
		return false;
	if (vlapic_claim_notification(&v->arch.lapic))
		x86_send_notification(pcpu);
	return true;
}

/* The controls and what stays as set (once, at the vCPU's first entry). */
static void write_controls(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->proc = ctls[VMX_PROC] &
		  ~(PROC_INTR_WINDOW_EXITING | PROC_NMI_WINDOW_EXITING | PROC_PAUSE_EXITING);
	vmcs_write(PIN_BASED_VM_EXEC_CONTROL,
		   (ctls[VMX_PIN] & ~PIN_POSTED_INTR) | (posts(v) ? PIN_POSTED_INTR : 0));
	vmcs_write(CPU_BASED_VM_EXEC_CONTROL, x->proc);
	/* x2APIC virtualization and PLE are switched at entries (vmx_enter). */
	x->proc2 = (ctls[VMX_PROC2] & ~(PROC2_APICV | PROC2_PAUSE_LOOP_EXITING)) |
		   (v->arch.lapic.cpu_delivers ? PROC2_VIRT_INTR_DELIVERY : 0);
	vmcs_write(SECONDARY_VM_EXEC_CONTROL, x->proc2);
	if (v->arch.lapic.cpu_delivers) {
		vmcs_write(GUEST_INTERRUPT_STATUS, 0);
		for (u32 i = 0; i < 4; i++)
			vmcs_write(EOI_EXIT_BITMAP0 + 2 * i, x->eoi_exit[i] = 0);
	}
	if (posts(v)) {
		vmcs_write(POSTED_INTR_NV, VEC_NOTIFY);
		vmcs_write(POSTED_INTR_DESC_ADDR, (u64)(uintptr_t)&v->arch.lapic.posted);
	}
	if (caps.pause_loop) { /* KVM's defaults, in TSC ticks (25.6.13) */
		vmcs_write(PLE_GAP, 128);
		vmcs_write(PLE_WINDOW, 4096);
	}
	/* Where the CPU can, it acknowledges the host interrupt that ends a run and reports
	 * its vector (27.2.2), which posted interrupts require (26.2.1.1). */
	vmcs_write(VM_EXIT_CONTROLS, ctls[VMX_EXIT]);
	vmcs_write(VM_ENTRY_CONTROLS, ctls[VMX_ENTRY] & ~ENTRY_IA32E_MODE_GUEST);
	/* #DB and #AC exit, against the CPU's endless delivery of one raised while it
	 * delivers the same (CVE-2015-8104, CVE-2015-5307), as on SVM. */
	vmcs_write(EXCEPTION_BITMAP, BIT(VEC_DB) | BIT(VEC_AC));
	vmcs_write(PAGE_FAULT_ERROR_CODE_MASK, 0);
	vmcs_write(PAGE_FAULT_ERROR_CODE_MATCH, 0);
	vmcs_write(CR3_TARGET_COUNT, 0);
	vmcs_write(VM_EXIT_MSR_STORE_COUNT, 0);
	vmcs_write(VM_EXIT_MSR_LOAD_COUNT, 0);
	vmcs_write(VM_ENTRY_MSR_LOAD_COUNT, 0);
	vmcs_write(IO_BITMAP_A, (u64)(uintptr_t)io_bitmaps);
	vmcs_write(IO_BITMAP_B, (u64)(uintptr_t)io_bitmaps + PAGE_SIZE);
	vmcs_write(MSR_BITMAP, (u64)(uintptr_t)msr_bitmap);
	vmcs_write(TSC_OFFSET, 0);
	vmcs_write(EPT_POINTER, v->vm->arch.vmx.eptp);
	if (caps.vpid)
		vmcs_write(VIRTUAL_PROCESSOR_ID, v->vm->arch.vmx.vpid);
	/* TPR shadow: the guest's CR8 is the TPR of the vLAPIC's register page, which has
	 * the virtual-APIC page's layout (25.6.8, 30.1.1). */
	vmcs_write(VIRTUAL_APIC_PAGE_ADDR, (u64)(uintptr_t)v->arch.lapic.regs);
	vmcs_write(TPR_THRESHOLD, 0);
	vmcs_write(CR0_GUEST_HOST_MASK, cr0_owned);
	/* The bits reserved for the guest are the hypervisor's too, so that setting one exits
	 * and takes #GP (cr4.c) rather than working because the CPU has the feature. */
	vmcs_write(CR4_GUEST_HOST_MASK, cr4_owned | x86_cr4_guest_reserved(v));
	vmcs_write(VMCS_LINK_POINTER, ~0ull);
	x->configured = true;
}

/* CR0 and CR4 as the guest sees them (the read shadows) and as they are (with the bits
 * VMX operation wants). */
static void set_cr0(struct vcpu *v, u64 cr0)
{
	v->arch.vmx.regs.cr0 = cr0;
	vmcs_write(CR0_READ_SHADOW, cr0);
	vmcs_write(GUEST_CR0, cr0 | cr0_owned);
}

static void set_cr4(struct vcpu *v, u64 cr4)
{
	v->arch.vmx.regs.cr4 = cr4;
	vmcs_write(CR4_READ_SHADOW, cr4);
	vmcs_write(GUEST_CR4, cr4 | cr4_owned);
}

/* EFER and the IA-32e mode guest control, which must agree (26.3.1.1). */
static void set_efer(struct vcpu *v, u64 efer)
{
	u64 entry = vmcs_read(VM_ENTRY_CONTROLS) & ~(u64)ENTRY_IA32E_MODE_GUEST;
	v->arch.vmx.regs.efer = efer;
	vmcs_write(GUEST_IA32_EFER, efer);
	vmcs_write(VM_ENTRY_CONTROLS, entry | (efer & EFER_LMA ? ENTRY_IA32E_MODE_GUEST : 0));
}

/* The state a vCPU starts in (vmx_state.h: `start`), written at its next entry: the
 * boot state of vCPU 0 (as svm.c's), or the state after INIT (SDM vol. 3A, table 10-1)
 * with CS and RIP as the reset or the STARTUP gives them. */
static void write_start_state(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	const struct vmx_regs *r = &x->regs;
	bool reset = x->start == VMX_START_RESET, long_mode = r->efer & EFER_LMA;
	write_segment(6, 0, 0x82, 0xFFFF, 0); /* LDTR */
	write_segment(7, 0, 0x8B, 0xFFFF, 0); /* TR: a busy TSS */
	for (u32 s = X86_SEG_ES; s <= X86_SEG_GS; s++) {
		if (s == X86_SEG_CS)
			write_segment(s, r->cs_sel, r->cs_attr, r->cs_limit, r->cs_base);
		else if (reset)
			write_segment(s, 0, 0x93, 0xFFFF, 0);
		else /* flat 4 GiB data, as both boot entries want it */
			write_segment(s, 0x18, 0xC93, 0xFFFFFFFF, 0);
	}
	vmcs_write(GUEST_GDTR_BASE, long_mode ? GPA_BOOT_GDT : 0);
	vmcs_write(GUEST_GDTR_LIMIT, long_mode ? 0x1F : 0xFFFF);
	vmcs_write(GUEST_IDTR_BASE, 0);
	vmcs_write(GUEST_IDTR_LIMIT, 0xFFFF);
	vmcs_write(GUEST_DR7, 0x400);
	write_dr6(X86_DR6_FIXED_1); /* the vCPU is loaded (vmx_state.h: dr6) */
	vmcs_write(GUEST_IA32_DEBUGCTL, 0);
	vmcs_write(GUEST_IA32_PAT, 0x0007040600070406ull);
	vmcs_write(GUEST_SYSENTER_CS, 0);
	vmcs_write(GUEST_SYSENTER_ESP, 0);
	vmcs_write(GUEST_SYSENTER_EIP, 0);
	vmcs_write(GUEST_PENDING_DBG_EXCEPTIONS, 0);
	vmcs_write(GUEST_ACTIVITY_STATE, 0);
	vmcs_write(GUEST_RFLAGS, x->regs.rflags);
	vmcs_write(GUEST_CR3, x->regs.cr3);
	set_cr0(v, x->regs.cr0);
	set_cr4(v, x->regs.cr4);
	set_efer(v, x->regs.efer);
	x->rip_dirty = x->interruptibility_dirty = true;
	x->start = VMX_START_NONE;
}

/* The registers the accessors give until the start state is written (write_start_state
 * takes them from here). */
static void set_start_regs(struct vcpu *v, enum vmx_start start, u64 rip, u64 cr0, u64 cr3, u64 cr4,
			   u64 efer, struct x86_segment cs)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->start = start;
	x->regs = (struct vmx_regs){ .rip = rip,
				     .rflags = 2,
				     .cr0 = cr0,
				     .cr3 = cr3,
				     .cr4 = cr4,
				     .efer = efer,
				     .cs_sel = cs.sel,
				     .cs_attr = cs.attr,
				     .cs_limit = cs.limit,
				     .cs_base = cs.base };
	x->entry_event = x->idt_vectoring = 0;
	x->cr2 = 0;
}

static void vmx_vcpu_reset(struct vcpu *v, u16 cs_sel, u64 cs_base, u64 rip)
{
	set_start_regs(v, VMX_START_RESET, rip, 0x10 /* ET; real mode */, 0, 0, 0,
		       (struct x86_segment){ cs_sel, 0x9B, 0xFFFF, cs_base });
	memset(v->arch.gpr, 0, sizeof v->arch.gpr);
	v->arch.flush_tlb = true;
	xstate_vcpu_reset(v); /* INIT sets XCR0 to 1 (SDM vol. 3A, table 10-1) */
	v->arch.spec_ctrl = 0;
}

static int vmx_vcpu_init(struct vcpu *v, const struct x86_boot *boot)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->vmcs = alloc_pages(1);
	*(u32 *)x->vmcs = caps.revision;
	xstate_vcpu_init(v);
	v->arch.lapic.cpu_delivers = v->arch.lapic.posted_requests = apicv && !v->vm->apicv_off;
	v->arch.sipi_vector = -1;
	v->arch.flush_tlb = true;
	if (v->id == 0) {
		/* Flat 4 GiB segments: code 0x10, data 0x18, as both entries want them. */
		if (boot->long_mode) {
			/* Linux boot protocol, 64-bit: paging on, RSI = boot_params. */
			set_start_regs(v, VMX_START_BOOT, boot->entry, 0x80000011, boot->cr3,
				       X86_CR4_PAE, EFER_LME | EFER_LMA,
				       (struct x86_segment){ 0x10, 0xA9B, 0xFFFFFFFF, 0 });
			v->arch.gpr[GPR_RSI] = boot->arg;
		} else {
			/* PVH: 32-bit flat protected mode, paging off, EBX = start info. */
			set_start_regs(v, VMX_START_BOOT, boot->entry, 0x11, 0, 0, 0,
				       (struct x86_segment){ 0x10, 0xC9B, 0xFFFFFFFF, 0 });
			v->arch.gpr[GPR_RBX] = boot->arg;
		}
	}
	return 0;
}

/* ---- load and put: the VMCS current on this pCPU ---- */

static void vmx_load(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	if (!x->configured && !vmclear(x->vmcs)) {
		printk("hv: FATAL: VMCLEAR of vcpu%u's VMCS failed\n", v->id);
		hv_exit();
	}
	if (!vmptrld(x->vmcs)) {
		printk("hv: FATAL: VMPTRLD of vcpu%u's VMCS failed\n", v->id);
		hv_exit();
	}
	pcpus[v->pcpu].arch.vmx.current = v;
	if (!x->configured)
		write_controls(v);
	write_host_state(v->pcpu);
	wrmsr(MSR_KERNEL_GS_BASE, x->kernel_gs_base);
	wrmsr(MSR_STAR, x->star);
	wrmsr(MSR_LSTAR, x->lstar);
	wrmsr(MSR_CSTAR, x->cstar);
	wrmsr(MSR_SFMASK, x->sfmask);
	write_dr6(x->dr6);
}

static void vmx_put(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->kernel_gs_base = rdmsr(MSR_KERNEL_GS_BASE);
	x->star = rdmsr(MSR_STAR);
	x->lstar = rdmsr(MSR_LSTAR);
	x->cstar = rdmsr(MSR_CSTAR);
	x->sfmask = rdmsr(MSR_SFMASK);
	x->dr6 = read_dr6();
	vmclear(x->vmcs);
	x->launched = false;
	pcpus[v->pcpu].arch.vmx.current = NULL;
}

/* ---- exits ---- */

/* RF clear: an EPT violation's exit saves it as 1, an instruction's as 0 (SDM vol. 3C,
 * 28.3.3). */
static void vmx_skip(struct vcpu *v, const struct x86_exit *e, u8 len)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->regs.rip += e->insn_len ? e->insn_len : len;
	x->regs.interruptibility &= ~(u32)(INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS);
	x->rip_dirty = x->interruptibility_dirty = true;
	if (x->regs.rflags & X86_RFLAGS_RF)
		vmcs_write(GUEST_RFLAGS, x->regs.rflags &= ~X86_RFLAGS_RF);
}

static void vmx_inject_exception(struct vcpu *v, u8 vector, bool has_err, u32 err)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	/* No error code is pushed in real mode (26.2.1.3: an entry with one fails). */
	if (!(x->regs.cr0 & CR0_PE))
		has_err = false;
	if (x86_exception_is_fault(vector) && !(x->regs.rflags & X86_RFLAGS_RF))
		vmcs_write(GUEST_RFLAGS, x->regs.rflags |= X86_RFLAGS_RF);
	x->entry_event = vector | INTR_TYPE_HW_EXCEPTION | INTR_INFO_VALID |
			 (has_err ? INTR_INFO_HAS_ERROR : 0);
	x->entry_error = err;
}

/* The guest's DR6 is the CPU's own while the vCPU holds it: MOV DR does not exit, and the
 * host uses no DR6 of its own. */
static void vmx_inject_db(struct vcpu *v, u64 status)
{
	write_dr6(x86_dr6_after_db(read_dr6(), status));
	vmx_inject_exception(v, VEC_DB, false, 0);
}

static void vmx_inject_page_fault(struct vcpu *v, u64 la, u32 err)
{
	v->arch.vmx.cr2 = la;
	vmx_inject_exception(v, VEC_PF, true, err);
}

static void vmx_unblock_nmi(struct vcpu *v)
{
	v->arch.vmx.regs.interruptibility &= ~(u32)INTERRUPTIBILITY_NMI;
	v->arch.vmx.interruptibility_dirty = true;
}

/* The event whose delivery the last exit cut short (IDT-vectoring information, 28.2.4). */
static struct x86_event vmx_cut_short(struct vcpu *v)
{
	u32 info = v->arch.vmx.idt_vectoring;
	if (!(info & INTR_INFO_VALID))
		return (struct x86_event){ X86_EVENT_NONE, 0 };
	switch (info & INTR_INFO_TYPE_MASK) {
	case INTR_TYPE_EXT_INTR:
		return (struct x86_event){ X86_EVENT_IRQ, (u8)info };
	case INTR_TYPE_NMI:
		return (struct x86_event){ X86_EVENT_NMI, VEC_NMI };
	default:
		return (struct x86_event){ X86_EVENT_OTHER, (u8)info };
	}
}

/* Delivered again as it was (27.2.3): an NMI's blocking, set as its delivery began, is
 * lifted for that (an entry injecting an NMI with it set fails). */
static void vmx_redeliver(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	x->entry_event = x->idt_vectoring & ~INTR_INFO_NMI_UNBLOCKED;
	x->entry_error = x->idt_vectoring_error;
	x->entry_insn_len = x->exit_insn_len; /* for software interrupts and exceptions */
	if ((x->idt_vectoring & INTR_INFO_TYPE_MASK) == INTR_TYPE_NMI)
		vmx_unblock_nmi(v);
	x->idt_vectoring = 0;
}

/* Forgotten, the policy having put it back: an interrupt the CPU delivered (APICv) is
 * counted again when it delivers it again. */
static void vmx_drop_cut_short(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	if ((x->idt_vectoring & INTR_INFO_TYPE_MASK) == INTR_TYPE_EXT_INTR &&
	    v->arch.lapic.cpu_delivers)
		v->stats.irqs_cpu_delivered--;
	x->idt_vectoring = 0;
}

/* An intercepted #DB or #AC back to the guest as the CPU raised it, of the same type (an
 * INT1 is a privileged software exception, delivered past the instruction: 27.6.1.1). A
 * #DB's DR6 bits are in the exit qualification, not in DR6 (28.2.1), and go there as the
 * CPU would have put them (vmx_inject_db); #AC's error code is 0. An event the CPU was
 * delivering waits (inject.c). */
static void reflect_exception(struct vcpu *v)
{
	u8 vector = v->arch.vmx.exit_intr_info & INTR_INFO_VECTOR_MASK;
	struct vmx_vcpu *x = &v->arch.vmx;
	if (vector == VEC_DB) {
		vmx_inject_db(v, x->exit_qual);
		/* General detect (DR6.BD): the CPU clears DR7.GD as it delivers the #DB. */
		if (x->exit_qual & BIT(13))
			vmcs_write(GUEST_DR7, vmcs_read(GUEST_DR7) & ~BIT(13));
		/* A single step in an STI or MOV SS shadow: the entry wants BS pending with
		 * the shadow (26.3.1.5), as KVM does. */
		if ((x->regs.rflags & BIT(8)) &&
		    (x->regs.interruptibility & (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS)))
			vmcs_write(GUEST_PENDING_DBG_EXCEPTIONS,
				   vmcs_read(GUEST_PENDING_DBG_EXCEPTIONS) | BIT(14));
	} else {
		vmx_inject_exception(v, vector, true, 0);
	}
	x->entry_event = (x->entry_event & ~INTR_INFO_TYPE_MASK) |
			 (x->exit_intr_info & INTR_INFO_TYPE_MASK);
	x->entry_insn_len = x->exit_insn_len;
}

/* PAE paging (CR0.PG and CR4.PAE without EFER.LME) with EPT: an entry takes the four
 * PDPTEs from the VMCS, where an exit leaves the CPU's (26.3.2.4, 28.3.4). A MOV to CR0, CR3
 * or CR4 that the hypervisor emulates and after which the guest is in PAE paging loads them
 * there, as the instruction would have loaded them into the CPU (SDM vol. 3A, 4.4.1): false
 * where one has a reserved bit set or CR3 is not RAM (#GP, nothing changed). */
static bool load_pdptes(struct vcpu *v, u64 cr0, u64 cr3, u64 cr4)
{
	if (!(cr0 & CR0_PG) || !(cr4 & X86_CR4_PAE) || (v->arch.vmx.regs.efer & EFER_LME))
		return true;
	const u64 *table = gpa_to_hva(v->vm, cr3 & 0xFFFFFFE0u, 32);
	if (!table)
		return false;
	u64 pdpte[4];
	memcpy(pdpte, table, sizeof pdpte); /* once: the guest may change it meanwhile */
	for (u32 i = 0; i < 4; i++)
		if (!x86_pdpte_valid(pdpte[i], maxphyaddr))
			return false;
	for (u32 i = 0; i < 4; i++)
		vmcs_write(GUEST_PDPTE0 + 2 * i, pdpte[i]);
	return true;
}

/* An intercepted MOV to CR0, CR3 or CR4 (the bits VMX operation owns changed, or a CPU
 * without the TRUE controls exits on every CR3 access), or a MOV from CR3 (28.2.1, table
 * 28-3). The CR0 write that turns paging on or off with EFER.LME set enters or leaves
 * IA-32e mode, which the CPU would have done (SDM vol. 3A, 10.8.5). */
static void handle_cr_access(struct vcpu *v, const struct x86_exit *e)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	u32 cr = x->exit_qual & 0xF, type = x->exit_qual >> 4 & 3, gpr = x->exit_qual >> 8 & 0xF;
	u64 val = v->arch.gpr[gpr];
	if (type == 1 && cr == 3) { /* MOV from CR3 */
		v->arch.gpr[gpr] = x->regs.cr3;
		return x86_skip(v, e, 0);
	}
	if (type != 0) {
		vcpu_bad_access(v, "CR access exit (qualification %llx) not asked for: #UD",
				(unsigned long long)x->exit_qual);
		return vmx_inject_exception(v, VEC_UD, false, 0);
	}
	if (cr == 0) {
		u64 old = x->regs.cr0;
		/* The CPU's #GP cases (SDM vol. 2, MOV to CR0), paging off in 64-bit code
		 * among them. */
		bool code64 = (x->regs.efer & EFER_LMA) && (x->regs.cs_attr & X86_SEG_ATTR_L);
		if ((val >> 32) || ((val & CR0_PG) && !(val & CR0_PE)) ||
		    ((val & CR0_NW) && !(val & CR0_CD)) ||
		    ((val & CR0_PG) && (x->regs.efer & EFER_LME) && !(x->regs.cr4 & X86_CR4_PAE)) ||
		    (code64 && !(val & CR0_PG)) ||
		    (!(val & CR0_PG) && (x->regs.cr4 & X86_CR4_PCIDE)) ||
		    (((old ^ val) & (CR0_PG | CR0_CD | CR0_NW)) &&
		     !load_pdptes(v, val, x->regs.cr3, x->regs.cr4)))
			return vmx_inject_exception(v, VEC_GP, true, 0);
		if ((old ^ val) & CR0_PG)
			v->arch.flush_tlb = true; /* the guest's translations change wholesale */
		set_cr0(v, val);
		if (!(old & CR0_PG) && (val & CR0_PG) && (x->regs.efer & EFER_LME))
			set_efer(v, x->regs.efer | EFER_LMA);
		if ((old & CR0_PG) && !(val & CR0_PG))
			set_efer(v, x->regs.efer & ~(u64)EFER_LMA);
	} else if (cr == 4) {
		if (!x86_cr4_write_ok(x86_cr4_guest_reserved(v), x->regs.cr4, val,
				      x->regs.efer & EFER_LMA, x->regs.cr3)) {
			v->stats.bad_accesses++;
			return vmx_inject_exception(v, VEC_GP, true, 0);
		}
		if (((x->regs.cr4 ^ val) &
		     (X86_CR4_PAE | X86_CR4_PGE | X86_CR4_PSE | X86_CR4_SMEP)) &&
		    !load_pdptes(v, x->regs.cr0, x->regs.cr3, val))
			return vmx_inject_exception(v, VEC_GP, true, 0);
		if ((x->regs.cr4 ^ val) & X86_CR4_PAGING_BITS)
			v->arch.flush_tlb =
				true; /* as the CPU's write would (SDM vol. 3A, 4.10.4.1) */
		set_cr4(v, val);
	} else if (cr == 3) {
		if (x->regs.cr4 & X86_CR4_PCIDE)
			val &= ~BIT(63); /* "no flush": flushed all the same */
		if (!load_pdptes(v, x->regs.cr0, val, x->regs.cr4))
			return vmx_inject_exception(v, VEC_GP, true, 0);
		v->arch.flush_tlb = true;
		x->regs.cr3 = val;
		vmcs_write(GUEST_CR3, val);
	} else {
		vcpu_bad_access(v, "CR%u write exit not asked for: #UD", cr);
		return vmx_inject_exception(v, VEC_UD, false, 0);
	}
	x86_skip(v, e, 0);
}

static enum exit_kind exit_kind_of(u16 reason)
{
	switch (reason) {
	case EXIT_REASON_EXTERNAL_INTERRUPT:
	case EXIT_REASON_INIT:
	case EXIT_REASON_SIPI:
	case EXIT_REASON_IO_SMI:
	case EXIT_REASON_OTHER_SMI:
	case EXIT_REASON_PREEMPTION_TIMER:
		return EXIT_HOST_IRQ;
	case EXIT_REASON_IO_INSTRUCTION:
		return EXIT_IO;
	case EXIT_REASON_EPT_VIOLATION:
		return EXIT_MMIO;
	case EXIT_REASON_RDMSR:
	case EXIT_REASON_WRMSR:
		return EXIT_MSR;
	case EXIT_REASON_CPUID:
		return EXIT_CPUID;
	case EXIT_REASON_HLT:
		return EXIT_HALT;
	case EXIT_REASON_VMCALL:
		return EXIT_HYPERCALL;
	case EXIT_REASON_INTERRUPT_WINDOW:
	case EXIT_REASON_NMI_WINDOW:
		return EXIT_IRQ_WINDOW;
	case EXIT_REASON_TRIPLE_FAULT:
		return EXIT_SHUTDOWN;
	case EXIT_REASON_EXCEPTION_NMI:
		return EXIT_EXCEPTION;
	default:
		return EXIT_OTHER;
	}
}

static void report_triple_fault(struct vcpu *v)
{
	char state[256];
	arch_vcpu_describe(v, state, sizeof state);
	printk("hv: VM '%s' vcpu%u: triple fault at rip %llx: %s rsp=%llx cs=%x cr0=%llx "
	       "cr2=%llx cr3=%llx cr4=%llx efer=%llx idt=%llx/%llx gdt=%llx/%llx "
	       "idt-vectoring=%x\n",
	       v->vm->name, v->id, (unsigned long long)v->arch.vmx.regs.rip, state,
	       (unsigned long long)v->arch.gpr[GPR_RSP], v->arch.vmx.regs.cs_sel,
	       (unsigned long long)v->arch.vmx.regs.cr0, (unsigned long long)v->arch.vmx.cr2,
	       (unsigned long long)v->arch.vmx.regs.cr3, (unsigned long long)v->arch.vmx.regs.cr4,
	       (unsigned long long)v->arch.vmx.regs.efer,
	       (unsigned long long)vmcs_read(GUEST_IDTR_BASE),
	       (unsigned long long)vmcs_read(GUEST_IDTR_LIMIT),
	       (unsigned long long)vmcs_read(GUEST_GDTR_BASE),
	       (unsigned long long)vmcs_read(GUEST_GDTR_LIMIT), v->arch.vmx.idt_vectoring);
}

/* The guest cannot go on: say why, stop its VM. */
static void stop_vm(struct vcpu *v, struct x86_exit *e, const char *what)
{
	printk("hv: VM '%s' vcpu%u: %s (exit reason %llx, qualification %llx, rip %llx); "
	       "stopping the VM\n",
	       v->vm->name, v->id, what, (unsigned long long)e->code, (unsigned long long)e->info,
	       (unsigned long long)v->arch.vmx.regs.rip);
	vm_request_stop(v->vm, VM_FATAL);
	e->reason = X86_EXIT_STOP;
}

/* Before the policy (inject.h) looks: the last entry's windows off. */
static void vmx_events_begin(struct vcpu *v, bool window)
{
	(void)window;
	v->arch.vmx.proc &= ~(PROC_INTR_WINDOW_EXITING | PROC_NMI_WINDOW_EXITING);
}

static bool vmx_exception_queued(struct vcpu *v) { return v->arch.vmx.entry_event; }

/* Virtual NMIs (25.3): blocked by an NMI's handler until its IRET, and for an entry's
 * injection also by STI and MOV SS blocking (26.3.1.5). */
static bool vmx_nmi_blocked(struct vcpu *v)
{
	return v->arch.vmx.regs.interruptibility &
	       (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS | INTERRUPTIBILITY_NMI);
}

static void vmx_inject_nmi(struct vcpu *v)
{
	v->arch.vmx.entry_event = VEC_NMI | INTR_TYPE_NMI | INTR_INFO_VALID;
}

/* NMI-window exiting (25.6.2, 27.7). */
static void vmx_request_nmi_window(struct vcpu *v) { v->arch.vmx.proc |= PROC_NMI_WINDOW_EXITING; }

/* With APICv the CPU takes RVI's vector itself (apicv_enter). */
static bool vmx_cpu_delivers(struct vcpu *v) { return v->arch.lapic.cpu_delivers; }

static void vmx_inject_irq(struct vcpu *v, u8 vector)
{
	v->arch.vmx.entry_event = vector | INTR_TYPE_EXT_INTR | INTR_INFO_VALID;
	v->stats.irqs_injected++;
}

static void vmx_request_irq_window(struct vcpu *v) { v->arch.vmx.proc |= PROC_INTR_WINDOW_EXITING; }

/* The exit's information and the registers the accessors give (vmx_state.h). */
static void read_exit(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	struct vmx_regs *r = &x->regs;
	x->exit_reason = (u32)vmcs_read(VM_EXIT_REASON);
	x->exit_qual = vmcs_read(EXIT_QUALIFICATION);
	x->exit_intr_info = (u32)vmcs_read(VM_EXIT_INTR_INFO);
	x->idt_vectoring = (u32)vmcs_read(IDT_VECTORING_INFO);
	x->idt_vectoring_error = (u32)vmcs_read(IDT_VECTORING_ERROR_CODE);
	x->exit_insn_len = (u8)vmcs_read(VM_EXIT_INSTRUCTION_LEN);
	r->rip = vmcs_read(GUEST_RIP);
	r->rflags = vmcs_read(GUEST_RFLAGS);
	r->cr0 = (vmcs_read(GUEST_CR0) & ~cr0_owned) | (r->cr0 & cr0_owned);
	r->cr3 = vmcs_read(GUEST_CR3);
	r->cr4 = (vmcs_read(GUEST_CR4) & ~cr4_owned) | (r->cr4 & cr4_owned);
	r->efer = vmcs_read(GUEST_IA32_EFER);
	r->interruptibility = (u32)vmcs_read(GUEST_INTERRUPTIBILITY_INFO);
	r->cpl = (u8)(vmcs_read(GUEST_ES_AR_BYTES + 2 * X86_SEG_SS) >> 5 & 3);
	r->cs_sel = (u16)vmcs_read(GUEST_CS_SELECTOR);
	r->cs_attr = ar_from_vmx((u32)vmcs_read(GUEST_ES_AR_BYTES + 2 * X86_SEG_CS));
	r->cs_limit = (u32)vmcs_read(GUEST_ES_LIMIT + 2 * X86_SEG_CS);
	r->cs_base = vmcs_read(GUEST_ES_BASE + 2 * X86_SEG_CS);
}

extern u32 vmx_run(u64 *gpr, u32 launched, u64 *cr2);

/* The VMX-preemption timer's count from now to deadline, at most 10 ms away (vmx_enter):
 * 0 exits at once. */
static u32 preemption_ticks(u64 deadline, u64 now)
{
	return deadline <= now ? 0 : (u32)((deadline - now) >> (caps.misc & 0x1F));
}

/* APIC virtualization before an entry: x2APIC virtualization while the guest's APIC is in
 * x2APIC mode, the posted requests moved into the IRR and RVI/SVI and the EOI-exit bitmap
 * set from the vLAPIC (vmx_apicv.h). proc2: the secondary controls, to be updated. */
static void apicv_enter(struct vcpu *v, u32 *proc2)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	struct vmx_apicv_entry *a = &x->apicv;
	/* In x2APIC mode only: else every x2APIC MSR exits, to be refused by the vLAPIC as on
	 * a CPU. */
	bool x2 = vlapic_x2apic_mode(&v->arch.lapic);
	if (x2 != !!(x->proc2 & PROC2_VIRT_X2APIC_MODE))
		vmcs_write(MSR_BITMAP, (u64)(uintptr_t)(x2 ? msr_bitmap_x2apic : msr_bitmap));
	*proc2 = (*proc2 & ~(PROC2_VIRT_X2APIC_MODE | PROC2_APIC_REGISTER_VIRT)) |
		 (x2 ? PROC2_VIRT_X2APIC_MODE | PROC2_APIC_REGISTER_VIRT : 0);
	vmx_apicv_prepare(&v->arch.lapic, a);
	vmcs_write(GUEST_INTERRUPT_STATUS, a->intr_status);
	/* The CPU takes RVI's vector as soon as the guest can (30.2.1). While it cannot
	 * (RFLAGS.IF = 0, a shadow), the interrupt window exits first, as without APICv:
	 * Bochs 2.7 delivers a recognized virtual interrupt even with IF = 0 when a host
	 * interrupt comes (event.cc, InterruptAcknowledge). */
	bool above = (a->intr_status & 0xF0) > (vlapic_ppr(&v->arch.lapic) & 0xF0);
	bool interruptible = x86_vendor->interruptible(v);
	if (above && !interruptible)
		x->proc |= PROC_INTR_WINDOW_EXITING;
	/* Bochs 2.7 also delivers with IF = 0 a vector that becomes deliverable in the middle
	 * of a run: a guest EOI virtualized without an exit that lowers VPPR below a vector
	 * waiting in the VIRR ends with the evaluation of pending virtual interrupts
	 * (30.1.4; Bochs's VMX_EOI_Virtualization), and Bochs delivers what that recognized
	 * at the next host interrupt, whatever IF is (InterruptAcknowledge looks at it before
	 * the external-interrupt exit). Linux EOIs first in its handlers and runs them with
	 * IF = 0: the waiting vector (the timer's, behind an IPI taken at the entry) then
	 * runs nested in the handler, and one that takes a lock the handler holds (the
	 * runqueue's) spins on it for good; as the lock's PV waiter it halts with IF = 0, and
	 * no kick comes, since the holder is itself (issue 31, item 4: pv-kicks=0 for the
	 * halted vCPU). So while the VIRR holds a vector that this entry does not deliver,
	 * the run's EOIs exit (the EOI-exit bitmap: the EOI's virtualization ends with the
	 * exit instead of the evaluation), and the next entry decides again; not while the
	 * window is asked for, which holds every virtual interrupt back (30.2.1, Bochs too).
	 * Without posted interrupts nothing else reaches the VIRR in a run (SELF IPI writes
	 * exit); with them (not Bochs's CPU here) the CPU's own evaluation waits for IF. */
	u32 waiting = 0;
	for (u32 i = 0; i < 8; i++)
		waiting += (u32)__builtin_popcount(a->run.irr[i]);
	if (waiting && above && interruptible && !x->entry_event)
		waiting--; /* RVI's vector, delivered at the entry */
	if (waiting && !(x->proc & PROC_INTR_WINDOW_EXITING))
		for (u32 i = 0; i < 4; i++)
			a->eoi_exit[i] |= ((u64)(a->run.irr[2 * i + 1] | a->run.isr[2 * i + 1])
					   << 32) |
					  a->run.irr[2 * i] | a->run.isr[2 * i];
	for (u32 i = 0; i < 4; i++)
		if (a->eoi_exit[i] != x->eoi_exit[i])
			vmcs_write(EOI_EXIT_BITMAP0 + 2 * i, x->eoi_exit[i] = a->eoi_exit[i]);
}

/* After the exit: what the CPU delivered and completed in the run. */
static void apicv_exit(struct vcpu *v)
{
	u64 delivered, eois;
	vlapic_run_count(&v->arch.lapic, &v->arch.vmx.apicv.run, &delivered, &eois);
	if (vmx_exit_basic(v->arch.vmx.exit_reason) == EXIT_REASON_VIRTUALIZED_EOI && eois)
		eois--; /* that EOI exited */
	v->stats.irqs_cpu_delivered += delivered;
	v->stats.virtual_eois += eois;
}

static void vmx_enter(struct vcpu *v)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	if (x->start != VMX_START_NONE)
		write_start_state(v);
	/* The VPID is the VM's: entries another vCPU of it left here, or this one's from
	 * before it ran on another pCPU, are stale (INVVPID, 29.4.3.3). */
	if (v->arch.flush_tlb || p->last_vcpu != v || v->arch.ran_on != v->pcpu + 1) {
		if (caps.vpid)
			invvpid(caps.invvpid & BIT(VMX_INV_SINGLE) ? VMX_INV_SINGLE : VMX_INV_ALL,
				v->vm->arch.vmx.vpid);
		v->arch.flush_tlb = false;
		p->last_vcpu = v;
		v->arch.ran_on = v->pcpu + 1;
	}
	/* Spin detection (hv/sched.h): PAUSE-loop exiting where the CPU has it (an exit only
	 * for a loop of PAUSEs that runs longer than the PLE window, 26.1.3), else every
	 * PAUSE exits. */
	bool watch = sched_watch_spin(v);
	u32 proc2 = x->proc2 & ~PROC2_PAUSE_LOOP_EXITING;
	x->proc &= ~PROC_PAUSE_EXITING;
	if (watch && caps.pause_loop)
		proc2 |= PROC2_PAUSE_LOOP_EXITING;
	else if (watch && caps.pause_exiting)
		x->proc |= PROC_PAUSE_EXITING;
	/* The VMX-preemption timer (25.5.1, counting down at the TSC rate >> IA32_VMX_MISC
	 * bits 4:0) ends the guest's run at this pCPU's next decision (look_at) even if its
	 * host timer interrupt does not make it exit, and a run with nothing to decide after
	 * 10 ms (1 ms with RFLAGS.IF = 0) at the latest: Bochs 2.7 lets a guest that runs with
	 * IF = 0 go on past host interrupts, kicks included (docs/testing.md), so a vCPU woken
	 * on this pCPU (a PV spinlock's next holder) would wait for a spinning one for good.
	 * Where host interrupts exit as they should, that is one exit per 10 ms of a vCPU
	 * that runs alone. */
	if (ctls[VMX_PIN] & PIN_PREEMPTION_TIMER) {
		u64 now = arch_time_now();
		u64 bound = now + arch_time_hz / (x->regs.rflags & X86_RFLAGS_IF ? 100 : 1000);
		vmcs_write(VMX_PREEMPTION_TIMER_VALUE,
			   preemption_ticks(MIN(pcpus[v->pcpu].look_at, bound), now));
	}
	bool cpu_delivers = v->arch.lapic.cpu_delivers;
	if (cpu_delivers)
		apicv_enter(v, &proc2);
	else
		/* TPR threshold (25.6.8): while the TPR alone holds the highest waiting
		 * interrupt back, a guest CR8 write that lowers it below that interrupt's
		 * class exits (29.1.2), so that the interrupt is taken at once, as on a CPU.
		 * (With virtual-interrupt delivery the CPU does that itself, 30.1.2.) */
		vmcs_write(TPR_THRESHOLD, vlapic_tpr_holds_back(&v->arch.lapic));
	if (proc2 != x->proc2)
		vmcs_write(SECONDARY_VM_EXEC_CONTROL, x->proc2 = proc2);
	vmcs_write(CPU_BASED_VM_EXEC_CONTROL, x->proc);
	if (x->rip_dirty)
		vmcs_write(GUEST_RIP, x->regs.rip);
	if (x->interruptibility_dirty)
		vmcs_write(GUEST_INTERRUPTIBILITY_INFO, x->regs.interruptibility);
	x->rip_dirty = x->interruptibility_dirty = false;
	vmcs_write(VM_ENTRY_INTR_INFO, x->entry_event);
	if (x->entry_event) {
		vmcs_write(VM_ENTRY_EXCEPTION_ERROR_CODE, x->entry_error);
		vmcs_write(VM_ENTRY_INSTRUCTION_LEN, x->entry_insn_len);
	}
	vmcs_write(GUEST_RSP, v->arch.gpr[GPR_RSP]);
	u32 failed = vmx_run(v->arch.gpr, x->launched, &x->cr2);
	x->entry_event = 0;
	x->entry_insn_len = 0;
	if (failed) {
		x->exit_reason = ~0u;
		x->exit_qual = vmcs_read(VM_INSTRUCTION_ERROR);
		return;
	}
	x->launched = true;
	v->arch.gpr[GPR_RSP] = vmcs_read(GUEST_RSP);
	read_exit(v);
	if (cpu_delivers)
		apicv_exit(v);
}

/* The exit the last entry ended with (vmx_enter), for vcpu.c, or handled here. */
static void vmx_decode(struct vcpu *v, struct x86_exit *e)
{
	struct vmx_vcpu *x = &v->arch.vmx;
	u16 reason = vmx_exit_basic(x->exit_reason);
	*e = (struct x86_exit){ .reason = X86_EXIT_HANDLED,
				.kind = exit_kind_of(reason),
				.code = x->exit_reason,
				.info = x->exit_qual,
				/* 28.2.4: valid for the exits of instructions, the ones whose
				 * handlers move RIP past them */
				.insn_len = x->exit_insn_len };
	if (x->exit_reason == ~0u)
		return stop_vm(v, e,
			       "VMLAUNCH or VMRESUME failed (VM-instruction error in "
			       "the qualification)");
	if (x->exit_reason & VMX_EXIT_ENTRY_FAILURE)
		return stop_vm(v, e,
			       "the VM entry failed (reason 33: the guest state; 34: MSR "
			       "loading; 41: a machine check)");
	switch (reason) {
	case EXIT_REASON_EXCEPTION_NMI:
		if ((x->exit_intr_info & INTR_INFO_TYPE_MASK) == INTR_TYPE_NMI) {
			/* A host NMI (a platform watchdog): nothing of ours uses NMIs. */
			pcpus[v->pcpu].arch.nmis++;
			e->reason = X86_EXIT_HOST;
			break;
		}
		if ((x->exit_intr_info & INTR_INFO_VECTOR_MASK) == VEC_DB ||
		    (x->exit_intr_info & INTR_INFO_VECTOR_MASK) == VEC_AC) {
			reflect_exception(v);
			break;
		}
		stop_vm(v, e, "an exception exit that was not asked for");
		break;
	case EXIT_REASON_EXTERNAL_INTERRUPT:
		/* Acknowledged at the exit: handled here, as the host's IDT would. */
		if (x->exit_intr_info & INTR_INFO_VALID)
			x86_host_interrupt((u8)(x->exit_intr_info & INTR_INFO_VECTOR_MASK));
		e->reason = X86_EXIT_HOST;
		break;
	case EXIT_REASON_INIT:
	case EXIT_REASON_SIPI:
	case EXIT_REASON_IO_SMI:
	case EXIT_REASON_OTHER_SMI:
	case EXIT_REASON_PREEMPTION_TIMER: /* the pCPU's next decision is due */
		e->reason = X86_EXIT_HOST;
		break;
	case EXIT_REASON_TRIPLE_FAULT:
		report_triple_fault(v);
		e->reason = X86_EXIT_TRIPLE_FAULT;
		break;
	case EXIT_REASON_INTERRUPT_WINDOW:
		e->reason = X86_EXIT_IRQ_WINDOW;
		break;
	case EXIT_REASON_NMI_WINDOW:
	case EXIT_REASON_TPR_BELOW_THRESHOLD:
		break; /* the next entry injects what waits */
	case EXIT_REASON_VIRTUALIZED_EOI:
		/* The CPU did the EOI; its vector is in the EOI-exit bitmap (30.1.4). */
		vlapic_eoi_exit(&v->arch.lapic, (u8)x->exit_qual);
		break;
	case EXIT_REASON_APIC_WRITE:
	case EXIT_REASON_APIC_ACCESS:
		/* APIC accesses are not virtualized, and of the x2APIC registers only TPR and
		 * EOI writes pass, which never exit so (30.5). */
		stop_vm(v, e, "BUG: an APIC-access or APIC-write exit");
		break;
	case EXIT_REASON_CPUID:
		e->reason = X86_EXIT_CPUID;
		break;
	case EXIT_REASON_HLT:
		e->reason = X86_EXIT_HLT;
		break;
	case EXIT_REASON_INVD:
	case EXIT_REASON_WBINVD:
		e->reason = X86_EXIT_CACHE_FLUSH;
		break;
	case EXIT_REASON_VMCALL:
		e->reason = X86_EXIT_HYPERCALL;
		break;
	case EXIT_REASON_CR_ACCESS:
		handle_cr_access(v, e);
		break;
	case EXIT_REASON_IO_INSTRUCTION: {
		struct vmx_io_qual q = vmx_io_qual(x->exit_qual);
		e->reason = X86_EXIT_IO;
		e->port = q.port;
		e->size = q.size;
		e->write = !q.in;
		e->string = q.string;
		break;
	}
	case EXIT_REASON_RDMSR:
	case EXIT_REASON_WRMSR:
		e->reason = X86_EXIT_MSR;
		e->write = reason == EXIT_REASON_WRMSR;
		break;
	case EXIT_REASON_XSETBV:
		e->reason = X86_EXIT_XSETBV;
		break;
	case EXIT_REASON_PAUSE:
		e->reason = X86_EXIT_PAUSE;
		break;
	case EXIT_REASON_EPT_VIOLATION: {
		struct vmx_ept_qual q = vmx_ept_qual(x->exit_qual);
		e->reason = X86_EXIT_MMIO;
		e->insn_len = 0; /* decoded by the handler */
		e->gpa = vmcs_read(GUEST_PHYSICAL_ADDRESS);
		e->event = x->idt_vectoring;
		e->delivering = x->idt_vectoring & INTR_INFO_VALID;
		/* An IRET that faulted had unblocked NMIs: blocked again for its retry
		 * (28.2.3). */
		if (q.nmi_unblocked && !e->delivering) {
			x->regs.interruptibility |= INTERRUPTIBILITY_NMI;
			x->interruptibility_dirty = true;
		}
		break;
	}
	case EXIT_REASON_EPT_MISCONFIG:
		stop_vm(v, e, "BUG: an EPT misconfiguration");
		break;
	default:
		/* VMX instructions, GETSEC, MONITOR/MWAIT, task switches, and any exit a
		 * CPU without the TRUE controls forces: not offered, so #UD as on a CPU
		 * without them. */
		e->reason = X86_EXIT_UNSUPPORTED;
		break;
	}
}

/* ---- the guest's registers ---- */

static u64 vmx_get(struct vcpu *v, enum x86_reg r)
{
	const struct vmx_regs *g = &v->arch.vmx.regs;
	switch (r) {
	case X86_RIP:
		return g->rip;
	case X86_RFLAGS:
		return g->rflags;
	case X86_CR0:
		return g->cr0;
	case X86_CR3:
		return g->cr3;
	case X86_CR4:
		return g->cr4;
	case X86_EFER:
		return g->efer;
	case X86_CPL:
		return g->cpl;
	}
	return 0;
}

/* Only while the vCPU is loaded here (its exit handlers), as vmx_segment. */
static void vmx_set_rflags(struct vcpu *v, u64 rflags)
{
	v->arch.vmx.regs.rflags = rflags;
	vmcs_write(GUEST_RFLAGS, rflags);
}

/* CS from the copy taken at the exit; the others from the VMCS, so only while the vCPU
 * is loaded here (its exit handlers). */
static struct x86_segment vmx_segment(struct vcpu *v, enum x86_seg s)
{
	const struct vmx_regs *g = &v->arch.vmx.regs;
	if (s == X86_SEG_CS)
		return (struct x86_segment){ g->cs_sel, g->cs_attr, g->cs_limit, g->cs_base };
	return (struct x86_segment){
		.sel = (u16)vmcs_read(GUEST_ES_SELECTOR + 2 * s),
		.attr = ar_from_vmx((u32)vmcs_read(GUEST_ES_AR_BYTES + 2 * s)),
		.limit = (u32)vmcs_read(GUEST_ES_LIMIT + 2 * s),
		.base = vmcs_read(GUEST_ES_BASE + 2 * s),
	};
}

/* SDM vol. 3C, 26.6.5: with "use TSC offsetting", RDTSC(P) and RDMSR of the TSC read the
 * host's TSC plus TSC_OFFSET. */
static void vmx_set_tsc_offset(struct vcpu *v, u64 offset)
{
	(void)v;
	vmcs_write(TSC_OFFSET, offset);
}

static bool vmx_interruptible(struct vcpu *v)
{
	const struct vmx_regs *g = &v->arch.vmx.regs;
	return (g->rflags & X86_RFLAGS_IF) &&
	       !(g->interruptibility & (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS));
}

/* ---- the hardware self-test ---- */

static bool vmx_apic_virtualization(void) { return apicv; }

static u32 vmx_selftest_features(struct selftest_feature *f, u32 max)
{
	const char *injected = "interrupts injected by the hypervisor, EOIs exit";
	const struct selftest_feature all[] = {
		{ "VMX", true, false, NULL, NULL },
		{ "EPT", caps.ept, false, NULL, NULL },
		{ "VPID", caps.vpid, false, NULL, caps.vpid ? NULL : "TLB flushed at each entry" },
		{ "unrestricted guest", caps.unrestricted_guest, false, NULL, NULL },
		{ "x2APIC virtualization", caps.x2apic_virt, !apicv, "apicv",
		  apicv ? NULL : injected },
		{ "APIC-register virtualization", caps.apic_register_virt, !apicv, "apicv",
		  apicv ? NULL : injected },
		{ "virtual-interrupt delivery", caps.virt_intr_delivery, !apicv, "apicv",
		  apicv ? NULL : injected },
		{ "posted interrupts", apicv && (ctls[VMX_PIN] & PIN_POSTED_INTR), false, "apicv",
		  apicv && (ctls[VMX_PIN] & PIN_POSTED_INTR)
			  ? NULL
			  : "an interrupt for a running vCPU is a kick (an exit)" },
		{ "PAUSE-loop exiting", caps.pause_loop, false, NULL,
		  caps.pause_loop ? NULL : "every PAUSE exits while a spin is watched" },
		{ "VMX-preemption timer", caps.preemption_timer, false, NULL,
		  caps.preemption_timer ? NULL : "runs end at host timer interrupts only" },
	};
	u32 n = 0;
	for (; n < ARRAY_SIZE(all) && n < max; n++)
		f[n] = all[n];
	return n;
}

const struct x86_vendor vmx_vendor = {
	.name = "Intel VMX",
	.check = vmx_check,
	.describe = vmx_describe,
	.cpuid_filter = vmx_cpuid_filter,
	.pcpu_enable = vmx_pcpu_enable,
	.vm_init = vmx_vm_init,
	.vcpu_init = vmx_vcpu_init,
	.vcpu_reset = vmx_vcpu_reset,
	.load = vmx_load,
	.put = vmx_put,
	.events_begin = vmx_events_begin,
	.cut_short = vmx_cut_short,
	.redeliver = vmx_redeliver,
	.drop_cut_short = vmx_drop_cut_short,
	.exception_queued = vmx_exception_queued,
	.nmi_blocked = vmx_nmi_blocked,
	.unblock_nmi = vmx_unblock_nmi,
	.inject_nmi = vmx_inject_nmi,
	.request_nmi_window = vmx_request_nmi_window,
	.cpu_delivers = vmx_cpu_delivers,
	.inject_irq = vmx_inject_irq,
	.request_irq_window = vmx_request_irq_window,
	.enter = vmx_enter,
	.decode = vmx_decode,
	.skip = vmx_skip,
	.inject_exception = vmx_inject_exception,
	.inject_db = vmx_inject_db,
	.inject_page_fault = vmx_inject_page_fault,
	.get = vmx_get,
	.set_rflags = vmx_set_rflags,
	.segment = vmx_segment,
	.set_tsc_offset = vmx_set_tsc_offset,
	.interruptible = vmx_interruptible,
	.notify = vmx_notify,
	.apicv_vm = "apicv",
	.apic_virtualization = vmx_apic_virtualization,
	.selftest_features = vmx_selftest_features,
};
