/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPUID a guest sees: the CPU's, filtered through an allow-list. A feature bit is
 * on the list only when everything it promises works in a guest of this hypervisor:
 * plain instructions (they run natively), state the hypervisor switches (XSAVE
 * components, xstate.c; IA32_SPEC_CTRL and IA32_TSC_AUX, msr.c), and descriptive
 * leaves (brand string, caches). Everything else reads as absent, so that a CPU newer
 * than this file offers nothing unknown: no SVM/VMX (no nested virtualization),
 * MONITOR/MWAIT, MTRR, MCE/MCA, performance counters, debug store, PKU, TSX, MPX, SGX,
 * CET, AMX, SME/SEV, topology extensions.
 * Always offered: x2APIC, the TSC-deadline timer, ARAT and the hypervisor bit.
 * Topology: one core per vCPU, x2APIC ID = vCPU index.
 * Bit names: SDM vol. 2A, CPUID; APM vol. 3, appendix E. */
#include "arch/x86/cpuid_policy.h"

#define BITS_BELOW(n) (BIT(n) - 1)

/* Leaf 1 EDX: FPU VME DE PSE TSC MSR PAE CX8 SEP PGE CMOV PAT PSE36 CLFSH MMX FXSR
 * SSE SSE2 SS (not: MCE MTRR MCA PSN DS ACPI TM PBE); APIC is the virtual one's. */
#define L1_EDX_ALLOWED                                                                             \
	(BIT(0) | BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5) | BIT(6) | BIT(8) | BIT(11) |         \
	 BIT(13) | BIT(15) | BIT(16) | BIT(17) | BIT(19) | BIT(23) | BIT(24) | BIT(25) | BIT(26) | \
	 BIT(27))
#define L1_EDX_APIC BIT(9)
#define L1_EDX_HTT BIT(28)
/* Leaf 1 ECX: SSE3 PCLMULQDQ SSSE3 CX16 PCID SSE4.1 SSE4.2 MOVBE POPCNT AES RDRAND. */
#define L1_ECX_ALLOWED                                                                          \
	(BIT(0) | BIT(1) | BIT(9) | BIT(13) | BIT(17) | BIT(19) | BIT(20) | BIT(22) | BIT(23) | \
	 BIT(25) | BIT(30))
#define L1_ECX_AVX_STATE (BIT(12) | BIT(28) | BIT(29)) /* FMA AVX F16C */
#define L1_ECX_X2APIC BIT(21)
#define L1_ECX_TSC_DEADLINE BIT(24)
#define L1_ECX_XSAVE BIT(26)
#define L1_ECX_OSXSAVE BIT(27)
#define L1_ECX_HYPERVISOR BIT(31)
/* Leaf 7.0 EBX: FSGSBASE BMI1 FDP_EXCPTN_ONLY SMEP BMI2 ERMS INVPCID ZERO_FCS_FDS RDSEED
 * ADX SMAP CLFLUSHOPT CLWB SHA (not: TSC_ADJUST SGX HLE RTM RDT-M MPX RDT-A PT). */
#define L7_EBX_ALLOWED                                                                       \
	(BIT(0) | BIT(3) | BIT(6) | BIT(7) | BIT(8) | BIT(9) | BIT(10) | BIT(13) | BIT(18) | \
	 BIT(19) | BIT(20) | BIT(23) | BIT(24) | BIT(29))
#define L7_EBX_AVX BIT(5) /* AVX2 */
/* AVX512F DQ IFMA PF ER CD BW VL */
#define L7_EBX_AVX512 \
	(BIT(16) | BIT(17) | BIT(21) | BIT(26) | BIT(27) | BIT(28) | BIT(30) | BIT(31))
/* Leaf 7.0 ECX: UMIP GFNI LA57 (not: PKU OSPKE WAITPKG CET_SS TME KL SGX_LC PKS). */
#define L7_ECX_ALLOWED (BIT(2) | BIT(8) | BIT(16))
#define L7_ECX_AVX (BIT(9) | BIT(10)) /* VAES VPCLMULQDQ */
/* AVX512_VBMI VBMI2 VNNI BITALG VPOPCNTDQ */
#define L7_ECX_AVX512 (BIT(1) | BIT(6) | BIT(11) | BIT(12) | BIT(14))
#define L7_ECX_RDPID BIT(22)
/* Leaf 7.0 EDX: FSRM MD_CLEAR SERIALIZE (not: SRBDS_CTRL TSX_FORCE_ABORT HYBRID TSXLDTRK
 * PCONFIG ARCH_LBR CET_IBT AMX L1D_FLUSH ARCH_CAPABILITIES CORE_CAPABILITIES). */
#define L7_EDX_ALLOWED (BIT(4) | BIT(10) | BIT(14))
/* AVX512_4VNNIW 4FMAPS VP2INTERSECT FP16 */
#define L7_EDX_AVX512 (BIT(2) | BIT(3) | BIT(8) | BIT(23))
#define L7_EDX_IBRS_IBPB BIT(26)
#define L7_EDX_STIBP BIT(27)
#define L7_EDX_SSBD BIT(31)
/* 8000_0001h ECX: LAHF ABM SSE4A MisAlignSse 3DNowPrefetch (not: CmpLegacy SVM
 * ExtApicSpace AltMovCr8 OSVW IBS XOP SKINIT WDT LWP FMA4 TCE NodeId TBM TopoExt
 * PerfCtrExt* DataBkptExt PerfTsc MONITORX AddrMaskExt). */
#define E1_ECX_ALLOWED (BIT(0) | BIT(5) | BIT(6) | BIT(7) | BIT(8))
/* 8000_0001h EDX: the bits that repeat leaf 1 EDX, SYSCALL NX MmxExt FFXSR Page1GB LM
 * 3DNowExt 3DNow. */
#define E1_EDX_ALLOWED                                                                           \
	((L1_EDX_ALLOWED & (BITS_BELOW(18) | BIT(23) | BIT(24))) | BIT(11) | BIT(20) | BIT(22) | \
	 BIT(25) | BIT(26) | BIT(29) | BIT(30) | BIT(31))
#define E1_EDX_RDTSCP BIT(27)
/* 8000_0007h EDX: invariant TSC. */
#define E7_EDX_ALLOWED BIT(8)
/* 8000_0008h EBX: CLZERO XSaveErPtr, and what describes the CPU's speculation
 * (IbrsAlwaysOn StibpAlwaysOn IbrsPreferred IbrsSameMode EferLmsleUnsupported SsbNo
 * BtcNo) (not: InstRetCntMsr INVLPGB RDPRU MCOMMIT WBNOINVD VIRT_SSBD PSFD CPPC). */
#define E8_EBX_ALLOWED \
	(BIT(0) | BIT(2) | BIT(16) | BIT(17) | BIT(18) | BIT(19) | BIT(20) | BIT(26) | BIT(29))
#define E8_EBX_IBPB BIT(12)
#define E8_EBX_IBRS BIT(14)
#define E8_EBX_STIBP BIT(15)
#define E8_EBX_SSBD BIT(24)
/* 8000_0021h EAX: NoNestedDataBp LfenceAlwaysSerializing NullSelectClearsBase. */
#define E21_EAX_ALLOWED (BIT(0) | BIT(2) | BIT(6))

#define MAX_BASIC_LEAF 0xDu
#define MAX_EXT_LEAF 0x80000021u

static u32 bits_for(u32 n)
{
	u32 b = 0;
	while ((1u << b) < n)
		b++;
	return b;
}

bool cpuid_has(cpuid_fn host, u32 leaf, int reg, u32 bit)
{
	u32 r[4];
	host(leaf & 0x80000000, 0, r);
	if (leaf > r[0])
		return false;
	host(leaf, 0, r);
	return r[reg] & bit;
}

u64 cpuid_spec_ctrl_bits(cpuid_fn host)
{
	u64 bits = 0;
	if (cpuid_has(host, 7, 3, L7_EDX_IBRS_IBPB) || cpuid_has(host, 0x80000008, 1, E8_EBX_IBRS))
		bits |= SPEC_CTRL_IBRS;
	if (cpuid_has(host, 7, 3, L7_EDX_STIBP) || cpuid_has(host, 0x80000008, 1, E8_EBX_STIBP))
		bits |= SPEC_CTRL_STIBP;
	if (cpuid_has(host, 7, 3, L7_EDX_SSBD) || cpuid_has(host, 0x80000008, 1, E8_EBX_SSBD))
		bits |= SPEC_CTRL_SSBD;
	return bits;
}

bool cpuid_has_ibpb(cpuid_fn host)
{
	return cpuid_has(host, 7, 3, L7_EDX_IBRS_IBPB) ||
	       cpuid_has(host, 0x80000008, 1, E8_EBX_IBPB);
}

bool cpuid_has_tsc_aux(cpuid_fn host)
{
	return cpuid_has(host, 0x80000001, 3, E1_EDX_RDTSCP) || cpuid_has(host, 7, 2, L7_ECX_RDPID);
}

static void topology_leaf_0b(const struct cpuid_guest *g, u32 sub, u32 r[4])
{
	/* x2APIC topology (SDM vol. 2, CPUID leaf 0Bh): SMT level, then core level. */
	r[0] = r[1] = 0;
	r[2] = sub;
	if (sub == 0) {
		r[1] = 1;
		r[2] |= 1u << 8;
	} else if (sub == 1) {
		r[0] = bits_for(g->nvcpus);
		r[1] = g->nvcpus;
		r[2] |= 2u << 8;
	}
	r[3] = g->id;
}

void cpuid_policy(cpuid_fn host, const struct cpuid_guest *g, u32 leaf, u32 sub, u32 r[4])
{
	u32 max[4];
	host(leaf & 0x80000000, 0, max);
	u32 top = leaf & 0x80000000 ? MIN(max[0], MAX_EXT_LEAF) : MIN(max[0], MAX_BASIC_LEAF);
	u32 h[4] = { 0, 0, 0, 0 };
	if (leaf <= top)
		host(leaf, sub, h);
	r[0] = r[1] = r[2] = r[3] = 0;
	if (leaf > top)
		return;
	bool avx = g->xcr0_mask & XCR0_AVX, avx512 = g->xcr0_mask & XCR0_AVX512;
	switch (leaf) {
	case 0:
	case 0x80000000:
		r[0] = top;
		r[1] = h[1], r[2] = h[2], r[3] = h[3]; /* vendor */
		break;
	case 1:
		r[0] = h[0];
		r[1] = (h[1] & 0xFF00) | (MIN(g->nvcpus, 255u) << 16) | (g->id << 24);
		r[2] = (h[2] & (L1_ECX_ALLOWED | (avx ? L1_ECX_AVX_STATE : 0))) | L1_ECX_X2APIC |
		       L1_ECX_TSC_DEADLINE | L1_ECX_HYPERVISOR;
		if (g->xcr0_mask)
			r[2] |= L1_ECX_XSAVE | (g->osxsave ? L1_ECX_OSXSAVE : 0);
		r[3] = (h[3] & L1_EDX_ALLOWED) | (g->apic ? L1_EDX_APIC : 0) | L1_EDX_HTT;
		break;
	case 2: /* cache and TLB descriptors */
		r[0] = h[0], r[1] = h[1], r[2] = h[2], r[3] = h[3];
		break;
	case 4: /* deterministic cache parameters: the VM's cores share a package */
		r[0] = (h[0] & BITS_BELOW(26)) | ((MIN(g->nvcpus, 64u) - 1) << 26);
		r[1] = h[1], r[2] = h[2], r[3] = h[3];
		break;
	case 6:
		r[0] = BIT(2); /* ARAT: the APIC timer keeps running in deep C-states */
		break;
	case 7:
		if (sub != 0)
			break; /* EAX = 0: no further sub-leaves */
		r[1] = h[1] &
		       (L7_EBX_ALLOWED | (avx ? L7_EBX_AVX : 0) | (avx512 ? L7_EBX_AVX512 : 0));
		r[2] = h[2] & (L7_ECX_ALLOWED | L7_ECX_RDPID | (avx ? L7_ECX_AVX : 0) |
			       (avx512 ? L7_ECX_AVX512 : 0));
		r[3] = h[3] & (L7_EDX_ALLOWED | (avx512 ? L7_EDX_AVX512 : 0) | L7_EDX_IBRS_IBPB |
			       L7_EDX_STIBP | L7_EDX_SSBD);
		break;
	case 0xB:
		topology_leaf_0b(g, sub, r);
		break;
	case 0xD:
		xstate_cpuid(host, g->xcr0_mask, g->xcr0, sub, r);
		break;
	case 0x80000001:
		r[0] = h[0];
		r[2] = h[2] & E1_ECX_ALLOWED;
		r[3] = h[3] & (E1_EDX_ALLOWED | E1_EDX_RDTSCP);
		break;
	case 0x80000002: /* brand string */
	case 0x80000003:
	case 0x80000004:
	case 0x80000005: /* L1 caches and TLBs */
	case 0x80000006: /* L2 and L3 */
	case 0x80000019: /* 1 GiB page TLBs */
	case 0x8000001A: /* performance optimization identifiers */
		r[0] = h[0], r[1] = h[1], r[2] = h[2], r[3] = h[3];
		break;
	case 0x80000007:
		r[3] = h[3] & E7_EDX_ALLOWED;
		break;
	case 0x80000008:
		r[0] = h[0] & 0xFFFF; /* physical and linear address sizes */
		r[1] = h[1] &
		       (E8_EBX_ALLOWED | E8_EBX_IBPB | E8_EBX_IBRS | E8_EBX_STIBP | E8_EBX_SSBD);
		r[2] = (bits_for(g->nvcpus) << 12) | (g->nvcpus - 1); /* ApicIdSize, NC */
		break;
	case 0x80000021:
		r[0] = h[0] & E21_EAX_ALLOWED;
		break;
	}
}
