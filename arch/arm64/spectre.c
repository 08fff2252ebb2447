/* SPDX-License-Identifier: GPL-2.0-only */
/* Spectre-v2, Spectre-BHB and SSB on arm64: the decisions (see spectre.h). */
#include "arch/arm64/spectre.h"
#include "arch/arm64/smccc.h"
#include "hv/lib.h"

/* MIDR_EL1: implementer [31:24], architecture [19:16], part number [15:4]; the variant
 * and revision are ignored (Linux's MIDR_ALL_VERSIONS). */
#define MIDR_MODEL_MASK 0xFF0FFFF0u
#define MODEL(impl, part) ((u32)(impl) << 24 | 0xFu << 16 | (u32)(part) << 4)
#define ARM(part) MODEL(0x41, part)

/* clang-format off */
static const u32 v2_safe[] = {
	ARM(0xD04), ARM(0xD03), ARM(0xD05),			    /* Cortex-A35, A53, A55 */
	MODEL(0x42, 0x100),					    /* Broadcom Brahma-B53 */
	MODEL(0x48, 0xD01),					    /* HiSilicon TSV110 */
	MODEL(0x51, 0x801), MODEL(0x51, 0x803), MODEL(0x51, 0x805), /* Kryo 2/3/4XX silver */
};

static const u32 ssb_safe[] = {
	ARM(0xD04), ARM(0xD03), ARM(0xD05),			    /* Cortex-A35, A53, A55 */
	MODEL(0x42, 0x100),					    /* Broadcom Brahma-B53 */
	MODEL(0x51, 0x803), MODEL(0x51, 0x805),			    /* Kryo 3/4XX silver */
};

/* Spectre-BHB: these are not affected; every other core is, unless it has CSV2_3. */
static const u32 bhb_safe[] = {
	ARM(0xD04), ARM(0xD03), ARM(0xD05), ARM(0xD46), ARM(0xD80), /* A35, A53, A55, A510, A520 */
	MODEL(0x42, 0x100),					    /* Broadcom Brahma-B53 */
	MODEL(0x51, 0x801), MODEL(0x51, 0x803), MODEL(0x51, 0x805), /* Kryo 2/3/4XX silver */
};

/* The branchy loop's count by core. */
static const struct {
	u32 model;
	u8 k;
} bhb_loop[] = {
	{ ARM(0xD4E), 132 },	    /* Cortex-X3 */
	{ ARM(0xD4F), 132 },	    /* Neoverse V2 */
	{ ARM(0xD4D), 38 },	    /* Cortex-A715 */
	{ ARM(0xD81), 38 },	    /* Cortex-A720 */
	{ ARM(0xD41), 32 },	    /* Cortex-A78 */
	{ ARM(0xD42), 32 },	    /* Cortex-A78AE */
	{ ARM(0xD4B), 32 },	    /* Cortex-A78C */
	{ ARM(0xD44), 32 },	    /* Cortex-X1 */
	{ ARM(0xD47), 32 },	    /* Cortex-A710 */
	{ ARM(0xD48), 32 },	    /* Cortex-X2 */
	{ ARM(0xD49), 32 },	    /* Neoverse N2 */
	{ ARM(0xD40), 32 },	    /* Neoverse V1 */
	{ ARM(0xD0B), 24 },	    /* Cortex-A76 */
	{ ARM(0xD0E), 24 },	    /* Cortex-A76AE */
	{ ARM(0xD0D), 24 },	    /* Cortex-A77 */
	{ ARM(0xD0C), 24 },	    /* Neoverse N1 */
	{ MODEL(0x51, 0x804), 24 }, /* Kryo 4XX gold */
	{ MODEL(0xC0, 0xAC3), 11 }, /* Ampere1 */
	{ ARM(0xD08), 8 },	    /* Cortex-A72 */
	{ ARM(0xD07), 8 },	    /* Cortex-A57 */
};
/* clang-format on */

static bool midr_in(u64 midr, const u32 *list, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (((u32)midr & MIDR_MODEL_MASK) == list[i])
			return true;
	return false;
}

static u8 loop_k(u64 midr)
{
	for (u32 i = 0; i < ARRAY_SIZE(bhb_loop); i++)
		if (((u32)midr & MIDR_MODEL_MASK) == bhb_loop[i].model)
			return bhb_loop[i].k;
	return 0;
}

static u32 field(u64 reg, u32 lsb) { return (u32)(reg >> lsb) & 0xF; }

/* ID_AA64PFR0_EL1.CSV2 [59:56]; ID_AA64PFR1_EL1.SSBS [7:4]; ID_AA64MMFR1_EL1.ECBHB
 * [63:60]; ID_AA64ISAR2_EL1.CLRBHB [31:28]. */
#define CSV2(in) field((in)->pfr0, 56)

/* What an answer to ARCH_FEATURES(WORKAROUND_n) says (Linux's reading of it). */
static u8 fw_state(const struct spec_cpu_in *in, s64 answer, bool not_required_too)
{
	if (!in->smccc)
		return SPEC_VULNERABLE;
	if (answer == SMCCC_SUCCESS)
		return SPEC_MITIGATED;
	if (answer == SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED ||
	    (not_required_too && answer == SMCCC_NOT_REQUIRED))
		return SPEC_UNAFFECTED;
	return SPEC_VULNERABLE;
}

static void decide_v2(const struct spec_cpu_in *in, struct spec_cpu *out)
{
	if (CSV2(in)) {
		out->v2 = SPEC_UNAFFECTED;
		out->v2_why = SPEC_WHY_CSV2;
	} else if (midr_in(in->midr, v2_safe, ARRAY_SIZE(v2_safe))) {
		out->v2 = SPEC_UNAFFECTED;
		out->v2_why = SPEC_WHY_SAFE;
	} else {
		out->v2 = fw_state(in, in->fw_wa1, false);
		out->v2_why = out->v2 == SPEC_VULNERABLE ? SPEC_WHY_NO_FW : SPEC_WHY_FW;
		if (out->v2 == SPEC_MITIGATED)
			out->entry = SPEC_ENTRY_FW_WA1;
	}
}

static void decide_bhb(const struct spec_cpu_in *in, struct spec_cpu *out)
{
	bool fw = fw_state(in, in->fw_wa3, false) == SPEC_MITIGATED;
	bool clrbhb = field(in->isar2, 28) != 0;

	out->bhb = SPEC_UNAFFECTED;
	if (CSV2(in) == 3) {
		out->bhb_why = SPEC_WHY_CSV2;
		return;
	}
	if (midr_in(in->midr, bhb_safe, ARRAY_SIZE(bhb_safe))) {
		out->bhb_why = SPEC_WHY_SAFE;
		return;
	}
	/* Any other core is affected; its loop count counts where ClearBHB is not used. */
	out->bhb_k = clrbhb ? 0 : loop_k(in->midr);
	out->bhb = SPEC_VULNERABLE;
	if (out->v2 == SPEC_VULNERABLE) {
		out->bhb_why = SPEC_WHY_V2;
		return;
	}
	out->bhb = SPEC_MITIGATED;
	if (field(in->mmfr1, 60)) {
		out->bhb_why = SPEC_WHY_ECBHB;
	} else if (clrbhb) {
		out->bhb_why = SPEC_WHY_CLRBHB;
		if (out->entry == SPEC_ENTRY_NONE)
			out->entry = SPEC_ENTRY_CLRBHB;
	} else if (out->bhb_k) {
		out->bhb_why = SPEC_WHY_LOOP;
		/* With the firmware's WORKAROUND_1 on entry (A57, A72) that call is the
		 * mitigation for both, as in KVM's Spectre vector slots. */
		if (out->entry == SPEC_ENTRY_NONE)
			out->entry = SPEC_ENTRY_LOOP;
	} else if (fw) {
		out->bhb_why = SPEC_WHY_FW;
		out->entry = SPEC_ENTRY_FW_WA3; /* supersedes WORKAROUND_1 */
	} else {
		out->bhb = SPEC_VULNERABLE;
		out->bhb_why = SPEC_WHY_NO_FW;
	}
}

static void decide_ssb(const struct spec_cpu_in *in, struct spec_cpu *out)
{
	out->ssbs = field(in->pfr1, 4) != 0;
	if (midr_in(in->midr, ssb_safe, ARRAY_SIZE(ssb_safe))) {
		out->ssb = SPEC_UNAFFECTED;
		out->ssb_why = SPEC_WHY_SAFE;
	} else if (out->ssbs) {
		out->ssb = SPEC_MITIGATED;
		out->ssb_why = SPEC_WHY_SSBS;
	} else {
		out->ssb = fw_state(in, in->fw_wa2, true);
		out->ssb_why = out->ssb == SPEC_VULNERABLE ? SPEC_WHY_NO_FW : SPEC_WHY_FW;
		out->ssb_fw_enable = out->ssb == SPEC_MITIGATED;
	}
}

void spec_decide_cpu(const struct spec_cpu_in *in, struct spec_cpu *out)
{
	memset(out, 0, sizeof *out);
	decide_v2(in, out);
	decide_bhb(in, out);
	decide_ssb(in, out);
}

void spec_sys_add(struct spec_sys *s, const struct spec_cpu *c)
{
	if (!s->ncpus || c->v2 > s->v2)
		s->v2 = c->v2, s->v2_why = c->v2_why;
	if (!s->ncpus || c->bhb > s->bhb)
		s->bhb = c->bhb, s->bhb_why = c->bhb_why;
	if (!s->ncpus || c->ssb > s->ssb)
		s->ssb = c->ssb, s->ssb_why = c->ssb_why;
	s->ssbs_all = (s->ncpus ? s->ssbs_all : true) && c->ssbs;
	s->bhb_k = MAX(s->bhb_k, c->bhb_k);
	if (c->entry < ARRAY_SIZE(s->entries))
		s->entries[c->entry]++;
	s->ncpus++;
}

static s64 v2_or_bhb(u8 state)
{
	return state == SPEC_MITIGATED	  ? SMCCC_SUCCESS
	       : state == SPEC_UNAFFECTED ? SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED
					  : SMCCC_NOT_SUPPORTED;
}

s64 spec_guest_feature(const struct spec_sys *s, u32 fid)
{
	switch (fid) {
	case SMCCC_FN_ARCH_WORKAROUND_1:
		return v2_or_bhb(s->v2);
	case SMCCC_FN_ARCH_WORKAROUND_3:
		return v2_or_bhb(s->bhb);
	case SMCCC_FN_ARCH_WORKAROUND_2:
		if (s->ssb == SPEC_VULNERABLE || (s->ssb == SPEC_MITIGATED && s->ssbs_all))
			return SMCCC_NOT_SUPPORTED;
		return SMCCC_NOT_REQUIRED;
	}
	return SMCCC_NOT_SUPPORTED;
}

const char *spec_state_name(u8 state)
{
	return state == SPEC_UNAFFECTED	 ? "not affected"
	       : state == SPEC_MITIGATED ? "mitigated"
					 : "VULNERABLE";
}

const char *spec_why_name(u8 why)
{
	static const char *const names[] = {
		[SPEC_WHY_NONE] = "no rule applies",
		[SPEC_WHY_CSV2] = "CSV2",
		[SPEC_WHY_SAFE] = "safe-listed MIDR",
		[SPEC_WHY_FW] = "firmware",
		[SPEC_WHY_ECBHB] = "ECBHB",
		[SPEC_WHY_CLRBHB] = "ClearBHB",
		[SPEC_WHY_LOOP] = "loop",
		[SPEC_WHY_SSBS] = "SSBS",
		[SPEC_WHY_V2] = "as Spectre-v2 is",
		[SPEC_WHY_NO_FW] = "no firmware workaround",
	};
	return why < ARRAY_SIZE(names) ? names[why] : "?";
}

const char *spec_entry_name(u8 entry)
{
	static const char *const names[] = {
		[SPEC_ENTRY_NONE] = "nothing",
		[SPEC_ENTRY_FW_WA1] = "SMC WORKAROUND_1",
		[SPEC_ENTRY_FW_WA3] = "SMC WORKAROUND_3",
		[SPEC_ENTRY_LOOP] = "BHB loop",
		[SPEC_ENTRY_CLRBHB] = "CLRBHB",
	};
	return entry < ARRAY_SIZE(names) ? names[entry] : "?";
}

static const char *answer_name(s64 a)
{
	return a == SMCCC_SUCCESS			   ? "SUCCESS"
	       : a == SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED ? "UNAFFECTED"
	       : a == SMCCC_NOT_REQUIRED		   ? "NOT_REQUIRED"
							   : "NOT_SUPPORTED";
}

void spec_describe(const struct spec_sys *s, char *buf, u32 len)
{
	u32 n = (u32)snprintf(buf, len, "Spectre-v2 %s (%s), BHB %s (%s", spec_state_name(s->v2),
			      spec_why_name(s->v2_why), spec_state_name(s->bhb),
			      spec_why_name(s->bhb_why));
	if (s->bhb_why == SPEC_WHY_LOOP && n < len)
		n += (u32)snprintf(buf + n, len - n, ", k=%u", s->bhb_k);
	if (n < len)
		n += (u32)snprintf(buf + n, len - n, "), SSB %s (%s); on entry from a guest:",
				   spec_state_name(s->ssb), spec_why_name(s->ssb_why));
	for (u32 e = 0; e < ARRAY_SIZE(s->entries) && n < len; e++)
		if (s->entries[e])
			n += (u32)snprintf(buf + n, len - n, " %s on %u pCPU%s",
					   spec_entry_name((u8)e), s->entries[e],
					   s->entries[e] == 1 ? "" : "s");
	if (n < len)
		snprintf(buf + n, len - n, "; guests told WORKAROUND_1 %s, _2 %s, _3 %s",
			 answer_name(spec_guest_feature(s, SMCCC_FN_ARCH_WORKAROUND_1)),
			 answer_name(spec_guest_feature(s, SMCCC_FN_ARCH_WORKAROUND_2)),
			 answer_name(spec_guest_feature(s, SMCCC_FN_ARCH_WORKAROUND_3)));
}
