// SPDX-License-Identifier: GPL-2.0
/*
 * tprcheck: CR8 and the local APIC's TPR are one register, and it holds interrupts back
 * (SDM vol. 3A, 11.8.6). A test of the hypervisor's virtual APIC from a Linux guest
 * (x86-64, x2APIC mode):
 *
 *   insmod tprcheck.ko && rmmod tprcheck
 *
 *  - MOV to CR8 of 5, then the TPR as the x2APIC MSR 0x808 reads it: 0x50;
 *  - the TPR MSR written with 0x70, then CR8 read: 7;
 *  - CR8 = 15 holds every interrupt back: an IRQ-work self-IPI queued with interrupts
 *    enabled does not run for 2 ms; CR8 = 0 then delivers it before the next
 *    instruction that checks (a CPU takes it at once once the TPR no longer masks it).
 *
 * Output: "tprcheck: cr8-to-tpr=0x50 tpr-to-cr8=0x7 held=1 delivered=1" when all is well.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <linux/delay.h>
#include <asm/apic.h>
#include <asm/msr.h>

#define MSR_X2APIC_TPR 0x808

static atomic_t ran;

static void tprcheck_work(struct irq_work *w) { atomic_inc(&ran); }

static struct irq_work work = IRQ_WORK_INIT_HARD(tprcheck_work);

static void cr8_write(unsigned long v) { asm volatile("mov %0, %%cr8" ::"r"(v) : "memory"); }

static unsigned long cr8_read(void)
{
	unsigned long v;

	asm volatile("mov %%cr8, %0" : "=r"(v));
	return v;
}

static int __init tprcheck_init(void)
{
	u64 tpr;
	unsigned long cr8;
	int held, delivered;

	if (!x2apic_enabled()) {
		pr_info("tprcheck: the APIC is not in x2APIC mode\n");
		return -ENODEV;
	}
	preempt_disable();
	cr8_write(5);
	rdmsrl(MSR_X2APIC_TPR, tpr);
	wrmsrl(MSR_X2APIC_TPR, 0x70);
	cr8 = cr8_read();
	wrmsrl(MSR_X2APIC_TPR, 0);

	cr8_write(15);
	irq_work_queue(&work); /* a self-IPI on this CPU */
	mdelay(2);
	held = atomic_read(&ran) == 0;
	cr8_write(0);
	delivered = atomic_read(&ran) == 1;
	preempt_enable();
	irq_work_sync(&work);

	pr_info("tprcheck: cr8-to-tpr=%#llx tpr-to-cr8=%#lx held=%d delivered=%d\n", tpr, cr8, held,
		delivered);
	return 0;
}

static void __exit tprcheck_exit(void) {}

module_init(tprcheck_init);
module_exit(tprcheck_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CR8 and the x2APIC TPR under a hypervisor");
