; SPDX-License-Identifier: GPL-2.0-only
; The hardware self-test's guest (hv/selftest.h), built into hv.efi: the x86 interrupt
; test guest, tests/guest/x86/apictest.c (a PVH ELF image).
section .rodata
global selftest_guest, selftest_guest_end
align 16
selftest_guest:
	incbin "build/x86_64/guests-test/apictest.elf"
selftest_guest_end:
section .note.GNU-stack noalloc noexec nowrite progbits
