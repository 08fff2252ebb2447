; SPDX-License-Identifier: GPL-2.0-only
; Retpolines: the hypervisor is built with -mindirect-branch=thunk-extern (Makefile), so
; each indirect call or jump of its C code (x86_vendor->..., lwIP's callbacks, jump
; tables) goes through __x86_indirect_thunk_<reg>, which reaches the target by a RET
; whose prediction the return stack buffer makes (a capture loop), never by the branch
; target buffer a guest can train (Spectre v2; Intel's "Retpoline: A Branch Target
; Injection Mitigation", 2018). vcpu.c's exit path fills the return stack buffer, so a
; guest's return addresses are not predicted either.
bits 64
default rel
section .text

%macro THUNK 1
global __x86_indirect_thunk_%1
__x86_indirect_thunk_%1:
	call %%set_target
%%capture:                      ; where a speculated RET goes: nowhere
	pause
	lfence
	jmp %%capture
%%set_target:
	mov [rsp], %1           ; the RET goes to the target, architecturally
	ret
%endmacro

THUNK rax
THUNK rbx
THUNK rcx
THUNK rdx
THUNK rsi
THUNK rdi
THUNK rbp
THUNK r8
THUNK r9
THUNK r10
THUNK r11
THUNK r12
THUNK r13
THUNK r14
THUNK r15

section .note.GNU-stack noalloc noexec nowrite progbits
