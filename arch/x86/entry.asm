; SPDX-License-Identifier: GPL-2.0-only
; Low-level x86 entry points: host interrupt stubs, and the real-mode trampoline that
; brings application processors into long mode. (The world switch is the vendor's: svm/.)
bits 64
default rel
section .text

; Host interrupt and exception stubs. Each pushes a vector number (and a zero error
; code where the CPU pushes none) and calls x86_trap(frame).
extern x86_trap
%macro TRAP_NOERR 1
global trap_%1
trap_%1:
	push 0
	push %1
	jmp trap_common
%endmacro
%macro TRAP_ERR 1
global trap_%1
trap_%1:
	push %1
	jmp trap_common
%endmacro

%assign v 0
%rep 32
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
	TRAP_ERR v
%else
	TRAP_NOERR v
%endif
%assign v v+1
%endrep
TRAP_NOERR 0xf0
TRAP_NOERR 0xf1
TRAP_NOERR 0xf2
TRAP_NOERR 0xff

trap_common:
	push rax
	push rcx
	push rdx
	push rbx
	push rbp
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	mov rbx, rsp
	and rsp, -16
	call x86_trap
	mov rsp, rbx
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rbp
	pop rbx
	pop rdx
	pop rcx
	pop rax
	add rsp, 16
	iretq

global trap_table
section .data
trap_table:
%assign v 0
%rep 32
	dq trap_ %+ v
%assign v v+1
%endrep

; ---------------------------------------------------------------------------------
; AP trampoline, copied to a page below 1 MiB; a STARTUP IPI enters it in real mode at
; offset 0 with CS = page >> 4. The boot CPU fills the parameter block at its end.
; Intel SDM vol. 3, 9.4 (MP initialization) and 9.8 (switching to long mode).
section .data
bits 16
global ap_trampoline_start, ap_trampoline_end
ap_trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4                               ; ebx = physical base of the trampoline
	lgdt [gdt_desc - ap_trampoline_start]
	mov eax, cr0
	or eax, 1
	mov cr0, eax
	jmp far dword [pm_jump - ap_trampoline_start]
bits 32
pm_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, [ebx + p_cr4 - ap_trampoline_start]
	mov cr4, eax
	mov eax, [ebx + p_cr3 - ap_trampoline_start]
	mov cr3, eax
	mov ecx, 0xC0000080
	mov eax, [ebx + p_efer - ap_trampoline_start]
	xor edx, edx
	wrmsr
	mov eax, [ebx + p_cr0 - ap_trampoline_start]
	mov cr0, eax
	jmp far dword [ebx + lm_jump - ap_trampoline_start]
bits 64
lm_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [rbx + p_stack - ap_trampoline_start]
	mov rax, [rbx + p_entry - ap_trampoline_start]
	call rax
.hang:
	hlt
	jmp .hang

align 16
gdt:
	dq 0
	dq 0x00CF9A000000FFFF                    ; 0x08 code32
	dq 0x00CF92000000FFFF                    ; 0x10 data
	dq 0x00AF9A000000FFFF                    ; 0x18 code64
gdt_desc:
	dw gdt_desc - gdt - 1
global ap_tramp_gdt_base
ap_tramp_gdt_base:
	dd 0                                     ; patched: base + (gdt - start)
global ap_tramp_pm_jump, ap_tramp_lm_jump
ap_tramp_pm_jump:
pm_jump:
	dd 0                                     ; patched: base + (pm_entry - start)
	dw 0x08
ap_tramp_lm_jump:
lm_jump:
	dd 0                                     ; patched: base + (lm_entry - start)
	dw 0x18
align 8
global ap_tramp_params
ap_tramp_params:
p_cr0:   dq 0
p_cr3:   dq 0
p_cr4:   dq 0
p_efer:  dq 0
p_stack: dq 0
p_entry: dq 0
ap_trampoline_end:

global ap_tramp_off_gdt, ap_tramp_off_pm, ap_tramp_off_lm
ap_tramp_off_gdt: dq gdt - ap_trampoline_start
ap_tramp_off_pm:  dq pm_entry - ap_trampoline_start
ap_tramp_off_lm:  dq lm_entry - ap_trampoline_start

section .note.GNU-stack noalloc noexec nowrite progbits
