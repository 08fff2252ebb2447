/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 test guests' entry (Xen's PVH boot ABI: 32-bit flat protected mode, paging off,
 * the start-info block's address in EBX), their descriptor tables and interrupt stubs, and
 * the trampoline that takes an application processor from its STARTUP page (real mode)
 * to the same 32-bit mode. Everything runs in ring 0 with paging off. */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

	.section .note.pvh, "a"
	.p2align 2
	.long 4, 4, XEN_ELFNOTE_PHYS32_ENTRY
	.asciz "Xen"
	.p2align 2
	.long _start

	.section .text.start, "ax"
	.code32
	.globl _start
_start:
	cli
	lgdt gdt_desc
	ljmp $0x08, $1f
1:	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov %ax, %fs
	mov %ax, %gs
	mov $bsp_stack_top, %esp
	lidt idt_desc
	push %ebx
	call main
2:	cli
	hlt
	jmp 2b

/* An application processor, in 32-bit mode from the trampoline: its stack was set by the
 * CPU that started it (ap_stack). */
ap_protected:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov %ax, %fs
	mov %ax, %gs
	mov ap_stack, %esp
	lidt idt_desc
	call ap_main
	jmp 2b

/* Interrupt and exception stubs: vector and error code (0 where the CPU pushes none),
 * the registers, then trap(frame). */
	.altmacro
	.macro stub v
vec_\v:
	.if (\v == 8) || (\v >= 10 && \v <= 14) || (\v == 17) || (\v == 21)
	.else
	push $0
	.endif
	push $\v
	jmp common
	.endm
	.set v, 0
	.rept 256
	stub %v
	.set v, v + 1
	.endr
common:
	pusha
	push %esp
	call trap
	add $4, %esp
	popa
	add $8, %esp
	iret

	.macro addr v
	.long vec_\v
	.endm
	.section .rodata
	.globl stubs
stubs:
	.set v, 0
	.rept 256
	addr %v
	.set v, v + 1
	.endr

/* GDT: null, flat 32-bit code 0x08, flat data 0x10. */
	.p2align 3
gdt:
	.quad 0
	.quad 0x00cf9a000000ffff
	.quad 0x00cf92000000ffff
gdt_end:
gdt_desc:
	.word gdt_end - gdt - 1
	.long gdt

/* The trampoline, copied by the guest to a page below 1 MiB; an AP starts there in real
 * mode (CS = the page >> 4, IP = 0) after STARTUP with the page's number. */
	.section .text
	.code16
	.globl trampoline, trampoline_end
trampoline:
	cli
	mov %cs, %ax
	mov %ax, %ds
	lgdtl tramp_gdt_desc - trampoline
	mov %cr0, %eax
	or $1, %eax
	mov %eax, %cr0
	ljmpl $0x08, $ap_protected
	.p2align 2
tramp_gdt_desc:
	.word gdt_end - gdt - 1
	.long gdt
trampoline_end:
	.code32

	.section .note.GNU-stack, "", @progbits
	.section .bss
	.p2align 12
	.space 16384
bsp_stack_top:
