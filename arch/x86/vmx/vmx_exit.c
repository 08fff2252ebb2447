/* SPDX-License-Identifier: GPL-2.0-only */
/* The exit qualifications of vmx_exit.h, decoded. */
#include "arch/x86/vmx/vmx_exit.h"

struct vmx_io_qual vmx_io_qual(u64 q)
{
	return (struct vmx_io_qual){
		.port = (u16)(q >> 16),
		.size = (u8)((q & 7) + 1), /* 0, 1, 3: 1, 2, 4 bytes */
		.in = q & BIT(3),
		.string = q & BIT(4),
		.rep = q & BIT(5),
		.imm = q & BIT(6),
	};
}

struct vmx_ept_qual vmx_ept_qual(u64 q)
{
	bool linear_valid = q & BIT(7);
	return (struct vmx_ept_qual){
		.read = q & BIT(0),
		.write = q & BIT(1),
		.fetch = q & BIT(2),
		.allowed = (u8)((q >> 3) & 7),
		.linear_valid = linear_valid,
		.translated = linear_valid && (q & BIT(8)),
		.nmi_unblocked = q & BIT(12),
	};
}
