/* SPDX-License-Identifier: GPL-2.0-only */
/* What a vCPU takes at its next entry: the one x86 injection policy (as KVM keeps it in
 * kvm_check_and_inject_events), over the vendor's event mechanisms (vendor.h, "events").
 * In order: an exception the exit's handler raised goes first, and an event whose delivery
 * the exit cut short waits again; else that cut-short event is delivered again as it was;
 * else a pending NMI where NMIs are not blocked; else, unless the CPU delivers the vLAPIC's
 * interrupts itself (AVIC, APICv), its highest pending interrupt where the guest can take
 * one. What cannot go in now asks for a window: an exit as soon as it can. */
#ifndef ARCH_X86_INJECT_H
#define ARCH_X86_INJECT_H

#include "hv/vm.h"

/* Before an entry; section_end: the scheduler wants an exit as soon as the guest can take
 * an interrupt (hv/sched.h, sched_watch_section_end). */
void x86_inject_events(struct vcpu *v, bool section_end);

#endif
