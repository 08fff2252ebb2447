/* SPDX-License-Identifier: GPL-2.0-only */
/* The arm64 test guests' entry points (lib.h): the arm64 Image header
 * (Documentation/arch/arm64/booting.rst), the boot CPU's entry (x0 = device tree, MMU off,
 * EL1), the PSCI CPU_ON entry of the others (x0 = context id = CPU index), and the EL1
 * vector table: IRQs go to irq_handler, every other exception to sync_exception. */
#define STACK_SIZE 16384

	.section .text.head, "ax"
	.global _start
_start:
	b	primary			/* code0 */
	.long	0			/* code1 */
	.quad	0x200000		/* text_offset: 2 MiB, where QEMU loads it too */
	.quad	_image_size		/* image_size, bss included */
	.quad	2			/* flags: little endian, 4 KiB pages */
	.quad	0, 0, 0			/* res2..res4 */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* res5 */

primary:
	mov	x19, x0
	adrp	x1, __bss_start
	add	x1, x1, :lo12:__bss_start
	adrp	x2, __bss_end
	add	x2, x2, :lo12:__bss_end
1:	cmp	x1, x2
	b.hs	2f
	stp	xzr, xzr, [x1], #16
	b	1b
2:	mov	x0, #0
	bl	setup_cpu
	mov	x0, x19
	bl	guest_main
3:	b	3b

	.global secondary_entry
secondary_entry:
	mov	x19, x0
	bl	setup_cpu
	mov	x0, x19
	bl	secondary_main
4:	b	4b

/* x0 = CPU index: its stack, the vector table, IRQs and FIQs masked. Keeps x19. */
setup_cpu:
	msr	daifset, #0xf
	adrp	x1, stacks
	add	x1, x1, :lo12:stacks
	mov	x2, #STACK_SIZE
	add	x3, x0, #1
	madd	x1, x2, x3, x1
	mov	sp, x1
	adrp	x1, vectors
	add	x1, x1, :lo12:vectors
	msr	vbar_el1, x1
	isb
	ret

	.macro	ventry label
	.balign	0x80
	b	\label
	.endm

	.text
	.balign	2048
vectors:
	.rept	4			/* current EL with SP0 */
	ventry	sync_entry
	.endr
	ventry	sync_entry		/* current EL with SPx: synchronous */
	ventry	irq_entry		/* IRQ */
	ventry	sync_entry		/* FIQ */
	ventry	sync_entry		/* SError */
	.rept	8			/* lower EL, AArch64 and AArch32 */
	ventry	sync_entry
	.endr

/* The caller-saved registers (AAPCS64) around a C handler. */
	.macro	save_regs
	sub	sp, sp, #176
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	str	x30, [sp, #160]
	.endm

	.macro	restore_regs
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x29, [sp, #144]
	ldr	x30, [sp, #160]
	add	sp, sp, #176
	.endm

irq_entry:
	save_regs
	bl	irq_handler
	restore_regs
	eret

/* Any other exception: sync_exception(ESR, ELR, FAR) says where to go on. */
sync_entry:
	save_regs
	mrs	x0, esr_el1
	mrs	x1, elr_el1
	mrs	x2, far_el1
	bl	sync_exception
	msr	elr_el1, x0
	restore_regs
	eret

	.bss
	.balign	16
	.global stacks
stacks:
	.space	STACK_SIZE * 8
