/* SPDX-License-Identifier: GPL-2.0-only */
/* Speculative-execution mitigations (speculation.h), per CPU as Linux and KVM decide
 * them (Linux's arch/x86/kernel/cpu/bugs.c and common.c, KVM's vmx.c; Intel's "Affected
 * Processors" guidance for each issue; SDM vol. 4, IA32_ARCH_CAPABILITIES):
 * - Spectre v2: retpolines always (also on CPUs with enhanced IBRS, where IBRS stays set
 *   in the hypervisor as well), an IBPB when a pCPU switches VMs, the return stack buffer
 *   filled after each exit. BHI_DIS_S where the CPU offers it and is not BHI_NO.
 * - L1TF (Intel, unless RDCL_NO): a guest's non-present page-table entries can read
 *   whatever the L1D holds, whatever EPT maps; so the L1D is flushed before an entry that
 *   follows hypervisor work (not after the fast exits that touch only the vCPU's own
 *   registers), as KVM's default "cond" does, unless the CPU says SKIP_L1DFL_VMENTRY.
 *   IA32_FLUSH_CMD where the CPU has it, else reading a buffer twice the L1D's size.
 *   Sibling threads share the L1D: only disabling SMT closes that, which this does not.
 * - Retbleed (Intel's Skylake-generation cores, or ARCH_CAP_RSBA, without enhanced
 *   IBRS): a RET past an empty return stack buffer is predicted from the branch target
 *   buffer, retpolines' own RETs too; IBRS is kept on in the hypervisor (Linux's
 *   spectre_v2=ibrs). AMD's families 15h-17h (Retbleed) and 17h-19h (SRSO) would need
 *   untrained-return or safe-RET thunks: not done, and the console says EXPOSED.
 * - MDS and TAA (Intel, unless MDS_NO; TAA with TSX unless TAA_NO), RFDS (where the CPU
 *   enumerates RFDS_CLEAR and not RFDS_NO): VERW as the last instruction before each
 *   VMLAUNCH/VMRESUME, where the microcode has MD_CLEAR (RFDS_CLEAR); else the console
 *   says EXPOSED.
 * - MMIO stale data: only reachable through a device passed to a guest; none is.
 * AMD and Hygon CPUs have none of the Intel-only issues (L1TF, MDS, TAA, RFDS). */
#include "arch/x86/speculation.h"
#include "arch/x86/guest.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/printk.h"

#define MSR_IA32_FLUSH_CMD 0x10B
#define FLUSH_CMD_L1D BIT(0)
#define SPEC_CTRL_BHI_DIS_S BIT(10)

#define L7_EBX_RTM BIT(11)
#define L7_EDX_MD_CLEAR BIT(10)
#define L7_EDX_L1D_FLUSH BIT(28)
#define L7_EDX_ARCH_CAPABILITIES BIT(29)
#define L7_2_EDX_BHI_CTRL BIT(4)
#define E21_EAX_SRSO_NO BIT(29)

#define L1D_FLUSH_BYTES (64 * 1024) /* twice the largest L1D, as KVM reads */

struct x86_speculation x86_speculation;
u8 x86_verw_before_entry;
static u8 l1d_flush_buffer[L1D_FLUSH_BYTES] __attribute__((aligned(4096)));

enum vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

/* CPUID 0's vendor (Hygon's are AMD's cores), and CPUID 1's family and model as the SDM
 * (vol. 2, CPUID) composes them from the extended fields. */
static enum vendor cpu_vendor(cpuid_fn host, u32 *family, u32 *model)
{
	u32 r[4];
	host(0, 0, r);
	enum vendor v = r[1] == 0x756E6547 && r[3] == 0x49656E69 && r[2] == 0x6C65746E
				? VENDOR_INTEL /* GenuineIntel */
			: (r[1] == 0x68747541 && r[3] == 0x69746E65 && r[2] == 0x444D4163) ||
					(r[1] == 0x6F677948 && r[3] == 0x656E6975 &&
					 r[2] == 0x656E6947)
				? VENDOR_AMD /* AuthenticAMD, HygonGenuine */
				: VENDOR_OTHER;
	host(1, 0, r);
	*family = (r[0] >> 8) & 0xF;
	*model = (r[0] >> 4) & 0xF;
	if (*family == 0xF)
		*family += (r[0] >> 20) & 0xFF;
	if (*family == 6 || *family >= 0xF)
		*model |= ((r[0] >> 16) & 0xF) << 4;
	return v;
}

/* Intel's family-6 cores whose RET may be predicted from the branch target buffer when the
 * return stack buffer runs empty (Retbleed; Linux's cpu_vuln_blacklist): Skylake (client
 * and server), Kaby, Coffee and Comet Lake, Cannon Lake, Ice Lake client, Lakefield, Rocket
 * Lake, Tremont. Others say so with ARCH_CAP_RSBA. */
static bool intel_retbleed_model(u32 model)
{
	static const u8 models[] = { 0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0x66,
				     0x7E, 0xA5, 0xA6, 0x8A, 0xA7, 0x96 };
	for (u32 i = 0; i < ARRAY_SIZE(models); i++)
		if (models[i] == model)
			return true;
	return false;
}

/* CPUID.7.2:EDX's bit, where leaf 7 has sub-leaf 2. */
static bool has_7_2_edx(cpuid_fn host, u32 bit)
{
	u32 r[4];
	host(0, 0, r);
	if (r[0] < 7)
		return false;
	host(7, 0, r);
	if (r[0] < 2)
		return false;
	host(7, 2, r);
	return r[3] & bit;
}

static void append(struct x86_speculation *s, const char *part)
{
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof s->text - n, "%s%s", n ? "; " : "", part);
}

void x86_speculation_decide(cpuid_fn host, u64 (*read_msr)(u32 msr), struct x86_speculation *s)
{
	memset(s, 0, sizeof *s);
	u32 family, model;
	enum vendor vendor = cpu_vendor(host, &family, &model);
	bool intel = vendor == VENDOR_INTEL, amd = vendor == VENDOR_AMD;
	u64 caps = cpuid_has(host, 7, 3, L7_EDX_ARCH_CAPABILITIES)
			   ? read_msr(MSR_IA32_ARCH_CAPABILITIES)
			   : 0;
	/* The IA32_SPEC_CTRL bits the CPU has: a virtual CPU may claim enhanced IBRS or
	 * BHI_CTRL and hide the MSR itself. */
	bool ibrs = cpuid_spec_ctrl_bits(host) & SPEC_CTRL_IBRS;
	s->ibpb = cpuid_has_ibpb(host);
	bool eibrs = intel && ibrs && (caps & ARCH_CAP_IBRS_ALL);
	bool retbleed = intel && !eibrs && (intel_retbleed_model(model) || (caps & ARCH_CAP_RSBA));
	if (eibrs || (retbleed && ibrs))
		s->host_spec_ctrl |= SPEC_CTRL_IBRS;
	if (intel && ibrs && !(caps & ARCH_CAP_BHI_NO) && has_7_2_edx(host, L7_2_EDX_BHI_CTRL))
		s->host_spec_ctrl |= SPEC_CTRL_BHI_DIS_S;
	append(s, eibrs ? "Spectre v2: retpolines, enhanced IBRS" : "Spectre v2: retpolines");
	append(s, s->ibpb ? "IBPB between VMs" : "no IBPB (the CPU lacks it)");
	append(s, "RSB filled after exits");
	if (s->host_spec_ctrl & SPEC_CTRL_BHI_DIS_S)
		append(s, "BHI_DIS_S");
	/* Retbleed: Intel's affected cores keep IBRS on in the hypervisor (Linux's
	 * spectre_v2=ibrs); AMD's (families 15h-17h) would need untrained-return thunks,
	 * and SRSO (17h-19h, unless SRSO_NO) IBPB at each exit or safe-RET thunks: not done. */
	if (retbleed)
		append(s, ibrs ? "Retbleed: IBRS kept on in the hypervisor"
			       : "Retbleed: EXPOSED (no IBRS: update the microcode)");
	if (amd && family >= 0x15 && family <= 0x18)
		append(s, "Retbleed: EXPOSED (AMD: no untrained-return thunks)");
	if (amd && family >= 0x17 && family <= 0x19 &&
	    !cpuid_has(host, 0x80000021, 0, E21_EAX_SRSO_NO))
		append(s, "SRSO: EXPOSED");

	bool l1tf = intel && !(caps & ARCH_CAP_RDCL_NO);
	s->l1d_flush = l1tf && !(caps & ARCH_CAP_SKIP_L1DFL_VMENTRY);
	s->flush_cmd = s->l1d_flush && cpuid_has(host, 7, 3, L7_EDX_L1D_FLUSH);
	append(s, !l1tf		  ? "L1TF: not affected"
		  : !s->l1d_flush ? "L1TF: no flush needed (SKIP_L1DFL_VMENTRY)"
		  : s->flush_cmd  ? "L1TF: L1D flushed before entries (IA32_FLUSH_CMD)"
				  : "L1TF: L1D flushed before entries (by reading 64 KiB)");

	/* MDS, TAA (TSX: RTM, or TSX_CTRL where the microcode turned RTM off) and RFDS
	 * (affected parts enumerate RFDS_CLEAR): VERW clears what each leaves behind. */
	bool mds = intel && !(caps & ARCH_CAP_MDS_NO);
	bool taa = intel && (cpuid_has(host, 7, 1, L7_EBX_RTM) || (caps & ARCH_CAP_TSX_CTRL)) &&
		   !(caps & ARCH_CAP_TAA_NO);
	bool rfds = intel && (caps & ARCH_CAP_RFDS_CLEAR) && !(caps & ARCH_CAP_RFDS_NO);
	s->verw = ((mds || taa) && cpuid_has(host, 7, 3, L7_EDX_MD_CLEAR)) || rfds;
	append(s, !mds && !taa && !rfds ? "MDS/TAA/RFDS: not affected"
		  : s->verw		? "MDS/TAA/RFDS: VERW before entries"
			    : "MDS/TAA/RFDS: EXPOSED (the microcode lacks MD_CLEAR: update it)");
}

void x86_speculation_init(void)
{
	x86_speculation_decide(cpu_cpuid, rdmsr, &x86_speculation);
	x86_verw_before_entry = x86_speculation.verw;
	printk("hv: speculation: %s\n", x86_speculation.text);
}

const char *arch_speculation(void) { return x86_speculation.text; }

void x86_speculation_pcpu_init(void)
{
	if (x86_speculation.host_spec_ctrl)
		wrmsr(MSR_IA32_SPEC_CTRL, x86_speculation.host_spec_ctrl);
}

void x86_speculation_before_entry(void)
{
	if (!x86_speculation.l1d_flush)
		return;
	if (x86_speculation.flush_cmd) {
		wrmsr(MSR_IA32_FLUSH_CMD, FLUSH_CMD_L1D);
		return;
	}
	/* The software flush, as KVM's: the buffer's pages into the TLB first, then each
	 * of its lines, evicting everything the L1D held. */
	const volatile u8 *b = l1d_flush_buffer;
	u32 r[4];
	for (u32 i = 0; i < L1D_FLUSH_BYTES; i += 4096)
		(void)b[i];
	cpu_cpuid(0, 0, r); /* serializing: the TLB is filled before the lines are read */
	for (u32 i = 0; i < L1D_FLUSH_BYTES; i += 64)
		(void)b[i];
	__asm__ volatile("lfence" ::: "memory");
}
