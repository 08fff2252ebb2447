/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual local APIC in xAPIC and x2APIC mode (see vlapic.h). References are to Intel SDM
 * vol. 3, chapter 11. */
#include "arch/x86/irq/vlapic.h"
#include "hv/lib.h"

/* IA32_APIC_BASE (SDM Figure 11-26): bits 7:0 and 9 are reserved, and the address bits
 * from MAXPHYADDR up. */
#define APIC_BASE_RSVD_LOW (0xffull | BIT(9))
#define APIC_BASE_ADDR (~0xfffull)

/* xAPIC LDR: the logical ID in bits 31:24; DFR: the model in bits 31:28, the rest
 * reads as ones (SDM Figures 11-13 and 11-14). */
#define XAPIC_LDR_MASK 0xff000000u
#define XAPIC_DFR_RSVD 0x0fffffffu
#define XAPIC_DFR_FLAT 0xfu

/* Writable bits of each LVT (SDM Figure 11-8). Delivery status (12) and remote IRR
 * (14) are read-only: written values are ignored. Anything else is reserved. */
#define LVT_VEC 0xffu
#define LVT_DM (7u << 8)
#define LVT_POLARITY BIT(13)
#define LVT_TRIGGER BIT(15)
#define LVT_TIMER_MODE (3u << 17)
#define LVT_RO (BIT(12) | BIT(14))

static const u32 lvt_writable[VLAPIC_NR_LVT] = {
	[VLAPIC_LVT_CMCI] = LVT_VEC | LVT_DM | APIC_LVT_MASKED,
	[VLAPIC_LVT_TIMER] = LVT_VEC | APIC_LVT_MASKED | LVT_TIMER_MODE,
	[VLAPIC_LVT_THERMAL] = LVT_VEC | LVT_DM | APIC_LVT_MASKED,
	[VLAPIC_LVT_PERF] = LVT_VEC | LVT_DM | APIC_LVT_MASKED,
	[VLAPIC_LVT_LINT0] = LVT_VEC | LVT_DM | LVT_POLARITY | LVT_TRIGGER | APIC_LVT_MASKED,
	[VLAPIC_LVT_LINT1] = LVT_VEC | LVT_DM | LVT_POLARITY | LVT_TRIGGER | APIC_LVT_MASKED,
	[VLAPIC_LVT_ERROR] = LVT_VEC | APIC_LVT_MASKED,
};

/* SVR: vector, APIC enable, focus checking (kept as storage). Bit 12 (EOI broadcast
 * suppression) is reserved because the version register does not offer it. */
#define SVR_WRITABLE 0x3ffu

/* ICR in x2APIC mode (SDM Figure 11-28): 13:12, 17:16 and 31:20 are reserved. */
#define ICR_RSVD (BIT(12) | BIT(13) | BIT(16) | BIT(17) | 0xfff00000ull)

/* floor(a * b / c), saturated to ~0. The 128-by-64 division is done by hand: the
 * hypervisor does not link libgcc, so no __udivti3. */
static u64 mul_div(u64 a, u64 b, u64 c)
{
	unsigned __int128 n = (unsigned __int128)a * b;
	u64 hi = (u64)(n >> 64), lo = (u64)n, q = 0;

	if (hi >= c)
		return ~0ull;
	if (!hi)
		return lo / c;
	/* Restoring division; the remainder hi stays below c. */
	for (int i = 0; i < 64; i++) {
		bool carry = hi >> 63;

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (carry || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

static u64 sat_add(u64 a, u64 b) { return a + b < a ? ~0ull : a + b; }

/* Highest set bit of the 256-bit register (ISR, TMR or IRR) at offset base, or -1. */
static int highest_bit(const struct vlapic *l, u32 base, bool atomic)
{
	for (int i = 7; i >= 0; i--) {
		const u32 *p = &VLAPIC_VEC_WORD(l, base, i);
		u32 w = atomic ? __atomic_load_n(p, __ATOMIC_ACQUIRE) : *p;

		if (w)
			return i * 32 + 31 - __builtin_clz(w);
	}
	return -1;
}

/* Word i of the requests posted and not yet moved into the IRR (posted_requests). */
static u32 posted_word(const struct vlapic *l, int i)
{
	return __atomic_load_n(&l->posted.pir[i], __ATOMIC_ACQUIRE) |
	       __atomic_load_n(&l->held[i], __ATOMIC_ACQUIRE);
}

/* Highest requested vector: in the IRR, or posted and not yet moved there; or -1. */
static int highest_request(const struct vlapic *l)
{
	for (int i = 7; i >= 0; i--) {
		u32 w = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), __ATOMIC_ACQUIRE) |
			(l->posted_requests ? posted_word(l, i) : 0);
		if (w)
			return i * 32 + 31 - __builtin_clz(w);
	}
	return -1;
}

static bool hw_enabled(const struct vlapic *l)
{
	return __atomic_load_n(&l->apic_base, __ATOMIC_RELAXED) & APIC_BASE_EN;
}

bool vlapic_enabled(const struct vlapic *l) { return hw_enabled(l); }

bool vlapic_x2apic_mode(const struct vlapic *l)
{
	u64 mode = APIC_BASE_EN | APIC_BASE_EXTD;
	return (__atomic_load_n(&l->apic_base, __ATOMIC_RELAXED) & mode) == mode;
}

static bool sw_enabled(const struct vlapic *l)
{
	return __atomic_load_n(&VLAPIC_REG(l, APIC_REG_SVR), __ATOMIC_RELAXED) & APIC_SVR_ENABLE;
}

static u32 timer_mode(const struct vlapic *l)
{
	return APIC_LVT_TIMER_MODE(VLAPIC_REG(l, APIC_REG_LVT_TIMER));
}

/* Divide configuration (SDM Figure 11-10): bits 3,1:0; 111b means divide by 1. */
static u32 timer_divisor(u32 dcr)
{
	u32 v = ((dcr >> 1) & 4) | (dcr & 3);

	return v == 7 ? 1 : 2u << v;
}

static u64 ticks_to_tsc(const struct vlapic *l, u64 ticks)
{
	return mul_div(ticks, l->tsc_hz, VLAPIC_BUS_HZ);
}

static void timer_stop(struct vlapic *l)
{
	l->timer_deadline = 0;
	l->timer_period = 0;
}

/* ID, LDR and DFR as the mode has them: xAPIC at power-up, after a disable and after an
 * INIT in xAPIC mode (ID back to the initial one, LDR 0, DFR flat: SDM 11.4.7.1, 11.4.7.3);
 * x2APIC from the switch on (the 32-bit ID, the LDR derived from it, no DFR: 11.12.10.2). */
static void set_mode_regs(struct vlapic *l, bool x2apic)
{
	u32 ldr = ((l->id >> 4) << 16) | (1u << (l->id & 0xf));
	__atomic_store_n(&VLAPIC_REG(l, APIC_REG_ID), x2apic ? l->id : l->id << 24,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&VLAPIC_REG(l, APIC_REG_LDR), x2apic ? ldr : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&VLAPIC_REG(l, APIC_REG_DFR), x2apic ? 0 : ~0u, __ATOMIC_RELAXED);
}

/* Every register but ID, version, LDR and DFR (set_mode_regs). */
static void reset_regs(struct vlapic *l)
{
	for (int i = 0; i < 8; i++) {
		__atomic_store_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), 0, __ATOMIC_RELAXED);
		__atomic_store_n(&VLAPIC_VEC_WORD(l, APIC_REG_TMR, i), 0, __ATOMIC_RELAXED);
		__atomic_store_n(&l->posted.pir[i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&l->held[i], 0, __ATOMIC_RELAXED);
		VLAPIC_VEC_WORD(l, APIC_REG_ISR, i) = 0;
	}
	vlapic_set_tpr(l, 0);
	__atomic_store_n(&VLAPIC_REG(l, APIC_REG_SVR), 0xff, __ATOMIC_RELAXED);
	VLAPIC_REG(l, APIC_REG_ESR) = 0;
	l->esr_pending = 0;
	for (int i = 0; i < VLAPIC_NR_LVT; i++)
		VLAPIC_REG(l, APIC_REG_LVT(i)) = APIC_LVT_MASKED;
	VLAPIC_REG(l, APIC_REG_ICR_LO) = 0;
	VLAPIC_REG(l, APIC_REG_ICR_HI) = 0;
	VLAPIC_REG(l, APIC_REG_TIMER_ICR) = 0;
	VLAPIC_REG(l, APIC_REG_TIMER_DCR) = 0;
	l->tsc_deadline_msr = 0;
	timer_stop(l);
}

void vlapic_init(struct vlapic *l, u32 *page, u32 id, bool bsp, u32 phys_bits, u64 tsc_hz,
		 const struct vlapic_ops *ops, void *ctx)
{
	memset(l, 0, sizeof(*l));
	memset(page, 0, PAGE_SIZE);
	l->regs = page;
	l->id = id;
	VLAPIC_REG(l, APIC_REG_VERSION) = VLAPIC_VERSION;
	l->apic_base = APIC_DEFAULT_BASE | APIC_BASE_EN | (bsp ? APIC_BASE_BSP : 0);
	l->base_rsvd = APIC_BASE_RSVD_LOW | (phys_bits < 64 ? ~0ull << phys_bits : 0);
	l->tsc_hz = tsc_hz ? tsc_hz : VLAPIC_BUS_HZ;
	l->ops = ops;
	l->ctx = ctx;
	set_mode_regs(l, false);
	reset_regs(l);
}

void vlapic_reset(struct vlapic *l)
{
	reset_regs(l);
	if (!vlapic_x2apic_mode(l))
		set_mode_regs(l, false);
}

bool vlapic_accept(struct vlapic *l, u8 vector, bool level)
{
	u32 bit = 1u << (vector % 32);
	u32 *tmr = &VLAPIC_VEC_WORD(l, APIC_REG_TMR, vector / 32);

	if (vector < 16 || !hw_enabled(l) || !sw_enabled(l))
		return false;
	/* TMR first, so the owner sees it once it sees the IRR bit (SDM 11.8.4: TMR is
	 * set on acceptance of a level interrupt, cleared for an edge one). */
	if (level)
		__atomic_fetch_or(tmr, bit, __ATOMIC_SEQ_CST);
	else if (__atomic_load_n(tmr, __ATOMIC_RELAXED) & bit)
		__atomic_fetch_and(tmr, ~bit, __ATOMIC_SEQ_CST);
	/* posted_requests: a level-triggered request is held back from the CPU (its EOI
	 * must exit, and the EOI-exit bitmap is written at entries): only the owner moves
	 * it into the IRR, before an entry. */
	u32 *word = !l->posted_requests ? &VLAPIC_VEC_WORD(l, APIC_REG_IRR, vector / 32)
		    : level		? &l->held[vector / 32]
					: &l->posted.pir[vector / 32];
	__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST);
	return true;
}

bool vlapic_claim_notification(struct vlapic *l)
{
	return !(__atomic_fetch_or(&l->posted.control, VLAPIC_POSTED_ON, __ATOMIC_SEQ_CST) &
		 VLAPIC_POSTED_ON);
}

bool vlapic_sync_pir(struct vlapic *l)
{
	bool any = false;
	/* ON first: a request posted after a word's exchange below then finds ON clear and
	 * notifies (or kicks) again. */
	if (__atomic_load_n(&l->posted.control, __ATOMIC_RELAXED) & VLAPIC_POSTED_ON)
		__atomic_fetch_and(&l->posted.control, ~VLAPIC_POSTED_ON, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 8; i++) {
		if (!posted_word(l, i))
			continue;
		u32 w = __atomic_exchange_n(&l->posted.pir[i], 0, __ATOMIC_ACQ_REL) |
			__atomic_exchange_n(&l->held[i], 0, __ATOMIC_ACQ_REL);
		__atomic_fetch_or(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), w, __ATOMIC_SEQ_CST);
		any = true;
	}
	return any;
}

/* The registers read as their page word in both modes (see vlapic_page_read). */
static bool page_reg(u32 reg)
{
	if (reg >= APIC_REG_ISR && reg < APIC_REG_IRR + 0x80) /* ISR, TMR, IRR */
		return true;
	if (reg >= APIC_REG_LVT_TIMER && reg <= APIC_REG_LVT_ERROR)
		return true;
	switch (reg) {
	case APIC_REG_ID:
	case APIC_REG_VERSION:
	case APIC_REG_TPR:
	case APIC_REG_LDR:
	case APIC_REG_SVR:
	case APIC_REG_ESR:
	case APIC_REG_LVT_CMCI:
	case APIC_REG_TIMER_ICR:
	case APIC_REG_TIMER_DCR:
		return true;
	}
	return false;
}

bool vlapic_page_read(u32 msr)
{
	return msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST &&
	       page_reg((msr - MSR_X2APIC_FIRST) << 4);
}

void vlapic_run_begin(const struct vlapic *l, struct vlapic_run *r)
{
	for (int i = 0; i < 8; i++) {
		r->irr[i] = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), __ATOMIC_ACQUIRE);
		r->isr[i] = VLAPIC_VEC_WORD(l, APIC_REG_ISR, i);
	}
}

void vlapic_run_count(const struct vlapic *l, const struct vlapic_run *r, u64 *delivered, u64 *eois)
{
	*delivered = *eois = 0;
	for (int i = 0; i < 8; i++) {
		u32 irr = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), __ATOMIC_ACQUIRE);
		u32 isr = VLAPIC_VEC_WORD(l, APIC_REG_ISR, i);
		/* Only the CPU's delivery clears an IRR bit while the guest runs, and only it
		 * puts a vector in service (one that reached the IRR in the run too). Each
		 * vector counts once. */
		u32 taken = (r->irr[i] & ~irr) | (isr & ~r->isr[i]);
		*delivered += (u64)__builtin_popcount(taken);
		/* Per vector, EOIs = in service before + delivered - in service after: a
		 * vector in service after was in service before or is in taken, so no word
		 * goes below 0. */
		*eois += (u64)__builtin_popcount(r->isr[i]) + (u64)__builtin_popcount(taken) -
			 (u64)__builtin_popcount(isr);
	}
}

/* Records an error (SDM 11.5.3) and raises the error LVT the first time it is seen
 * since the last ESR write. */
static void set_error(struct vlapic *l, u32 bit)
{
	u32 lvt = VLAPIC_REG(l, APIC_REG_LVT_ERROR);

	if (l->esr_pending & bit)
		return;
	l->esr_pending |= bit;
	if (!(lvt & APIC_LVT_MASKED))
		vlapic_accept(l, lvt & LVT_VEC, false); /* vector < 16: dropped */
}

/* An interrupt generated inside this APIC (LVT, SELF IPI). */
static void deliver_local(struct vlapic *l, u8 vector)
{
	if (vector < 16)
		set_error(l, APIC_ESR_RECV_ILLEGAL_VECTOR);
	else
		vlapic_accept(l, vector, false);
}

u32 vlapic_ppr(const struct vlapic *l)
{
	int isrv = highest_bit(l, APIC_REG_ISR, false);
	u32 isr_class = isrv < 0 ? 0 : (u32)isrv & 0xf0, tpr = vlapic_tpr(l);

	/* SDM 11.8.3.1: PPR = TPR if TPR[7:4] >= ISRV[7:4], else ISRV[7:4] << 4 */
	return (tpr & 0xf0) >= isr_class ? tpr : isr_class;
}

int vlapic_pending_vector(struct vlapic *l)
{
	int v;

	if (!hw_enabled(l))
		return -1;
	v = highest_request(l);
	if (v < 0 || (u32)(v >> 4) <= vlapic_ppr(l) >> 4)
		return -1;
	return v;
}

void vlapic_ack(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector % 32);

	__atomic_fetch_and(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, vector / 32), ~bit, __ATOMIC_SEQ_CST);
	VLAPIC_VEC_WORD(l, APIC_REG_ISR, vector / 32) |= bit;
}

void vlapic_unack(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector % 32);

	VLAPIC_VEC_WORD(l, APIC_REG_ISR, vector / 32) &= ~bit;
	__atomic_fetch_or(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, vector / 32), bit, __ATOMIC_SEQ_CST);
}

bool vlapic_has_pending_irr(struct vlapic *l) { return highest_request(l) >= 0; }

u32 vlapic_tpr_holds_back(struct vlapic *l)
{
	int irrv = highest_request(l), isrv = highest_bit(l, APIC_REG_ISR, false);
	if (!hw_enabled(l) || irrv < 0)
		return 0;
	u32 irr_class = (u32)irrv >> 4;
	bool held = irr_class <= (vlapic_tpr(l) >> 4 & 0xf) &&
		    (isrv < 0 || irr_class > (u32)isrv >> 4);
	return held ? irr_class : 0;
}

bool vlapic_match_dest(const struct vlapic *l, u32 dest, bool logical)
{
	u32 id = __atomic_load_n(&VLAPIC_REG(l, APIC_REG_ID), __ATOMIC_RELAXED);
	u32 ldr = __atomic_load_n(&VLAPIC_REG(l, APIC_REG_LDR), __ATOMIC_RELAXED);

	if (dest == APIC_BROADCAST)
		return true;
	if (vlapic_x2apic_mode(l)) {
		if (!logical)
			return dest == id;
		return (dest >> 16) == (ldr >> 16) && (dest & ldr & 0xffff);
	}
	if (dest > 0xff) /* an x2APIC sender's: no xAPIC has it */
		return false;
	if (!logical)
		return dest == id >> 24;
	u32 lid = ldr >> 24;
	if (__atomic_load_n(&VLAPIC_REG(l, APIC_REG_DFR), __ATOMIC_RELAXED) >> 28 == XAPIC_DFR_FLAT)
		return lid & dest;
	return (lid >> 4) == (dest >> 4) && (lid & dest & 0xf);
}

/* SDM 11.8.5: a level-triggered EOI is broadcast to the IOAPICs. */
static void eoi_broadcast(struct vlapic *l, u8 vector)
{
	if (vlapic_test_vec(l, APIC_REG_TMR, vector) && l->ops && l->ops->eoi_level)
		l->ops->eoi_level(l->ctx, vector);
}

void vlapic_eoi(struct vlapic *l)
{
	int v = highest_bit(l, APIC_REG_ISR, false);

	l->eois++;
	if (v < 0)
		return;
	VLAPIC_VEC_WORD(l, APIC_REG_ISR, v / 32) &= ~(1u << (v % 32));
	eoi_broadcast(l, (u8)v);
}

void vlapic_eoi_exit(struct vlapic *l, u8 vector)
{
	l->eois++;
	eoi_broadcast(l, vector);
}

struct vlapic_ipi vlapic_icr_decode(u64 icr)
{
	return (struct vlapic_ipi){
		.vector = icr & 0xff,
		.mode = (icr >> 8) & 7,
		.logical = icr & BIT(11),
		.level_assert = icr & BIT(14),
		.level_trigger = icr & BIT(15),
		.shorthand = (icr >> 18) & 3,
		.dest = (u32)(icr >> 32),
	};
}

/* An ICR write: the low word, and the destination in the sender's format. */
static void send_icr(struct vlapic *l, u32 lo, u32 dest)
{
	struct vlapic_ipi ipi = vlapic_icr_decode((u64)dest << 32 | lo);

	switch (ipi.mode) {
	case APIC_DM_FIXED:
	case APIC_DM_LOWEST:
		if (ipi.vector < 16) {
			set_error(l, APIC_ESR_SEND_ILLEGAL_VECTOR);
			return;
		}
		break;
	case APIC_DM_INIT:
		/* INIT level de-assert: no effect on P4 and later (SDM 11.6.1). */
		if (!ipi.level_assert)
			return;
		break;
	case APIC_DM_SMI:
	case APIC_DM_NMI:
	case APIC_DM_STARTUP:
		break;
	default: /* 3 and 7 (ExtINT) are reserved in the ICR */
		return;
	}
	l->ipis_sent++;
	if (l->ops && l->ops->send_ipi)
		l->ops->send_ipi(l->ctx, &ipi);
}

/* The shortest period of a periodic timer: an initial count of 1 at divide-by-1 would
 * otherwise interrupt the pCPU every few cycles, for every VM on it (KVM's floor, its
 * min_timer_period_us, is the same 200 us). One-shot and TSC-deadline timers fire once
 * per write and are not limited. */
#define VLAPIC_MIN_PERIOD_US 200
static u64 min_period(const struct vlapic *l)
{
	return mul_div(l->tsc_hz, VLAPIC_MIN_PERIOD_US, 1000000);
}

static u32 timer_ccr(const struct vlapic *l, u64 now)
{
	u64 left, count;
	u32 icr = VLAPIC_REG(l, APIC_REG_TIMER_ICR);

	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE || !l->timer_deadline || !l->timer_period)
		return 0;
	if (now < l->timer_deadline) {
		left = l->timer_deadline - now;
	} else if (timer_mode(l) == APIC_TIMER_PERIODIC) {
		/* Expired, vlapic_timer_update not run yet: into a later period. */
		left = l->timer_period - (now - l->timer_deadline) % l->timer_period;
	} else {
		return 0;
	}
	/* Proportional to the armed period, so a later DCR write does not skew it. */
	count = mul_div(left, icr, l->timer_period);
	return count > icr ? icr : (u32)count;
}

void vlapic_timer_update(struct vlapic *l, u64 now)
{
	u32 lvt = VLAPIC_REG(l, APIC_REG_LVT_TIMER);

	if (!l->timer_deadline || now < l->timer_deadline)
		return;
	l->timer_fires++;
	if (!(lvt & APIC_LVT_MASKED))
		deliver_local(l, lvt & LVT_VEC);
	switch (APIC_LVT_TIMER_MODE(lvt)) {
	case APIC_TIMER_PERIODIC:
		if (l->timer_period) {
			/* Armed in one-shot mode and switched since: the floor applies now. */
			l->timer_period = MAX(l->timer_period, min_period(l));
			/* Next = prev + period, past now: missed periods are dropped. */
			u64 missed = (now - l->timer_deadline) / l->timer_period;

			l->timer_deadline = sat_add(l->timer_deadline,
						    (missed + 1) * l->timer_period);
			break;
		}
		timer_stop(l);
		break;
	case APIC_TIMER_TSC_DEADLINE:
		l->tsc_deadline_msr = 0;
		timer_stop(l);
		break;
	default:
		timer_stop(l);
		break;
	}
}

/* The host TSC at which the guest's reaches `deadline` (IA32_TSC_DEADLINE): now when it
 * already has (the timer fires at the next look), 0 for none. */
static u64 host_deadline(const struct vlapic *l, u64 deadline, u64 now)
{
	u64 guest_now = now + l->tsc_offset;
	if (!deadline)
		return 0;
	if (deadline <= guest_now)
		return MAX(now, 1);
	return sat_add(now, deadline - guest_now);
}

void vlapic_set_tsc_offset(struct vlapic *l, u64 offset, u64 now)
{
	l->tsc_offset = offset;
	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE && l->timer_deadline)
		l->timer_deadline = host_deadline(l, l->tsc_deadline_msr, now);
}

u64 vlapic_next_deadline(const struct vlapic *l)
{
	/* A masked timer raises nothing, so nothing needs to wake up for it: its count and
	 * periods go on (timer_ccr) and vlapic_timer_update catches up at the next look. */
	if (VLAPIC_REG(l, APIC_REG_LVT_TIMER) & APIC_LVT_MASKED)
		return 0;
	return l->timer_deadline;
}

static void write_lvt(struct vlapic *l, int idx, u32 val)
{
	u32 old = VLAPIC_REG(l, APIC_REG_LVT(idx));

	val = (val & lvt_writable[idx]) | (old & LVT_RO);
	/* SDM 11.4.7.2: while software-disabled, the mask bits stay set. */
	if (!sw_enabled(l))
		val |= APIC_LVT_MASKED;
	VLAPIC_REG(l, APIC_REG_LVT(idx)) = val;
	/* SDM 11.5.4.1: switching to or from TSC-deadline mode disarms the timer.
	 * One-shot <-> periodic keeps it running; the new mode applies at expiry. */
	if (idx == VLAPIC_LVT_TIMER &&
	    (APIC_LVT_TIMER_MODE(old) == APIC_TIMER_TSC_DEADLINE) !=
		    (APIC_LVT_TIMER_MODE(val) == APIC_TIMER_TSC_DEADLINE)) {
		VLAPIC_REG(l, APIC_REG_TIMER_ICR) = 0;
		l->tsc_deadline_msr = 0;
		timer_stop(l);
	}
}

/* The LVT index of the register at offset reg, or -1. */
static int lvt_index(u32 reg)
{
	if (reg == APIC_REG_LVT_CMCI)
		return VLAPIC_LVT_CMCI;
	if (reg >= APIC_REG_LVT_TIMER && reg <= APIC_REG_LVT_ERROR)
		return VLAPIC_LVT_TIMER + (int)(reg - APIC_REG_LVT_TIMER) / 0x10;
	return -1;
}

/* SDM 11.12.5: EN=0/EXTD=1 is invalid; x2APIC -> xAPIC and disabled -> x2APIC are
 * illegal transitions. BSP is read-only. Going to disabled resets the APIC; coming back
 * to xAPIC mode restores its ID, entering x2APIC mode gives the x2APIC ID and LDR. The
 * base address moves the xAPIC window (SDM 11.4.4). */
static int write_apic_base(struct vlapic *l, u64 val)
{
	u64 old = l->apic_base;
	bool en = val & APIC_BASE_EN, extd = val & APIC_BASE_EXTD;
	bool old_en = old & APIC_BASE_EN, old_extd = old & APIC_BASE_EXTD;

	if ((val & l->base_rsvd) || (!en && extd))
		return -1;
	if (old_en && old_extd && en && !extd)
		return -1;
	if (!old_en && en && extd)
		return -1;
	if (old_en && !en)
		reset_regs(l);
	if (en && (!old_en || extd != old_extd))
		set_mode_regs(l, extd);
	__atomic_store_n(&l->apic_base,
			 (val & (APIC_BASE_ADDR | APIC_BASE_EN | APIC_BASE_EXTD)) |
				 (old & APIC_BASE_BSP),
			 __ATOMIC_RELAXED);
	return 0;
}

/* A readable register's value (the x2APIC ICR as 64 bits), else false. */
static bool read_register(struct vlapic *l, u32 reg, u64 now, u64 *val)
{
	bool x2apic = vlapic_x2apic_mode(l);

	if (page_reg(reg) || (!x2apic && (reg == APIC_REG_DFR || reg == APIC_REG_ICR_HI))) {
		*val = __atomic_load_n(&VLAPIC_REG(l, reg), __ATOMIC_ACQUIRE);
		if (reg >= APIC_REG_IRR && reg < APIC_REG_IRR + 0x80) /* and posted */
			*val |= posted_word(l, (int)(reg - APIC_REG_IRR) / 0x10);
		return true;
	}
	switch (reg) {
	case APIC_REG_PPR:
		*val = vlapic_ppr(l);
		return true;
	case APIC_REG_ICR_LO: /* delivery status (bit 12) is always 0 */
		*val = VLAPIC_REG(l, APIC_REG_ICR_LO);
		if (x2apic)
			*val |= (u64)VLAPIC_REG(l, APIC_REG_ICR_HI) << 32;
		return true;
	case APIC_REG_TIMER_CCR:
		*val = timer_ccr(l, now);
		return true;
	default: /* EOI and SELF IPI are write-only; the rest is absent */
		return false;
	}
}

static void write_timer_icr(struct vlapic *l, u32 val, u64 now)
{
	/* SDM 11.5.4.1: ignored in TSC-deadline mode. */
	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE)
		return;
	VLAPIC_REG(l, APIC_REG_TIMER_ICR) = val;
	if (!val) {
		timer_stop(l);
		return;
	}
	l->timer_period = ticks_to_tsc(l,
				       (u64)val * timer_divisor(VLAPIC_REG(l, APIC_REG_TIMER_DCR)));
	if (!l->timer_period)
		l->timer_period = 1;
	if (timer_mode(l) == APIC_TIMER_PERIODIC)
		l->timer_period = MAX(l->timer_period, min_period(l));
	l->timer_deadline = sat_add(now, l->timer_period);
}

/* A write the mode's rules let through (vlapic_wrmsr, vlapic_mmio_write checked or
 * trimmed val). The registers that exist in one mode only come here only in it. */
static void write_register(struct vlapic *l, u32 reg, u64 val, u64 now)
{
	int idx = lvt_index(reg);

	if (idx >= 0) {
		write_lvt(l, idx, (u32)val);
		return;
	}
	switch (reg) {
	case APIC_REG_TPR:
		vlapic_set_tpr(l, (u32)val);
		break;
	case APIC_REG_EOI:
		vlapic_eoi(l);
		break;
	case APIC_REG_LDR:
	case APIC_REG_DFR:
		__atomic_store_n(&VLAPIC_REG(l, reg), (u32)val, __ATOMIC_RELAXED);
		break;
	case APIC_REG_SVR:
		__atomic_store_n(&VLAPIC_REG(l, APIC_REG_SVR), (u32)val, __ATOMIC_RELAXED);
		/* SDM 11.4.7.2: software disable sets every LVT mask bit. */
		if (!(val & APIC_SVR_ENABLE))
			for (int i = 0; i < VLAPIC_NR_LVT; i++)
				VLAPIC_REG(l, APIC_REG_LVT(i)) |= APIC_LVT_MASKED;
		break;
	case APIC_REG_ESR:
		/* A write latches the errors since the last one (SDM 11.5.3). */
		VLAPIC_REG(l, APIC_REG_ESR) = l->esr_pending;
		l->esr_pending = 0;
		break;
	case APIC_REG_ICR_LO:
		VLAPIC_REG(l, APIC_REG_ICR_LO) = (u32)val;
		if (vlapic_x2apic_mode(l)) {
			VLAPIC_REG(l, APIC_REG_ICR_HI) = (u32)(val >> 32);
			send_icr(l, (u32)val, (u32)(val >> 32));
		} else {
			u32 dest = VLAPIC_REG(l, APIC_REG_ICR_HI) >> 24;
			send_icr(l, (u32)val, dest == APIC_XAPIC_BROADCAST ? APIC_BROADCAST : dest);
		}
		break;
	case APIC_REG_ICR_HI:
		VLAPIC_REG(l, APIC_REG_ICR_HI) = (u32)val;
		break;
	case APIC_REG_TIMER_ICR:
		write_timer_icr(l, (u32)val, now);
		break;
	case APIC_REG_TIMER_DCR:
		/* Takes effect at the next initial-count write. */
		VLAPIC_REG(l, APIC_REG_TIMER_DCR) = (u32)val;
		break;
	case APIC_REG_SELF_IPI:
		if (val < 16) {
			set_error(l, APIC_ESR_RECV_ILLEGAL_VECTOR);
			break;
		}
		l->self_ipis++;
		vlapic_accept(l, (u8)val, false);
		break;
	}
}

int vlapic_rdmsr(struct vlapic *l, u32 msr, u64 *val, u64 now)
{
	if (msr == MSR_IA32_APIC_BASE) {
		*val = l->apic_base;
		return 0;
	}
	if (msr == MSR_IA32_TSC_DEADLINE) {
		*val = timer_mode(l) == APIC_TIMER_TSC_DEADLINE ? l->tsc_deadline_msr : 0;
		return 0;
	}
	if (msr < MSR_X2APIC_FIRST || msr > MSR_X2APIC_LAST || !vlapic_x2apic_mode(l))
		return -1;
	return read_register(l, (msr - MSR_X2APIC_FIRST) << 4 /* SDM 11.12.1.2 */, now, val) ? 0
											     : -1;
}

/* Whether an x2APIC MSR write is valid (SDM 11.12.1.3: reserved bits, bits 63:32 of
 * every register but the ICR, non-zero EOI and ESR writes, read-only registers #GP). */
static bool x2apic_write_ok(u32 reg, u64 val)
{
	int idx = lvt_index(reg);

	if (reg == APIC_REG_ICR_LO)
		return !(val & ICR_RSVD);
	if (val >> 32)
		return false;
	if (idx >= 0)
		/* Timer mode 11b is reserved (SDM Figure 11-8). */
		return !(val & ~(u64)(lvt_writable[idx] | LVT_RO)) &&
		       !(idx == VLAPIC_LVT_TIMER && APIC_LVT_TIMER_MODE(val) == 3);
	switch (reg) {
	case APIC_REG_TPR:
	case APIC_REG_SELF_IPI:
		return !(val & ~0xffull);
	case APIC_REG_EOI:
	case APIC_REG_ESR: /* Table 11-6 */
		return !val;
	case APIC_REG_SVR:
		return !(val & ~(u64)SVR_WRITABLE);
	case APIC_REG_TIMER_ICR:
		return true;
	case APIC_REG_TIMER_DCR:
		return !(val & ~0xbull);
	default: /* read-only (ID, version, PPR, LDR, ISR/TMR/IRR, CCR) or absent */
		return false;
	}
}

int vlapic_wrmsr(struct vlapic *l, u32 msr, u64 val, u64 now)
{
	if (msr == MSR_IA32_APIC_BASE)
		return write_apic_base(l, val);
	if (msr == MSR_IA32_TSC_DEADLINE) {
		/* SDM 11.5.4.1: ignored outside TSC-deadline mode; 0 disarms. */
		if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE) {
			l->tsc_deadline_msr = val;
			l->timer_deadline = host_deadline(l, val, now);
			l->timer_period = 0;
		}
		return 0;
	}
	if (msr < MSR_X2APIC_FIRST || msr > MSR_X2APIC_LAST || !vlapic_x2apic_mode(l))
		return -1;
	u32 reg = (msr - MSR_X2APIC_FIRST) << 4; /* SDM 11.12.1.2 */
	if (!x2apic_write_ok(reg, val))
		return -1;
	write_register(l, reg, val, now);
	return 0;
}

bool vlapic_mmio_claims(const struct vlapic *l, u64 gpa)
{
	u64 base = __atomic_load_n(&l->apic_base, __ATOMIC_RELAXED);
	return (base & (APIC_BASE_EN | APIC_BASE_EXTD)) == APIC_BASE_EN &&
	       (gpa & APIC_BASE_ADDR) == (base & APIC_BASE_ADDR);
}

u64 vlapic_mmio_read(struct vlapic *l, u32 off, u32 size, u64 now)
{
	u32 at = off & 0xf;
	u64 val;

	if (at + size > 4 || !read_register(l, off & 0xff0, now, &val))
		return 0;
	return (val >> (at * 8)) & (size == 4 ? 0xffffffffull : (1ull << (size * 8)) - 1);
}

/* xAPIC writes keep what the register can hold (SDM 11.4.1 and the register figures). */
void vlapic_mmio_write(struct vlapic *l, u32 off, u32 size, u64 val, u64 now)
{
	u32 reg = off & 0xff0, v = (u32)val;
	int idx = lvt_index(reg);

	if (size != 4 || (off & 0xf))
		return;
	if (idx >= 0) {
		if (idx == VLAPIC_LVT_TIMER && APIC_LVT_TIMER_MODE(v) == 3)
			return;
		write_register(l, reg, v, now); /* write_lvt keeps the writable bits */
		return;
	}
	switch (reg) {
	case APIC_REG_TPR:
		v &= 0xff;
		break;
	case APIC_REG_LDR:
		v &= XAPIC_LDR_MASK;
		break;
	case APIC_REG_DFR:
		v |= XAPIC_DFR_RSVD;
		break;
	case APIC_REG_SVR:
		v &= SVR_WRITABLE;
		break;
	case APIC_REG_ICR_LO:
		v &= ~(u32)ICR_RSVD;
		break;
	case APIC_REG_ICR_HI:
		v &= 0xff000000u;
		break;
	case APIC_REG_TIMER_DCR:
		v &= 0xb;
		break;
	case APIC_REG_EOI:
	case APIC_REG_ESR:
	case APIC_REG_TIMER_ICR:
		break;
	default: /* ID (see vlapic.h), read-only, SELF IPI (x2APIC only) or absent */
		return;
	}
	write_register(l, reg, v, now);
}
