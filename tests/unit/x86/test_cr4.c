/* SPDX-License-Identifier: GPL-2.0-only */
/* What a guest may write to CR4 (arch/x86/cr4.c): the bits its CPUID offers, and the
 * IA-32e mode rules (SDM vol. 2, MOV to CR4). */
#include "../../../arch/x86/cr4.c"
#include "../test.h"

void x86_cpuid(struct vcpu *v, u32 leaf, u32 sub, u32 r[4])
{
	(void)v, (void)leaf, (void)sub, memset(r, 0, 16);
}

#define BASE                                                                                \
	(X86_CR4_VME | X86_CR4_PVI | X86_CR4_TSD | X86_CR4_DE | X86_CR4_PSE | X86_CR4_PAE | \
	 X86_CR4_MCE | X86_CR4_PGE | X86_CR4_PCE | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT)

static void test_reserved(void)
{
	u32 none[4] = { 0 }, l1[4] = { 0 }, l7[4] = { 0 };
	CHECK_EQ(x86_cr4_reserved(none, none), ~(u64)BASE);
	l1[2] = BIT(17) | BIT(26);	   /* PCID, XSAVE */
	l7[1] = BIT(0) | BIT(7) | BIT(20); /* FSGSBASE, SMEP, SMAP */
	l7[2] = BIT(2) | BIT(16);	   /* UMIP, LA57; not PKU */
	u64 r = x86_cr4_reserved(l1, l7);
	CHECK_EQ(~r, BASE | X86_CR4_PCIDE | X86_CR4_OSXSAVE | X86_CR4_FSGSBASE | X86_CR4_SMEP |
			     X86_CR4_SMAP | X86_CR4_UMIP | X86_CR4_LA57);
	CHECK(r & X86_CR4_PKE);
	CHECK(r & X86_CR4_VMXE); /* VMX is never offered */
	CHECK(r & BIT(14));	 /* SMXE */
	CHECK(r & BIT(32));
	l7[2] |= BIT(3); /* PKU */
	CHECK(!(x86_cr4_reserved(l1, l7) & X86_CR4_PKE));
	/* The vCPU's own, from the CPUID it sees (none here). */
	CHECK_EQ(x86_cr4_guest_reserved(NULL), ~(u64)BASE);
}

static void test_write(void)
{
	u64 rsvd = ~(u64)(BASE | X86_CR4_PCIDE | X86_CR4_LA57);
	u64 lm = X86_CR4_PAE | X86_CR4_PGE;
	CHECK(x86_cr4_write_ok(rsvd, lm, lm | X86_CR4_PSE, true, 0x1000));
	CHECK(!x86_cr4_write_ok(rsvd, lm, lm | X86_CR4_PKE, true, 0x1000));
	CHECK(!x86_cr4_write_ok(rsvd, lm, 0xffffffff, true, 0x1000));
	/* IA-32e mode: PAE stays, LA57 cannot change. */
	CHECK(!x86_cr4_write_ok(rsvd, lm, X86_CR4_PGE, true, 0x1000));
	CHECK(!x86_cr4_write_ok(rsvd, lm, lm | X86_CR4_LA57, true, 0x1000));
	CHECK(x86_cr4_write_ok(rsvd, lm, X86_CR4_PGE, false, 0x1000));
	CHECK(x86_cr4_write_ok(rsvd, 0, X86_CR4_LA57, false, 0));
	/* PCIDE: 0 -> 1 only in IA-32e mode with CR3[11:0] = 0; 1 -> 1 whatever the PCID. */
	CHECK(x86_cr4_write_ok(rsvd, lm, lm | X86_CR4_PCIDE, true, 0x1000));
	CHECK(!x86_cr4_write_ok(rsvd, lm, lm | X86_CR4_PCIDE, true, 0x1001));
	CHECK(!x86_cr4_write_ok(rsvd, X86_CR4_PAE, X86_CR4_PAE | X86_CR4_PCIDE, false, 0));
	CHECK(x86_cr4_write_ok(rsvd, lm | X86_CR4_PCIDE, lm | X86_CR4_PCIDE | X86_CR4_PSE, true,
			       0x1005));
}

int main(void)
{
	test_reserved();
	test_write();
	return test_summary();
}
