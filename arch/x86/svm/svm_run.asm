; SPDX-License-Identifier: GPL-2.0-only
; The SVM world switch (AMD APM vol. 2, 15.5): host state saved, the guest run, the host
; state back.
%include "../guest_gprs.inc"
bits 64
default rel
section .text

; u64 svm_run(u64 vmcb_pa [rdi], u64 *gpr [rsi], u64 host_save_pa [rdx])
; gpr[16] is in x86 encoding order; RAX and RSP are taken from the VMCB by VMRUN, so
; their slots are not touched (svm.c copies them around this call). Host
; FS/GS/TR/LDTR/KernelGSbase/STAR... are kept by VMSAVE/VMLOAD into host_save_pa; guest
; ones live in the VMCB.
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
	GUEST_GPRS_LOAD
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
	GUEST_GPRS_STORE
	GUEST_GPRS_CLEAR
	RSB_FILL
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

section .note.GNU-stack noalloc noexec nowrite progbits
