/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual x2APIC (arch/x86/irq/vlapic.c) as a guest drives it through MSRs, with
 * interrupts arriving and being injected. Input: the TSC rate (4 bytes), the start
 * time (8 bytes), then operations, each an opcode byte and its arguments:
 *   0 WRMSR 0x800 + reg (1 byte), value (8 bytes)      1 RDMSR 0x800 + reg
 *   2 WRMSR IA32_APIC_BASE, value (8 bytes)             3 WRMSR IA32_TSC_DEADLINE, value
 *   4 RDMSR IA32_APIC_BASE and IA32_TSC_DEADLINE        5 accept: vector, level (bit 0)
 *   6 injection: the pending vector, if any, acknowledged
 *   7 time passes: ticks (4 bytes), then the timer is updated
 *   8 INIT (vlapic_reset)                                other: destination match of
 *     a destination (4 bytes), logical by the opcode's bit 7
 * Checked: an MSR access succeeds or is a #GP that changes nothing it returns; the IPIs
 * it sends are the ones its header says it sends; the pending vector is a real vector
 * above the PPR's class, and its acknowledgment sets ISR and clears IRR; PPR is a byte;
 * after a timer update the next deadline is later than now (or none). */
#include "../../arch/x86/irq/vlapic.c"
#include "fuzz.h"

static void send_ipi(void *ctx, const struct vlapic_ipi *ipi)
{
	(void)ctx;
	FUZZ_CHECK(ipi->mode != 3 && ipi->mode != APIC_DM_EXTINT);
	FUZZ_CHECK(ipi->mode != APIC_DM_INIT || ipi->level_assert);
	if (ipi->mode == APIC_DM_FIXED || ipi->mode == APIC_DM_LOWEST)
		FUZZ_CHECK(ipi->vector >= 16);
	FUZZ_CHECK(ipi->shorthand <= APIC_SH_OTHERS);
}

static void eoi_level(void *ctx, u8 vector)
{
	(void)ctx;
	FUZZ_CHECK(vector >= 16);
}

static const struct vlapic_ops ops = { send_ipi, eoi_level };

static void rd(struct vlapic *l, u32 msr, u64 now)
{
	u64 v = 0x1234;
	int rc = vlapic_rdmsr(l, msr, &v, now);
	FUZZ_CHECK(rc == 0 || (rc == -1 && v == 0x1234));
}

static void wr(struct vlapic *l, u32 msr, u64 val, u64 now)
{
	int rc = vlapic_wrmsr(l, msr, val, now);
	FUZZ_CHECK(rc == 0 || rc == -1);
}

static void inject(struct vlapic *l)
{
	int v = vlapic_pending_vector(l);
	if (v < 0) {
		FUZZ_CHECK(v == -1);
		return;
	}
	FUZZ_CHECK(v >= 16 && v <= 255 && vlapic_test_vec(l, APIC_REG_IRR, (u8)v));
	FUZZ_CHECK((u32)v >> 4 > vlapic_ppr(l) >> 4);
	FUZZ_CHECK(vlapic_has_pending_irr(l));
	vlapic_ack(l, (u8)v);
	FUZZ_CHECK(vlapic_test_vec(l, APIC_REG_ISR, (u8)v) &&
		   !vlapic_test_vec(l, APIC_REG_IRR, (u8)v));
	FUZZ_CHECK(vlapic_ppr(l) >> 4 >= (u32)v >> 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct vlapic l;
	static u32 page[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));
	u64 tsc_hz = take_u32(&in);
	u64 now = take_u64(&in);

	vlapic_init(&l, page, 0, true, 48, tsc_hz, &ops, NULL);
	while (in.n) {
		u8 op = take_u8(&in);
		switch (op % 12) {
		case 0: {
			u32 msr = MSR_X2APIC_FIRST + take_u8(&in);
			wr(&l, msr, take_u64(&in), now);
			break;
		}
		case 1:
			rd(&l, MSR_X2APIC_FIRST + take_u8(&in), now);
			break;
		case 2:
			wr(&l, MSR_IA32_APIC_BASE, take_u64(&in), now);
			break;
		case 3:
			wr(&l, MSR_IA32_TSC_DEADLINE, take_u64(&in), now);
			break;
		case 4:
			rd(&l, MSR_IA32_APIC_BASE, now);
			rd(&l, MSR_IA32_TSC_DEADLINE, now);
			break;
		case 5: {
			u8 vec = take_u8(&in);
			bool ok = vlapic_accept(&l, vec, take_u8(&in) & 1);
			FUZZ_CHECK(!ok || (vec >= 16 && vlapic_test_vec(&l, APIC_REG_IRR, vec)));
			break;
		}
		case 6:
			inject(&l);
			break;
		case 7: {
			u64 ticks = take_u32(&in);
			now = now + ticks < now ? ~0ull : now + ticks;
			vlapic_timer_update(&l, now);
			u64 d = vlapic_next_deadline(&l);
			FUZZ_CHECK(d == 0 || d > now || d == ~0ull);
			break;
		}
		case 8:
			vlapic_reset(&l);
			break;
		case 9:
		case 10: {
			/* the xAPIC window, where the vCPU would reach it */
			u32 off = take_u32(&in), size = 1u << (take_u8(&in) & 3);
			if (!vlapic_mmio_claims(&l, (l.apic_base & ~0xfffull) | (off & 0xfff)))
				break;
			if (op % 12 == 9) {
				vlapic_mmio_write(&l, off & 0xfff, size, take_u64(&in), now);
			} else {
				u64 v = vlapic_mmio_read(&l, off & 0xfff, size, now);
				FUZZ_CHECK(size == 8 ? v == 0 : v >> (size * 8) == 0);
			}
			break;
		}
		default:
			vlapic_match_dest(&l, take_u32(&in), op >> 7);
		}
		FUZZ_CHECK(vlapic_ppr(&l) <= 0xff);
	}
	return 0;
}
