/* SPDX-License-Identifier: GPL-2.0-only */
/* Debug, PMU, RAS, ACTLR and IMPLEMENTATION DEFINED system registers (see vsysreg.h).
 * Encodings: DDI 0487 D17.3 (debug), D17.5 (PMU), D17.2 (ACTLR_EL1, ERR*, ERX*), and
 * C5.3 for the IMPLEMENTATION DEFINED space. */
#include "arch/arm64/vsysreg.h"
#include "arch/arm64/esr.h"
#include "hv/lib.h"

#define OP0(r) (((r) >> 20) & 3)
#define OP2(r) (((r) >> 17) & 7)
#define OP1(r) (((r) >> 14) & 7)
#define CRN(r) (((r) >> 10) & 15)
#define CRM(r) (((r) >> 1) & 15)

/* Debug registers (op0 2). */
#define MDCCINT_EL1 ESR_SYSREG(2, 0, 0, 2, 0)
#define MDSCR_EL1 ESR_SYSREG(2, 0, 0, 2, 2)
#define OSDTRRX_EL1 ESR_SYSREG(2, 0, 0, 0, 2)
#define OSDTRTX_EL1 ESR_SYSREG(2, 0, 0, 3, 2)
#define OSECCR_EL1 ESR_SYSREG(2, 0, 0, 6, 2)
#define MDRAR_EL1 ESR_SYSREG(2, 0, 1, 0, 0)
#define OSLAR_EL1 ESR_SYSREG(2, 0, 1, 0, 4)
#define OSLSR_EL1 ESR_SYSREG(2, 0, 1, 1, 4)
#define OSDLR_EL1 ESR_SYSREG(2, 0, 1, 3, 4)
#define DBGPRCR_EL1 ESR_SYSREG(2, 0, 1, 4, 4)
#define DBGCLAIMSET_EL1 ESR_SYSREG(2, 0, 7, 8, 6)
#define DBGCLAIMCLR_EL1 ESR_SYSREG(2, 0, 7, 9, 6)
#define DBGAUTHSTATUS_EL1 ESR_SYSREG(2, 0, 7, 14, 6)
#define MDCCSR_EL0 ESR_SYSREG(2, 3, 0, 1, 0)
#define DBGDTR_EL0 ESR_SYSREG(2, 3, 0, 4, 0)
#define DBGDTRRXTX_EL0 ESR_SYSREG(2, 3, 0, 5, 0) /* DBGDTRRX_EL0 read, DBGDTRTX_EL0 write */

#define ACTLR_EL1 ESR_SYSREG(3, 0, 1, 0, 1)
#define TRFCR_EL1 ESR_SYSREG(3, 0, 1, 2, 1)
/* RAS: ERRIDR_EL1, ERRSELR_EL1 (CRm 3); ERXFR, ERXCTLR, ERXSTATUS, ERXADDR, ERXPFGF,
 * ERXPFGCTL, ERXPFGCDN (CRm 4, op2 0-6); ERXMISC0-3 (CRm 5, op2 0-3). */
#define ERRIDR_EL1 ESR_SYSREG(3, 0, 5, 3, 0)
#define ERXFR_EL1 ESR_SYSREG(3, 0, 5, 4, 0)
#define ERXPFGF_EL1 ESR_SYSREG(3, 0, 5, 4, 4)

#define OSLSR_OSLM_IMPLEMENTED BIT(3) /* OSLM = 0b10 */
#define OSLSR_OSLK BIT(1)
#define CTRL_E BIT(0) /* DBGBCR<n>_EL1.E, DBGWCR<n>_EL1.E */

void vsysreg_reset(struct vsysreg *s, const struct vsysreg_host *h)
{
	memset(s, 0, sizeof *s);
	s->nbrps = (u8)(((h->dfr0 >> 12) & 0xF) + 1);
	s->nwrps = (u8)(((h->dfr0 >> 20) & 0xF) + 1);
	s->actlr = h->actlr;
	s->authstatus = h->authstatus;
}

static bool is_ras(u32 r)
{
	if (OP0(r) != 3 || OP1(r) != 0 || CRN(r) != 5)
		return false;
	switch (CRM(r)) {
	case 3:
		return OP2(r) <= 1;
	case 4:
		return OP2(r) <= 6;
	case 5:
		return OP2(r) <= 3;
	}
	return false;
}

enum vsysreg_class vsysreg_classify(u32 r)
{
	u32 op0 = OP0(r), op1 = OP1(r), crn = CRN(r), crm = CRM(r);

	if (op0 == 2) /* op1 1: trace unit and branch record buffer; the rest is debug */
		return op1 == 1 ? VSYS_TRACE : VSYS_DEBUG;
	if (op0 != 3)
		return VSYS_OTHER;
	if (crn == 11 || crn == 15)
		return VSYS_IMPDEF;
	if (r == ACTLR_EL1)
		return VSYS_ACTLR;
	if (r == TRFCR_EL1)
		return VSYS_TRACE;
	if (is_ras(r))
		return VSYS_RAS;
	if (crn == 9 && op1 == 3 && crm >= 12)
		return VSYS_PMU; /* PMCR_EL0 ... PMOVSSET_EL0 */
	if (crn == 9 && op1 == 0) {
		if (crm == 14)
			return VSYS_PMU; /* PMINTENSET/CLR_EL1, PMMIR_EL1 */
		if (crm == 9 || crm == 10)
			return VSYS_PROFILING; /* PMS*_EL1, PMB*_EL1 */
		if (crm == 11)
			return VSYS_TRACE; /* TRB*_EL1 */
	}
	if (crn == 14 && op1 == 3 && crm >= 8)
		return VSYS_PMU; /* PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0, PMCCFILTR_EL0 */
	return VSYS_OTHER;
}

const char *vsysreg_class_name(enum vsysreg_class c)
{
	switch (c) {
	case VSYS_DEBUG:
		return "debug";
	case VSYS_PMU:
		return "PMU";
	case VSYS_PROFILING:
		return "statistical profiling";
	case VSYS_TRACE:
		return "trace";
	case VSYS_IMPDEF:
		return "IMPLEMENTATION DEFINED";
	case VSYS_ACTLR:
		return "auxiliary control";
	case VSYS_RAS:
		return "RAS";
	case VSYS_OTHER:
		break;
	}
	return "system";
}

/* RAZ/WI */
static enum vsysreg_result raz_wi(bool read, u64 *val)
{
	if (read)
		*val = 0;
	return VSYS_DONE;
}

/* A read-only register: MRS reads `v`, MSR is UNDEFINED (its encoding is unallocated). */
static enum vsysreg_result read_only(bool read, u64 *val, u64 v)
{
	if (!read)
		return VSYS_UNDEF;
	*val = v;
	return VSYS_DONE;
}

/* DBGBVR/BCR/WVR/WCR<n>_EL1: op0 2, op1 0, CRn 0, CRm n, op2 4-7. */
static enum vsysreg_result bp_wp(struct vsysreg *s, u32 r, bool read, u64 *val)
{
	u32 n = CRM(r), op2 = OP2(r);
	bool bp = op2 < 6;
	u64 *reg = bp ? (op2 == 4 ? s->bvr : s->bcr) : (op2 == 6 ? s->wvr : s->wcr);

	if (n >= (bp ? s->nbrps : s->nwrps))
		return VSYS_UNDEF; /* no such breakpoint or watchpoint */
	if (read) {
		*val = reg[n];
		return VSYS_DONE;
	}
	reg[n] = *val;
	return VSYS_DONE_BPWP;
}

static enum vsysreg_result debug(struct vsysreg *s, u32 r, bool read, u64 *val)
{
	if (OP1(r) == 0 && CRN(r) == 0 && OP2(r) >= 4)
		return bp_wp(s, r, read, val);
	switch (r) {
	case MDSCR_EL1:
		return VSYS_MDSCR;
	case MDCCINT_EL1:
		if (read)
			*val = s->mdccint;
		else
			s->mdccint = *val;
		return VSYS_DONE;
	case OSDTRRX_EL1:
	case OSDTRTX_EL1:
	case OSECCR_EL1:
	case OSDLR_EL1:
	case DBGPRCR_EL1:
	case DBGDTR_EL0:
	case DBGDTRRXTX_EL0:
		return raz_wi(read, val);
	case MDRAR_EL1:
	case MDCCSR_EL0:
		return read_only(read, val, 0);
	case DBGAUTHSTATUS_EL1:
		return read_only(read, val, s->authstatus);
	case OSLSR_EL1:
		return read_only(read, val, OSLSR_OSLM_IMPLEMENTED | (s->oslk ? OSLSR_OSLK : 0));
	case OSLAR_EL1:
		if (read)
			return VSYS_UNDEF; /* write-only */
		s->oslk = *val & 1;
		return VSYS_DONE_OSLK;
	case DBGCLAIMSET_EL1:
		if (read)
			*val = 0xFF; /* the tags implemented */
		else
			s->claim |= (u8)*val;
		return VSYS_DONE;
	case DBGCLAIMCLR_EL1:
		if (read)
			*val = s->claim;
		else
			s->claim &= (u8)(~*val & 0xFF);
		return VSYS_DONE;
	}
	return VSYS_UNDEF; /* DBGVCR32_EL2 and anything unallocated */
}

enum vsysreg_result vsysreg_access(struct vsysreg *s, u32 r, bool read, u64 *val)
{
	switch (vsysreg_classify(r)) {
	case VSYS_DEBUG:
		return debug(s, r, read, val);
	case VSYS_PMU:
	case VSYS_PROFILING:
	case VSYS_TRACE:
	case VSYS_IMPDEF:
		return VSYS_UNDEF;
	case VSYS_ACTLR:
		if (read)
			*val = s->actlr;
		else
			s->actlr = *val;
		return VSYS_DONE;
	case VSYS_RAS:
		if (r == ERRIDR_EL1 || r == ERXFR_EL1 || r == ERXPFGF_EL1)
			return read_only(read, val, 0); /* ERRIDR_EL1.NUM = 0: no records */
		return raz_wi(read, val);
	case VSYS_OTHER:
		break;
	}
	return VSYS_NOT_MINE;
}

bool vsysreg_armed(const struct vsysreg *s)
{
	for (u32 i = 0; i < s->nbrps; i++)
		if (s->bcr[i] & CTRL_E)
			return true;
	for (u32 i = 0; i < s->nwrps; i++)
		if (s->wcr[i] & CTRL_E)
			return true;
	return false;
}

/* MDCR_EL2 (D17.2.93) */
#define MDCR_TPMCR BIT(5)
#define MDCR_TPM BIT(6)
#define MDCR_TDA BIT(9)
#define MDCR_TDOSA BIT(10)
#define MDCR_TDRA BIT(11)
#define MDCR_TPMS BIT(14)
#define MDCR_TTRF BIT(19)

u64 vsysreg_mdcr_el2(u64 dfr0, u64 pmcr)
{
	u64 mdcr = MDCR_TDA | MDCR_TDOSA | MDCR_TDRA;
	u64 pmuver = (dfr0 >> 8) & 0xF;

	/* FEAT_PMUv3 (0xF: an IMPLEMENTATION DEFINED PMU): HPMN = PMCR_EL0.N */
	if (pmuver != 0 && pmuver != 0xF)
		mdcr |= MDCR_TPM | MDCR_TPMCR | ((pmcr >> 11) & 0x1F);
	if ((dfr0 >> 32) & 0xF) /* PMSVer: FEAT_SPE */
		mdcr |= MDCR_TPMS;
	if ((dfr0 >> 40) & 0xF) /* TraceFilt: FEAT_TRF */
		mdcr |= MDCR_TTRF;
	return mdcr;
}

/* HCR_EL2 (D17.2.48) */
#define HCR_TIDCP BIT(20)
#define HCR_TACR BIT(21)
#define HCR_TERR BIT(36)

u64 vsysreg_hcr_el2(u64 pfr0)
{
	return HCR_TIDCP | HCR_TACR | (((pfr0 >> 28) & 0xF) ? HCR_TERR : 0);
}
