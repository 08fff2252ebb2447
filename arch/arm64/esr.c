/* SPDX-License-Identifier: GPL-2.0-only */
/* ESR_EL2 decoding (see esr.h). */
#include "arch/arm64/esr.h"

/* Data/Instruction Abort ISS fields */
#define ABT_ISV BIT(24)
#define ABT_SAS(iss) (((iss) >> 22) & 3)
#define ABT_SSE BIT(21)
#define ABT_SRT(iss) (((iss) >> 16) & 31)
#define ABT_SF BIT(15)
#define ABT_FNV BIT(10)
#define ABT_EA BIT(9)
#define ABT_CM BIT(8)
#define ABT_S1PTW BIT(7)
#define ABT_WNR BIT(6)
#define ABT_FSC(iss) ((iss)&0x3F)

/* EC 0x18 ISS: the bits that name the register, and Direction */
#define SYS_ID_MASK 0x3FFC1Eu
#define SYS_READ BIT(0)

/* WFx ISS: TI [1:0], bit 0 set for WFE and WFET */
#define WFX_TI_WFE BIT(0)

#define HPFAR_FIPA 0x0000FFFFFFFFFFF0ull /* bits [47:4] */

static void decode_fsc(struct esr_abort *a)
{
	u8 fsc = a->fsc;

	a->level = (s8)(fsc & 3);
	switch (fsc >> 2) {
	case 0x0:
		a->fault = ESR_FAULT_ADDR_SIZE;
		return;
	case 0x1:
		a->fault = ESR_FAULT_TRANSLATION;
		return;
	case 0x2:
		a->fault = ESR_FAULT_ACCESS_FLAG;
		return;
	case 0x3:
		a->fault = ESR_FAULT_PERMISSION;
		return;
	case 0x5:
		a->fault = ESR_FAULT_EXTERNAL_WALK;
		return;
	}
	a->level = 0;
	switch (fsc) {
	case 0x10:
		a->fault = ESR_FAULT_EXTERNAL;
		break;
	case 0x13:
		a->fault = ESR_FAULT_EXTERNAL_WALK;
		a->level = -1;
		break;
	case 0x21:
		a->fault = ESR_FAULT_ALIGNMENT;
		break;
	case 0x29:
		a->fault = ESR_FAULT_ADDR_SIZE;
		a->level = -1;
		break;
	case 0x2B:
		a->fault = ESR_FAULT_TRANSLATION;
		a->level = -1;
		break;
	default:
		a->fault = ESR_FAULT_OTHER;
		break;
	}
}

static void decode_abort(u32 iss, bool data, struct esr_abort *a)
{
	a->isv = data && (iss & ABT_ISV);
	if (a->isv) {
		a->size = (u8)(1u << ABT_SAS(iss));
		a->sign_extend = iss & ABT_SSE;
		a->srt = (u8)ABT_SRT(iss);
		a->sf = iss & ABT_SF;
	} else {
		a->size = 0;
		a->sign_extend = false;
		a->srt = 0;
		a->sf = false;
	}
	/* WnR and CM are RES0 in the Instruction Abort ISS. */
	a->write = data && (iss & ABT_WNR);
	a->cm = data && (iss & ABT_CM);
	a->s1ptw = iss & ABT_S1PTW;
	a->fnv = iss & ABT_FNV;
	a->ea = iss & ABT_EA;
	a->fsc = (u8)ABT_FSC(iss);
	decode_fsc(a);
}

static void decode_sysreg(u32 iss, struct esr_sysreg *s)
{
	s->id = iss & SYS_ID_MASK;
	s->op0 = (iss >> 20) & 3;
	s->op2 = (iss >> 17) & 7;
	s->op1 = (iss >> 14) & 7;
	s->crn = (iss >> 10) & 15;
	s->rt = (iss >> 5) & 31;
	s->crm = (iss >> 1) & 15;
	s->read = iss & SYS_READ;
}

void esr_decode(u64 esr, struct esr_exit *out)
{
	u32 iss = ESR_ISS(esr);

	out->ec = ESR_EC(esr);
	switch (out->ec) {
	case ESR_EC_WFX:
		out->kind = (iss & WFX_TI_WFE) ? ESR_WFE : ESR_WFI;
		break;
	case ESR_EC_HVC64:
		out->kind = ESR_HVC;
		out->imm16 = iss & 0xFFFF;
		break;
	case ESR_EC_SMC64:
		out->kind = ESR_SMC;
		out->imm16 = iss & 0xFFFF;
		break;
	case ESR_EC_SYS64:
		out->kind = ESR_SYSREG;
		decode_sysreg(iss, &out->sys);
		break;
	case ESR_EC_CP15_32:
	case ESR_EC_CP15_64:
	case ESR_EC_CP14_32:
	case ESR_EC_CP14_LS:
	case ESR_EC_CP14_64:
		out->kind = ESR_CP;
		break;
	case ESR_EC_IABT_LOW:
		out->kind = ESR_IABT;
		decode_abort(iss, false, &out->abort);
		break;
	case ESR_EC_DABT_LOW:
		out->kind = ESR_DABT;
		decode_abort(iss, true, &out->abort);
		break;
	default:
		out->kind = ESR_UNKNOWN;
		break;
	}
}

bool esr_hpfar_valid(const struct esr_abort *abt)
{
	switch (abt->fault) {
	case ESR_FAULT_ADDR_SIZE:
	case ESR_FAULT_TRANSLATION:
	case ESR_FAULT_ACCESS_FLAG:
		return true;
	case ESR_FAULT_PERMISSION:
		return abt->s1ptw;
	default:
		return false;
	}
}

u64 esr_fault_ipa(u64 hpfar_el2, u64 far_el2)
{
	return ((hpfar_el2 & HPFAR_FIPA) << 8) | (far_el2 & 0xFFF);
}

u64 esr_load_value(u64 raw, unsigned int size, bool sign_extend, bool sf)
{
	u64 v = raw;

	if (size < 8) {
		u64 sign = BIT(size * 8 - 1);

		v &= BIT(size * 8) - 1;
		if (sign_extend)
			v = (v ^ sign) - sign;
	}
	return sf ? v : (u32)v;
}
