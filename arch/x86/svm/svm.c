/* SPDX-License-Identifier: GPL-2.0-only */
/* AMD SVM backend: VMCB setup, nested paging, the run loop and exit handling
 * (AMD APM vol. 2, chapter 15). Written for CPUs without NRIP save or decode assists
 * (QEMU TCG): the next RIP is computed here, MMIO instructions are decoded in software. */
#include "arch/x86/svm/vmcb.h"
#include "arch/x86/xstate.h"
#include "arch/cpu.h"
#include "arch/x86/decode.h"
#include "arch/x86/guest.h"
#include "arch/x86/guest_walk.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/split_access.h"
#include "arch/x86/virt_probe.h"
#include "hv/arch.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/sched.h"

#define VEC_DB 1  /* debug exception */
#define VEC_AC 17 /* alignment check */

static u8 *msrpm, *iopm;
static u32 max_asid;
static bool has_nrips;

#define NPT_RWX_USER 0x7ull /* present, writable, user: NPT walks are user accesses (APM 15.25.5) */
#define NPT_LARGE BIT(7)

/* virt_probe.c found SVM on an AMD CPU, enabled by the firmware; what else this backend
 * needs. */
static int svm_check(const char **why)
{
	u32 a, b, c, d;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	if (!(d & BIT(0))) {
		*why = "the CPU has no nested paging (CPUID 8000_000Ah EDX[0])";
		return -1;
	}
	max_asid = b;
	has_nrips = d & BIT(3);
	return 0;
}

static void svm_describe(char *buf, size_t n)
{
	u32 a, b, c, d;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	snprintf(buf, n, "SVM rev %u, %u ASIDs; NPT%s%s%s%s%s", a & 0xFF, b,
		 d & BIT(3) ? " NRIP-save" : "", d & BIT(5) ? " VMCB-clean" : "",
		 d & BIT(7) ? " decode-assists" : "", d & BIT(13) ? " AVIC" : "",
		 d & BIT(18) ? " x2AVIC" : "");
}

const struct x86_virt_ops svm_virt_ops = { "AMD SVM", svm_check, svm_describe };

static void msrpm_passthrough(u32 msr)
{
	u32 base;
	if (msr < 0x2000)
		base = 0;
	else if (msr >= 0xC0000000 && msr < 0xC0002000)
		base = 0x800 * 8, msr -= 0xC0000000;
	else
		return;
	u32 bit = base + msr * 2;
	msrpm[bit / 8] &= (u8) ~(3u << (bit % 8));
}

static void npt_map_2m(u64 *root, u64 gpa, u64 hpa)
{
	u64 *table = root;
	for (int level = 3; level > 1; level--) {
		u64 *e = &table[(gpa >> (12 + 9 * level)) & 511];
		if (!*e)
			*e = (u64)(uintptr_t)alloc_pages(1) | NPT_RWX_USER;
		table = (u64 *)(uintptr_t)(*e & ~0xFFFull);
	}
	table[(gpa >> 21) & 511] = hpa | NPT_RWX_USER | NPT_LARGE;
}

int svm_vm_init(struct vm *vm)
{
	if (!msrpm) {
		msrpm = alloc_pages(2);
		iopm = alloc_pages(3);
		memset(msrpm, 0xFF, 2 * PAGE_SIZE);
		memset(iopm, 0xFF, 3 * PAGE_SIZE);
		/* State that VMRUN/VMLOAD/VMSAVE switch through the VMCB: no exit needed. */
		static const u32 passthrough[] = {
			0x174,	    /* SYSENTER_CS */
			0x175,	    /* SYSENTER_ESP */
			0x176,	    /* SYSENTER_EIP */
			0x277,	    /* PAT (G_PAT) */
			0xC0000080, /* EFER */
			0xC0000081, /* STAR */
			0xC0000082, /* LSTAR */
			0xC0000083, /* CSTAR */
			0xC0000084, /* SFMASK */
			0xC0000100, /* FS base */
			0xC0000101, /* GS base */
			0xC0000102, /* KERNEL_GS base */
		};
		for (size_t i = 0; i < ARRAY_SIZE(passthrough); i++)
			msrpm_passthrough(passthrough[i]);
	}
	vm->arch.asid = vm->id + 1;
	if (vm->arch.asid >= max_asid) {
		printk("hv: VM '%s': no ASID left (the CPU has %u)\n", vm->name, max_asid);
		return -1;
	}
	/* Nested page table: exactly the guest's RAM, nothing else (MMIO faults). */
	vm->arch.npt_root = alloc_pages(1);
	for (u64 off = 0; off < vm->ram_size; off += 2 * MiB)
		npt_map_2m(vm->arch.npt_root, off < x86_low_ram_end(vm) ? off : off + vm->hole_size,
			   (u64)(uintptr_t)vm->ram + off);
	return 0;
}

static void set_seg(u8 *vmcb, u32 off, u16 sel, u16 attr, u32 limit, u64 base)
{
	V16(vmcb, off) = sel;
	V16(vmcb, off + 2) = attr;
	V32(vmcb, off + 4) = limit;
	V64(vmcb, off + 8) = base;
}

static void reset_common(u8 *vmcb)
{
	memset(vmcb + 0x400, 0, PAGE_SIZE - 0x400);
	set_seg(vmcb, VMCB_LDTR, 0, 0x82, 0xFFFF, 0);
	set_seg(vmcb, VMCB_TR, 0, 0x8B, 0xFFFF, 0);
	set_seg(vmcb, VMCB_GDTR, 0, 0, 0xFFFF, 0);
	set_seg(vmcb, VMCB_IDTR, 0, 0, 0xFFFF, 0);
	V64(vmcb, VMCB_EFER) = EFER_SVME; /* required by VMRUN; the guest never sees SVM in CPUID */
	V64(vmcb, VMCB_DR6) = 0xFFFF0FF0;
	V64(vmcb, VMCB_DR7) = 0x400;
	V64(vmcb, VMCB_RFLAGS) = 2;
	V64(vmcb, VMCB_GPAT) = 0x0007040600070406ull;
}

void svm_vcpu_sipi(struct vcpu *v, u8 vector)
{
	u8 *vmcb = v->arch.vmcb;
	reset_common(vmcb);
	set_seg(vmcb, VMCB_CS, (u16)vector << 8, 0x9B, 0xFFFF, (u64)vector << 12);
	for (u32 s = VMCB_ES; s <= VMCB_GS; s += 0x10)
		if (s != VMCB_CS)
			set_seg(vmcb, s, 0, 0x93, 0xFFFF, 0);
	V64(vmcb, VMCB_CR0) = 0x10; /* ET; real mode */
	V64(vmcb, VMCB_RIP) = 0;
	memset(v->arch.gpr, 0, sizeof v->arch.gpr);
	v->arch.flush_tlb = true;
	V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
	v->arch.nmi_masked = v->arch.nmi_iret_seen = false; /* INIT unblocks NMIs */
	/* No event of the old life is delivered again (inject_pending reads these). */
	V64(vmcb, VMCB_EXITINTINFO) = 0;
	V64(vmcb, VMCB_EVENTINJ) = 0;
	xstate_vcpu_reset(v); /* INIT sets XCR0 to 1 (SDM vol. 3A, table 10-1) */
	v->arch.spec_ctrl = 0;
}

int svm_vcpu_init(struct vcpu *v, const struct x86_boot *boot)
{
	struct vm *vm = v->vm;
	u8 *vmcb = alloc_pages(1);
	v->arch.vmcb = vmcb;
	V32(vmcb, VMCB_ICPT_MISC1) = ICPT_INTR | ICPT_NMI | ICPT_SMI | ICPT_INIT | ICPT_CPUID |
				     ICPT_INVD | ICPT_HLT | ICPT_INVLPGA | ICPT_IOIO | ICPT_MSR |
				     ICPT_TASK_SWITCH | ICPT_SHUTDOWN;
	V32(vmcb, VMCB_ICPT_MISC2) = ICPT2_VMRUN | ICPT2_VMMCALL | ICPT2_VMLOAD | ICPT2_VMSAVE |
				     ICPT2_STGI | ICPT2_CLGI | ICPT2_SKINIT | ICPT2_ICEBP |
				     ICPT2_MONITOR | ICPT2_MWAIT | ICPT2_XSETBV | ICPT2_WBINVD;
	/* #DB and #AC: an exception raised while the CPU delivers the same one repeats
	 * inside the CPU without end (CVE-2015-8104, CVE-2015-5307), which hangs the pCPU
	 * and every VM on it. Intercepted, each one is an exit, and goes back to the guest
	 * (reflect_exception). */
	V32(vmcb, VMCB_ICPT_EXC) = BIT(VEC_DB) | BIT(VEC_AC);
	V64(vmcb, VMCB_IOPM) = (u64)(uintptr_t)iopm;
	V64(vmcb, VMCB_MSRPM) = (u64)(uintptr_t)msrpm;
	V32(vmcb, VMCB_ASID) = vm->arch.asid;
	/* Host interrupts exit instead of entering the guest IDT (APM 15.21.1). */
	V64(vmcb, VMCB_VINTR) = VINTR_MASKING;
	V64(vmcb, VMCB_NP_ENABLE) = 1;
	V64(vmcb, VMCB_NCR3) = (u64)(uintptr_t)vm->arch.npt_root;
	xstate_vcpu_init(v);
	v->arch.sipi_vector = -1;
	v->arch.flush_tlb = true;
	if (v->id == 0) {
		/* Flat 4 GiB segments: code 0x10, data 0x18, as both entries want them. */
		reset_common(vmcb);
		set_seg(vmcb, VMCB_CS, 0x10, boot->long_mode ? 0xA9B : 0xC9B, 0xFFFFFFFF, 0);
		for (u32 s = VMCB_ES; s <= VMCB_GS; s += 0x10)
			if (s != VMCB_CS)
				set_seg(vmcb, s, 0x18, 0xC93, 0xFFFFFFFF, 0);
		V64(vmcb, VMCB_RIP) = boot->entry;
		if (boot->long_mode) {
			/* Linux boot protocol, 64-bit: paging on, RSI = boot_params. */
			set_seg(vmcb, VMCB_GDTR, 0, 0, 0x1F, GPA_BOOT_GDT);
			V64(vmcb, VMCB_CR0) = 0x80000011; /* PG, ET, PE */
			V64(vmcb, VMCB_CR3) = boot->cr3;
			V64(vmcb, VMCB_CR4) = 0x20; /* PAE */
			V64(vmcb, VMCB_EFER) |= EFER_LME | EFER_LMA;
			v->arch.gpr[GPR_RSI] = boot->arg;
		} else {
			/* PVH: 32-bit flat protected mode, paging off, EBX = start info. */
			V64(vmcb, VMCB_CR0) = 0x11; /* PE, ET */
			v->arch.gpr[GPR_RBX] = boot->arg;
		}
	}
	return 0;
}

/* ---- exits ---- */

static void advance(struct vcpu *v, u64 len)
{
	u8 *vmcb = v->arch.vmcb;
	V64(vmcb, VMCB_RIP) = has_nrips ? V64(vmcb, VMCB_NRIP) : V64(vmcb, VMCB_RIP) + len;
	V64(vmcb, VMCB_INT_SHADOW) = 0;
}

static void inject_exception(struct vcpu *v, u8 vector, bool has_err, u32 err)
{
	V64(v->arch.vmcb, VMCB_EVENTINJ) = vector | EVENT_TYPE_EXC | EVENT_VALID |
					   (has_err ? EVENT_HAS_ERR | ((u64)err << 32) : 0);
}

static unsigned long long rip(struct vcpu *v) { return V64(v->arch.vmcb, VMCB_RIP); }

static void inject_ud(struct vcpu *v) { inject_exception(v, 6, false, 0); }

/* An intercepted #DB or #AC, back to the guest as the CPU raised it: DR6 in the VMCB has
 * the #DB's status already (APM 15.12); #AC's error code is 0. If it came while the CPU
 * delivered another event (EXITINTINFO, APM 15.7.2), it is taken first, as on a CPU
 * (benign exceptions are handled serially, SDM vol. 3A 6.15): an interrupted exception
 * recurs when its instruction runs again, an interrupt or NMI waits as pending. */
static void reflect_exception(struct vcpu *v, u8 vector)
{
	u64 interrupted = V64(v->arch.vmcb, VMCB_EXITINTINFO);
	bool valid = interrupted & EVENT_VALID;
	if (valid && (interrupted & EVENT_TYPE_MASK) == EVENT_TYPE_INTR)
		vlapic_unack(&v->arch.lapic, (u8)interrupted);
	if (valid && (interrupted & EVENT_TYPE_MASK) == EVENT_TYPE_NMI) {
		v->arch.nmi_masked = v->arch.nmi_iret_seen = false;
		V32(v->arch.vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
		__atomic_store_n(&v->arch.nmi_pending, true, __ATOMIC_RELEASE);
	}
	inject_exception(v, vector, vector == VEC_AC, 0);
}
static void inject_gp(struct vcpu *v) { inject_exception(v, 13, true, 0); }

static void handle_cpuid(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u32 r[4];
	x86_cpuid(v, (u32)V64(vmcb, VMCB_RAX), (u32)v->arch.gpr[GPR_RCX], r);
	V64(vmcb, VMCB_RAX) = r[0];
	v->arch.gpr[GPR_RBX] = r[1];
	v->arch.gpr[GPR_RCX] = r[2];
	v->arch.gpr[GPR_RDX] = r[3];
	advance(v, 2);
}

/* XSETBV (APM vol. 3): #UD without CR4.OSXSAVE, #GP outside ring 0 or for an XCR0 the
 * guest may not have. */
static void handle_xsetbv(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u64 val = (V64(vmcb, VMCB_RAX) & 0xFFFFFFFF) | (v->arch.gpr[GPR_RDX] << 32);
	u32 index = (u32)v->arch.gpr[GPR_RCX];
	if (!(V64(vmcb, VMCB_CR4) & X86_CR4_OSXSAVE))
		return inject_ud(v);
	if (V8(vmcb, VMCB_CPL) || xstate_xsetbv(v, index, val)) {
		vcpu_bad_access(v, "xsetbv %x <- %llx: #GP at rip %llx", index,
				(unsigned long long)val, rip(v));
		return inject_gp(v);
	}
	advance(v, 3);
}

u64 x86_guest_cr4(struct vcpu *v) { return V64(v->arch.vmcb, VMCB_CR4); }

static void handle_msr(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u32 msr = (u32)v->arch.gpr[GPR_RCX];
	if (V64(vmcb, VMCB_EXITINFO1)) {
		u64 val = (V64(vmcb, VMCB_RAX) & 0xFFFFFFFF) | (v->arch.gpr[GPR_RDX] << 32);
		if (x86_wrmsr(v, msr, val)) {
			vcpu_bad_access(v, "wrmsr %x <- %llx: #GP at rip %llx", msr,
					(unsigned long long)val, rip(v));
			return inject_gp(v);
		}
	} else {
		u64 val;
		if (x86_rdmsr(v, msr, &val)) {
			vcpu_bad_access(v, "rdmsr %x: #GP at rip %llx", msr, rip(v));
			return inject_gp(v);
		}
		V64(vmcb, VMCB_RAX) = (u32)val;
		v->arch.gpr[GPR_RDX] = val >> 32;
	}
	advance(v, 2);
}

static void handle_io(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u64 info = V64(vmcb, VMCB_EXITINFO1);
	u16 port = (u16)(info >> 16);
	unsigned size = info & BIT(4) ? 1 : info & BIT(5) ? 2 : 4;
	if (info & BIT(2)) { /* INS/OUTS: no guest of ours uses string port I/O */
		vcpu_bad_access(v, "string port I/O at port %x (unsupported): #GP at rip %llx",
				port, rip(v));
		return inject_gp(v);
	}
	u64 val = V64(vmcb, VMCB_RAX);
	u64 mask = size == 4 ? 0xFFFFFFFFull : (1ull << (size * 8)) - 1;
	if (info & 1) {
		iobus_access(&v->vm->bus, IO_PORT, port, size, false, &val);
		/* A 32-bit IN writes EAX, which zero-extends into RAX. */
		V64(vmcb, VMCB_RAX) = size == 4 ? (u32)val
						: (V64(vmcb, VMCB_RAX) & ~mask) | (val & mask);
	} else {
		val &= mask;
		iobus_access(&v->vm->bus, IO_PORT, port, size, true, &val);
	}
	V64(vmcb, VMCB_RIP) = V64(vmcb, VMCB_EXITINFO2); /* IOIO gives the next RIP (APM 15.10.2) */
}

static bool read_guest(void *ctx, u64 gpa, void *buf, size_t len)
{
	void *p = gpa_to_hva(ctx, gpa, len);
	if (p)
		memcpy(buf, p, len);
	return p != NULL;
}

static struct x86_paging guest_paging(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	return (struct x86_paging){ V64(vmcb, VMCB_CR0), V64(vmcb, VMCB_CR3), V64(vmcb, VMCB_CR4),
				    V64(vmcb, VMCB_EFER) };
}

/* What the guest's own page tables say about gva, for a report: where the CPU found a
 * mapping that the walk here does not (or the reverse), the paging state it used was not
 * the guest's. */
static int guest_mapping(struct vcpu *v, u64 gva, char *buf, size_t n)
{
	struct x86_paging pg = guest_paging(v);
	u64 gpa;
	int rc = x86_gva_to_gpa(&pg, gva, read_guest, v->vm, &gpa);
	switch (rc) {
	case WALK_OK:
		snprintf(buf, n, "mapped to gpa %llx", (unsigned long long)gpa);
		break;
	case WALK_NOT_PRESENT:
		snprintf(buf, n, "not present");
		break;
	case WALK_RESERVED:
		snprintf(buf, n, "a reserved bit set");
		break;
	default:
		snprintf(buf, n, "a table outside the VM's RAM");
		break;
	}
	return rc;
}

/* Fetches the instruction at CS:RIP through the guest's page tables. */
size_t svm_fetch_insn(struct vcpu *v, u8 *buf, size_t want)
{
	u8 *vmcb = v->arch.vmcb;
	struct x86_paging pg = guest_paging(v);
	bool long_mode = (V64(vmcb, VMCB_EFER) & EFER_LMA) && (V16(vmcb, VMCB_CS + 2) & BIT(9));
	u64 la = (long_mode ? 0 : V64(vmcb, VMCB_CS + 8)) +
		 V64(vmcb, VMCB_RIP); /* CS.base is 0 in 64-bit mode */
	size_t got = 0;
	while (got < want) {
		u64 gpa;
		if (x86_gva_to_gpa(&pg, la + got, read_guest, v->vm, &gpa) != WALK_OK)
			break;
		size_t chunk = MIN(want - got, PAGE_SIZE - ((la + got) & 0xFFF));
		if (!read_guest(v->vm, gpa, buf + got, chunk))
			break;
		got += chunk;
	}
	return got;
}

/* A #PF for the access at la that the guest's page tables no longer map: its error code
 * (SDM vol. 3A, 4.7) has P and RSVD for a reserved bit, W/R and U/S. */
static void inject_pf(struct vcpu *v, u64 la, int walk, bool write)
{
	u32 err = (walk == WALK_RESERVED ? BIT(0) | BIT(3) : 0) | (write ? BIT(1) : 0) |
		  (V8(v->arch.vmcb, VMCB_CPL) == 3 ? BIT(2) : 0);
	V64(v->arch.vmcb, VMCB_CR2) = la;
	inject_exception(v, 14, true, err);
}

static bool cannot_emulate(struct vcpu *v, u64 gpa, const u8 *bytes)
{
	printk("hv: VM '%s' vcpu%u: cannot emulate access to %llx at rip %llx (%02x %02x %02x "
	       "%02x); stopping the VM\n",
	       v->vm->name, v->id, (unsigned long long)gpa, rip(v), bytes[0], bytes[1], bytes[2],
	       bytes[3]);
	vm_request_stop(v->vm, VM_FATAL);
	return false;
}

/*
 * An MMIO access. One within a page goes to the MMIO bus at the faulting address. One
 * that crosses into the next page is done in two parts, each where the guest's page
 * tables put it: RAM from RAM, MMIO on the bus (split_access.h).
 */
static bool handle_npf(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u64 gpa = V64(vmcb, VMCB_EXITINFO2);
	u8 bytes[15] = { 0 };
	size_t n = svm_fetch_insn(v, bytes, sizeof bytes);
	u16 cs_attr = V16(vmcb, VMCB_CS + 2);
	int mode = (V64(vmcb, VMCB_EFER) & EFER_LMA) && (cs_attr & BIT(9)) ? 64
		   : (cs_attr & BIT(10))				   ? 32
									   : 16;
	struct x86_mmio_insn insn;
	/* The CPU was delivering an event (EXITINTINFO, APM 15.7.2): the access is its read of
	 * the IDT or GDT or its push to the stack, no instruction's; KVM stops such a guest
	 * too (KVM_INTERNAL_ERROR_DELIVERY_EV). */
	u64 delivering = V64(vmcb, VMCB_EXITINTINFO);
	if (delivering & EVENT_VALID) {
		printk("hv: VM '%s' vcpu%u: delivering event %llx touched %llx, where there is no "
		       "RAM (an IDT, GDT or stack on a device?); stopping the VM\n",
		       v->vm->name, v->id, (unsigned long long)delivering, (unsigned long long)gpa);
		vm_request_stop(v->vm, VM_FATAL);
		return false;
	}
	if (gpa_to_hva(v->vm, gpa, 1) || x86_decode_mmio(bytes, n, mode, &insn))
		return cannot_emulate(v, gpa, bytes);
	v->arch.gpr[GPR_RAX] = V64(vmcb, VMCB_RAX);
	v->arch.gpr[GPR_RSP] = V64(vmcb, VMCB_RSP);
	bool store = insn.op == X86_MMIO_STORE;
	u64 val = store ? x86_mmio_store_value(&insn, v->arch.gpr) : 0;
	u64 la = x86_mmio_linear_address(&insn, mode, v->arch.gpr, V64(vmcb, VMCB_RIP),
					 V64(vmcb, VMCB_ES + 16 * insn.mem.seg + 8));
	struct x86_access_part part[2];
	if (x86_split_at_page(la, insn.size, mode, part) == 1) {
		iobus_access(&v->vm->bus, IO_MMIO, gpa, insn.size, store, &val);
	} else {
		struct x86_paging pg = guest_paging(v);
		u64 fault_la;
		int rc = x86_access_parts(v->vm, &pg, read_guest, part, 2, store, &val, &fault_la);
		if (rc == WALK_BAD_GPA)
			return cannot_emulate(v, gpa, bytes);
		if (rc != WALK_OK) {
			inject_pf(v, fault_la, rc, store);
			return true;
		}
	}
	if (!store) {
		x86_mmio_load_complete(&insn, v->arch.gpr, val);
		V64(vmcb, VMCB_RAX) = v->arch.gpr[GPR_RAX];
		V64(vmcb, VMCB_RSP) = v->arch.gpr[GPR_RSP];
	}
	V64(vmcb, VMCB_RIP) += insn.len;
	V64(vmcb, VMCB_INT_SHADOW) = 0;
	return true;
}

/* ---- interrupt injection ---- */

/* CR8 and the x2APIC TPR are one register (SDM vol. 3A, 11.8.6: CR8 = TPR[7:4]). With
 * V_INTR_MASKING the guest's CR8 accesses use the VMCB's V_TPR (APM 15.21.1), while
 * the x2APIC TPR MSR reaches the vLAPIC: each entry shows the vLAPIC's TPR in V_TPR,
 * each exit takes a V_TPR the guest changed back (MOV to CR8 clears TPR[3:0]). */
static void tpr_to_vmcb(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	V64(vmcb, VMCB_VINTR) = (V64(vmcb, VMCB_VINTR) & ~(u64)VINTR_TPR_MASK) |
				((vlapic_tpr(&v->arch.lapic) >> 4) & VINTR_TPR_MASK);
}

static void tpr_from_vmcb(struct vcpu *v)
{
	u32 vtpr = V64(v->arch.vmcb, VMCB_VINTR) & VINTR_TPR_MASK;
	if (vtpr != ((vlapic_tpr(&v->arch.lapic) >> 4) & VINTR_TPR_MASK))
		vlapic_set_tpr(&v->arch.lapic, vtpr << 4);
}

/* A guest that lowers its CR8 below a waiting interrupt takes it at once on a CPU; with
 * nothing waiting, CR8 writes need no exit. So they exit only while the TPR alone holds
 * an interrupt back (as KVM does). */
static void watch_cr8_writes(struct vcpu *v)
{
	if (vlapic_tpr_holds_back(&v->arch.lapic))
		V32(v->arch.vmcb, VMCB_ICPT_CR) |= ICPT_CR8_WRITE;
	else
		V32(v->arch.vmcb, VMCB_ICPT_CR) &= ~ICPT_CR8_WRITE;
}

/* The intercepted MOV to CR8 (before it ran): decoded, since TCG has no decode assists. */
static void handle_cr8_write(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u8 bytes[X86_MAX_INSN_LEN] = { 0 }, cr, gpr, len;
	size_t n = svm_fetch_insn(v, bytes, sizeof bytes);
	if (x86_decode_mov_to_cr(bytes, n, &cr, &gpr, &len) || cr != 8) {
		vcpu_bad_access(v, "CR8 write exit at rip %llx: not a MOV to CR8 (%02x %02x %02x)",
				rip(v), bytes[0], bytes[1], bytes[2]);
		return inject_ud(v);
	}
	u64 val = gpr == GPR_RAX   ? V64(vmcb, VMCB_RAX)
		  : gpr == GPR_RSP ? V64(vmcb, VMCB_RSP)
				   : v->arch.gpr[gpr];
	if (val >> 4)
		return inject_gp(v); /* reserved bits (SDM vol. 3A, 2.5: CR8) */
	vlapic_set_tpr(&v->arch.lapic, (u32)val << 4);
	advance(v, len);
}

bool svm_vcpu_interruptible(struct vcpu *v)
{
	return (V64(v->arch.vmcb, VMCB_RFLAGS) & BIT(9)) &&
	       !(V64(v->arch.vmcb, VMCB_INT_SHADOW) & 1);
}

/* An exit as soon as the guest can take an interrupt (APM 15.21.4: a virtual interrupt
 * with the VINTR intercept). */
static void request_irq_window(u8 *vmcb)
{
	V64(vmcb, VMCB_VINTR) |= VINTR_V_IRQ | VINTR_IGN_TPR | (0xFull << VINTR_PRIO_SHIFT);
	V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_VINTR;
}

static void inject_pending(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u64 pending_event = V64(vmcb, VMCB_EXITINTINFO);
	V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_VINTR;
	V64(vmcb, VMCB_VINTR) &= ~(u64)VINTR_V_IRQ;
	if (V64(vmcb, VMCB_EVENTINJ) & EVENT_VALID)
		return; /* an exception from the exit handler goes first */
	if (pending_event & EVENT_VALID) {
		/* The exit interrupted an event delivery: deliver it again (APM 15.7.2). */
		V64(vmcb, VMCB_EVENTINJ) = pending_event;
		return;
	}
	/* The handler's IRET has run once RIP moved on. An IRET executed with IF = 1 would
	 * give no interrupt-window exit to notice that (an NMI handler runs with IF = 0 but
	 * a guest can do anything): then unblock at once rather than loop. */
	if (v->arch.nmi_iret_seen &&
	    (V64(vmcb, VMCB_RIP) != v->arch.nmi_iret_rip || svm_vcpu_interruptible(v)))
		v->arch.nmi_masked = v->arch.nmi_iret_seen = false;
	if (!v->arch.nmi_masked &&
	    __atomic_exchange_n(&v->arch.nmi_pending, false, __ATOMIC_ACQ_REL)) {
		V64(vmcb, VMCB_EVENTINJ) = 2 | EVENT_TYPE_NMI | EVENT_VALID;
		v->stats.nmis_injected++;
		v->arch.nmi_masked = true;
		V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_IRET;
		return;
	}
	bool nmi_waits = v->arch.nmi_iret_seen &&
			 __atomic_load_n(&v->arch.nmi_pending, __ATOMIC_ACQUIRE);
	int vec = vlapic_pending_vector(&v->arch.lapic);
	if (vec < 0 && !nmi_waits)
		return;
	if (vec >= 0 && svm_vcpu_interruptible(v)) {
		vlapic_ack(&v->arch.lapic, (u8)vec);
		V64(vmcb, VMCB_EVENTINJ) = (u64)vec | EVENT_TYPE_INTR | EVENT_VALID;
		v->stats.irqs_injected++;
	} else {
		/* For an NMI waiting behind an IRET: when the IRET has restored IF. */
		request_irq_window(vmcb);
	}
}

/* ---- the run loop ---- */

extern u64 svm_run(u64 vmcb_pa, u64 *gpr, u64 host_save_pa);
extern char svm_vmrun_return[];

static enum exit_kind exit_kind_of(u64 code)
{
	switch (code) {
	case SVM_EXIT_INTR:
	case SVM_EXIT_NMI:
	case SVM_EXIT_SMI:
	case SVM_EXIT_INIT:
		return EXIT_HOST_IRQ;
	case SVM_EXIT_IOIO:
		return EXIT_IO;
	case SVM_EXIT_NPF:
		return EXIT_MMIO;
	case SVM_EXIT_MSR:
		return EXIT_MSR;
	case SVM_EXIT_CPUID:
		return EXIT_CPUID;
	case SVM_EXIT_HLT:
		return EXIT_HALT;
	case SVM_EXIT_VMMCALL:
		return EXIT_HYPERCALL;
	case SVM_EXIT_VINTR:
		return EXIT_IRQ_WINDOW;
	case SVM_EXIT_SHUTDOWN:
		return EXIT_SHUTDOWN;
	default:
		return code >= SVM_EXIT_EXC_BASE && code < SVM_EXIT_EXC_BASE + 32 ? EXIT_EXCEPTION
										  : EXIT_OTHER;
	}
}

/* The vCPU's last entries, oldest first (the last one is the exit being reported). */
static void print_entry_trace(struct vcpu *v)
{
	for (u32 i = 0; i < ENTRY_TRACE_LEN; i++) {
		u32 n = v->arch.trace_next + i;
		if (n < ENTRY_TRACE_LEN)
			continue; /* fewer entries than slots so far */
		const struct entry_trace *t = &v->arch.trace[n % ENTRY_TRACE_LEN];
		printk("hv: VM '%s' vcpu%u: entry %u: resumed at rip %llx (eventinj %llx, "
		       "shadow %llx), exit %llx (info1 %llx) at rip %llx\n",
		       v->vm->name, v->id, n - ENTRY_TRACE_LEN, (unsigned long long)t->rip,
		       (unsigned long long)t->eventinj, (unsigned long long)t->int_shadow,
		       (unsigned long long)t->exit_code, (unsigned long long)t->exit_info1,
		       (unsigned long long)t->exit_rip);
	}
}

/* What a guest developer needs to find the fault that could not be delivered (segment
 * bases and limits at +8 and +4 of a descriptor). The last fault address (CR2) is looked
 * up in the guest's own page tables: a supervisor read of an IDT entry that they map
 * present cannot fault, so "a mapped IDT entry" there means that the CPU walked some
 * other paging state than the guest's (seen under QEMU TCG: README, "Tests"). */
static void report_triple_fault(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	u64 cr2 = V64(vmcb, VMCB_CR2), idt = V64(vmcb, VMCB_IDTR + 8);
	u32 idt_limit = V32(vmcb, VMCB_IDTR + 4);
	char state[256], cr2_map[48];
	arch_vcpu_describe(v, state, sizeof state);
	bool idt_entry_mapped = guest_mapping(v, cr2, cr2_map, sizeof cr2_map) == WALK_OK &&
				cr2 - idt <= idt_limit;
	printk("hv: VM '%s' vcpu%u: triple fault at rip %llx: %s rsp=%llx cs=%x cr0=%llx "
	       "cr2=%llx (%sin the guest's page tables: %s) cr3=%llx cr4=%llx idt=%llx/%x "
	       "gdt=%llx/%x tr=%x exitintinfo=%llx\n",
	       v->vm->name, v->id, (unsigned long long)V64(vmcb, VMCB_RIP), state,
	       (unsigned long long)V64(vmcb, VMCB_RSP), V16(vmcb, VMCB_CS),
	       (unsigned long long)V64(vmcb, VMCB_CR0), (unsigned long long)cr2,
	       idt_entry_mapped ? "a mapped IDT entry; " : "", cr2_map,
	       (unsigned long long)V64(vmcb, VMCB_CR3), (unsigned long long)V64(vmcb, VMCB_CR4),
	       (unsigned long long)idt, idt_limit, (unsigned long long)V64(vmcb, VMCB_GDTR + 8),
	       V32(vmcb, VMCB_GDTR + 4), V16(vmcb, VMCB_TR),
	       (unsigned long long)V64(vmcb, VMCB_EXITINTINFO));
	print_entry_trace(v);
}

enum run_result arch_vcpu_run(struct vcpu *v)
{
	u8 *vmcb = v->arch.vmcb;
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	for (;;) {
		if (!sched_enter_guest(v))
			return RUN_PREEMPTED;
		inject_pending(v);
		/* A turn that runs on for a section with interrupts masked ends with it. */
		if (sched_watch_section_end(v) && !svm_vcpu_interruptible(v))
			request_irq_window(vmcb);
		steal_time_enter(v);
		pv_eoi_enter(v);
		/* The ASID is the VM's: entries another vCPU of it left here, or this one's
		 * from before it ran on another pCPU (where its INVLPGs went), are stale. */
		if (v->arch.flush_tlb || p->last_vcpu != v || v->arch.ran_on != v->pcpu + 1) {
			V32(vmcb,
			    VMCB_TLB_CTL) = 1; /* flush everything: TCG has no flush-by-ASID */
			v->arch.flush_tlb = false;
			p->last_vcpu = v;
			v->arch.ran_on = v->pcpu + 1;
		}
		if (sched_watch_spin(v))
			V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_PAUSE;
		else
			V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_PAUSE;
		tpr_to_vmcb(v);
		watch_cr8_writes(v);
		/* The host runs with IA32_SPEC_CTRL = 0 (it never sets it). */
		if (v->arch.spec_ctrl)
			wrmsr(MSR_IA32_SPEC_CTRL, v->arch.spec_ctrl);
		struct entry_trace *t = &v->arch.trace[v->arch.trace_next++ % ENTRY_TRACE_LEN];
		*t = (struct entry_trace){ .rip = V64(vmcb, VMCB_RIP),
					   .eventinj = V64(vmcb, VMCB_EVENTINJ),
					   .int_shadow = V64(vmcb, VMCB_INT_SHADOW) };
		svm_run((u64)(uintptr_t)vmcb, v->arch.gpr, (u64)(uintptr_t)p->host_save);
		if (v->arch.spec_ctrl)
			wrmsr(MSR_IA32_SPEC_CTRL, 0);
		sched_left_guest(v);
		tpr_from_vmcb(v);
		V32(vmcb, VMCB_TLB_CTL) = 0;
		/* An injected event that the exit interrupted is in EXITINTINFO. */
		V64(vmcb, VMCB_EVENTINJ) = 0;
		pv_eoi_exit(v);
		u64 code = V64(vmcb, VMCB_EXITCODE);
		t->exit_code = code;
		t->exit_info1 = V64(vmcb, VMCB_EXITINFO1);
		t->exit_rip = V64(vmcb, VMCB_RIP);
		v->stats.exits[exit_kind_of(code)]++;
		if (V64(vmcb, VMCB_RIP) == (u64)(uintptr_t)svm_vmrun_return) {
			/* Seen under QEMU 7.2 TCG now and then with vCPUs sharing pCPUs: the
			 * guest state saved at #VMEXIT is the host's (RIP right after our VMRUN).
			 * The guest cannot continue; stop it rather than run host state. */
			printk("hv: VM '%s' vcpu%u: BUG: the state saved at #VMEXIT "
			       "(code %llx, info1 %llx, info2 %llx) is the host's, "
			       "not the guest's; stopping the VM (pcpu%u vmcb %p hsave %p "
			       "VM_HSAVE_PA %llx host cr3 %llx)\n",
			       v->vm->name, v->id, (unsigned long long)code,
			       (unsigned long long)V64(vmcb, VMCB_EXITINFO1),
			       (unsigned long long)V64(vmcb, VMCB_EXITINFO2), v->pcpu, (void *)vmcb,
			       (void *)p->hsave, (unsigned long long)rdmsr(MSR_VM_HSAVE_PA),
			       (unsigned long long)read_cr3());
			print_entry_trace(v);
			vm_request_stop(v->vm, VM_FATAL);
			return RUN_PREEMPTED;
		}
		switch (code) {
		case SVM_EXIT_INTR:
		case SVM_EXIT_NMI:
		case SVM_EXIT_SMI:
		case SVM_EXIT_INIT:
			return RUN_PREEMPTED;
		case SVM_EXIT_VINTR:
			/* inject_pending delivers a pending interrupt on the next entry */
			if (sched_watch_section_end(v))
				return RUN_PREEMPTED; /* the section is over */
			break;
		case SVM_EXIT_IRET:
			/* Intercepted before it runs: NMIs unblock once RIP has moved on. */
			V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
			v->arch.nmi_iret_seen = true;
			v->arch.nmi_iret_rip = V64(vmcb, VMCB_RIP);
			break;
		case SVM_EXIT_CPUID:
			handle_cpuid(v);
			break;
		case SVM_EXIT_MSR:
			handle_msr(v);
			break;
		case SVM_EXIT_XSETBV:
			handle_xsetbv(v);
			break;
		case SVM_EXIT_CR8_WRITE:
			handle_cr8_write(v);
			break;
		case SVM_EXIT_IOIO:
			handle_io(v);
			if (vm_stopping(v->vm))
				return RUN_PREEMPTED;
			break;
		case SVM_EXIT_NPF:
			if (!handle_npf(v))
				return RUN_PREEMPTED;
			break;
		case SVM_EXIT_HLT:
			advance(v, 1);
			if (__atomic_exchange_n(&v->arch.pv_unhalt, false, __ATOMIC_ACQ_REL))
				break; /* kicked (PV unhalt) before it halted: it ends at once */
			return RUN_HALTED;
		case SVM_EXIT_VMMCALL:
			x86_hypercall(v);
			advance(v, 3);
			break;
		case SVM_EXIT_SHUTDOWN:
			report_triple_fault(v);
			vm_request_stop(v->vm, VM_TRIPLE_FAULT);
			return RUN_PREEMPTED;
		case SVM_EXIT_INVD:
		case SVM_EXIT_WBINVD:
			/* No cache the guest could see is incoherent (no device DMA): as KVM
			 * does without assigned devices, nothing to do. */
			advance(v, 2);
			break;
		case SVM_EXIT_EXC_BASE + VEC_DB:
		case SVM_EXIT_EXC_BASE + VEC_AC:
			reflect_exception(v, (u8)(code - SVM_EXIT_EXC_BASE));
			break;
		case SVM_EXIT_ICEBP:
			/* INT1 (F1), intercepted before it runs: on a CPU a trap-like #DB after
			 * it, with no gate DPL check (a hardware exception, not INT n). */
			advance(v, 1);
			inject_exception(v, VEC_DB, false, 0);
			break;
		case SVM_EXIT_PAUSE:
			/* Intercepted before it runs; it runs unwatched at the next entry (in
			 * the quiet time sched_spin_exit starts), so RIP stays. */
			sched_spin_exit(v);
			break;
		default:
			if (code == (u64)-1 || (u32)code == 0xFFFFFFFFu) {
				printk("hv: VM '%s' vcpu%u: VMRUN refused the guest state "
				       "(VMEXIT_INVALID); stopping the VM\n",
				       v->vm->name, v->id);
				vm_request_stop(v->vm, VM_FATAL);
				return RUN_PREEMPTED;
			}
			/* SVM instructions, MONITOR/MWAIT, task switches: not offered (CPUID
			 * hides them), so #UD as on a CPU without them. */
			vcpu_bad_access(
				v,
				"unsupported instruction (exit %llx, info1 %llx): #UD at rip %llx",
				(unsigned long long)code,
				(unsigned long long)V64(vmcb, VMCB_EXITINFO1), rip(v));
			inject_ud(v);
			break;
		}
	}
}

void arch_vcpu_load(struct vcpu *v)
{
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	/* No branch predictions trained by another VM steer this one (Spectre v2). */
	if (x86_msr_caps.ibpb && p->last_vm != v->vm)
		wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB);
	p->last_vm = v->vm;
	xstate_load(v);
	if (x86_msr_caps.tsc_aux) /* what the guest's RDTSCP and RDPID read */
		wrmsr(MSR_TSC_AUX, v->arch.tsc_aux);
	__asm__ volatile("mov %0, %%db0\n\tmov %1, %%db1\n\tmov %2, %%db2\n\tmov %3, %%db3" ::"r"(
				 v->arch.dr[0]),
			 "r"(v->arch.dr[1]), "r"(v->arch.dr[2]), "r"(v->arch.dr[3]));
}

void arch_vcpu_put(struct vcpu *v)
{
	if (v->state == VCPU_RUNNABLE)
		steal_time_preempted(v);
	xstate_put(v);
	__asm__ volatile("mov %%db0, %0\n\tmov %%db1, %1\n\tmov %%db2, %2\n\tmov %%db3, %3"
			 : "=r"(v->arch.dr[0]), "=r"(v->arch.dr[1]), "=r"(v->arch.dr[2]),
			   "=r"(v->arch.dr[3]));
}
