/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/vmx/vmx_caps.c: the VMX capability MSRs of recorded CPUs (Bochs
 * 2.7's corei7_skylake_x as it answers RDMSR, read by hv.efi under it; a Core i7-7800X as
 * Bochs's cpudb/intel/corei7_skylake-x.cc records it from the hardware, with posted
 * interrupts) and edits of them: the controls adjusted against allowed-0/allowed-1
 * settings, the TRUE_* MSRs where IA32_VMX_BASIC bit 55 says so, the refusals, the
 * banner, and that no MSR is read that the CPU does not have (RDMSR would #GP). */
#include "../../../arch/x86/vmx/vmx_caps.c"
#include "../test.h"

struct msr {
	u32 index;
	u64 value;
};

/* Bochs 2.7, cpu model corei7_skylake_x: IA32_FEATURE_CONTROL left 0 by its OVMF. */
static const struct msr bochs_skx[] = {
	{ 0x3A, 0 },
	{ 0x480, 0x00D810000000002Bull },
	{ 0x481, 0x0000007F00000016ull },
	{ 0x482, 0xF7F9FFFE0401E172ull },
	{ 0x483, 0x007FFFFF00036DFFull },
	{ 0x484, 0x0000FFFF000011FFull },
	{ 0x485, 0x00000000600401E0ull },
	{ 0x486, 0x0000000080000021ull },
	{ 0x487, 0x00000000FFFFFFFFull },
	{ 0x488, 0x0000000000002000ull },
	{ 0x489, 0x00000000003727FFull },
	{ 0x48B, 0x02177FFF00000000ull },
	{ 0x48C, 0x00000F0106334141ull },
	{ 0x48D, 0x0000007F00000016ull },
	{ 0x48E, 0xF7F9FFFE04006172ull },
	{ 0x48F, 0x007FFFFF00036DFBull },
	{ 0x490, 0x0000FFFF000011FBull },
};

/* A Core i7-7800X (Skylake-X), its firmware having locked VMX on. */
static const struct msr skx_server[] = {
	{ 0x3A, 0x5 },
	{ 0x480, 0x00DA040000000004ull },
	{ 0x481, 0x000000FF00000016ull },
	{ 0x482, 0xFFF9FFFE0401E172ull },
	{ 0x483, 0x01FFFFFF00036DFFull },
	{ 0x484, 0x0003FFFF000011FFull },
	{ 0x485, 0x000000007004C1E7ull },
	{ 0x486, 0x0000000080000021ull },
	{ 0x487, 0x00000000FFFFFFFFull },
	{ 0x488, 0x0000000000002000ull },
	{ 0x489, 0x00000000003727FFull },
	{ 0x48B, 0x025D3FFF00000000ull },
	{ 0x48C, 0x00000F0106734141ull },
	{ 0x48D, 0x000000FF00000016ull },
	{ 0x48E, 0xFFF9FFFE04006172ull },
	{ 0x48F, 0x01FFFFFF00036DFBull },
	{ 0x490, 0x0003FFFF000011FBull },
};

static struct msr cpu[32];
static size_t ncpu;
static int absent_reads;
static u32 reads[32];
static int nreads;

static void load(const struct msr *m, size_t n)
{
	memcpy(cpu, m, n * sizeof *m);
	ncpu = n;
}

/* Sets MSR index to (value & ~clear) | set, adding it if absent; remove drops it. */
static void edit(u32 index, u64 clear, u64 set)
{
	for (size_t i = 0; i < ncpu; i++)
		if (cpu[i].index == index) {
			cpu[i].value = (cpu[i].value & ~clear) | set;
			return;
		}
	cpu[ncpu++] = (struct msr){ index, set };
}

static void remove_msr(u32 index)
{
	for (size_t i = 0; i < ncpu; i++)
		if (cpu[i].index == index)
			cpu[i] = cpu[--ncpu];
}

static u64 fake_rdmsr(u32 index)
{
	reads[nreads++ % 32] = index;
	for (size_t i = 0; i < ncpu; i++)
		if (cpu[i].index == index)
			return cpu[i].value;
	absent_reads++;
	return 0;
}

static bool was_read(u32 index)
{
	for (int i = 0; i < nreads && i < 32; i++)
		if (reads[i] == index)
			return true;
	return false;
}

static struct vmx_caps probe(void)
{
	struct vmx_caps c;
	absent_reads = nreads = 0;
	vmx_caps_probe(fake_rdmsr, &c);
	CHECK_EQ(absent_reads, 0);
	return c;
}

static const char *check(const struct vmx_caps *c)
{
	const char *why = "";
	return vmx_caps_check(c, &why) ? why : NULL;
}

static char banner[160];
static const char *describe(const struct vmx_caps *c)
{
	vmx_caps_describe(c, banner, sizeof banner);
	return banner;
}

static void test_adjust(void)
{
	u32 out = 0xDEAD;
	const char *why = NULL;
	/* allowed-0 0x16 (bits 1, 2, 4 must be 1), allowed-1 0x29 | 0x16 */
	u64 cap = 0x0000003F00000016ull;
	CHECK_EQ(vmx_adjust(VMX_PIN, PIN_EXT_INTR_EXITING | PIN_NMI_EXITING, cap, &out, &why), 0);
	CHECK_EQ(out, 0x1F); /* the wanted bits and the must-be-1 ones, nothing else */
	CHECK_EQ(vmx_adjust(VMX_PIN, 0, cap, &out, &why), 0);
	CHECK_EQ(out, 0x16);
	/* A wanted bit the CPU cannot set: the lowest one is named. */
	out = 0xDEAD;
	CHECK_EQ(vmx_adjust(VMX_PIN, PIN_EXT_INTR_EXITING, 0x0000001E00000016ull, &out, &why), -1);
	CHECK_STR(why, "the CPU cannot exit on external interrupts (pin-based control bit 0)");
	CHECK_EQ(out, 0xDEAD);
	CHECK_EQ(vmx_adjust(VMX_PROC2, PROC2_ENABLE_EPT | PROC2_UNRESTRICTED_GUEST,
			    (u64)PROC2_ENABLE_EPT << 32, &out, &why),
		 -1);
	CHECK_STR(why, "the CPU cannot run an unrestricted guest (secondary processor-based "
		       "control bit 7)");
	CHECK_EQ(vmx_adjust(VMX_EXIT, EXIT_ACK_INTR_ON_EXIT, 0x00036DFFull, &out, &why), -1);
	CHECK_STR(why, "the CPU cannot acknowledge interrupts on exit (VM-exit control bit 15)");
	/* A bit no control names */
	CHECK_EQ(vmx_adjust(VMX_ENTRY, BIT(30), 0, &out, &why), -1);
	CHECK_STR(why, "the CPU cannot set a control the backend needs (VM-entry control bit 30)");
}

static void test_bochs(void)
{
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	struct vmx_caps c = probe();
	CHECK_EQ(c.revision, 0x2B);
	CHECK_EQ(c.vmcs_size, 4096);
	/* Bit 55: the TRUE_* MSRs, whose allowed-0 settings let CR3-load/store exiting
	 * (primary bits 15, 16) and the debug controls (exit, entry bit 2) be 0. */
	CHECK_EQ(c.ctl_msr[VMX_PIN], 0x0000007F00000016ull);
	CHECK_EQ(c.ctl_msr[VMX_PROC], 0xF7F9FFFE04006172ull);
	CHECK_EQ(c.ctl_msr[VMX_EXIT], 0x007FFFFF00036DFBull);
	CHECK_EQ(c.ctl_msr[VMX_ENTRY], 0x0000FFFF000011FBull);
	CHECK(!was_read(0x481) && !was_read(0x482) && !was_read(0x483) && !was_read(0x484));
	CHECK_EQ(c.ctl_msr[VMX_PROC2], 0x02177FFF00000000ull);
	CHECK_EQ(c.ept_vpid, 0x00000F0106334141ull);
	CHECK_EQ(c.cr0_fixed0, 0x80000021);
	CHECK_EQ(c.cr0_fixed1, 0xFFFFFFFF);
	CHECK_EQ(c.cr4_fixed0, 0x2000);
	CHECK_EQ(c.cr4_fixed1, 0x3727FF);
	CHECK(c.ept && c.ept_walk4_wb && c.ept_2m && c.ept_ad && c.vpid && c.unrestricted_guest);
	CHECK_EQ(c.invept, BIT(VMX_INV_SINGLE) | BIT(VMX_INV_ALL));
	CHECK_EQ(c.invvpid, 0xF);
	CHECK(c.x2apic_virt && c.apic_register_virt && c.virt_intr_delivery && c.pause_loop);
	CHECK(!c.posted_intr);
	CHECK(check(&c) == NULL); /* unlocked IA32_FEATURE_CONTROL: the backend sets it */
	CHECK_STR(describe(&c), "VMX rev 43, EPT (2M, A/D) VPID unrestricted-guest; APICv: "
				"x2APIC-virt register-virt VID; no posted interrupts; PLE");

	u32 ctl[VMX_CTLS];
	const char *why = NULL;
	CHECK_EQ(vmx_controls(&c, ctl, &why), 0);
	CHECK_EQ(ctl[VMX_PIN], 0x7F); /* the preemption timer (6), no posted interrupts */
	/* CR3-load/store exiting (15, 16) left 0; MWAIT (10) and MONITOR (29) exiting */
	CHECK_EQ(ctl[VMX_PROC], 0xB66065FE);
	/* EPT, UG, VPID, APICv, PLE; WBINVD exiting (6); RDTSCP (3) and INVPCID (12)
	 * enabled, which the CPU has; XSAVES (20) not: no guest sees it, it stays #UD */
	CHECK_EQ(ctl[VMX_PROC2], 0x17FA);
	/* save debug controls (2): the guest's DR7 kept across exits; acknowledge interrupt
	 * on exit (15), which the CPU has */
	CHECK_EQ(ctl[VMX_EXIT], 0x3FEFFF);
	CHECK_EQ(ctl[VMX_ENTRY], 0xD3FF); /* load debug controls (2) */

	/* Without bit 55 the old MSRs, whose must-be-1 bits stay set. */
	edit(0x480, VMX_BASIC_TRUE_CTLS, 0);
	c = probe();
	CHECK(!was_read(0x48D) && !was_read(0x48E) && !was_read(0x48F) && !was_read(0x490));
	CHECK_EQ(vmx_controls(&c, ctl, &why), 0);
	CHECK_EQ(ctl[VMX_PROC], 0xB66065FE | BIT(15) | BIT(16));
	CHECK_EQ(ctl[VMX_EXIT], 0x3FEFFF);
	CHECK_EQ(ctl[VMX_ENTRY], 0xD3FF);
}

static void test_server(void)
{
	load(skx_server, ARRAY_SIZE(skx_server));
	struct vmx_caps c = probe();
	CHECK_EQ(c.revision, 4);
	CHECK_EQ(c.vmcs_size, 1024);
	CHECK(c.posted_intr && c.pause_loop && c.virt_intr_delivery);
	CHECK(check(&c) == NULL); /* locked with VMX on */
	CHECK_STR(describe(&c), "VMX rev 4, EPT (2M, A/D) VPID unrestricted-guest; APICv: "
				"x2APIC-virt register-virt VID; posted interrupts; PLE");
	u32 ctl[VMX_CTLS];
	const char *why = NULL;
	CHECK_EQ(vmx_controls(&c, ctl, &why), 0);
	CHECK_EQ(ctl[VMX_PIN], 0xFF); /* the preemption timer, posted interrupts */

	/* Without virtual-interrupt delivery no posted interrupts either. */
	edit(0x48B, (u64)PROC2_VIRT_INTR_DELIVERY << 32, 0);
	c = probe();
	CHECK_EQ(vmx_controls(&c, ctl, &why), 0);
	CHECK_EQ(ctl[VMX_PIN], 0x7F);
	CHECK_EQ(ctl[VMX_PROC2] & PROC2_VIRT_INTR_DELIVERY, 0);
	CHECK_STR(describe(&c), "VMX rev 4, EPT (2M, A/D) VPID unrestricted-guest; APICv: "
				"x2APIC-virt register-virt; posted interrupts; PLE");
}

static void test_refusals(void)
{
	/* Locked by the firmware with VMX outside SMX off */
	load(skx_server, ARRAY_SIZE(skx_server));
	edit(0x3A, ~0ull, 0x1);
	struct vmx_caps c = probe();
	CHECK_STR(check(&c), "VMX is disabled by the firmware (IA32_FEATURE_CONTROL): enable "
			     "virtualization (VT-x) in the firmware setup");
	/* Off but unlocked: the backend turns it on */
	edit(0x3A, ~0ull, 0);
	c = probe();
	CHECK(check(&c) == NULL);

	/* A required control missing: NMI-window exiting */
	edit(0x48E, (u64)PROC_NMI_WINDOW_EXITING << 32, 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU cannot exit at an NMI window (primary processor-based "
			     "control bit 22)");

	/* No EPT: EPT_VPID_CAP exists for VPID alone */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48B, (u64)(PROC2_ENABLE_EPT | PROC2_UNRESTRICTED_GUEST) << 32, 0);
	edit(0x48C, 0xFFFFFFFF, 0);
	c = probe();
	CHECK(was_read(0x48C));
	CHECK_STR(check(&c), "the CPU has no EPT (secondary processor-based control bit 1): "
			     "guests cannot have their own physical memory");
	CHECK_STR(describe(&c), "VMX rev 43, no EPT VPID; APICv: x2APIC-virt register-virt "
				"VID; no posted interrupts; PLE");

	/* Neither EPT nor VPID: no EPT_VPID_CAP to read */
	edit(0x48B, (u64)PROC2_ENABLE_VPID << 32, 0);
	remove_msr(0x48C);
	c = probe();
	CHECK(!c.vpid);

	/* No secondary controls at all: no PROCBASED_CTLS2 to read */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48E, (u64)PROC_SECONDARY_CTLS << 32, 0);
	remove_msr(0x48B);
	remove_msr(0x48C);
	c = probe();
	CHECK(!c.ept && !c.vpid && !c.unrestricted_guest);
	CHECK_STR(describe(&c), "VMX rev 43, no EPT; no APICv; no posted interrupts; no PLE");

	/* EPT without a 4-level walk to write-back tables */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48C, EPT_CAP_WB, 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU's EPT has no 4-level walk with write-back tables "
			     "(IA32_VMX_EPT_VPID_CAP bits 6 and 14)");

	/* INVEPT of an address only (no such type): not enough */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48C, EPT_CAP_INVEPT_SINGLE | EPT_CAP_INVEPT_ALL, 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU has no single- or all-context INVEPT "
			     "(IA32_VMX_EPT_VPID_CAP bits 20, 25, 26): stale EPT translations "
			     "could not be dropped");

	/* VPID without INVVPID is not used; the rest runs without it */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48C, VPID_CAP_INVVPID, 0);
	c = probe();
	CHECK(!c.vpid);
	CHECK(check(&c) == NULL);

	/* No unrestricted guest */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x48B, (u64)PROC2_UNRESTRICTED_GUEST << 32, 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU has no unrestricted guest (secondary processor-based "
			     "control bit 7): vCPUs cannot start in real mode");

	/* EFER.LMA not stored in the IA-32e mode guest control at exits */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x485, BIT(5), 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU does not keep the IA-32e mode guest control at exits "
			     "(IA32_VMX_MISC bit 5)");

	/* A 64-bit guest cannot be entered */
	load(bochs_skx, ARRAY_SIZE(bochs_skx));
	edit(0x490, (u64)ENTRY_IA32E_MODE_GUEST << 32, 0);
	c = probe();
	CHECK_STR(check(&c), "the CPU cannot enter a 64-bit guest (VM-entry control bit 9)");
}

int main(void)
{
	test_adjust();
	test_bochs();
	test_server();
	test_refusals();
	return test_summary();
}
