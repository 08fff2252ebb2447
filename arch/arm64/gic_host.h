/* SPDX-License-Identifier: GPL-2.0-only */
/* The machine's own GIC, as the hypervisor uses it: each pCPU takes its kick SGI, its
 * EL2 timer, the vGIC maintenance interrupt and the guest's virtual timer; nothing else
 * is enabled. GICv3 through the ICC system registers and the redistributors, GICv2
 * through the GICD/GICC frames. */
#ifndef ARCH_ARM64_GIC_HOST_H
#define ARCH_ARM64_GIC_HOST_H

#include "hv/types.h"

#define INTID_KICK 0	   /* SGI 0: another pCPU wants this one to look at its vCPUs */
#define INTID_MAINT 25	   /* PPI 9: vGIC maintenance interrupt */
#define INTID_HYP_TIMER 26 /* PPI 10: CNTHP, the hypervisor's own tick */
#define INTID_VTIMER 27	   /* PPI 11: the guest's virtual timer */
#define INTID_SPURIOUS 1023

struct gic_host {
	int version;		    /* 2 or 3 */
	u64 gicd, gicc, gich, gicv; /* physical frame addresses (v2: all; v3: gicd) */
	u64 gicr_base, gicr_len;    /* v3: where the redistributors are */
};
extern struct gic_host gic_host;

void gic_host_init(void);		     /* boot CPU, once: the distributor */
void gic_host_init_cpu(u32 pcpu, u64 mpidr); /* each pCPU: its interface and private interrupts */
u32 gic_host_ack(void);
void gic_host_eoi(u32 intid);
void gic_host_send_sgi(u32 pcpu, u32 sgi);
void gic_host_ppi_enable(u32 intid, bool on); /* this pCPU */

#endif
