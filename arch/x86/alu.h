/* SPDX-License-Identifier: GPL-2.0-only */
/* The arithmetic of the read-modify-write instructions that the MMIO emulator (decode.h)
 * does on a device register or on no device: the value written back and the status
 * flags, as the CPU computes them (SDM Vol. 1 3.4.3.1; Vol. 2, each instruction's "Flags
 * Affected"). */
#ifndef ARCH_X86_ALU_H
#define ARCH_X86_ALU_H

#include "hv/types.h"

enum x86_alu_op {
	/* 0-7 in the order of group 1: the ModRM reg field of 80/81/83 and bits 5:3 of the
	 * opcodes 00-3F (SDM Vol. 2 Tables) */
	X86_ALU_ADD,
	X86_ALU_OR,
	X86_ALU_ADC,
	X86_ALU_SBB,
	X86_ALU_AND,
	X86_ALU_SUB,
	X86_ALU_XOR,
	X86_ALU_CMP,
	X86_ALU_TEST,
	X86_ALU_NOT,
	X86_ALU_NEG,
	X86_ALU_INC,
	X86_ALU_DEC,
	X86_ALU_XCHG, /* the result is src; the caller gives dst to the register */
};

#define X86_RFLAGS_CF BIT(0)
#define X86_RFLAGS_PF BIT(2)
#define X86_RFLAGS_AF BIT(4)
#define X86_RFLAGS_ZF BIT(6)
#define X86_RFLAGS_SF BIT(7)
#define X86_RFLAGS_OF BIT(11)
#define X86_RFLAGS_STATUS                                                                \
	(X86_RFLAGS_CF | X86_RFLAGS_PF | X86_RFLAGS_AF | X86_RFLAGS_ZF | X86_RFLAGS_SF | \
	 X86_RFLAGS_OF)

/*
 * dst op src at size bytes (1, 2, 4, 8; the operands are cut to it): returns what the
 * instruction leaves in dst (CMP and TEST: dst itself) and updates the status flags in
 * *rflags as it does (ADC and SBB take CF from there; INC and DEC keep CF; NOT and XCHG
 * change no flag). INC, DEC, NOT and NEG ignore src. Where the SDM leaves AF undefined
 * (AND, OR, XOR, TEST) it is cleared, as CPUs and QEMU do.
 */
u64 x86_alu(enum x86_alu_op op, unsigned int size, u64 dst, u64 src, u64 *rflags);

#endif
