/* SPDX-License-Identifier: GPL-2.0-only */
/* What the bare-metal arm64 test guests share: types, system register access, MMIO, the
 * PL011 console, PSCI through HVC, and the device tree (the GIC, the UART, the CPUs and
 * the command line), so that one Image runs under the hypervisor and on QEMU's virt
 * machine alike. Each guest has start.S's entry points and vectors. */
#ifndef TEST_GUEST_ARM64_LIB_H
#define TEST_GUEST_ARM64_LIB_H

typedef unsigned long u64;
typedef long s64;
typedef unsigned int u32;
typedef unsigned char u8;

#define MAX_CPUS 8

#define PSCI_VERSION 0x84000000ul
#define PSCI_CPU_ON 0xC4000003ul
#define PSCI_SYSTEM_OFF 0x84000008ul

#define RSR(r)                                          \
	({                                              \
		u64 v_;                                 \
		asm volatile("mrs %0, " #r : "=r"(v_)); \
		v_;                                     \
	})
#define WSR(r, v) asm volatile("msr " #r ", %0" : : "r"((u64)(v)) : "memory")

/* GIC registers: distributor (IHI 0069 12.9, IHI 0048B 4.3), redistributor, GICv2 CPU
 * interface. */
#define GICR_STRIDE 0x20000ul /* GICv3: RD_base and SGI_base frames per CPU */
#define GICR_SGI 0x10000ul
#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_IGROUPR0 0x080
#define GICD_ISENABLER0 0x100
#define GICD_IPRIORITYR 0x400
#define GICD_SGIR 0xF00
#define GICR_WAKER 0x014
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_IAR 0x0C
#define GICC_EOIR 0x10
/* GICv3 CPU interface registers by encoding (IHI 0069 12.1). */
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7
#define ICC_SGI1R_EL1 S3_0_C12_C11_5

/* MMIO, one 32-bit access each, in instructions a hypervisor can emulate (a compiler may
 * pair volatile accesses into LDP/STP, which leave it no syndrome). */
static inline void w32(u64 a, u32 v)
{
	asm volatile("str %w0, [%1]" : : "r"(v), "r"(a) : "memory");
}
static inline u32 r32(u64 a)
{
	u32 v;
	asm volatile("ldr %w0, [%1]" : "=r"(v) : "r"(a) : "memory");
	return v;
}

/* From the device tree (fdt_scan): the GIC's version (2 or 3) and frames, the PL011, the
 * CPUs (at most MAX_CPUS). gicc: the GICv2 CPU interface; gicr: GICv3 redistributors. */
extern int gic;
extern u64 gicd, gicc, gicr, uart;
extern u32 ncpus;

void puts_(const char *s);
void putu(u64 v);
void puthex(u64 v);
u64 hvc(u64 fn, u64 a1, u64 a2, u64 a3);
void __attribute__((noreturn)) power_off(void);
/* "<guest> <phase> ok <what><value>" (or FAIL); returns ok. */
int report_phase(const char *guest, const char *phase, int ok, const char *what, u64 value);
/* "<guest> FAIL exception esr=... elr=... far=...", then power off. */
void __attribute__((noreturn)) fail_exception(const char *guest, u64 esr, u64 elr, u64 far);
u64 ticks(void); /* the virtual counter, read in program order */
u32 cpu_index(void);
/* Reads the device tree at fdt (the globals above); returns /chosen/bootargs or 0. */
const char *fdt_scan(const u8 *fdt);
/* The value of `key` (e.g. "sgistress.n=") in the command line, or def. */
u64 arg(const char *cmdline, const char *key, u64 def);

/* The GIC: the distributor on (both groups; GICv3 with affinity routing), this CPU's
 * interface and its private interrupts in `enable` (a bit per INTID 0-31) enabled;
 * acknowledge (returns the INTID, 1020-1023: none) and end an interrupt. */
void gic_dist_init(void);
void gic_cpu_init(u32 cpu, u32 enable);
u32 gic_ack(u32 *iar);
void gic_eoi(u32 iar);

/* The guest's entry points, called by start.S: the boot CPU's, the others' (lib.c has
 * one that waits in WFI for ever); its handlers: an IRQ, and any other exception
 * (returns the address to resume at). */
void __attribute__((noreturn)) guest_main(const u8 *fdt);
void __attribute__((noreturn)) secondary_main(u64 cpu);
void irq_handler(void);
u64 sync_exception(u64 esr, u64 elr, u64 far);

#endif
