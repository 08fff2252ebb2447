/* SPDX-License-Identifier: GPL-2.0-only */
/* The MMIO instruction decoder (arch/x86/decode.c) on untrusted instruction bytes, as
 * fetched at a guest's RIP. Input: a mode byte (16, 32 or 64-bit, by its value mod 3),
 * 8 bytes of the value an MMIO load returns, then the instruction bytes (the decoder
 * sees exactly these, from a heap copy of their length). Checked: a decoded
 * instruction is at most 15 bytes and within the bytes given, its fields are in range,
 * it decodes the same from exactly its own bytes, the store value, a read-modify-write's
 * result and flags and a load's completion (XCHG's too) touch only what the operand size
 * says, and outside 64-bit mode the linear address has 32 bits. */
#include "../../arch/x86/alu.c"
#include "../../arch/x86/decode.c"
#include "fuzz.h"

static const int modes[3] = { 16, 32, 64 };

static bool same(const struct x86_mmio_insn *a, const struct x86_mmio_insn *b)
{
	return a->len == b->len && a->size == b->size && a->op == b->op && a->alu == b->alu &&
	       a->has_imm == b->has_imm && a->imm == b->imm && a->reg == b->reg &&
	       a->high8 == b->high8 && a->dst_size == b->dst_size &&
	       a->sign_extend == b->sign_extend && a->mem.asize == b->mem.asize &&
	       a->mem.seg == b->mem.seg && a->mem.base == b->mem.base &&
	       a->mem.index == b->mem.index && a->mem.scale == b->mem.scale &&
	       a->mem.disp == b->mem.disp;
}

static bool pow2_le8(unsigned v) { return v == 1 || v == 2 || v == 4 || v == 8; }

static void check_fields(const struct x86_mmio_insn *in)
{
	FUZZ_CHECK(in->len >= 1 && in->len <= X86_MAX_INSN_LEN);
	FUZZ_CHECK(pow2_le8(in->size));
	FUZZ_CHECK(in->reg < 16);
	FUZZ_CHECK(!in->high8 || (in->reg < 4 && in->size == 1));
	FUZZ_CHECK(in->mem.asize == 2 || in->mem.asize == 4 || in->mem.asize == 8);
	FUZZ_CHECK(in->mem.seg <= X86_SEG_GS && pow2_le8(in->mem.scale));
	FUZZ_CHECK(in->mem.base < 16 || in->mem.base == X86_NO_REG || in->mem.base == X86_RIP_BASE);
	FUZZ_CHECK(in->mem.index < 16 || in->mem.index == X86_NO_REG);
	if (in->op == X86_MMIO_LOAD) {
		FUZZ_CHECK(!in->has_imm);
		FUZZ_CHECK(pow2_le8(in->dst_size) && in->dst_size >= in->size);
		return;
	}
	FUZZ_CHECK(!in->sign_extend);
	FUZZ_CHECK(!in->has_imm || in->size == 8 || in->imm >> (8 * in->size) == 0);
	if (in->op == X86_MMIO_STORE) {
		FUZZ_CHECK(in->dst_size == 0);
		return;
	}
	FUZZ_CHECK(in->op == X86_MMIO_RMW && in->alu <= X86_ALU_XCHG);
	/* XCHG alone loads its register, and it has no immediate */
	FUZZ_CHECK(in->alu == X86_ALU_XCHG ? in->dst_size == in->size && !in->has_imm
					   : in->dst_size == 0);
	FUZZ_CHECK(x86_mmio_writes(in) == (in->alu != X86_ALU_CMP && in->alu != X86_ALU_TEST));
}

/* The store value has at most `size` bytes; a load changes only its destination. */
static void check_values(const struct x86_mmio_insn *in, int mode, u64 value)
{
	u64 gpr[16], before[16];
	for (unsigned i = 0; i < 16; i++)
		gpr[i] = before[i] = 0x0123456789abcdefull * (i + 1);
	u64 la = x86_mmio_linear_address(in, mode, gpr, value, ~value);
	FUZZ_CHECK(mode == 64 || la >> 32 == 0);
	if (in->op != X86_MMIO_LOAD) {
		u64 v = x86_mmio_store_value(in, gpr);
		FUZZ_CHECK(in->size == 8 || v >> (8 * in->size) == 0);
	}
	if (in->op == X86_MMIO_RMW) {
		/* the written value has the operand's size, only status flags change, no
		 * register does */
		u64 rflags = 0x202 | (value & X86_RFLAGS_STATUS), before_flags = rflags;
		u64 v = x86_mmio_rmw(in, gpr, &rflags, value);
		FUZZ_CHECK(in->size == 8 || v >> (8 * in->size) == 0);
		FUZZ_CHECK(((rflags ^ before_flags) & ~X86_RFLAGS_STATUS) == 0);
		FUZZ_CHECK(memcmp(gpr, before, sizeof before) == 0);
	}
	if (!in->dst_size)
		return;
	x86_mmio_load_complete(in, gpr, value);
	unsigned dst = in->high8 ? in->reg & 3 : in->reg;
	for (unsigned i = 0; i < 16; i++)
		FUZZ_CHECK(i == dst || gpr[i] == before[i]);
	u64 changed = gpr[dst] ^ before[dst];
	if (in->high8)
		FUZZ_CHECK((changed & ~0xff00ull) == 0);
	else if (in->dst_size == 4)
		FUZZ_CHECK(gpr[dst] >> 32 == 0);
	else if (in->dst_size < 4)
		FUZZ_CHECK(changed >> (8 * in->dst_size) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in fin = { data, size };
	int mode = modes[take_u8(&fin) % 3];
	u64 value = take_u64(&fin);
	u8 *bytes = fuzz_copy(fin.p, fin.n);
	struct x86_mmio_insn in, again;

	if (x86_decode_mmio(bytes, fin.n, mode, &in) == 0) {
		check_fields(&in);
		FUZZ_CHECK(in.len <= fin.n);
		/* The decoder needs no byte past the instruction. */
		u8 *exact = fuzz_copy(bytes, in.len);
		FUZZ_CHECK(x86_decode_mmio(exact, in.len, mode, &again) == 0);
		FUZZ_CHECK(same(&in, &again));
		free(exact);
		check_values(&in, mode, value);
	}
	free(bytes);
	return 0;
}
