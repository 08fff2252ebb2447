/* SPDX-License-Identifier: GPL-2.0-only */
/* MMIO instruction decoder: see decode.h. References: Intel SDM Vol. 2 chapter 2
 * (instruction format), AMD APM Vol. 3 chapter 1. */
#include "hv/types.h"
#include "hv/lib.h"
#include "arch/x86/decode.h"

#define REX_B BIT(0)
#define REX_X BIT(1)
#define REX_R BIT(2)
#define REX_W BIT(3)

static u64 zext_size(u64 v, unsigned int size) { return size >= 8 ? v : v & (BIT(8 * size) - 1); }

static u64 sext_size(u64 v, unsigned int size)
{
	u64 sign = size >= 8 ? 0 : BIT(8 * size - 1);

	return (zext_size(v, size) ^ sign) - sign;
}

/* Little-endian value of n bytes at b. */
static u64 le_bytes(const u8 *b, size_t n)
{
	u64 v = 0;

	for (size_t k = 0; k < n; k++)
		v |= (u64)b[k] << (8 * k);
	return v;
}

/*
 * Decodes the memory operand whose ModRM byte is b[i] into *m (m->asize already set);
 * returns the position just past ModRM, SIB and displacement, or -1 if mod=11 (a
 * register, not memory) or the bytes run past lim.
 * SDM Vol. 2 Table 2-1 (16-bit forms), Tables 2-2/2-3 (32/64-bit forms), 2.2.1.6
 * (RIP-relative). REX.B and REX.X do not change the length: rm=100 always means a
 * SIB byte and base=101 with mod=00 always means disp32 (SDM Table 2-5). rBP and rSP as
 * base make SS the default segment (SDM Vol. 1 Table 3-5).
 */
static int decode_mem_operand(const u8 *b, size_t i, size_t lim, u8 rex, int mode,
			      struct x86_mem_operand *m)
{
	/* 16-bit forms by rm: BX+SI, BX+DI, BP+SI, BP+DI, SI, DI, BP, BX */
	static const u8 base16[8] = { 3, 3, 5, 5, 6, 7, 5, 3 };
	static const u8 index16[8] = { 6, 7, 6, 7, X86_NO_REG, X86_NO_REG, X86_NO_REG, X86_NO_REG };
	u8 modrm, mod, rm;
	size_t disp = 0;

	if (i >= lim)
		return -1;
	modrm = b[i++];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod == 3)
		return -1;

	m->scale = 1;
	if (m->asize == 2) {
		m->base = base16[rm];
		m->index = index16[rm];
		/* mod 00 rm 110 is [disp16]; mod 01 disp8; mod 10 disp16; never a SIB */
		if (mod == 1) {
			disp = 1;
		} else if (mod == 2) {
			disp = 2;
		} else if (rm == 6) {
			disp = 2;
			m->base = X86_NO_REG;
		}
	} else {
		m->base = rm | ((rex & REX_B) ? 8 : 0);
		m->index = X86_NO_REG;
		if (rm == 4) {
			u8 sib, index;

			if (i >= lim)
				return -1;
			sib = b[i++];
			m->scale = (u8)(1u << (sib >> 6));
			/* index 100 is none; with REX.X it is r12 */
			index = ((sib >> 3) & 7) | ((rex & REX_X) ? 8 : 0);
			if (index != 4)
				m->index = index;
			m->base = (sib & 7) | ((rex & REX_B) ? 8 : 0);
			/* SIB base=101 with mod=00: no base, disp32 */
			if (mod == 0 && (sib & 7) == 5) {
				disp = 4;
				m->base = X86_NO_REG;
			}
		} else if (mod == 0 && rm == 5) {
			/* disp32: absolute in 16/32-bit modes, RIP-relative in 64-bit mode */
			disp = 4;
			m->base = mode == 64 ? X86_RIP_BASE : X86_NO_REG;
		}
		if (mod == 1)
			disp = 1;
		else if (mod == 2)
			disp = 4;
	}
	if (i + disp > lim)
		return -1;
	m->disp = disp ? sext_size(le_bytes(b + i, disp), (unsigned int)disp) : 0;
	m->seg = m->base == 4 || m->base == 5 ? X86_SEG_SS : X86_SEG_DS;
	return (int)(i + disp);
}

/* An 8-bit register operand: without any REX prefix, 4..7 are AH, CH, DH, BH
 * (SDM Vol. 2 2.2.1, Table 3-1). */
static void set_reg8(struct x86_mmio_insn *out, unsigned int r, u8 rex)
{
	if (!rex && r >= 4 && r <= 7) {
		out->reg = r - 4;
		out->high8 = true;
	} else {
		out->reg = r;
	}
}

static void rmw(struct x86_mmio_insn *out, enum x86_alu_op alu)
{
	out->op = X86_MMIO_RMW;
	out->alu = (u8)alu;
}

/*
 * The operation of a group opcode by its ModRM reg field ext (SDM Vol. 2 Table A-6):
 * group 1 (80, 81, 83), 3 (F6, F7), 4 and 5 (FE, FF), 11 (C6, C7). Returns -1 for the
 * members that are not a supported memory access.
 */
static int decode_group(u8 op, unsigned int ext, struct x86_mmio_insn *out)
{
	static const u8 group3[4] = { X86_ALU_TEST, 0, X86_ALU_NOT, X86_ALU_NEG };

	switch (op) {
	case 0x80:
	case 0x81:
	case 0x83:
		rmw(out, ext);
		out->has_imm = true;
		return 0;
	case 0xf6:
	case 0xf7:
		/* /1 is an undocumented alias of TEST; /4-/7 are MUL, IMUL, DIV, IDIV */
		if (ext != 0 && ext != 2 && ext != 3)
			return -1;
		rmw(out, group3[ext]);
		out->has_imm = ext == 0;
		return 0;
	case 0xfe:
	case 0xff:
		/* FF /2-/6: CALL, JMP, PUSH through memory */
		if (ext > 1)
			return -1;
		rmw(out, ext ? X86_ALU_DEC : X86_ALU_INC);
		return 0;
	default: /* C6, C7: only /0 is MOV */
		if (ext)
			return -1;
		out->op = X86_MMIO_STORE;
		out->has_imm = true;
		return 0;
	}
}

int x86_decode_mmio(const u8 *bytes, size_t avail, int mode, struct x86_mmio_insn *out)
{
	size_t lim = MIN(avail, (size_t)X86_MAX_INSN_LEN), i;
	bool opsz = false, adsz = false, byte_op = false, group = false;
	unsigned int osize, asize, reg;
	u8 rex = 0, op, seg = X86_NO_REG;
	int end;

	memset(out, 0, sizeof(*out));
	if (!bytes || (mode != 16 && mode != 32 && mode != 64))
		return -1;

	/*
	 * Legacy prefixes in any order, then REX (64-bit mode only). A REX that is not
	 * immediately followed by the opcode is ignored (SDM Vol. 2 2.2.1); with several,
	 * the last one counts. F0 (LOCK) on MOV, CMP or TEST raises #UD before any memory
	 * access, so it never reaches us: accepting it is harmless. F2/F3 are refused.
	 */
	for (i = 0;; i++) {
		if (i >= lim)
			return -1;
		switch (bytes[i]) {
		case 0x66:
			opsz = true;
			rex = 0;
			continue;
		case 0x67:
			adsz = true;
			rex = 0;
			continue;
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x3e:
			/* ES, CS, SS, DS overrides: the last one counts */
			seg = (bytes[i] >> 3) & 3;
			rex = 0;
			continue;
		case 0x64:
		case 0x65:
			seg = bytes[i] == 0x64 ? X86_SEG_FS : X86_SEG_GS;
			rex = 0;
			continue;
		case 0xf0:
			rex = 0;
			continue;
		}
		if (mode == 64 && (bytes[i] & 0xf0) == 0x40) {
			rex = bytes[i];
			continue;
		}
		break;
	}
	op = bytes[i++];

	/* Operand size: SDM Vol. 1 3.6.1 Table 3-4; REX.W overrides 66 in 64-bit mode. */
	if (rex & REX_W)
		osize = 8;
	else if (mode == 16)
		osize = opsz ? 4 : 2;
	else
		osize = opsz ? 2 : 4;
	/* Address size: 67 toggles 64->32, 32->16, 16->32 (SDM Vol. 1 3.6.1). */
	if (mode == 64)
		asize = adsz ? 4 : 8;
	else if (mode == 32)
		asize = adsz ? 2 : 4;
	else
		asize = adsz ? 4 : 2;

	out->mem.asize = (u8)asize;
	out->mem.seg = seg == X86_NO_REG ? X86_SEG_DS : seg;

	/* moffs forms: no ModRM, the offset has the address size; register is rAX */
	if (op >= 0xa0 && op <= 0xa3) {
		end = (int)(i + asize);
		if ((size_t)end > lim)
			return -1;
		out->op = (op & 2) ? X86_MMIO_STORE : X86_MMIO_LOAD;
		out->size = (op & 1) ? osize : 1;
		out->dst_size = out->op == X86_MMIO_LOAD ? out->size : 0;
		out->reg = 0;
		out->mem.base = out->mem.index = X86_NO_REG;
		out->mem.scale = 1;
		out->mem.disp = le_bytes(bytes + i, asize);
		out->len = end;
		return 0;
	}

	switch (op) {
	case 0x88: /* mov r/m8, r8 */
	case 0x89: /* mov r/m, r */
		out->op = X86_MMIO_STORE;
		byte_op = op == 0x88;
		break;
	case 0x8a: /* mov r8, r/m8 */
	case 0x8b: /* mov r, r/m */
		out->op = X86_MMIO_LOAD;
		byte_op = op == 0x8a;
		break;
	case 0x80: /* group 1: op r/m8, imm8 */
	case 0x81: /* op r/m, imm16/32 */
	case 0x83: /* op r/m, imm8 sign-extended */
	case 0xc6: /* group 11: mov r/m8, imm8 */
	case 0xc7: /* mov r/m, imm16/32 */
	case 0xf6: /* group 3: test/not/neg r/m8 */
	case 0xf7: /* test/not/neg r/m */
	case 0xfe: /* group 4: inc/dec r/m8 */
	case 0xff: /* group 5: inc/dec r/m */
		group = true;
		byte_op = !(op & 1);
		break;
	case 0x84: /* test r/m8, r8 */
	case 0x85: /* test r/m, r */
		rmw(out, X86_ALU_TEST);
		byte_op = op == 0x84;
		break;
	case 0x86: /* xchg r/m8, r8 */
	case 0x87: /* xchg r/m, r */
		rmw(out, X86_ALU_XCHG);
		byte_op = op == 0x86;
		out->dst_size = byte_op ? 1 : (u8)osize;
		break;
	case 0x63: /* movsxd r, r/m32 (64-bit mode; ARPL elsewhere, not a load) */
		if (mode != 64)
			return -1;
		out->op = X86_MMIO_LOAD;
		out->size = osize == 8 ? 4 : osize; /* without REX.W a plain MOV (SDM vol. 2B) */
		out->dst_size = osize;
		out->sign_extend = osize == 8;
		break;
	case 0x0f:
		if (i >= lim)
			return -1;
		op = bytes[i++];
		if (op != 0xb6 && op != 0xb7 && op != 0xbe && op != 0xbf)
			return -1;
		/* movzx/movsx r, r/m8 or r/m16: the destination is never a high8 reg */
		out->op = X86_MMIO_LOAD;
		out->size = (op & 1) ? 2 : 1;
		out->dst_size = osize;
		out->sign_extend = op >= 0xbe;
		break;
	default:
		/* op r/m, r: 00/01 ADD, 08/09 OR, ... 38/39 CMP (SDM Vol. 2 Table A-2) */
		if (op >= 0x40 || (op & 6))
			return -1;
		rmw(out, op >> 3);
		byte_op = !(op & 1);
		break;
	}

	if (i >= lim)
		return -1;
	reg = ((bytes[i] >> 3) & 7) | ((rex & REX_R) ? 8 : 0);
	end = decode_mem_operand(bytes, i, lim, rex, mode, &out->mem);
	if (end < 0)
		return -1;
	if (seg != X86_NO_REG)
		out->mem.seg = seg;

	if (out->size == 0) /* not movzx/movsx */
		out->size = byte_op ? 1 : osize;
	/* REX.R does not extend an opcode extension */
	if (group && decode_group(op, reg & 7, out))
		return -1;
	if (out->has_imm) {
		/* imm8 for the byte forms and 83, else imm16/32; with REX.W imm32
		 * sign-extended to 64 bits (SDM Vol. 2 MOV, ADD) */
		size_t imm_len = byte_op || op == 0x83 ? 1 : MIN(osize, 4u);

		if ((size_t)end + imm_len > lim)
			return -1;
		out->imm = zext_size(
			sext_size(le_bytes(bytes + end, imm_len), (unsigned int)imm_len),
			out->size);
		end += imm_len;
	} else if (byte_op && !group) {
		set_reg8(out, reg, rex);
	} else if (!group) {
		out->reg = reg;
	} /* else NOT, NEG, INC, DEC: the reg field was the operation, no register operand */
	if (out->op == X86_MMIO_LOAD && out->dst_size == 0)
		out->dst_size = out->size;
	out->len = end;
	return 0;
}

u64 x86_mmio_linear_address(const struct x86_mmio_insn *insn, int mode, const u64 gpr[16], u64 rip,
			    u64 seg_base)
{
	const struct x86_mem_operand *m = &insn->mem;
	u64 ea = m->disp;

	if (m->base == X86_RIP_BASE)
		ea += rip + insn->len;
	else if (m->base != X86_NO_REG)
		ea += gpr[m->base & 15];
	if (m->index != X86_NO_REG)
		ea += gpr[m->index & 15] * m->scale;
	/* The sum wraps at the address size (SDM Vol. 1 3.3.7). */
	ea = zext_size(ea, m->asize);
	if (mode == 64)
		return m->seg == X86_SEG_FS || m->seg == X86_SEG_GS ? ea + seg_base : ea;
	return (u32)(ea + seg_base);
}

u64 x86_mmio_store_value(const struct x86_mmio_insn *insn, const u64 gpr[16])
{
	if (insn->has_imm)
		return zext_size(insn->imm, insn->size);
	if (insn->high8)
		return (gpr[insn->reg & 3] >> 8) & 0xff;
	return zext_size(gpr[insn->reg & 15], insn->size);
}

void x86_mmio_load_complete(const struct x86_mmio_insn *insn, u64 gpr[16], u64 value)
{
	u64 v = insn->sign_extend ? sext_size(value, insn->size) : zext_size(value, insn->size);
	u64 *r;

	if (insn->high8) {
		r = &gpr[insn->reg & 3];
		*r = (*r & ~0xff00ull) | ((v & 0xff) << 8);
		return;
	}
	r = &gpr[insn->reg & 15];
	switch (insn->dst_size) {
	case 1:
		*r = (*r & ~0xffull) | (v & 0xff);
		break;
	case 2:
		*r = (*r & ~0xffffull) | (v & 0xffff);
		break;
	case 4:
		/* 32-bit results zero-extend to 64 bits (SDM Vol. 1 3.4.1.1) */
		*r = (u32)v;
		break;
	default:
		*r = v;
		break;
	}
}

bool x86_mmio_writes(const struct x86_mmio_insn *insn)
{
	return insn->op == X86_MMIO_STORE ||
	       (insn->op == X86_MMIO_RMW && insn->alu != X86_ALU_CMP && insn->alu != X86_ALU_TEST);
}

u64 x86_mmio_rmw(const struct x86_mmio_insn *insn, const u64 gpr[16], u64 *rflags, u64 old)
{
	return x86_alu(insn->alu, insn->size, old, x86_mmio_store_value(insn, gpr), rflags);
}

int x86_decode_mov_to_cr(const u8 *bytes, size_t avail, u8 *cr, u8 *gpr, u8 *len)
{
	size_t i = 0;
	u8 rex = 0;
	avail = MIN(avail, (size_t)X86_MAX_INSN_LEN);
	while (i < avail && (bytes[i] == 0x66 || bytes[i] == 0xF2 || bytes[i] == 0xF3))
		i++;
	if (i < avail && (bytes[i] & 0xF0) == 0x40)
		rex = bytes[i++];
	if (i + 3 > avail || bytes[i] != 0x0F || bytes[i + 1] != 0x22)
		return -1;
	u8 modrm = bytes[i + 2];
	/* MOV CRn ignores ModRM.mod: the operand is always a register (SDM vol. 2B). */
	*cr = (u8)(((rex >> 2) & 1) << 3 | ((modrm >> 3) & 7));
	*gpr = (u8)((rex & 1) << 3 | (modrm & 7));
	*len = (u8)(i + 3);
	return 0;
}
