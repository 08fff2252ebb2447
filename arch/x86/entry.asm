; SPDX-License-Identifier: GPL-2.0-only
; Low-level x86 entry points: the SVM world switch, host interrupt stubs, and the
; real-mode trampoline that brings application processors into long mode.
bits 64
default rel
section .text

; u64 svm_run(u64 vmcb_pa [rdi], u64 *gpr [rsi], u64 host_save_pa [rdx])
; gpr[16] is in x86 encoding order; RAX and RSP are taken from the VMCB by VMRUN, so
; their slots are not touched. Host FS/GS/TR/LDTR/KernelGSbase/STAR... are kept by
; VMSAVE/VMLOAD into host_save_pa; guest ones live in the VMCB (AMD APM vol. 2, 15.5).
global svm_run
svm_run:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	push rdx                ; [rsp+16] host save area
	push rsi                ; [rsp+8]  gpr
	push rdi                ; [rsp+0]  vmcb
	mov rax, rdx
	vmsave
	mov rax, rsi
	mov rcx, [rax + 1*8]
	mov rdx, [rax + 2*8]
	mov rbx, [rax + 3*8]
	mov rbp, [rax + 5*8]
	mov rsi, [rax + 6*8]
	mov rdi, [rax + 7*8]
	mov r8,  [rax + 8*8]
	mov r9,  [rax + 9*8]
	mov r10, [rax + 10*8]
	mov r11, [rax + 11*8]
	mov r12, [rax + 12*8]
	mov r13, [rax + 13*8]
	mov r14, [rax + 14*8]
	mov r15, [rax + 15*8]
	mov rax, [rsp]
	clgi
	; With V_INTR_MASKING the host's RFLAGS.IF decides whether physical interrupts
	; exit the guest (APM 15.21.1); GIF=0 keeps them out of the host until STGI.
	sti
global svm_guest_state_start
svm_guest_state_start:          ; to svm_guest_state_end FS, GS, TR... are the guest's
	vmload
	vmrun
global svm_vmrun_return
svm_vmrun_return:
	vmsave
	cli
	mov rax, [rsp + 8]
	mov [rax + 1*8], rcx
	mov [rax + 2*8], rdx
	mov [rax + 3*8], rbx
	mov [rax + 5*8], rbp
	mov [rax + 6*8], rsi
	mov [rax + 7*8], rdi
	mov [rax + 8*8], r8
	mov [rax + 9*8], r9
	mov [rax + 10*8], r10
	mov [rax + 11*8], r11
	mov [rax + 12*8], r12
	mov [rax + 13*8], r13
	mov [rax + 14*8], r14
	mov [rax + 15*8], r15
	mov rax, [rsp + 16]
	vmload
global svm_guest_state_end
svm_guest_state_end:
	stgi                    ; host interrupts stay masked (RFLAGS.IF=0) until irq_window
	add rsp, 24
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret

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
