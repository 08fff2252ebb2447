/* SPDX-License-Identifier: GPL-2.0-only */
/* The choice of hardware virtualization (see virt_probe.h). Each extension is a row of
 * `exts`: the vendors whose CPUs have it, its CPUID flag, and how to read whether the
 * firmware left it on. A CPU of another vendor never has its MSRs read: on an Intel CPU
 * AMD's VM_CR (0xC0010114) does not exist and RDMSR of it raises #GP, and CPUID leaf
 * 8000_000Ah is not SVM's there. */
#include "arch/x86/virt_probe.h"
#include "arch/x86/cpuid_policy.h"
#include "arch/cpu.h"
#include "hv/lib.h"

#define VM_CR_SVMDIS BIT(4)
#define CPUID_SVM_LOCK BIT(2) /* CPUID 8000_000Ah EDX: SVM-Lock (SVML) */

enum { EAX, EBX, ECX, EDX };

/* AMD APM vol. 2, 15.4 "Enabling SVM": with VM_CR.SVMDIS set, EFER.SVME cannot be set;
 * without SVM-Lock the firmware's setup is the way back, with it a key may unlock it. */
static int svm_firmware(cpuid_fn host, rdmsr_fn read_msr, char *why, size_t n)
{
	if (!(read_msr(MSR_VM_CR) & VM_CR_SVMDIS))
		return 0;
	if (cpuid_has(host, 0x8000000A, EDX, CPUID_SVM_LOCK))
		snprintf(why, n,
			 "SVM is disabled by the firmware and locked (VM_CR.SVMDIS, SVM-Lock): "
			 "enable virtualization (SVM) in the firmware setup (AMD APM vol. 2, "
			 "15.4)");
	else
		snprintf(why, n,
			 "SVM is disabled by the firmware (VM_CR.SVMDIS): enable virtualization "
			 "(SVM) in the firmware setup");
	return -1;
}

static const struct virt_ext {
	enum x86_virt virt;
	const char *name;
	const char *vendors[2]; /* CPUID 0 vendor strings of the CPUs that have it */
	u32 leaf, bit;		/* its CPUID flag: leaf, ECX bit */
	const char *flag;	/* that flag as the manual names it */
	/* 0 when the firmware left it usable, else -1 and the reason; NULL: no check. */
	int (*firmware)(cpuid_fn host, rdmsr_fn read_msr, char *why, size_t n);
} exts[] = {
	{ X86_VIRT_SVM,
	  "SVM",
	  { "AuthenticAMD", "HygonGenuine" },
	  0x80000001,
	  BIT(2),
	  "CPUID 8000_0001h ECX[2]",
	  svm_firmware },
	{ X86_VIRT_VMX, "VMX", { "GenuineIntel" }, 1, BIT(5), "CPUID 1 ECX[5]", NULL },
};

static const struct virt_ext *ext_of(const char *vendor)
{
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		for (size_t v = 0; v < ARRAY_SIZE(exts[i].vendors); v++)
			if (exts[i].vendors[v] && !strcmp(exts[i].vendors[v], vendor))
				return &exts[i];
	return NULL;
}

/* CPUID 8000_0002h-8000_0004h, 16 characters each, without blanks around it. */
static void read_brand(cpuid_fn host, char brand[49])
{
	u32 r[4];
	brand[0] = 0;
	host(0x80000000, 0, r);
	if (r[EAX] < 0x80000004 || r[EAX] > 0x8000FFFF)
		return;
	for (u32 i = 0; i < 3; i++) {
		host(0x80000002 + i, 0, r);
		memcpy(brand + 16 * i, r, 16);
	}
	brand[48] = 0;
	size_t skip = 0;
	while (brand[skip] == ' ')
		skip++;
	size_t len = strlen(brand + skip);
	while (len && brand[skip + len - 1] == ' ')
		len--;
	memmove(brand, brand + skip, len);
	brand[len] = 0;
}

/* Appends to the NUL-terminated text in buf[n]. */
static void add(char *buf, size_t n, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void add(char *buf, size_t n, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, n - used, fmt, ap);
	va_end(ap);
}

/* " SVM (AuthenticAMD, HygonGenuine)" for each extension in the set `which`. */
static void add_exts(char *buf, size_t n, u32 which, const char *sep)
{
	const char *s = "";
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		if (!(which & BIT(exts[i].virt)))
			continue;
		add(buf, n, "%s%s (", s, exts[i].name);
		for (size_t v = 0; v < ARRAY_SIZE(exts[i].vendors) && exts[i].vendors[v]; v++)
			add(buf, n, "%s%s", v ? ", " : "", exts[i].vendors[v]);
		add(buf, n, ")");
		s = sep;
	}
}

void x86_virt_probe(cpuid_fn host, rdmsr_fn read_msr, u32 built, struct x86_virt_probe *out)
{
	u32 r[4];
	host(0, 0, r);
	memcpy(out->vendor, &r[EBX], 4), memcpy(out->vendor + 4, &r[EDX], 4);
	memcpy(out->vendor + 8, &r[ECX], 4);
	out->vendor[12] = 0;
	read_brand(host, out->brand);
	out->virt = X86_VIRT_NONE;

	const struct virt_ext *e = ext_of(out->vendor);
	char *w = out->why;
	size_t n = sizeof out->why;
	snprintf(w, n, "CPU %s", out->vendor);
	if (!e) {
		add(w, n, ": a vendor this hypervisor does not know; it knows ");
		add_exts(w, n, ~0u, " and ");
		return;
	}
	if (!cpuid_has(host, e->leaf, ECX, e->bit)) {
		add(w, n,
		    " has no %s (%s clear): it cannot run guests (a virtual machine must pass %s "
		    "on to it)",
		    e->name, e->flag, e->name);
		return;
	}
	if (!(built & BIT(e->virt))) {
		add(w, n, " with %s: the %s backend is not built yet (issue 8); this hv.efi has ",
		    e->name, e->name);
		add_exts(w, n, built, " and ");
		return;
	}
	if (e->firmware) {
		add(w, n, ": ");
		size_t used = strlen(w);
		if (e->firmware(host, read_msr, w + used, n - used))
			return;
	}
	out->virt = e->virt;
	out->why[0] = 0;
}
