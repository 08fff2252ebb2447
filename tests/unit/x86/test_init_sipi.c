/* SPDX-License-Identifier: GPL-2.0-only */
/* INIT and STARTUP on x86 vCPUs (arch/x86/vm.c arch_vcpu_poll, as virq.c leaves them in
 * init_pending / sipi_vector): an AP waits for a STARTUP after an INIT; the BSP restarts
 * at the reset vector, as on a PC (SDM vol. 3A 9.1 and 9.4) and under KVM; a STARTUP
 * reaches only a vCPU that waits for one. The real virtual APIC; the vendor (vendor.h)
 * stubbed. */
#include "../../../arch/x86/vm.c"
#include "../../../arch/x86/irq/vlapic.c"
#include "../test.h"

/* ---- stubs: what arch/x86/vm.c calls besides ---- */

u64 arch_time_hz = 1000000000;

void x86_vm_irq_init(struct vm *vm) { (void)vm; }
void x86_platform_init(struct vm *vm) { (void)vm; }
int x86_exit_port_init(struct vm *vm, const struct vm_config *cfg)
{
	(void)vm, (void)cfg;
	return 0;
}
int x86_kernel_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		    struct x86_boot *boot)
{
	return (void)vm, (void)cfg, (void)img, (void)boot, 0;
}
void x86_vcpu_irq_init(struct vcpu *v) { (void)v; }
void x86_msr_vcpu_init(struct vcpu *v) { (void)v; }
size_t x86_fetch_insn(struct vcpu *v, u8 *buf, size_t want)
{
	return (void)v, (void)buf, (void)want, 0;
}

/* Where each vCPU runs from, as the stub vendor keeps it. */
static struct {
	u16 cs;
	u64 base, rip;
	bool real_mode;
} where[2];
static int sipis; /* vcpu_reset calls */

static void reset(struct vcpu *v, u16 cs_sel, u64 cs_base, u64 rip)
{
	sipis++;
	where[v->id].cs = cs_sel, where[v->id].base = cs_base, where[v->id].rip = rip;
	where[v->id].real_mode = true;
}
static bool interruptible(struct vcpu *v) { return (void)v, true; }
static const struct x86_vendor stub = { .vcpu_reset = reset, .interruptible = interruptible };
const struct x86_vendor *x86_vendor = &stub;

static int printed;
void printk(const char *fmt, ...)
{
	(void)fmt;
	printed++;
}

/* ---- the machine: one VM, vCPU 0 the BSP ---- */

static struct vm vm;
static struct vcpu vcpus[2];
static u32 apic_pages[2][1024] __attribute__((aligned(4096)));

static const struct vlapic_ops no_ops;

static void machine(void)
{
	memset(&vm, 0, sizeof vm);
	memset(vcpus, 0, sizeof vcpus);
	memset(where, 0, sizeof where);
	sipis = printed = 0;
	strcpy(vm.name, "t");
	vm.nvcpus = 2;
	for (u32 i = 0; i < 2; i++) {
		struct vcpu *v = &vcpus[i];
		v->vm = &vm;
		v->id = i;
		v->state = i == 0 ? VCPU_RUNNABLE : VCPU_WAIT_START;
		v->arch.sipi_vector = -1;
		vlapic_init(&v->arch.lapic, apic_pages[i], i, i == 0, 48, arch_time_hz, &no_ops, v);
		vm.vcpus[i] = v;
		/* Somewhere in 64-bit code, its APIC in use. */
		where[i].cs = 0x10;
		where[i].rip = 0xffffffff81000000ull;
		vlapic_set_tpr(&v->arch.lapic, 0x20);
		VLAPIC_REG(&v->arch.lapic, APIC_REG_SVR) = 0x1ff;
	}
}

/* As virq.c's deliver_one (APIC_DM_INIT, APIC_DM_STARTUP). */
static void init(struct vcpu *v)
{
	v->arch.sipi_vector = -1;
	v->arch.init_pending = true;
}
static void startup(struct vcpu *v, u8 vector) { v->arch.sipi_vector = vector; }

static void poll(struct vcpu *v) { arch_vcpu_poll(v, 0); }

/* Where v runs from: CS selector and base, RIP. */
static bool at(struct vcpu *v, u16 cs, u64 base, u64 rip)
{
	return where[v->id].cs == cs && where[v->id].base == base && where[v->id].rip == rip;
}

/* An AP that never ran waits for a STARTUP (as after RESET); a running one ignores a
 * STARTUP, and an INIT takes it back to waiting for one, its APIC reset. */
static void test_ap(void)
{
	machine();
	struct vcpu *ap = &vcpus[1];
	startup(ap, 0x9a);
	poll(ap);
	CHECK_EQ(ap->state, VCPU_RUNNABLE);
	CHECK(at(ap, 0x9a00, 0x9a000, 0));

	machine();
	ap->state = VCPU_RUNNABLE; /* running Linux */
	startup(ap, 0x9a);
	poll(ap);
	CHECK_EQ(sipis, 0); /* ignored: it does not wait for one */
	CHECK(at(ap, 0x10, 0, 0xffffffff81000000ull));
	init(ap);
	poll(ap);
	CHECK_EQ(ap->state, VCPU_WAIT_START);
	CHECK_EQ(vlapic_tpr(&ap->arch.lapic), 0); /* its APIC reset */
	CHECK_EQ(VLAPIC_REG(&ap->arch.lapic, APIC_REG_SVR), 0xff);
	startup(ap, 0x9a);
	poll(ap);
	CHECK_EQ(ap->state, VCPU_RUNNABLE);
	CHECK_EQ(sipis, 1);
	CHECK(at(ap, 0x9a00, 0x9a000, 0));
	CHECK_EQ(printed, 0);
	CHECK_EQ(vcpus[0].state, VCPU_RUNNABLE); /* the BSP was not touched */
	CHECK_EQ(vlapic_tpr(&vcpus[0].arch.lapic), 0x20);
}

/* INIT to the BSP, running or halted: its APIC and registers reset, it runs on from the
 * reset vector (not waiting for a STARTUP, which it then ignores). It used to be ignored. */
static void test_bsp(void)
{
	static const enum vcpu_state before[] = { VCPU_RUNNABLE, VCPU_HALTED };
	for (u32 i = 0; i < ARRAY_SIZE(before); i++) {
		machine();
		struct vcpu *bsp = &vcpus[0];
		bsp->state = before[i];
		init(bsp);
		poll(bsp);
		CHECK_EQ(bsp->state, VCPU_RUNNABLE);
		CHECK_EQ(sipis, 1);
		CHECK(at(bsp, 0xf000, 0xffff0000, 0xfff0));
		CHECK(where[0].real_mode);
		CHECK_EQ(vlapic_tpr(&bsp->arch.lapic), 0);
		CHECK_EQ(VLAPIC_REG(&bsp->arch.lapic, APIC_REG_SVR), 0xff);
		CHECK(bsp->arch.lapic.apic_base & APIC_BASE_BSP);
		CHECK_EQ(printed, 1); /* says where it went */
		startup(bsp, 0x9a);
		poll(bsp);
		CHECK_EQ(sipis, 1);
		CHECK(at(bsp, 0xf000, 0xffff0000, 0xfff0));
		CHECK_EQ(vcpus[1].state, VCPU_WAIT_START);
	}
}

int main(void)
{
	test_ap();
	test_bsp();
	return test_summary();
}
