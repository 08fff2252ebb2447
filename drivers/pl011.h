/* SPDX-License-Identifier: GPL-2.0-only */
/* The host console on an Arm PL011 or SBSA generic UART (drivers/pl011.c). */
#ifndef DRIVERS_PL011_H
#define DRIVERS_PL011_H

#include "hv/types.h"

#define PL011_DEFAULT_BASE 0x09000000ull /* QEMU virt: UART0 */

/* Where the UART's registers are (identity-mapped); call before uart_init(),
 * e.g. with the base address from the ACPI SPCR. */
void pl011_set_base(u64 phys);

#endif
