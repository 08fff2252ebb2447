/* SPDX-License-Identifier: GPL-2.0-only */
/* Decoding ESR_EL2 for the exits a guest causes (Arm DDI 0487, "ESR_EL2, Exception Syndrome
 * Register (EL2)" and its "ISS encoding for an exception from ..." descriptions).
 * Pure bit work: the caller reads ESR_EL2, FAR_EL2 and HPFAR_EL2 and acts on the result.
 *
 * ESR_EL2: EC [31:26] exception class, IL [25] instruction length, ISS [24:0].
 *
 * Return address (DDI 0487, "Preferred exception return address"): an HVC exception
 * returns to the instruction after the HVC, so ELR_EL2 is already past it. An SMC trapped
 * by HCR_EL2.TSC is a trap, not an SMC exception: ELR_EL2 holds the SMC itself, and so it
 * does for trapped WFI/WFE, MSR/MRS and the aborts. Those the caller emulates it steps
 * past by esr_insn_len(). */
#ifndef ARCH_ARM64_ESR_H
#define ARCH_ARM64_ESR_H

#include "hv/types.h"

#define ESR_EC(esr) (((esr) >> 26) & 0x3F)
#define ESR_IL BIT(25)
#define ESR_ISS(esr) ((esr)&0x1FFFFFF)

/* The exception classes decoded here. */
#define ESR_EC_WFX 0x01	     /* trapped WFI, WFE (and WFIT, WFET) */
#define ESR_EC_CP15_32 0x03  /* AArch32 MCR/MRC to CP15 (PMU, IMPLEMENTATION DEFINED) */
#define ESR_EC_CP15_64 0x04  /* AArch32 MCRR/MRRC to CP15 */
#define ESR_EC_CP14_32 0x05  /* AArch32 MCR/MRC to CP14 (debug) */
#define ESR_EC_CP14_LS 0x06  /* AArch32 LDC/STC to CP14 (DBGDTRRXint/TXint) */
#define ESR_EC_CP14_64 0x0C  /* AArch32 MRRC to CP14 (DBGDRAR, DBGDSAR) */
#define ESR_EC_HVC64 0x16    /* HVC from AArch64 */
#define ESR_EC_SMC64 0x17    /* SMC from AArch64 trapped by HCR_EL2.TSC */
#define ESR_EC_SYS64 0x18    /* trapped MSR, MRS or System instruction */
#define ESR_EC_IABT_LOW 0x20 /* Instruction Abort from a lower EL */
#define ESR_EC_DABT_LOW 0x24 /* Data Abort from a lower EL */

enum esr_kind {
	ESR_UNKNOWN, /* any other EC (kept in esr_exit.ec) */
	ESR_WFI,     /* WFI, or WFIT (ISS.TI = 0b10) */
	ESR_WFE,     /* WFE, or WFET (ISS.TI = 0b11) */
	ESR_HVC,
	ESR_SMC,
	ESR_SYSREG,
	ESR_CP, /* an AArch32 coprocessor access (EL0), trapped by MDCR_EL2 or HCR_EL2.TIDCP */
	ESR_IABT,
	ESR_DABT,
};

/* Classes of the fault status code (DFSC/IFSC, ISS [5:0]). */
enum esr_fault {
	ESR_FAULT_ADDR_SIZE,	 /* 0b0000LL, and 0b101001 (level -1, FEAT_LPA2) */
	ESR_FAULT_TRANSLATION,	 /* 0b0001LL, and 0b101011 (level -1) */
	ESR_FAULT_ACCESS_FLAG,	 /* 0b0010LL (level 0 only with FEAT_LPA2) */
	ESR_FAULT_PERMISSION,	 /* 0b0011LL */
	ESR_FAULT_EXTERNAL,	 /* 0b010000: synchronous External abort, not on a walk */
	ESR_FAULT_EXTERNAL_WALK, /* 0b0101LL, and 0b010011 (level -1) */
	ESR_FAULT_ALIGNMENT,	 /* 0b100001 */
	ESR_FAULT_OTHER,	 /* parity/ECC, TLB conflict, tag check, ...: see fsc */
};

/* Data Abort (EC 0x24) and Instruction Abort (EC 0x20) syndrome. For an instruction abort
 * only s1ptw, fnv, ea, fsc, fault and level are meaningful. */
struct esr_abort {
	bool isv; /* size, sign_extend, srt and sf are valid (not for LDP, writeback, ...) */
	u8 size;  /* SAS: access size in bytes, 1, 2, 4 or 8 */
	bool sign_extend; /* SSE: sign-extend a load of less than 8 bytes */
	u8 srt;		  /* SRT: Xt, 0-30; 31 is XZR (stores 0, a load is discarded) */
	bool sf;	  /* SF: Xt is 64 bits wide (else Wt) */
	bool write;	  /* WnR: the access was a write */
	bool cm;	  /* CM: a cache maintenance instruction (then write = 1) */
	bool s1ptw;	  /* stage 2 fault on the guest's own stage 1 table walk */
	bool fnv;	  /* FnV: FAR_EL2 is not valid */
	bool ea;	  /* EA: External abort type */
	u8 fsc;		  /* the raw DFSC/IFSC */
	enum esr_fault fault;
	s8 level; /* lookup level -1..3 for the walk faults, else 0 */
};

/* MSR/MRS/System instruction (EC 0x18) syndrome: ISS Op0 [21:20], Op2 [19:17], Op1 [16:14],
 * CRn [13:10], Rt [9:5], CRm [4:1], Direction [0]. */
struct esr_sysreg {
	u32 id; /* ESR_SYSREG() of the register accessed */
	u8 op0, op1, crn, crm, op2;
	u8 rt;	   /* 31 is XZR */
	bool read; /* Direction = 1: MRS */
};

/* A register as ESR_EL2.ISS names it for EC 0x18 (the ISS with Rt and Direction clear),
 * to compare with esr_sysreg.id. */
#define ESR_SYSREG(op0, op1, crn, crm, op2)                                                  \
	(((u32)(op0) << 20) | ((u32)(op2) << 17) | ((u32)(op1) << 14) | ((u32)(crn) << 10) | \
	 ((u32)(crm) << 1))

/* GICv3 SGI generation registers (IHI 0069, 12.2): written by the guest to send IPIs,
 * trapped with ICH_HCR_EL2.TC or when the guest has no GIC CPU interface of its own. */
#define ESR_SYSREG_ICC_SGI1R_EL1 ESR_SYSREG(3, 0, 12, 11, 5)
#define ESR_SYSREG_ICC_ASGI1R_EL1 ESR_SYSREG(3, 0, 12, 11, 6)
#define ESR_SYSREG_ICC_SGI0R_EL1 ESR_SYSREG(3, 0, 12, 11, 7)
/* Trapped by ICH_HCR_EL2.TDIR while active interrupts wait outside the list registers. */
#define ESR_SYSREG_ICC_DIR_EL1 ESR_SYSREG(3, 0, 12, 11, 1)

struct esr_exit {
	enum esr_kind kind;
	u8 ec;
	union {
		struct esr_abort abort; /* ESR_IABT, ESR_DABT */
		struct esr_sysreg sys;	/* ESR_SYSREG */
		u16 imm16;		/* ESR_HVC, ESR_SMC: the instruction's immediate */
	};
};

/* Decodes an ESR_EL2 value taken on an exit from the guest. */
void esr_decode(u64 esr, struct esr_exit *out);

/* The length of the trapped instruction, for stepping ELR_EL2 past it: 4, or 2 for a
 * 16-bit T32 instruction (IL = 0). IL is 1 where it is not meaningful (aborts without
 * ISV, unknown reason), which is the A64 case anyway. */
static inline unsigned int esr_insn_len(u64 esr) { return (esr & ESR_IL) ? 4 : 2; }

/* Whether HPFAR_EL2 holds the faulting IPA for this abort (DDI 0487, HPFAR_EL2):
 * yes for a stage 2 Translation, Access flag or Address size fault, and for a stage 2
 * Permission fault on the guest's stage 1 walk; no for any other Permission fault and
 * for External aborts, where the caller translates FAR_EL2 itself (AT S1E1R). */
bool esr_hpfar_valid(const struct esr_abort *abt);

/* The faulting IPA: HPFAR_EL2.FIPA, bits [47:4], holds IPA [55:12] (bits above the
 * implemented IPA size, [47:44] without FEAT_D128 and [43:40] without FEAT_LPA, are RES0;
 * NS [63] is not part of it); the page offset comes from FAR_EL2 [11:0]. */
u64 esr_fault_ipa(u64 hpfar_el2, u64 far_el2);

/* What Xt receives from an emulated load of `size` bytes (1, 2, 4, 8) that read `raw`
 * (only its low `size` bytes count): zero-extended, or with sign_extend (SSE)
 * sign-extended, to 64 bits when sf (SF) and to 32 bits otherwise, in which case the
 * upper 32 bits of Xt are zero (a write to Wt). */
u64 esr_load_value(u64 raw, unsigned int size, bool sign_extend, bool sf);

#endif
