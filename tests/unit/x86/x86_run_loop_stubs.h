/* SPDX-License-Identifier: GPL-2.0-only */
/* What the shared x86 run loop and exit handlers (arch/x86/vcpu.c) call besides the vendor,
 * stubbed for the tests that drive it (test_svm_exits, test_vmx_exits): bad accesses and
 * stops counted, the last bus access kept, MSRs reaching the real vLAPIC. Each test stubs
 * the scheduler's spin and section hooks itself. */
#ifndef TESTS_UNIT_X86_RUN_LOOP_STUBS_H
#define TESTS_UNIT_X86_RUN_LOOP_STUBS_H

static int bad_accesses;
void vcpu_bad_access(struct vcpu *v, const char *fmt, ...)
{
	(void)v, (void)fmt;
	bad_accesses++;
}
static int stops;
bool vm_request_stop(struct vm *vm, enum vm_stop_reason r)
{
	(void)vm, (void)r;
	return !stops++;
}
bool vm_stopping(const struct vm *vm) { return (void)vm, false; }
static struct { /* the last bus access */
	u64 addr, val;
	unsigned size;
	bool write;
	int n;
} bus;
bool iobus_access(struct iobus *b, enum io_space s, u64 addr, unsigned size, bool write, u64 *val)
{
	(void)b, (void)s;
	if (!write)
		*val = ~0ull; /* nothing there */
	bus.addr = addr, bus.size = size, bus.write = write, bus.val = *val, bus.n++;
	return false;
}
bool sched_enter_guest(struct vcpu *v) { return (void)v, true; }
void sched_left_guest(struct vcpu *v) { (void)v; }
void steal_time_enter(struct vcpu *v) { (void)v; }
void steal_time_preempted(struct vcpu *v) { (void)v; }
void pv_eoi_enter(struct vcpu *v) { (void)v; }
void pv_eoi_exit(struct vcpu *v) { (void)v; }
void x86_cpuid(struct vcpu *v, u32 leaf, u32 sub, u32 r[4])
{
	(void)v, (void)leaf, (void)sub, memset(r, 0, 16);
}
int x86_rdmsr(struct vcpu *v, u32 msr, u64 *val)
{
	return vlapic_rdmsr(&v->arch.lapic, msr, val, 0);
}
int x86_wrmsr(struct vcpu *v, u32 msr, u64 val)
{
	return vlapic_wrmsr(&v->arch.lapic, msr, val, 0);
}
void x86_hypercall(struct vcpu *v) { (void)v; }
void arch_vcpu_describe(struct vcpu *v, char *buf, size_t n) { (void)v, snprintf(buf, n, "-"); }
void xstate_vcpu_init(struct vcpu *v) { v->arch.xcr0 = XCR0_X87; }
void xstate_vcpu_reset(struct vcpu *v) { v->arch.xcr0 = XCR0_X87; }
void xstate_load(struct vcpu *v) { (void)v; }
void xstate_put(struct vcpu *v) { (void)v; }
struct x86_speculation x86_speculation;
static int l1d_flushes; /* entries the run loop would flush the L1D before */
void x86_speculation_before_entry(void) { l1d_flushes++; }

#endif
