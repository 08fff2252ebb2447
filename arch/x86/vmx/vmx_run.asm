; SPDX-License-Identifier: GPL-2.0-only
; The VMX world switch (Intel SDM vol. 3C, 26 "VM Entries", 28.5 "Loading Host State"):
; the guest's general registers in, VMLAUNCH or VMRESUME, and at the exit the CPU comes
; back to vmx_exit with the host state of the VMCS: RSP as this function left it, RIP
; vmx_exit, RFLAGS 2 (interrupts masked until the scheduler's window).
%include "../guest_gprs.inc"
bits 64
default rel
section .text

HOST_RSP equ 0x6C14
extern x86_verw_before_entry

section .rodata
verw_selector: dw 0x10          ; the hypervisor's data segment (pcpu.c's GDT)
section .text

; u32 vmx_run(u64 *gpr [rdi], u32 launched [esi], u64 *cr2 [rdx])
; gpr[16] is in x86 encoding order; RSP is the VMCS's (vmx.c copies it). CR2 is not in
; the VMCS: the guest's is in the CPU's register while it runs (*cr2 in and out; the host
; keeps none). Returns 0 after a VM exit, 1 when the entry itself failed (VMfailInvalid
; or VMfailValid: the guest did not run; VM_INSTRUCTION_ERROR says why).
; The entry, once the VMCS is ready and RAX holds gpr; %1 = 1: VERW right before it (MDS,
; TAA, RFDS: the CPU's buffers cleared, speculation.c), after the last load, as KVM's
; vmenter.S. CF carries `launched` past the loads and VERW, which leave it alone.
%macro ENTER 1
	bt esi, 0               ; CF: launched
	GUEST_GPRS_LOAD
	mov rax, [rax + 0*8]
%if %1
	verw [verw_selector]
%endif
	jc %%resume
	vmlaunch
	jmp .failed
%%resume:
	vmresume
	jmp .failed
%endmacro

global vmx_run
vmx_run:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	push rdx                ; [rsp + 8] cr2
	push rdi                ; [rsp] gpr, for the exit
	mov rax, [rdx]
	mov cr2, rax
	mov rax, HOST_RSP
	vmwrite rax, rsp
	jbe .failed             ; CF or ZF: VMfail
	mov rax, rdi
	cmp byte [x86_verw_before_entry], 0
	jne .verw
	ENTER 0
.verw:
	ENTER 1
.failed:
	add rsp, 16
	mov eax, 1
	jmp vmx_return

global vmx_exit
vmx_exit:
	push rax                ; the guest's RAX
	mov rax, [rsp + 8]      ; gpr
	GUEST_GPRS_STORE
	pop rcx
	mov [rax + 0*8], rcx
	mov rcx, cr2
	mov rax, [rsp + 8]
	mov [rax], rcx
	GUEST_GPRS_CLEAR
	RSB_FILL
	add rsp, 16
	xor eax, eax
vmx_return:
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
