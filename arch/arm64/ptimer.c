/* SPDX-License-Identifier: GPL-2.0-only */
/* The EL1 physical timer's registers (ptimer.h). CNTP_TVAL_EL0 is a signed 32-bit view
 * of CVAL - the count; ISTATUS is whether the condition holds, whatever IMASK says. */
#include "arch/arm64/ptimer.h"
#include "arch/arm64/esr.h"

#define CTL_ENABLE BIT(0)
#define CTL_IMASK BIT(1)
#define CTL_ISTATUS BIT(2)
#define SYSREG_CNTP_TVAL_EL0 ESR_SYSREG(3, 3, 14, 2, 0)
#define SYSREG_CNTP_CTL_EL0 ESR_SYSREG(3, 3, 14, 2, 1)
#define SYSREG_CNTP_CVAL_EL0 ESR_SYSREG(3, 3, 14, 2, 2)

static bool condition(const struct ptimer *t, u64 now)
{
	return (t->ctl & CTL_ENABLE) && now >= t->cval;
}

bool ptimer_access(struct ptimer *t, u32 sysreg, bool read, u64 *val, u64 now)
{
	switch (sysreg) {
	case SYSREG_CNTP_CTL_EL0:
		if (read)
			*val = t->ctl | (condition(t, now) ? CTL_ISTATUS : 0);
		else
			t->ctl = *val & (CTL_ENABLE | CTL_IMASK);
		return true;
	case SYSREG_CNTP_CVAL_EL0:
		if (read)
			*val = t->cval;
		else
			t->cval = *val;
		return true;
	case SYSREG_CNTP_TVAL_EL0:
		if (read)
			*val = (u64)(s64)(s32)(u32)(t->cval - now);
		else
			t->cval = now + (u64)(s64)(s32)(u32)*val;
		return true;
	}
	return false;
}

bool ptimer_line(const struct ptimer *t, u64 now)
{
	return condition(t, now) && !(t->ctl & CTL_IMASK);
}

u64 ptimer_deadline(const struct ptimer *t, u64 now)
{
	/* Off, masked, or due already (then the line is high and stays so until the guest
	 * acts, which it does through a trap). */
	if ((t->ctl & (CTL_ENABLE | CTL_IMASK)) != CTL_ENABLE || now >= t->cval)
		return 0;
	return t->cval;
}
