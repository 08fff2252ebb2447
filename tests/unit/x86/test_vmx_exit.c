/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the VMX backend's view of the VMCS and of exits: field encodings (SDM
 * vol. 3D, appendix B) with their width, type and access type; exit reasons (appendix C);
 * the exit qualifications of I/O instructions (SDM vol. 3C, table 28-5) and EPT
 * violations (table 28-7) decoded. */
#include "../../../arch/x86/vmx/vmx_exit.c"
#include "../../../arch/x86/vmx/vmcs.h"
#include "../test.h"

static void test_fields(void)
{
	/* Encodings as appendix B gives them */
	CHECK_EQ(VIRTUAL_PROCESSOR_ID, 0x0000);
	CHECK_EQ(POSTED_INTR_NV, 0x0002);
	CHECK_EQ(GUEST_INTERRUPT_STATUS, 0x0810);
	CHECK_EQ(EPT_POINTER, 0x201A);
	CHECK_EQ(PIN_BASED_VM_EXEC_CONTROL, 0x4000);
	CHECK_EQ(CPU_BASED_VM_EXEC_CONTROL, 0x4002);
	CHECK_EQ(SECONDARY_VM_EXEC_CONTROL, 0x401E);
	CHECK_EQ(VM_EXIT_REASON, 0x4402);
	CHECK_EQ(EXIT_QUALIFICATION, 0x6400);
	CHECK_EQ(GUEST_RIP, 0x681E);
	CHECK_EQ(HOST_RIP, 0x6C16);

	/* Width: bits 14:13 */
	CHECK_EQ(vmcs_width(VIRTUAL_PROCESSOR_ID), VMCS_16);
	CHECK_EQ(vmcs_width(GUEST_INTERRUPT_STATUS), VMCS_16);
	CHECK_EQ(vmcs_width(HOST_TR_SELECTOR), VMCS_16);
	CHECK_EQ(vmcs_width(EPT_POINTER), VMCS_64);
	CHECK_EQ(vmcs_width(GUEST_PHYSICAL_ADDRESS), VMCS_64);
	CHECK_EQ(vmcs_width(HOST_IA32_EFER), VMCS_64);
	CHECK_EQ(vmcs_width(PIN_BASED_VM_EXEC_CONTROL), VMCS_32);
	CHECK_EQ(vmcs_width(VM_EXIT_REASON), VMCS_32);
	CHECK_EQ(vmcs_width(GUEST_INTERRUPTIBILITY_INFO), VMCS_32);
	CHECK_EQ(vmcs_width(EXIT_QUALIFICATION), VMCS_NATURAL);
	CHECK_EQ(vmcs_width(GUEST_RIP), VMCS_NATURAL);
	CHECK_EQ(vmcs_width(HOST_RSP), VMCS_NATURAL);

	/* Type: bits 11:10 */
	CHECK_EQ(vmcs_type(POSTED_INTR_NV), VMCS_CONTROL);
	CHECK_EQ(vmcs_type(CR4_READ_SHADOW), VMCS_CONTROL);
	CHECK_EQ(vmcs_type(VM_EXIT_INSTRUCTION_LEN), VMCS_READ_ONLY);
	CHECK_EQ(vmcs_type(GUEST_LINEAR_ADDRESS), VMCS_READ_ONLY);
	CHECK_EQ(vmcs_type(VMCS_LINK_POINTER), VMCS_GUEST);
	CHECK_EQ(vmcs_type(GUEST_ACTIVITY_STATE), VMCS_GUEST);
	CHECK_EQ(vmcs_type(HOST_IA32_SYSENTER_CS), VMCS_HOST);
	CHECK_EQ(vmcs_type(HOST_CR3), VMCS_HOST);

	/* Access type: bit 0, the high half of a 64-bit field */
	CHECK(!vmcs_high(EPT_POINTER));
	CHECK(vmcs_high(EPT_POINTER + 1));
	CHECK_EQ(vmcs_width(EPT_POINTER + 1), VMCS_64);
	CHECK(!vmcs_high(GUEST_RIP));
}

static void test_reasons(void)
{
	CHECK_EQ(EXIT_REASON_EXTERNAL_INTERRUPT, 1);
	CHECK_EQ(EXIT_REASON_CPUID, 10);
	CHECK_EQ(EXIT_REASON_HLT, 12);
	CHECK_EQ(EXIT_REASON_VMCALL, 18);
	CHECK_EQ(EXIT_REASON_IO_INSTRUCTION, 30);
	CHECK_EQ(EXIT_REASON_INVALID_GUEST_STATE, 33);
	CHECK_EQ(EXIT_REASON_PAUSE, 40);
	CHECK_EQ(EXIT_REASON_EPT_VIOLATION, 48);
	CHECK_EQ(EXIT_REASON_EPT_MISCONFIG, 49);
	CHECK_EQ(EXIT_REASON_XSETBV, 55);
	CHECK_EQ(EXIT_REASON_APIC_WRITE, 56);
	/* A VM entry that failed on the guest state: bit 31 with basic reason 33 */
	u32 r = VMX_EXIT_ENTRY_FAILURE | EXIT_REASON_INVALID_GUEST_STATE;
	CHECK_EQ(vmx_exit_basic(r), 33);
	CHECK(r & VMX_EXIT_ENTRY_FAILURE);
}

static void test_io(void)
{
	/* OUT DX, AL to 0x3F8 */
	struct vmx_io_qual q = vmx_io_qual(0x3F8ull << 16);
	CHECK_EQ(q.port, 0x3F8);
	CHECK_EQ(q.size, 1);
	CHECK(!q.in && !q.string && !q.rep && !q.imm);
	/* IN EAX, 0x71 (immediate port) */
	q = vmx_io_qual(0x71ull << 16 | BIT(6) | BIT(3) | 3);
	CHECK_EQ(q.port, 0x71);
	CHECK_EQ(q.size, 4);
	CHECK(q.in && !q.string && !q.rep && q.imm);
	/* REP INSW from 0x1F0 */
	q = vmx_io_qual(0x1F0ull << 16 | BIT(5) | BIT(4) | BIT(3) | 1);
	CHECK_EQ(q.port, 0x1F0);
	CHECK_EQ(q.size, 2);
	CHECK(q.in && q.string && q.rep && !q.imm);
	/* OUTSB to port 0xFFFF; bits 63:32 (reserved) ignored */
	q = vmx_io_qual(0xABCD00000000ull | 0xFFFFull << 16 | BIT(4));
	CHECK_EQ(q.port, 0xFFFF);
	CHECK_EQ(q.size, 1);
	CHECK(!q.in && q.string && !q.rep);
}

static void test_ept(void)
{
	/* A write to a GPA with no EPT entry (MMIO), at the address the guest used */
	struct vmx_ept_qual q = vmx_ept_qual(BIT(1) | BIT(7) | BIT(8));
	CHECK(!q.read && q.write && !q.fetch);
	CHECK_EQ(q.allowed, 0);
	CHECK(q.linear_valid && q.translated && !q.nmi_unblocked);
	/* A fetch from a page its entry makes readable and writable only */
	q = vmx_ept_qual(BIT(2) | BIT(3) | BIT(4) | BIT(7) | BIT(8));
	CHECK(!q.read && !q.write && q.fetch);
	CHECK_EQ(q.allowed, 3);
	/* A read of the guest's own page tables during a walk (bit 8 clear) */
	q = vmx_ept_qual(BIT(0) | BIT(7));
	CHECK(q.read && q.linear_valid && !q.translated);
	/* No linear address (bit 8 then means nothing); an IRET had unblocked NMIs */
	q = vmx_ept_qual(BIT(0) | BIT(8) | BIT(12) | BIT(5));
	CHECK(q.read && !q.linear_valid && !q.translated && q.nmi_unblocked);
	CHECK_EQ(q.allowed, 4);
}

int main(void)
{
	test_fields();
	test_reasons();
	test_io();
	test_ept();
	return test_summary();
}
