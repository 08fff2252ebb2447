/* SPDX-License-Identifier: GPL-2.0-only */
/* Running an arm64 vCPU: EL1 context switch, guest entry, and the exits (DDI 0487 D1.10,
 * ESR_EL2 by exception class). Exits come back decoded by esr.c; the firmware interface
 * (PSCI, SMCCC, PV time) is smccc.c, the interrupt controller vgic.c. */
#include "arch/arm64/esr.h"
#include "arch/arm64/guest.h"
#include "arch/arm64/id_regs.h"
#include "arch/arm64/gic_host.h"
#include "arch/arm64/pcpu.h"
#include "arch/arm64/ptimer.h"
#include "arch/arm64/pvtime.h"
#include "arch/arm64/smccc.h"
#include "arch/arm64/spectre.h"
#include "arch/arm64/vcpu_mpidr.h"
#include "arch/arm64/vgic_hw.h"
#include "arch/arm64/vsysreg.h"
#include "arch/arm64/vtimer.h"
#include "arch/cpu.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/pv_features.h"
#include "hv/sched.h"
#include "hv/vm.h"

u64 guest_enter(struct guest_regs *r);
void fpsimd_save(void *buf);
void fpsimd_load(const void *buf);

#define ESR_EC_SVE 0x19 /* SVE access trapped by CPTR_EL2.TZ */
#define ESR_EC_SME 0x1D /* SME access trapped by CPTR_EL2.TSM */
#define VECTOR_SYNC 0
#define VECTOR_IRQ 1
#define PSTATE_EL1H_MASKED 0x3C5      /* EL1h, D, A, I, F masked: the state at reset */
#define SCTLR_EL1_RESET 0x30D00800ull /* RES1 bits, MMU and caches off (DDI 0487 D17.2.118) */
#define SPSR_SS BIT(21)		      /* PSTATE.SS: software step */

/* Pointer authentication (FEAT_PAuth): the guest's keys are EL1 state, and its PAC
 * instructions run untrapped (HCR_EL2.API, APK) only because we switch them. Whether
 * the CPU has it is read once (ID_AA64ISAR1_EL1 APA/API/GPA/GPI, ISAR2 APA3/GPA3; any
 * pCPU may be first, all read the same). */
static bool has_pauth(void)
{
	static int known = -1;
	if (known < 0)
		known = (read_sysreg(id_aa64isar1_el1) & 0xFF000FF0) ||
			(read_sysreg(S3_0_C0_C6_2) & 0xFF00);
	return known;
}

/* clang-format off */
#define PAUTH_KEYS(X) X(0, S3_0_C2_C1_0) X(1, S3_0_C2_C1_1) X(2, S3_0_C2_C1_2) X(3, S3_0_C2_C1_3) \
	X(4, S3_0_C2_C2_0) X(5, S3_0_C2_C2_1) X(6, S3_0_C2_C2_2) X(7, S3_0_C2_C2_3) \
	X(8, S3_0_C2_C3_0) X(9, S3_0_C2_C3_1)
/* clang-format on */

/* Guest HCR_EL2 (DDI 0487 D17.2.48): stage 2 (VM), physical interrupts and aborts to EL2
 * (IMO, FMO, AMO), set/way by VA (SWIO), broadcast TLB and barrier maintenance to the
 * inner shareable domain (FB, BSU), SMC traps (TSC), WFI traps (TWI), AArch64 EL1 (RW),
 * ID register traps (TID3: the guest sees sanitised feature registers, id_regs.c);
 * IMPLEMENTATION DEFINED registers, ACTLR_EL1 and (with FEAT_RAS) the RAS error records
 * trap too (TIDCP, TACR, TERR: vsysreg.c); WFE traps (TWE) only where vCPUs share the
 * pCPU, as a spin-wait hint. */
static u64 guest_hcr(struct vcpu *v)
{
	u64 hcr = BIT(0) | BIT(1) | BIT(3) | BIT(4) | BIT(5) | BIT(9) | (1ull << 10) | BIT(13) |
		  BIT(18) | BIT(19) | BIT(31) | vsysreg_hw_hcr();
	if (has_pauth())
		hcr |= BIT(40) | BIT(41); /* APK, API: keys and PAC instructions not trapped */
	if (pcpus[v->pcpu].nvcpus > 1)
		hcr |= BIT(14);
	return hcr;
}

void arm64_vcpu_reset(struct vcpu *v, u64 entry, u64 x0)
{
	struct vsysreg_host host;
	if (v->arch.loaded) /* its breakpoints may be armed in this pCPU's registers */
		vsysreg_hw_put(&v->arch.sys);
	vsysreg_hw_host(&host);
	vsysreg_reset(&v->arch.sys, &host);
	memset(&v->arch.regs, 0, sizeof v->arch.regs);
	memset(&v->arch.el1, 0, sizeof v->arch.el1);
	memset(v->arch.fpsimd, 0, sizeof v->arch.fpsimd);
	memset(&v->arch.ptimer, 0, sizeof v->arch.ptimer);
	v->arch.preempt_count_reg = 0; /* a CPU out of reset has registered nothing */
	v->arch.regs.x[0] = x0;
	v->arch.regs.elr = entry;
	v->arch.regs.spsr = PSTATE_EL1H_MASKED;
	v->arch.el1.sctlr = SCTLR_EL1_RESET;
	v->arch.vmcr = 0; /* virtual CPU interface at reset */
	memset(v->arch.ap0r, 0, sizeof v->arch.ap0r);
	memset(v->arch.ap1r, 0, sizeof v->arch.ap1r);
	if (v->arch.loaded) /* the registers hold the old context: reload the new one */
		arch_vcpu_load(v);
}

/* clang-format off */
#define EL1_REGS(X) X(sctlr, sctlr_el1) X(ttbr0, ttbr0_el1) X(ttbr1, ttbr1_el1) X(tcr, tcr_el1) \
	X(mair, mair_el1) X(amair, amair_el1) X(vbar, vbar_el1) X(contextidr, contextidr_el1) \
	X(tpidr_el0, tpidr_el0) X(tpidrro_el0, tpidrro_el0) X(tpidr_el1, tpidr_el1) \
	X(sp_el0, sp_el0) X(sp_el1, sp_el1) X(elr_el1, elr_el1) X(spsr_el1, spsr_el1) \
	X(esr, esr_el1) X(far, far_el1) X(afsr0, afsr0_el1) X(afsr1, afsr1_el1) X(par, par_el1) \
	X(cpacr, cpacr_el1) X(csselr, csselr_el1) X(cntkctl, cntkctl_el1) X(mdscr, mdscr_el1) \
	X(cntv_cval, cntv_cval_el0) X(cntv_ctl, cntv_ctl_el0)
/* clang-format on */

void arch_vcpu_load(struct vcpu *v)
{
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
#define LOAD(f, r) write_sysreg(r, v->arch.el1.f);
	EL1_REGS(LOAD)
#undef LOAD
#define LOAD_KEY(i, r) write_sysreg(r, v->arch.el1.pauth[i]);
	if (has_pauth()) {
		PAUTH_KEYS(LOAD_KEY)
	}
#undef LOAD_KEY
	fpsimd_load(v->arch.fpsimd);
	struct vm *vm = v->vm;
	write_sysreg(vttbr_el2, (u64)(uintptr_t)vm->arch.s2_root | (u64)vm->arch.vmid << 48);
	write_sysreg(cntvoff_el2, vm->arch.cntvoff);
	write_sysreg(vpidr_el2, read_sysreg(midr_el1));
	write_sysreg(vmpidr_el2, vcpu_mpidr(v->id));
	write_sysreg(hcr_el2, guest_hcr(v));
	vsysreg_hw_load(&v->arch.sys);
	vgic_hw_load(v);
	isb();
	/* A guest may rely on each of its CPUs having private TLBs and instruction cache
	 * (local TLBI, IC IALLU): when another vCPU of the same VM ran here last, drop what
	 * it left under this VMID (as KVM's kvm_arch_vcpu_load does). */
	if (p->last_ran && p->last_ran != v && p->last_ran->vm == vm)
		__asm__ volatile("tlbi vmalle1; dsb nsh; ic iallu; dsb nsh; isb" ::: "memory");
	p->last_ran = v;
	v->arch.loaded = true;
	p->loaded = v;
	/* This vCPU's timer owns PPI 27 now; if it is already due it fires at once. */
	p->vtimer_masked = false;
	gic_host_ppi_enable(INTID_VTIMER, true);
}

void arch_vcpu_put(struct vcpu *v)
{
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	/* Stop its timer from interrupting whoever runs next (the saved CNTV_CTL keeps the
	 * guest's own setting). */
#define SAVE(f, r) v->arch.el1.f = read_sysreg(r);
	EL1_REGS(SAVE)
#undef SAVE
#define SAVE_KEY(i, r) v->arch.el1.pauth[i] = read_sysreg(r);
	if (has_pauth()) {
		PAUTH_KEYS(SAVE_KEY)
	}
#undef SAVE_KEY
	write_sysreg(cntv_ctl_el0, 0);
	vsysreg_hw_put(&v->arch.sys);
	fpsimd_save(v->arch.fpsimd);
	vgic_hw_put(v);
	v->arch.loaded = false;
	p->loaded = NULL;
}

/* A synchronous exception for the guest at EL1 (DDI 0487 D1.10.2): what a real CPU does
 * for an undefined instruction or an external abort. */
static void inject_sync(struct vcpu *v, u64 esr, u64 far, bool has_far)
{
	struct guest_regs *r = &v->arch.regs;
	u64 mode = r->spsr & 0x1F;
	/* The vector (D1.10.2): lower EL AArch32 (M[4] = 1) / AArch64 EL0, EL1h, EL1t. */
	u64 offset = (mode & 0x10) ? 0x600 : mode == 0 ? 0x400 : (mode & 1) ? 0x200 : 0x000;
	write_sysreg(elr_el1, r->elr);
	write_sysreg(spsr_el1, r->spsr);
	write_sysreg(esr_el1, esr);
	if (has_far)
		write_sysreg(far_el1, far);
	r->elr = read_sysreg(vbar_el1) + offset;
	r->spsr = PSTATE_EL1H_MASKED;
}

static void inject_undef(struct vcpu *v)
{
	inject_sync(v, ESR_IL, 0, false); /* EC 0: unknown reason */
}

/* A synchronous External abort (FSC 0x10) on a data access or an instruction fetch: EC
 * 0x24/0x25 or 0x20/0x21 as seen from the guest's EL (from EL0, from EL1). */
static void inject_abort(struct vcpu *v, bool fetch, u64 far)
{
	u64 ec = (fetch ? 0x20 : 0x24) +
		 ((v->arch.regs.spsr & 0x1F) != 0 && !(v->arch.regs.spsr & 0x10));
	inject_sync(v, ec << 26 | BIT(25) | 0x10, far, true);
}

/* The IPA of an abort for which HPFAR_EL2 is not valid (esr_hpfar_valid): the guest's own
 * stage 1 translation of FAR_EL2 (AT S1E1R/W, PAR_EL1: DDI 0487 D8.13), PAR_EL1 kept as
 * the guest had it. False when that translation faults too. */
static bool ipa_from_far(u64 far, bool write, u64 *ipa)
{
	u64 guest_par = read_sysreg(par_el1), par;
	if (write)
		__asm__ volatile("at s1e1w, %0" : : "r"(far));
	else
		__asm__ volatile("at s1e1r, %0" : : "r"(far));
	isb();
	par = read_sysreg(par_el1);
	write_sysreg(par_el1, guest_par);
	if (par & 1) /* PAR_EL1.F */
		return false;
	*ipa = (par & 0x0000FFFFFFFFF000ull) | (far & 0xFFF);
	return true;
}

/* The IPA an abort is about, or false when it cannot be known. */
static bool fault_ipa(const struct esr_abort *a, u64 *ipa)
{
	u64 far = read_sysreg(far_el2);
	if (esr_hpfar_valid(a)) {
		*ipa = esr_fault_ipa(read_sysreg(hpfar_el2), far);
		return true;
	}
	return !a->fnv && ipa_from_far(far, a->write, ipa);
}

static u64 reg_read(struct vcpu *v, u32 rt) { return rt == 31 ? 0 : v->arch.regs.x[rt]; }

static void reg_write(struct vcpu *v, u32 rt, u64 val)
{
	if (rt != 31)
		v->arch.regs.x[rt] = val;
}

/* Steps past an instruction the hypervisor emulated (a trap leaves ELR_EL2 on it), as
 * its execution would have: PSTATE.SS cleared, so that a guest single-stepping it
 * (MDSCR_EL1.SS) takes its Software Step exception right after it, not after the next one
 * (DDI 0487 D2.12: a trapped instruction has not been stepped yet); AArch64 BTYPE cleared
 * (KVM's kvm_skip_instr does both). */
static void skip_insn(struct vcpu *v, u64 len)
{
	struct guest_regs *r = &v->arch.regs;
	r->elr += len;
	r->spsr &= ~SPSR_SS;
	if (!(r->spsr & 0x10)) /* AArch64: BTYPE [11:10] (AArch32 keeps its IT bits there) */
		r->spsr &= ~(3ull << 10);
}

/* Both timers' lines into the vGIC (vtimer.h, ptimer.h). */
static void timers_sync(struct vcpu *v, u64 now)
{
	vtimer_sync(v, now);
	vgic_set_level(&v->vm->arch.vgic, v->id, INTID_PTIMER, ptimer_line(&v->arch.ptimer, now));
}

static void handle_dabt(struct vcpu *v, const struct esr_exit *e, u64 esr)
{
	u64 ipa = 0;
	v->stats.exits[EXIT_MMIO]++;
	const struct esr_abort *a = &e->abort;
	if (!fault_ipa(a, &ipa)) {
		vcpu_bad_access(v,
				"data abort at FAR %llx with no known IPA (ESR_EL2 %llx): "
				"external abort at pc %llx",
				(unsigned long long)read_sysreg(far_el2), (unsigned long long)esr,
				(unsigned long long)v->arch.regs.elr);
		inject_abort(v, false, read_sysreg(far_el2));
		return;
	}
	if (a->cm) {
		/* Cache maintenance by address where there is no memory: nothing is cached
		 * there, so the instruction has nothing to do (KVM skips it too). */
		skip_insn(v, esr_insn_len(esr));
		return;
	}
	if (!a->isv || a->s1ptw) {
		/* No syndrome (e.g. a load/store pair or writeback to a device page) or a
		 * page-table walk outside RAM: nothing to emulate. */
		vcpu_bad_access(v, "%s at %llx (ESR_EL2 %llx): external abort at pc %llx",
				a->s1ptw ? "stage-1 page table walk outside RAM"
					 : "device access without instruction syndrome",
				(unsigned long long)ipa, (unsigned long long)esr,
				(unsigned long long)v->arch.regs.elr);
		inject_abort(v, false, read_sysreg(far_el2));
		return;
	}
	u64 val = a->write ? reg_read(v, a->srt) : 0;
	iobus_access(&v->vm->bus, IO_MMIO, ipa, a->size, a->write, &val);
	if (!a->write)
		reg_write(v, a->srt, esr_load_value(val, a->size, a->sign_extend, a->sf));
	skip_insn(v, esr_insn_len(esr));
}

/* An instruction fetch from an IPA without memory (a device or nothing): the guest gets
 * the prefetch abort a machine without memory there would give (KVM does the same). */
static void handle_iabt(struct vcpu *v, const struct esr_exit *e, u64 esr)
{
	u64 far = read_sysreg(far_el2), ipa = far;
	v->stats.exits[EXIT_EXCEPTION]++;
	if (!fault_ipa(&e->abort, &ipa))
		ipa = far;
	vcpu_bad_access(v, "instruction fetch from %llx, not memory (ESR_EL2 %llx): prefetch abort",
			(unsigned long long)ipa, (unsigned long long)esr);
	inject_abort(v, true, far);
}

/* The hardware's ID register op0 3, op1 0, CRn 0, CRm crm, op2 op2 (crm 1-7): the
 * unallocated ones in that space read as zero (DDI 0487 D17.2). */
/* clang-format off */
#define ID_CASE(crm, op2) \
	case (crm) * 8 + (op2): return read_sysreg(S3_0_C0_C##crm##_##op2);
#define ID_ROW(crm) ID_CASE(crm, 0) ID_CASE(crm, 1) ID_CASE(crm, 2) ID_CASE(crm, 3) \
	ID_CASE(crm, 4) ID_CASE(crm, 5) ID_CASE(crm, 6) ID_CASE(crm, 7)
/* clang-format on */
static u64 read_id_reg(u32 crm, u32 op2)
{
	switch (crm * 8 + op2) {
		ID_ROW(1) ID_ROW(2) ID_ROW(3) ID_ROW(4) ID_ROW(5) ID_ROW(6) ID_ROW(7)
	}
	return 0;
}

/* A trapped MSR or MRS the hypervisor answers; false when the guest gets UNDEF. */
static bool emulate_sysreg(struct vcpu *v, const struct esr_exit *e)
{
	if (id_reg_is_trapped(e->sys.id) && e->sys.read) {
		reg_write(v, e->sys.rt,
			  id_reg_sanitise(e->sys.id, read_id_reg(e->sys.crm, e->sys.op2)));
		return true;
	}
	if ((e->sys.id == ESR_SYSREG_ICC_SGI1R_EL1 || e->sys.id == ESR_SYSREG_ICC_ASGI1R_EL1) &&
	    !e->sys.read) {
		v->stats.ipi_icr++;
		v->stats.ipi_fixed += vgic_v3_send_sgi(&v->vm->arch.vgic, v->id,
						       reg_read(v, e->sys.rt));
		return true;
	}
	if (e->sys.id == ESR_SYSREG_ICC_SGI0R_EL1 && !e->sys.read) { /* trapped by FMO */
		v->stats.ipi_icr++;
		v->stats.ipi_fixed += vgic_v3_send_sgi0(&v->vm->arch.vgic, v->id,
							reg_read(v, e->sys.rt));
		return true;
	}
	if (e->sys.id == ESR_SYSREG_ICC_DIR_EL1 && !e->sys.read) {
		if (vgic_hw_eoi_split())
			vgic_deactivate(&v->vm->arch.vgic, v->id, reg_read(v, e->sys.rt) & 0xFFFFFF,
					0);
		return true;
	}
	u64 val = e->sys.read ? 0 : reg_read(v, e->sys.rt), now = arch_time_now();
	if (ptimer_access(&v->arch.ptimer, e->sys.id, e->sys.read, &val, now)) {
		if (e->sys.read)
			reg_write(v, e->sys.rt, val);
		timers_sync(v, now);
		return true;
	}
	enum vsysreg_result res = vsysreg_access(&v->arch.sys, e->sys.id, e->sys.read, &val);
	switch (res) {
	case VSYS_MDSCR: /* EL1 state, in the hardware while the vCPU is loaded */
		if (e->sys.read)
			val = read_sysreg(mdscr_el1);
		else
			write_sysreg(mdscr_el1, val);
		/* fallthrough */
	case VSYS_DONE:
		if (e->sys.read)
			reg_write(v, e->sys.rt, val);
		return true;
	case VSYS_DONE_BPWP:
	case VSYS_DONE_OSLK:
		vsysreg_hw_write(&v->arch.sys, res, e->sys.id);
		return true;
	case VSYS_UNDEF:
	case VSYS_NOT_MINE:
		break;
	}
	return false;
}

static void handle_sysreg(struct vcpu *v, const struct esr_exit *e, u64 esr)
{
	v->stats.exits[EXIT_MSR]++;
	if (emulate_sysreg(v, e)) {
		skip_insn(v, 4);
		return;
	}
	vcpu_bad_access(v, "%s register S%u_%u_C%u_C%u_%u %s (ESR_EL2 %llx): UNDEFINED at pc %llx",
			vsysreg_class_name(vsysreg_classify(e->sys.id)), e->sys.op0, e->sys.op1,
			e->sys.crn, e->sys.crm, e->sys.op2, e->sys.read ? "read" : "write",
			(unsigned long long)esr, (unsigned long long)v->arch.regs.elr);
	inject_undef(v);
}

/* PSCI and SMCCC on behalf of the guest (smccc.c decides, we act). */
static int psci_cpu_on(void *ctx, u64 mpidr, u64 entry, u64 context_id)
{
	struct vcpu *v = ctx;
	struct vm *vm = v->vm;
	int id = mpidr_to_vcpu(mpidr, vm->nvcpus);
	if (id < 0)
		return PSCI_INVALID_PARAMETERS;
	if (!gpa_to_hva(vm, entry, 4))
		return PSCI_INVALID_ADDRESS;
	struct vcpu *t = vm->vcpus[id];
	int ret = PSCI_SUCCESS;
	spin_lock(&vm->dev_lock);
	if (t->arch.power == POWER_ON)
		ret = PSCI_ALREADY_ON;
	else if (t->arch.power == POWER_ON_PENDING)
		ret = PSCI_ON_PENDING;
	else {
		t->arch.start_entry = entry;
		t->arch.start_context = context_id;
		__atomic_store_n(&t->arch.power, POWER_ON_PENDING, __ATOMIC_RELEASE);
	}
	spin_unlock(&vm->dev_lock);
	if (ret == PSCI_SUCCESS)
		vcpu_kick(t);
	return ret;
}

static void psci_cpu_off(void *ctx)
{
	struct vcpu *v = ctx;
	__atomic_store_n(&v->arch.power, POWER_OFF, __ATOMIC_RELEASE);
	v->state = VCPU_WAIT_START;
}

static int psci_affinity_info(void *ctx, u64 mpidr, u32 level)
{
	struct vcpu *v = ctx;
	struct vm *vm = v->vm;
	/* smccc.c has cleared the affinity fields below `level`: the answer is about
	 * every vCPU in that group (ON if any is on). */
	u64 mask = MPIDR_AFF_MASK & ~((1ull << (8 * level)) - 1) & ~(level >= 3 ? 0xFFFFFFull : 0);
	int ret = PSCI_INVALID_PARAMETERS;
	for (u32 i = 0; i < vm->nvcpus; i++) {
		if ((vcpu_mpidr(i) & mask) != (mpidr & mask))
			continue;
		int s = __atomic_load_n(&vm->vcpus[i]->arch.power, __ATOMIC_ACQUIRE);
		int a = s == POWER_ON		? PSCI_AFFINITY_ON
			: s == POWER_ON_PENDING ? PSCI_AFFINITY_ON_PENDING
						: PSCI_AFFINITY_OFF;
		if (ret == PSCI_INVALID_PARAMETERS || a == PSCI_AFFINITY_ON ||
		    (a == PSCI_AFFINITY_ON_PENDING && ret == PSCI_AFFINITY_OFF))
			ret = a;
	}
	return ret;
}

static void psci_system_off(void *ctx) { vm_request_stop(((struct vcpu *)ctx)->vm, VM_POWEROFF); }

static void psci_system_reset(void *ctx) { vm_request_stop(((struct vcpu *)ctx)->vm, VM_RESET); }

static void psci_cpu_suspend(void *ctx) { ((struct vcpu *)ctx)->arch.suspend = true; }

static u64 pv_time_st_ipa(void *ctx) { return ((struct vcpu *)ctx)->arch.pvtime_ipa; }

static s64 get_stats(void *ctx, u64 ipa, u64 len) { return vm_copy_guest_stats(ctx, ipa, len); }

static int set_preempt_count(void *ctx, u64 reg) { return arm64_preempt_count_register(ctx, reg); }

/* Returns false when the vCPU must go back to the scheduler (halted, off, stopping). */
static bool handle_firmware_call(struct vcpu *v)
{
	struct smccc_ops ops = {
		.cpu_on = psci_cpu_on,
		.cpu_off = psci_cpu_off,
		.affinity_info = psci_affinity_info,
		.system_off = psci_system_off,
		.system_reset = psci_system_reset,
		.cpu_suspend = psci_cpu_suspend,
		.pv_time_st_ipa = pv_time_st_ipa,
		.pv_time = pv_has(v->vm->pv, PV_STEAL),
		.spectre = spec_sys(),
		.get_stats = get_stats,
		.preempt_count = pv_has(v->vm->pv, PV_PREEMPT),
		.set_preempt_count = set_preempt_count,
	};
	v->stats.exits[EXIT_HYPERCALL]++;
	/* Unknown functions get NOT_SUPPORTED, as from any firmware: Linux probes a few
	 * (TRNG_VERSION, the KVM vendor UID) on every boot, so they are not counted. */
	smccc_call(&ops, v, v->arch.regs.x);
	return v->state == VCPU_RUNNABLE && !vm_stopping(v->vm);
}

static void publish_steal(struct vcpu *v)
{
	if (!pv_has(v->vm->pv, PV_STEAL) || v->arch.steal_published == v->stats.steal_ns)
		return;
	v->arch.steal_published = v->stats.steal_ns;
	pvtime_publish(v->vm->arch.pvtime_page + 64 * v->id, v->stats.steal_ns);
}

enum run_result arch_vcpu_run(struct vcpu *v)
{
	struct guest_regs *r = &v->arch.regs;
	for (;;) {
		if (!sched_enter_guest(v))
			return RUN_PREEMPTED;
		publish_steal(v);
		vgic_hw_flush(v);
		u64 vector = guest_enter(r);
		sched_left_guest(v);
		vgic_hw_sync(v);
		timers_sync(v, arch_time_now());
		if (vector == VECTOR_IRQ) {
			v->stats.exits[EXIT_HOST_IRQ]++;
			/* Taken here rather than as an exception in the scheduler's irq
			 * window: the same work, one exception entry and return less. */
			arm64_host_irq();
			return RUN_PREEMPTED;
		}
		if (vector != VECTOR_SYNC) {
			printk("hv: VM '%s' vcpu%u: %s from the guest (ESR_EL2 %llx, pc %llx); "
			       "stopping the VM\n",
			       v->vm->name, v->id, vector == 3 ? "SError" : "FIQ",
			       (unsigned long long)read_sysreg(esr_el2),
			       (unsigned long long)r->elr);
			vm_request_stop(v->vm, VM_FATAL);
			return RUN_PREEMPTED;
		}
		u64 esr = read_sysreg(esr_el2);
		v->arch.last_esr = esr;
		struct esr_exit e;
		esr_decode(esr, &e);
		switch (e.kind) {
		case ESR_WFI:
			v->stats.exits[EXIT_HALT]++;
			skip_insn(v, esr_insn_len(esr)); /* 2 for a T32 WFI at AArch32 EL0 */
			if (!vgic_vcpu_has_pending(&v->vm->arch.vgic, v->id))
				return RUN_HALTED;
			break;
		case ESR_WFE:
			/* A spin-wait hint (trapped only where vCPUs share this pCPU): the
			 * rest of the turn goes to the next runnable vCPU here. */
			v->stats.exits[EXIT_OTHER]++;
			skip_insn(v, esr_insn_len(esr));
			sched_spin_hint(v);
			return RUN_PREEMPTED;
		case ESR_SMC:
			/* A trapped SMC returns to the SMC itself (DDI 0487 D1.10.4). */
			skip_insn(v, 4);
			/* fallthrough */
		case ESR_HVC:
			if (!handle_firmware_call(v))
				return RUN_PREEMPTED;
			if (v->arch.suspend) {
				v->arch.suspend = false;
				if (!vgic_vcpu_has_pending(&v->vm->arch.vgic, v->id))
					return RUN_HALTED;
			}
			break;
		case ESR_SYSREG:
			handle_sysreg(v, &e, esr);
			break;
		case ESR_CP:
			/* AArch32 EL0 reaching the PMU, debug or IMPLEMENTATION DEFINED
			 * registers: UNDEFINED, as for AArch64 (handle_sysreg). */
			v->stats.exits[EXIT_MSR]++;
			vcpu_bad_access(v,
					"AArch32 coprocessor access (ESR_EL2 %llx): UNDEFINED at "
					"pc %llx",
					(unsigned long long)esr, (unsigned long long)r->elr);
			inject_undef(v);
			break;
		case ESR_IABT:
			handle_iabt(v, &e, esr);
			break;
		case ESR_DABT:
			handle_dabt(v, &e, esr);
			if (vm_stopping(v->vm))
				return RUN_PREEMPTED;
			break;
		case ESR_UNKNOWN:
			if (e.ec == ESR_EC_SVE || e.ec == ESR_EC_SME) {
				/* Hidden from the guest (id_regs.c) and trapped by CPTR_EL2: what
				 * a CPU without them does. */
				v->stats.exits[EXIT_EXCEPTION]++;
				inject_undef(v);
				break;
			}
			/* fallthrough */
		default:
			v->stats.exits[EXIT_EXCEPTION]++;
			printk("hv: VM '%s' vcpu%u: unhandled exit ESR_EL2 %llx (EC %#x) at pc "
			       "%llx, FAR %llx; stopping the VM\n",
			       v->vm->name, v->id, (unsigned long long)esr, e.ec,
			       (unsigned long long)r->elr,
			       (unsigned long long)read_sysreg(far_el2));
			vm_request_stop(v->vm, VM_FATAL);
			return RUN_PREEMPTED;
		}
	}
}

void arch_vcpu_poll(struct vcpu *v, u64 now)
{
	if (__atomic_load_n(&v->arch.power, __ATOMIC_ACQUIRE) == POWER_ON_PENDING) {
		spin_lock(&v->vm->dev_lock);
		arm64_vcpu_reset(v, v->arch.start_entry, v->arch.start_context);
		__atomic_store_n(&v->arch.power, POWER_ON, __ATOMIC_RELEASE);
		spin_unlock(&v->vm->dev_lock);
		v->state = VCPU_RUNNABLE;
	}
	if (v->state != VCPU_WAIT_START)
		timers_sync(v, now);
}

bool arch_vcpu_wants_to_run(struct vcpu *v)
{
	return v->state != VCPU_WAIT_START && vgic_vcpu_has_pending(&v->vm->arch.vgic, v->id);
}

u64 arch_vcpu_next_timer(struct vcpu *v)
{
	if (v->state == VCPU_WAIT_START)
		return 0;
	u64 now = arch_time_now(), vt = vtimer_deadline(v, now),
	    pt = ptimer_deadline(&v->arch.ptimer, now);
	return !vt || (pt && pt < vt) ? pt : vt;
}

void arch_vcpu_describe(struct vcpu *v, char *buf, size_t n)
{
	struct guest_regs *r = &v->arch.regs;
	snprintf(
		buf, n,
		"pc=%llx pstate=%llx x0=%llx x1=%llx lr=%llx power=%d irq-pending=%d last-esr=%llx",
		(unsigned long long)r->elr, (unsigned long long)r->spsr,
		(unsigned long long)r->x[0], (unsigned long long)r->x[1],
		(unsigned long long)r->x[30], v->arch.power,
		vgic_vcpu_has_pending(&v->vm->arch.vgic, v->id),
		(unsigned long long)v->arch.last_esr);
}
