; SPDX-License-Identifier: GPL-2.0-only
; The multiboot test kernel (tests/emu/multiboot.sh): an ELF32 file with a multiboot
; header (flags: page-aligned modules, memory information), entered as the Multiboot
; Specification 0.6.96 says (3.2: 32-bit protected mode, paging off, EAX = 0x2BADB002,
; EBX = the information structure). It prints on COM1 what it was given: the magic, the
; information's flags, mem_lower and mem_upper, the command line, each module's string,
; length and text, the memory map; waits "delay=D" tenths of a second by the ACPI PM
; timer where the command line says so; then writes "status=D" (a digit, default 0) to
; the test exit port 0xf4, or 9 when the magic was wrong.
bits 32
section .text

MB_MAGIC	equ 0x1BADB002
MB_FLAGS	equ 3 ; modules page-aligned, memory information
COM1		equ 0x3F8
PM_TIMER	equ 0x608
EXIT_PORT	equ 0xf4

align 4
	dd MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

global start
start:
	mov esp, stack_top
	mov [info], ebx
	cmp eax, 0x2BADB002
	je .magic_ok
	mov esi, s_bad_magic
	call puts
	call hex
	call nl
	mov al, 9
	jmp exit
.magic_ok:
	mov esi, s_magic
	call puts
	mov ebx, [info]
	mov esi, s_flags
	call puts
	mov eax, [ebx]
	call hex
	mov esi, s_lower
	call puts
	mov eax, [ebx + 4]
	call hex
	mov esi, s_upper
	call puts
	mov eax, [ebx + 8]
	call hex
	call nl
	mov esi, s_cmdline
	call puts
	mov esi, [ebx + 16]
	call puts
	call nl

	; modules: "MBTEST mod N STRING len=L: TEXT"
	mov ecx, [ebx + 20]
	mov edi, [ebx + 24]
	xor edx, edx
.mod:
	cmp edx, ecx
	jae .mods_done
	push ecx
	push edx
	mov esi, s_mod
	call puts
	mov eax, edx
	call hex
	mov al, ' '
	call putc
	mov esi, [edi + 8]
	call puts
	mov esi, s_len
	call puts
	mov eax, [edi + 4]
	sub eax, [edi]
	call hex
	mov al, ':'
	call putc
	mov al, ' '
	call putc
	mov esi, [edi]
	mov ecx, [edi + 4]
.bytes:	; the module's bytes up to a newline, its end, or 40 of them
	cmp esi, ecx
	jae .bytes_done
	mov al, [esi]
	cmp al, 10
	je .bytes_done
	call putc
	inc esi
	mov eax, esi
	sub eax, [edi]
	cmp eax, 40
	jb .bytes
.bytes_done:
	call nl
	pop edx
	pop ecx
	inc edx
	add edi, 16
	jmp .mod
.mods_done:

	; the memory map: "MBTEST mmap ADDR LEN TYPE" (low 32 bits)
	mov edi, [ebx + 48]
	mov ecx, edi
	add ecx, [ebx + 44]
.mmap:
	cmp edi, ecx
	jae .mmap_done
	mov esi, s_mmap
	call puts
	mov eax, [edi + 4]
	call hex
	mov al, ' '
	call putc
	mov eax, [edi + 12]
	call hex
	mov al, ' '
	call putc
	mov eax, [edi + 20]
	call hex
	call nl
	add edi, [edi]
	add edi, 4
	jmp .mmap
.mmap_done:

	; delay=D: D tenths of a second of the PM timer (3.579545 MHz, 24 bits)
	mov esi, s_delay_key
	call find_digit
	imul ecx, eax, 357954
	mov dx, PM_TIMER
	in eax, dx
	mov ebx, eax
	xor edi, edi
.wait:
	cmp edi, ecx
	jae .waited
	in eax, dx
	mov esi, eax
	sub eax, ebx
	and eax, 0xFFFFFF
	add edi, eax
	mov ebx, esi
	pause
	jmp .wait
.waited:
	mov esi, s_status_key
	call find_digit
	push eax
	mov esi, s_done
	call puts
	pop eax
	push eax
	call hex
	call nl
	pop eax
exit:
	mov dx, EXIT_PORT
	out dx, al
	; Without an exit port the write goes nowhere: stop here.
	cli
.halt:	hlt
	jmp .halt

; The digit after the key at esi ("status=") in the command line: eax, 0 when absent.
find_digit:
	push ebx
	push ecx
	push edi
	mov ebx, [info]
	mov edi, [ebx + 16]
.next:
	cmp byte [edi], 0
	je .none
	xor ecx, ecx
.cmp:
	mov al, [esi + ecx]
	test al, al
	jz .found
	cmp al, [edi + ecx]
	jne .advance
	inc ecx
	jmp .cmp
.advance:
	inc edi
	jmp .next
.found:
	movzx eax, byte [edi + ecx]
	sub eax, '0'
	cmp eax, 9
	jbe .out
.none:
	xor eax, eax
.out:
	pop edi
	pop ecx
	pop ebx
	ret

; COM1, polled: wait for the transmit holding register, then write al.
putc:
	push edx
	push eax
	mov dx, COM1 + 5
.busy:	in al, dx
	test al, 0x20
	jz .busy
	pop eax
	mov dx, COM1
	out dx, al
	pop edx
	ret

puts:	; the NUL-terminated string at esi
	push eax
	push esi
.loop:	lodsb
	test al, al
	jz .end
	call putc
	jmp .loop
.end:	pop esi
	pop eax
	ret

nl:
	push eax
	mov al, 10
	call putc
	pop eax
	ret

hex:	; eax as 0x followed by 8 hex digits
	push eax
	push ecx
	push edx
	mov edx, eax
	mov al, '0'
	call putc
	mov al, 'x'
	call putc
	mov ecx, 8
.digit:	rol edx, 4
	mov eax, edx
	and eax, 15
	mov al, [hexdigits + eax]
	call putc
	loop .digit
	pop edx
	pop ecx
	pop eax
	ret

section .rodata
hexdigits:	db "0123456789abcdef"
s_bad_magic:	db "MBTEST FAIL bad magic eax=", 0
s_magic:	db "MBTEST magic ok", 10, 0
s_flags:	db "MBTEST flags=", 0
s_lower:	db " mem_lower=", 0
s_upper:	db " mem_upper=", 0
s_cmdline:	db "MBTEST cmdline=", 0
s_mod:		db "MBTEST mod ", 0
s_len:		db " len=", 0
s_mmap:		db "MBTEST mmap ", 0
s_done:		db "MBTEST done, status ", 0
s_delay_key:	db "delay=", 0
s_status_key:	db "status=", 0

section .bss
info:	resd 1
alignb 16
	resb 4096
stack_top:
