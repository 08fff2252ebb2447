/* SPDX-License-Identifier: GPL-2.0-only */
/* The arithmetic of the emulated read-modify-write instructions: see alu.h. */
#include "arch/x86/alu.h"

/* ZF, SF and PF of a result whose sign bit is sign (PF: an even number of ones in its
 * low byte). */
static u64 zsp(u64 res, u64 sign)
{
	return (res ? 0 : X86_RFLAGS_ZF) | (res & sign ? X86_RFLAGS_SF : 0) |
	       (__builtin_parity((unsigned int)(res & 0xff)) ? 0 : X86_RFLAGS_PF);
}

u64 x86_alu(enum x86_alu_op op, unsigned int size, u64 dst, u64 src, u64 *rflags)
{
	u64 mask = size >= 8 ? ~0ull : BIT(8 * size) - 1, sign = BIT(8 * size - 1);
	u64 a = dst & mask, b = src & mask, carry = 0, res, flags = 0;
	u64 changed = X86_RFLAGS_STATUS; /* the flags the instruction sets */

	switch (op) {
	case X86_ALU_NOT:
		return ~a & mask;
	case X86_ALU_XCHG:
		return b;
	case X86_ALU_INC:
	case X86_ALU_DEC:
		changed &= ~X86_RFLAGS_CF;
		b = 1;
		break;
	case X86_ALU_NEG: /* 0 - dst, CF set unless dst is 0 */
		b = a;
		a = 0;
		break;
	case X86_ALU_ADC:
	case X86_ALU_SBB:
		carry = *rflags & X86_RFLAGS_CF;
		break;
	default:
		break;
	}

	switch (op) {
	case X86_ALU_ADD:
	case X86_ALU_ADC:
	case X86_ALU_INC:
		res = (a + b + carry) & mask;
		if (res < a || (carry && res == a))
			flags |= X86_RFLAGS_CF;
		/* signed overflow: both operands of one sign, the result of the other */
		if ((a ^ res) & (b ^ res) & sign)
			flags |= X86_RFLAGS_OF;
		flags |= (a ^ b ^ res) & X86_RFLAGS_AF;
		break;
	case X86_ALU_SUB:
	case X86_ALU_SBB:
	case X86_ALU_CMP:
	case X86_ALU_DEC:
	case X86_ALU_NEG:
		res = (a - b - carry) & mask;
		if (a < b || (carry && a == b))
			flags |= X86_RFLAGS_CF; /* a borrow */
		if ((a ^ b) & (a ^ res) & sign)
			flags |= X86_RFLAGS_OF;
		flags |= (a ^ b ^ res) & X86_RFLAGS_AF;
		break;
	case X86_ALU_AND:
	case X86_ALU_TEST:
		res = a & b;
		break;
	case X86_ALU_OR:
		res = a | b;
		break;
	case X86_ALU_XOR:
	default:
		res = a ^ b;
		break;
	}
	*rflags = (*rflags & ~changed) | ((flags | zsp(res, sign)) & changed);
	return op == X86_ALU_CMP || op == X86_ALU_TEST ? a : res;
}
