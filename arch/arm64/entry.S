/* SPDX-License-Identifier: GPL-2.0-only */
/* EL2 exception vectors, the world switch into a guest and back, and the entry point
 * of secondary pCPUs started with PSCI CPU_ON. DDI 0487 D1.10 (exception vectors). */

/* struct guest_regs (arch/vm.h): x0..x30, then ELR_EL2, SPSR_EL2, the host's SP. */
#define REGS_ELR 248
#define REGS_SPSR 256
#define REGS_HOST_SP 264

/* The lower-EL AArch64 entries of a vector table: x0 tells guest_exit the kind (EXIT_* in
 * arch/vm.h). `mitigation` runs first, with x0 and x1 saved (spectre.h says which table
 * a pCPU gets): fw_wa1/fw_wa3 the firmware's SMCCC_ARCH_WORKAROUND_1/3 (x0-x3 may be
 * clobbered: x2, x3 saved too), loop the Spectre-BHB branchy loop spec_bhb_loop_k times,
 * clrbhb the ClearBHB instruction (HINT #22). */
/* SMC SMCCC_ARCH_WORKAROUND_1 (0x80008000) or _3 (0x80003FFF), by its low half. */
.macro fw_workaround low
	stp x2, x3, [sp, #-16]!
	movz w0, #0x8000, lsl #16
	movk w0, #\low
	smc #0
	ldp x2, x3, [sp], #16
.endm

.macro bhb_mitigation kind
	.ifc \kind, fw_wa1
	fw_workaround 0x8000
	.endif
	.ifc \kind, fw_wa3
	fw_workaround 0x3FFF
	.endif
	.ifc \kind, loop
	adrp x0, spec_bhb_loop_k
	ldr x0, [x0, #:lo12:spec_bhb_loop_k]
1:	b . + 4
	subs x0, x0, #1
	b.ne 1b
	dsb nsh
	isb
	.endif
	.ifc \kind, clrbhb
	hint #22		/* CLRBHB */
	isb
	.endif
.endm

.macro guest_vector kind, mitigation
	.balign 0x80
	stp x0, x1, [sp, #-16]!
	bhb_mitigation \mitigation
	mov x1, #\kind
	b guest_exit
.endm

.macro el2_vector_table name, mitigation
	.balign 2048
	.global \name
\name:
	/* Current EL with SP_EL0: never used. */
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	/* Current EL with SP_ELx: the hypervisor itself. */
	.balign 0x80; b el2_sync
	.balign 0x80; b el2_irq
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	/* Lower EL, AArch64: the guest. */
	guest_vector 0, \mitigation
	guest_vector 1, \mitigation
	guest_vector 2, \mitigation
	guest_vector 3, \mitigation
	/* Lower EL, AArch32: our guests are AArch64 only (HCR_EL2.RW = 1). */
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
	.balign 0x80; b el2_unexpected
.endm

	.text
	el2_vector_table el2_vectors, none
	el2_vector_table el2_vectors_fw_wa1, fw_wa1
	el2_vector_table el2_vectors_fw_wa3, fw_wa3
	el2_vector_table el2_vectors_loop, loop
	el2_vector_table el2_vectors_clrbhb, clrbhb

el2_unexpected:
	mov x0, #-1
	b el2_fatal
el2_sync:
	mov x0, #0
el2_fatal:
	mrs x1, esr_el2
	mrs x2, elr_el2
	mrs x3, far_el2
	bl arm64_hyp_fault	/* prints and stops; does not return */
1:	wfi
	b 1b

/* A host interrupt while the hypervisor runs (only in irq_window / idle): save the
 * caller-saved registers, let C handle it, return. */
el2_irq:
	sub sp, sp, #192
	stp x0, x1, [sp, #0]
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	stp x18, x30, [sp, #144]
	mrs x0, elr_el2
	mrs x1, spsr_el2
	stp x0, x1, [sp, #160]
	bl arm64_host_irq
	ldp x0, x1, [sp, #160]
	msr elr_el2, x0
	msr spsr_el2, x1
	ldp x0, x1, [sp, #0]
	ldp x2, x3, [sp, #16]
	ldp x4, x5, [sp, #32]
	ldp x6, x7, [sp, #48]
	ldp x8, x9, [sp, #64]
	ldp x10, x11, [sp, #80]
	ldp x12, x13, [sp, #96]
	ldp x14, x15, [sp, #112]
	ldp x16, x17, [sp, #128]
	ldp x18, x30, [sp, #144]
	add sp, sp, #192
	eret

/* u64 guest_enter(struct guest_regs *r): runs the guest until its next exception to EL2;
 * returns the vector kind (0 sync, 1 IRQ, 2 FIQ, 3 SError). TPIDR_EL2 holds r while the
 * guest runs (the host's value is kept on the stack). Interrupts are masked. */
	.global guest_enter
guest_enter:
	sub sp, sp, #112
	stp x19, x20, [sp, #0]
	stp x21, x22, [sp, #16]
	stp x23, x24, [sp, #32]
	stp x25, x26, [sp, #48]
	stp x27, x28, [sp, #64]
	stp x29, x30, [sp, #80]
	mrs x1, tpidr_el2
	str x1, [sp, #96]
	mov x1, sp
	str x1, [x0, #REGS_HOST_SP]
	msr tpidr_el2, x0
	ldr x1, [x0, #REGS_ELR]
	msr elr_el2, x1
	ldr x1, [x0, #REGS_SPSR]
	msr spsr_el2, x1
	ldp x2, x3, [x0, #16]
	ldp x4, x5, [x0, #32]
	ldp x6, x7, [x0, #48]
	ldp x8, x9, [x0, #64]
	ldp x10, x11, [x0, #80]
	ldp x12, x13, [x0, #96]
	ldp x14, x15, [x0, #112]
	ldp x16, x17, [x0, #128]
	ldp x18, x19, [x0, #144]
	ldp x20, x21, [x0, #160]
	ldp x22, x23, [x0, #176]
	ldp x24, x25, [x0, #192]
	ldp x26, x27, [x0, #208]
	ldp x28, x29, [x0, #224]
	ldr x30, [x0, #240]
	ldp x0, x1, [x0, #0]
	eret

/* From a lower-EL vector: the guest's x0/x1 are on the stack, x1 holds the kind. */
guest_exit:
	mrs x0, tpidr_el2
	stp x2, x3, [x0, #16]
	stp x4, x5, [x0, #32]
	stp x6, x7, [x0, #48]
	stp x8, x9, [x0, #64]
	stp x10, x11, [x0, #80]
	stp x12, x13, [x0, #96]
	stp x14, x15, [x0, #112]
	stp x16, x17, [x0, #128]
	stp x18, x19, [x0, #144]
	stp x20, x21, [x0, #160]
	stp x22, x23, [x0, #176]
	stp x24, x25, [x0, #192]
	stp x26, x27, [x0, #208]
	stp x28, x29, [x0, #224]
	str x30, [x0, #240]
	ldp x2, x3, [sp], #16
	stp x2, x3, [x0, #0]
	mrs x2, elr_el2
	str x2, [x0, #REGS_ELR]
	mrs x2, spsr_el2
	str x2, [x0, #REGS_SPSR]
	ldr x2, [x0, #REGS_HOST_SP]
	mov sp, x2
	ldr x2, [sp, #96]
	msr tpidr_el2, x2
	ldp x19, x20, [sp, #0]
	ldp x21, x22, [sp, #16]
	ldp x23, x24, [sp, #32]
	ldp x25, x26, [sp, #48]
	ldp x27, x28, [sp, #64]
	ldp x29, x30, [sp, #80]
	add sp, sp, #112
	mov x0, x1
	ret

/* FP/SIMD registers of a vCPU (the hypervisor itself never uses them: it is built with
 * -mgeneral-regs-only). x0 = 32 x 16 bytes followed by FPSR and FPCR. */
	.global fpsimd_save
fpsimd_save:
	stp q0, q1, [x0, #0]
	stp q2, q3, [x0, #32]
	stp q4, q5, [x0, #64]
	stp q6, q7, [x0, #96]
	stp q8, q9, [x0, #128]
	stp q10, q11, [x0, #160]
	stp q12, q13, [x0, #192]
	stp q14, q15, [x0, #224]
	stp q16, q17, [x0, #256]
	stp q18, q19, [x0, #288]
	stp q20, q21, [x0, #320]
	stp q22, q23, [x0, #352]
	stp q24, q25, [x0, #384]
	stp q26, q27, [x0, #416]
	stp q28, q29, [x0, #448]
	stp q30, q31, [x0, #480]
	mrs x1, fpsr
	mrs x2, fpcr
	add x0, x0, #512
	stp x1, x2, [x0]
	ret

	.global fpsimd_load
fpsimd_load:
	ldp q0, q1, [x0, #0]
	ldp q2, q3, [x0, #32]
	ldp q4, q5, [x0, #64]
	ldp q6, q7, [x0, #96]
	ldp q8, q9, [x0, #128]
	ldp q10, q11, [x0, #160]
	ldp q12, q13, [x0, #192]
	ldp q14, q15, [x0, #224]
	ldp q16, q17, [x0, #256]
	ldp q18, q19, [x0, #288]
	ldp q20, q21, [x0, #320]
	ldp q22, q23, [x0, #352]
	ldp q24, q25, [x0, #384]
	ldp q26, q27, [x0, #416]
	ldp q28, q29, [x0, #448]
	ldp q30, q31, [x0, #480]
	add x0, x0, #512
	ldp x1, x2, [x0]
	msr fpsr, x1
	msr fpcr, x2
	ret

/* Secondary pCPUs arrive here from PSCI CPU_ON at EL2 with the MMU off; x0 is the
 * context id: the physical address of its struct secondary_boot {sctlr, tcr, mair,
 * ttbr0, vbar, sp, entry (C, called with the pCPU id in x0), id}: the boot CPU's EL2
 * translation regime, so that the same identity map is used. */
	.global secondary_entry
secondary_entry:
	ldr x1, [x0, #8]
	msr tcr_el2, x1
	ldr x1, [x0, #16]
	msr mair_el2, x1
	ldr x1, [x0, #24]
	msr ttbr0_el2, x1
	ldr x1, [x0, #32]
	msr vbar_el2, x1
	isb
	tlbi alle2
	dsb sy
	ldr x1, [x0, #0]
	msr sctlr_el2, x1
	isb
	ldr x1, [x0, #40]
	mov sp, x1
	ldr x2, [x0, #48]
	ldr x0, [x0, #56]
	blr x2
1:	wfi
	b 1b
