/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/arm64/critical_section.c: interrupts masked at EL1, and the preempt
 * count a guest publishes through HV_SMCCC_PREEMPT_COUNT (a registered word naming the
 * running task's count), read from guest RAM that the guest may fill with anything. */
#include <stdarg.h>
#include <stdio.h>

#include "../../../arch/arm64/critical_section.c"
#include "../test.h"

#define RAM_BASE 0x40000000ull
#define RAM_SIZE 0x10000ull
#define WORD (RAM_BASE + 0x100)	 /* the registered word */
#define COUNT (RAM_BASE + 0x200) /* a task's count */

static _Alignas(8) u8 ram[RAM_SIZE];
static struct vm vm = { .name = "t", .ram_gpa = RAM_BASE, .ram_size = RAM_SIZE, .ram = ram };
static struct vcpu vcpu = { .vm = &vm };
static int printed;

void printk(const char *fmt, ...)
{
	(void)fmt;
	printed++;
}

static void put64(u64 gpa, u64 val) { memcpy(ram + (gpa - RAM_BASE), &val, 8); }
static void put32(u64 gpa, u32 val) { memcpy(ram + (gpa - RAM_BASE), &val, 4); }

#define SPSR_EL1H 0x5ull
#define SPSR_EL0 0x0ull
#define SPSR_I BIT(7)

static enum critical_section in(u64 spsr)
{
	vcpu.arch.regs.spsr = spsr;
	return arch_vcpu_in_critical_section(&vcpu);
}

static void test_irqs_masked(void)
{
	CHECK_EQ(in(SPSR_EL1H | SPSR_I), CS_IRQS_MASKED);
	CHECK_EQ(in(SPSR_EL1H), CS_NONE);
	CHECK_EQ(in(SPSR_EL0 | SPSR_I), CS_NONE);   /* user mode: not a kernel section */
	CHECK_EQ(in(0x4 | SPSR_I), CS_IRQS_MASKED); /* EL1t */
	CHECK(!arch_vcpu_sees_section_end(&vcpu));
}

static void test_registration(void)
{
	CHECK_EQ(arm64_preempt_count_register(&vcpu, WORD | 1), 0);
	CHECK_EQ(vcpu.arch.preempt_count_reg, WORD | 1);
	CHECK_EQ(arm64_preempt_count_register(&vcpu, (RAM_BASE + RAM_SIZE) | 1), -1);
	CHECK_EQ(arm64_preempt_count_register(&vcpu, (RAM_BASE - 8) | 1), -1);
	CHECK_EQ(arm64_preempt_count_register(&vcpu, 1), -1);
	CHECK_EQ(vcpu.arch.preempt_count_reg, WORD | 1); /* refused ones leave it */
	CHECK_EQ(arm64_preempt_count_register(&vcpu, 0), 0);
	CHECK_EQ(vcpu.arch.preempt_count_reg, 0);
}

static void test_count(void)
{
	vcpu.arch.preempt_count_reg = 0;
	put64(WORD, COUNT);
	put32(COUNT, 1);
	CHECK_EQ(in(SPSR_EL1H), CS_NONE); /* nothing registered */
	CHECK_EQ(arm64_preempt_count_register(&vcpu, WORD | 1), 0);
	CHECK_EQ(in(SPSR_EL1H), CS_PREEMPT_COUNT);
	CHECK_EQ(in(SPSR_EL1H | SPSR_I), CS_IRQS_MASKED); /* the interrupt state first */
	put32(COUNT, 0x80000000u);			  /* bit 31 ignored */
	CHECK_EQ(in(SPSR_EL1H), CS_NONE);
	put32(COUNT, 0x100); /* softirqs off */
	CHECK_EQ(in(SPSR_EL1H), CS_PREEMPT_COUNT);
	/* The running task changes: the word names another count. */
	put32(COUNT + 0x40, 0);
	put64(WORD, COUNT + 0x40);
	CHECK_EQ(in(SPSR_EL1H), CS_NONE);
	put64(WORD, 0); /* no task named */
	CHECK_EQ(in(SPSR_EL1H), CS_NONE);
	CHECK_EQ(printed, 0);
}

/* Whatever the guest writes in the word: taken as no section, said once. */
static void test_hostile_word(void)
{
	static const u64 bad[] = {
		COUNT + 1,
		COUNT + 2,
		RAM_BASE + RAM_SIZE,
		RAM_BASE + RAM_SIZE - 2,
		RAM_BASE - 4,
		~0ull,
		~0ull - 3,
		0x4,
		RAM_BASE + RAM_SIZE + RAM_BASE,
	};
	put32(COUNT, 1);
	printed = 0;
	vcpu.arch.preempt_count_warned = false;
	CHECK_EQ(arm64_preempt_count_register(&vcpu, WORD | 1), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		put64(WORD, bad[i]);
		CHECK_EQ(in(SPSR_EL1H), CS_NONE);
	}
	CHECK_EQ(printed, 1);
	/* The last word of RAM is still a count. */
	put32(RAM_BASE + RAM_SIZE - 4, 3);
	put64(WORD, RAM_BASE + RAM_SIZE - 4);
	CHECK_EQ(in(SPSR_EL1H), CS_PREEMPT_COUNT);
	/* The word itself may be the count's address: it reads its own low half. */
	put64(WORD, WORD);
	CHECK_EQ(in(SPSR_EL1H), CS_PREEMPT_COUNT);
}

int main(void)
{
	test_irqs_masked();
	test_registration();
	test_count();
	test_hostile_word();
	return test_summary();
}
