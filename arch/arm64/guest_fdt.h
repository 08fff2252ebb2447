/* SPDX-License-Identifier: GPL-2.0-only */
/* The device tree an arm64 Linux guest boots with: the nodes of QEMU's "virt" machine
 * that Linux (6.1) needs on this platform: RAM, vCPUs started through PSCI (HVC),
 * a GICv2 or GICv3, the architected timer and a PL011 UART as the console.
 *
 *   /                  compatible "linux,dummy-virt", interrupt-parent = the GIC
 *   /chosen            bootargs, stdout-path = "/pl011@<uart_base>", initrd range
 *   /memory@<ram_base>
 *   /cpus/cpu@<mpidr>  reg = the vCPU's MPIDR affinity (arch/arm64/vcpu_mpidr.h)
 *   /psci              PSCI 1.0 / 0.2 through HVC
 *   /intc@<gicd_base>  the GIC (phandle GUEST_FDT_PHANDLE_GIC)
 *   /timer             PPIs 13, 14, 11, 10
 *   /apb-pclk          24 MHz fixed clock for the UART (phandle GUEST_FDT_PHANDLE_CLK)
 *   /pl011@<uart_base> */
#ifndef ARCH_ARM64_GUEST_FDT_H
#define ARCH_ARM64_GUEST_FDT_H

#include "hv/types.h"

#define GUEST_FDT_PHANDLE_GIC 1
#define GUEST_FDT_PHANDLE_CLK 2

/* The sizes of the MMIO regions the tree gives. */
#define GUEST_FDT_GICV3_GICD_SIZE (64 * KiB)
#define GUEST_FDT_GICR_SIZE (128 * KiB) /* per vCPU: RD_base + SGI_base frames */
#define GUEST_FDT_GICV2_GICD_SIZE (4 * KiB)
#define GUEST_FDT_GICC_SIZE (8 * KiB)
#define GUEST_FDT_UART_SIZE (4 * KiB)

struct guest_fdt_params {
	u32 nvcpus; /* 1..4096 with GICv3 (Aff1 is 8 bits), 1..8 with GICv2 */
	u64 ram_base, ram_size;
	u32 gic_version; /* 2 or 3 */
	u64 gicd_base;
	u64 gicr_base;		      /* GICv3: nvcpus contiguous redistributors */
	u64 gicc_base;		      /* GICv2: the CPU interface */
	u64 uart_base;		      /* PL011 */
	u32 uart_spi;		      /* its SPI number: INTID - 32 */
	const char *cmdline;	      /* bootargs; NULL for none */
	u64 initrd_start, initrd_end; /* guest-physical; initrd_start 0: no initrd */
};

/* Builds the blob into buf. Returns its size, or -1 when it does not fit in cap bytes
 * or the parameters are invalid (nvcpus out of range, gic_version not 2 or 3, uart_spi
 * not an SPI, initrd_end before initrd_start). Never writes beyond buf + cap. */
int guest_fdt_build(void *buf, size_t cap, const struct guest_fdt_params *p);

#endif
