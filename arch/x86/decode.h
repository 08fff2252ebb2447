/* SPDX-License-Identifier: GPL-2.0-only */
/* Decoder for the few x86 instructions a guest uses to touch an emulated MMIO page.
 *
 * Without decode assists a nested page fault gives the faulting guest-physical address
 * but neither the instruction bytes nor its length: the hypervisor fetches up to 15
 * bytes at the guest RIP and decodes them here. Supported are the MOV forms
 *   88/89 mov r/m, r        8A/8B mov r, r/m        C6 /0 ib, C7 /0 iw/id mov r/m, imm
 *   A0-A3 mov rAX <-> moffs 0F B6/B7 movzx          0F BE/BF movsx
 *   63 movsxd (64-bit mode)
 * and the read-modify-write forms whose destination is the memory operand (alu.h), with
 * or without LOCK (firmware and compilers make `*reg |= bit` one of them):
 *   00-39 (op & 7 <= 1) add/or/adc/sbb/and/sub/xor/cmp r/m, r
 *   80 /n ib, 81 /n iw/id, 83 /n ib (sign-extended): the same eight, r/m, imm
 *   84/85 test r/m, r       F6 /0 ib, F7 /0 iw/id test r/m, imm
 *   F6/F7 /2 not, /3 neg    FE/FF /0 inc, /1 dec    86/87 xchg r/m, r
 * Anything else (string instructions, BT*, CMPXCHG, XADD, MUL/DIV, register destinations)
 * is refused: the caller stops the VM.
 * The memory operand is decoded too: its linear address tells where an access that
 * crosses into the next page continues (split_access.h).
 * Guest GPRs are indexed in x86 encoding order: 0 rax, 1 rcx, 2 rdx, 3 rbx, 4 rsp,
 * 5 rbp, 6 rsi, 7 rdi, 8..15 r8..r15.
 */
#ifndef ARCH_X86_DECODE_H
#define ARCH_X86_DECODE_H

#include "hv/types.h"
#include "arch/x86/alu.h"

#define X86_MAX_INSN_LEN 15

/* RMW: reads the operand, then writes x86_alu's result back unless the operation is CMP
 * or TEST (x86_mmio_writes) */
enum x86_mmio_op { X86_MMIO_LOAD, X86_MMIO_STORE, X86_MMIO_RMW };

/* Segment registers in encoding order (SDM Vol. 2 Table B-6, sreg), the VMCB's order too. */
enum x86_seg { X86_SEG_ES, X86_SEG_CS, X86_SEG_SS, X86_SEG_DS, X86_SEG_FS, X86_SEG_GS };

#define X86_NO_REG 0xff	  /* no base or no index register */
#define X86_RIP_BASE 0xfe /* RIP-relative: the base is the next instruction's RIP */

/* The memory operand: base + index * scale + disp at the address size, in segment seg
 * (SDM Vol. 1 3.7.5). */
struct x86_mem_operand {
	u8 asize;	/* address size in bytes: 2, 4, 8 */
	u8 seg;		/* enum x86_seg: the override prefix, else SS for rBP/rSP bases, else DS */
	u8 base, index; /* GPR (encoding order), X86_NO_REG; base also X86_RIP_BASE */
	u8 scale;	/* 1, 2, 4, 8 */
	u64 disp;	/* sign-extended displacement; the offset of the moffs forms */
};

struct x86_mmio_insn {
	u8 len;	 /* total instruction length, to advance RIP */
	u8 size; /* access size in bytes: 1, 2, 4, 8 */
	enum x86_mmio_op op;
	u8 alu; /* RMW: enum x86_alu_op */
	/* STORE, RMW: the source operand is a register or an immediate (none for NOT, NEG,
	 * INC, DEC) */
	bool has_imm;
	u64 imm; /* sign-extended from its encoded size to the operand size */
	/*
	 * GPR index (encoding order) of the register operand. With high8 set it is the
	 * GPR whose bits 15:8 are meant: AH -> 0, CH -> 1, DH -> 2, BH -> 3.
	 */
	u8 reg;
	bool high8; /* AH/CH/DH/BH (legacy 8-bit encoding without REX) */
	/* LOAD, and XCHG (which gets the operand's old value): bytes written to the
	 * register; 0 for the others */
	u8 dst_size;
	bool sign_extend; /* LOAD via movsx */
	struct x86_mem_operand mem;
};

/*
 * Decodes one instruction from bytes[0..avail). mode: 64 (long mode, CS.L=1), 32 or 16
 * (CS.D). Returns 0, or -1 if the bytes are not a supported memory access, are cut
 * short by avail, or would exceed 15 bytes (the caller injects #UD/#GP or stops the VM).
 */
int x86_decode_mmio(const u8 *bytes, size_t avail, int mode, struct x86_mmio_insn *out);

/*
 * The linear address the instruction accesses, for gpr[] and rip (the instruction's own
 * RIP) and seg_base, the base of segment insn->mem.seg. In 64-bit mode only FS and GS
 * have a base (SDM Vol. 3 3.2.4); elsewhere the linear address has 32 bits.
 */
u64 x86_mmio_linear_address(const struct x86_mmio_insn *insn, int mode, const u64 gpr[16], u64 rip,
			    u64 seg_base);

/* Value a STORE writes, the source operand of an RMW (register or immediate), truncated
 * to insn->size. */
u64 x86_mmio_store_value(const struct x86_mmio_insn *insn, const u64 gpr[16]);

/*
 * Completes a LOAD, and an XCHG after its store: writes `value` (insn->size bytes read)
 * into the destination register with x86 semantics: 32-bit destinations zero-extend into
 * 64 bits, 8/16-bit destinations keep the other bits, AH..BH write bits 15:8,
 * movzx/movsx widen.
 */
void x86_mmio_load_complete(const struct x86_mmio_insn *insn, u64 gpr[16], u64 value);

/* Whether the instruction writes its operand: a STORE, an RMW but CMP and TEST. */
bool x86_mmio_writes(const struct x86_mmio_insn *insn);

/*
 * The arithmetic of an RMW on `old`, the insn->size bytes read: returns the bytes to write
 * back (when x86_mmio_writes) and updates the status flags in *rflags. The registers are
 * only read here: an XCHG's register gets `old` through x86_mmio_load_complete once the
 * store is done.
 */
u64 x86_mmio_rmw(const struct x86_mmio_insn *insn, const u64 gpr[16], u64 *rflags, u64 old);

/*
 * Decodes a MOV to a control register in 64-bit mode (0F 22 /r, a REX prefix and
 * ignored 66/F2/F3 prefixes before it): the register number (REX.R:ModRM.reg), the
 * source GPR (REX.B:ModRM.rm) and the length. Returns 0, or -1 for anything else.
 * For an intercepted CR write without decode assists (APM vol. 2, 15.8.1).
 */
int x86_decode_mov_to_cr(const u8 *bytes, size_t avail, u8 *cr, u8 *gpr, u8 *len);

#endif
