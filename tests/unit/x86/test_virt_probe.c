/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/virt_probe.c, the choice of SVM or VMX: recorded CPUs (AMD EPYC,
 * Intel Xeon; tests/unit/x86/data/cpuid/) and edits of them (another vendor string, a flag
 * cleared, the firmware's VM_CR). The verdict and its message are checked, and that no
 * MSR is read on a CPU whose vendor does not have it. */
#include "../../../arch/x86/cpuid_policy.c"
#include "../../../arch/x86/virt_probe.c"
#include "../../../arch/x86/xstate.c"
#include "cpuid_dump.h"
#include "../test.h"

/* An edit of the recorded CPU: in leaf, register reg, clear `clear` and set `set`. */
struct edit {
	u32 leaf;
	int reg;
	u32 clear, set;
};
static struct edit edits[4];
static int nedits;

static void edited_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	dump_cpuid(leaf, sub, r);
	for (int i = 0; i < nedits; i++)
		if (edits[i].leaf == leaf)
			r[edits[i].reg] = (r[edits[i].reg] & ~edits[i].clear) | edits[i].set;
}

static void edit(u32 leaf, int reg, u32 clear, u32 set)
{
	edits[nedits++] = (struct edit){ leaf, reg, clear, set };
}

/* A CPUID 0 vendor string other than the dump's. */
static void edit_vendor(const char *v)
{
	u32 w[3];
	memcpy(w, v, 12);
	edit(0, EBX, ~0u, w[0]);
	edit(0, EDX, ~0u, w[1]);
	edit(0, ECX, ~0u, w[2]);
}

static u64 vm_cr;
static int msr_reads, foreign_msr_reads;

static u64 fake_rdmsr(u32 msr)
{
	msr_reads++;
	if (msr != MSR_VM_CR)
		foreign_msr_reads++;
	return vm_cr;
}

static struct x86_virt_probe probe(const char *dump, u32 built)
{
	struct x86_virt_probe p;
	memset(&p, 0x5A, sizeof p);
	load_dump(dump);
	msr_reads = foreign_msr_reads = 0;
	x86_virt_probe(edited_cpuid, fake_rdmsr, built, &p);
	nedits = 0;
	vm_cr = 0;
	return p;
}

#define SVM_ONLY BIT(X86_VIRT_SVM)
#define SVM_VMX (BIT(X86_VIRT_SVM) | BIT(X86_VIRT_VMX))

static void amd(const char *dump, const char *brand)
{
	struct x86_virt_probe p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_SVM);
	CHECK_STR(p.why, "");
	CHECK_STR(p.vendor, "AuthenticAMD");
	CHECK_STR(p.brand, brand);
	CHECK_EQ(msr_reads, 1); /* VM_CR, once SVM was found */
	CHECK_EQ(foreign_msr_reads, 0);

	/* Disabled by the firmware, with SVM-Lock (both EPYCs have it) and without. */
	vm_cr = BIT(4);
	p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_STR(p.why, "CPU AuthenticAMD: SVM is disabled by the firmware and locked "
			 "(VM_CR.SVMDIS, SVM-Lock): enable virtualization (SVM) in the firmware "
			 "setup (AMD APM vol. 2, 15.4)");
	vm_cr = BIT(4) | BIT(3); /* LOCK as well */
	edit(0x8000000A, EDX, BIT(2), 0);
	p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_STR(p.why, "CPU AuthenticAMD: SVM is disabled by the firmware (VM_CR.SVMDIS): "
			 "enable virtualization (SVM) in the firmware setup");
	/* Other VM_CR bits do not matter. */
	vm_cr = BIT(3);
	CHECK_EQ(probe(dump, SVM_ONLY).virt, X86_VIRT_SVM);

	/* No SVM flag (a virtual machine that does not pass it on): no MSR is read. */
	edit(0x80000001, ECX, BIT(2), 0);
	p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_EQ(msr_reads, 0);
	CHECK_STR(p.why, "CPU AuthenticAMD has no SVM (CPUID 8000_0001h ECX[2] clear): it cannot "
			 "run guests (a virtual machine must pass SVM on to it)");
	/* Nor where the extended leaves end before 8000_0001h. */
	edit(0x80000000, EAX, ~0u, 0x80000000);
	p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_EQ(msr_reads, 0);
	CHECK_STR(p.brand, "");

	/* Hygon's Dhyana is an AMD design: SVM. */
	edit_vendor("HygonGenuine");
	p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_SVM);
	CHECK_STR(p.vendor, "HygonGenuine");
}

static void intel(const char *dump, const char *brand)
{
	/* VMX, with only the SVM backend built: refused, and no MSR touched. */
	struct x86_virt_probe p = probe(dump, SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_STR(p.vendor, "GenuineIntel");
	CHECK_STR(p.brand, brand);
	CHECK_STR(p.why, "CPU GenuineIntel with VMX: the VMX backend is not built yet (issue 8); "
			 "this hv.efi has SVM (AuthenticAMD, HygonGenuine)");
	CHECK_EQ(msr_reads, 0);
	/* Once the VMX backend is built, it is chosen. */
	p = probe(dump, SVM_VMX);
	CHECK_EQ(p.virt, X86_VIRT_VMX);
	CHECK_STR(p.why, "");
	CHECK_EQ(foreign_msr_reads + msr_reads, 0);
	/* No VMX flag. */
	edit(1, ECX, BIT(5), 0);
	p = probe(dump, SVM_VMX);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_STR(p.why, "CPU GenuineIntel has no VMX (CPUID 1 ECX[5] clear): it cannot run "
			 "guests (a virtual machine must pass VMX on to it)");
}

int main(void)
{
	amd("epyc-7742-zen2", "AMD EPYC 7742 64-Core Processor");
	amd("epyc-9654-zen4", "AMD EPYC 9654 96-Core Processor");
	intel("xeon-gold-6154-skylake-sp", "Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz");
	intel("xeon-w7-2475x-sapphire-rapids", "Intel(R) Xeon(R) w7-2475X");

	/* An Intel vendor string on a CPU with the SVM flag and no VMX (QEMU's
	 * `-cpu max,vendor=GenuineIntel` under TCG): the vendor decides, VM_CR is never read. */
	edit_vendor("GenuineIntel");
	edit(1, ECX, BIT(5), 0);
	struct x86_virt_probe p = probe("epyc-7742-zen2", SVM_ONLY);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_EQ(msr_reads, 0);
	CHECK_STR(p.why, "CPU GenuineIntel has no VMX (CPUID 1 ECX[5] clear): it cannot run "
			 "guests (a virtual machine must pass VMX on to it)");

	/* A vendor without a backend. */
	edit_vendor("CentaurHauls");
	p = probe("xeon-gold-6154-skylake-sp", SVM_VMX);
	CHECK_EQ(p.virt, X86_VIRT_NONE);
	CHECK_EQ(msr_reads, 0);
	CHECK_STR(p.vendor, "CentaurHauls");
	CHECK_STR(p.why, "CPU CentaurHauls: a vendor this hypervisor does not know; it knows SVM "
			 "(AuthenticAMD, HygonGenuine) and VMX (GenuineIntel)");
	return test_summary();
}
