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
 * - MDS and TAA (Intel, unless MDS_NO; TAA with TSX unless TAA_NO): VERW before each
 *   entry, where the microcode has MD_CLEAR (else the console says the CPU is exposed).
 * - MMIO stale data: only reachable through a device passed to a guest; none is.
 * AMD and Hygon CPUs have none of the Intel-only issues. */
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

#define L1D_FLUSH_BYTES (64 * 1024) /* twice the largest L1D, as KVM reads */

struct x86_speculation x86_speculation;
u8 x86_verw_before_entry;
static u8 l1d_flush_buffer[L1D_FLUSH_BYTES] __attribute__((aligned(4096)));

static bool is_intel(cpuid_fn host)
{
	u32 r[4];
	host(0, 0, r);
	return r[1] == 0x756E6547 && r[3] == 0x49656E69 && r[2] == 0x6C65746E; /* GenuineIntel */
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
	bool intel = is_intel(host);
	u64 caps = cpuid_has(host, 7, 3, L7_EDX_ARCH_CAPABILITIES)
			   ? read_msr(MSR_IA32_ARCH_CAPABILITIES)
			   : 0;
	s->ibpb = cpuid_has_ibpb(host);
	bool eibrs = intel && (caps & ARCH_CAP_IBRS_ALL);
	if (eibrs)
		s->host_spec_ctrl |= SPEC_CTRL_IBRS;
	if (intel && !(caps & ARCH_CAP_BHI_NO) && has_7_2_edx(host, L7_2_EDX_BHI_CTRL))
		s->host_spec_ctrl |= SPEC_CTRL_BHI_DIS_S;
	append(s, eibrs ? "Spectre v2: retpolines, enhanced IBRS" : "Spectre v2: retpolines");
	append(s, s->ibpb ? "IBPB between VMs" : "no IBPB (the CPU lacks it)");
	append(s, "RSB filled after exits");
	if (s->host_spec_ctrl & SPEC_CTRL_BHI_DIS_S)
		append(s, "BHI_DIS_S");

	bool l1tf = intel && !(caps & ARCH_CAP_RDCL_NO);
	s->l1d_flush = l1tf && !(caps & ARCH_CAP_SKIP_L1DFL_VMENTRY);
	s->flush_cmd = s->l1d_flush && cpuid_has(host, 7, 3, L7_EDX_L1D_FLUSH);
	append(s, !l1tf		  ? "L1TF: not affected"
		  : !s->l1d_flush ? "L1TF: no flush needed (SKIP_L1DFL_VMENTRY)"
		  : s->flush_cmd  ? "L1TF: L1D flushed before entries (IA32_FLUSH_CMD)"
				  : "L1TF: L1D flushed before entries (by reading 64 KiB)");

	bool mds = intel && !(caps & ARCH_CAP_MDS_NO);
	bool taa = intel && cpuid_has(host, 7, 1, L7_EBX_RTM) && !(caps & ARCH_CAP_TAA_NO);
	s->verw = (mds || taa) && cpuid_has(host, 7, 3, L7_EDX_MD_CLEAR);
	append(s, !mds && !taa ? "MDS/TAA: not affected"
		  : s->verw    ? "MDS/TAA: VERW before entries"
			       : "MDS/TAA: EXPOSED (the microcode lacks MD_CLEAR: update it)");
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
	for (u32 i = 0; i < L1D_FLUSH_BYTES; i += 4096)
		(void)b[i];
	for (u32 i = 0; i < L1D_FLUSH_BYTES; i += 64)
		(void)b[i];
}
