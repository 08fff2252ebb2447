/* SPDX-License-Identifier: GPL-2.0-only */
/* See lib.h. */
#include <stdarg.h>
#include "lib.h"

#define COM1 0x3f8

struct gate {
	u16 off_lo, sel;
	u8 zero, type;
	u16 off_hi;
} __attribute__((packed));
static struct gate idt[256];
struct {
	u16 limit;
	u32 base;
} __attribute__((packed)) idt_desc = { sizeof idt - 1, (u32)idt };
extern const u32 stubs[256];
static void (*handlers[256])(struct frame *f);
static int print_lock;

void *memcpy(void *d, const void *s, u32 n)
{
	for (u32 i = 0; i < n; i++)
		((u8 *)d)[i] = ((const u8 *)s)[i];
	return d;
}

int memcmp(const void *a, const void *b, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (((const u8 *)a)[i] != ((const u8 *)b)[i])
			return ((const u8 *)a)[i] - ((const u8 *)b)[i];
	return 0;
}

static void putc(char c)
{
	while (!(inb(COM1 + 5) & 0x20)) /* LSR: transmitter holding register empty */
		;
	outb(COM1, (u8)c);
}

static void put_num(u32 v, unsigned base)
{
	char buf[24];
	int n = 0;
	do
		buf[n++] = "0123456789abcdef"[v % base];
	while (v /= base);
	while (n)
		putc(buf[--n]);
}

/* %u, %x (32 bits), %s, %c: what the guests print. */
void print(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	while (__atomic_exchange_n(&print_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			putc(*p);
			continue;
		}
		p++;
		if (*p == 's')
			for (const char *s = va_arg(ap, const char *); *s; s++)
				putc(*s);
		else if (*p == 'c')
			putc((char)va_arg(ap, int));
		else
			put_num(va_arg(ap, u32), *p == 'x' ? 16 : 10);
	}
	__atomic_store_n(&print_lock, 0, __ATOMIC_RELEASE);
	va_end(ap);
}

long hypercall(u32 nr, u32 a0, u32 a1, u32 a2, u32 a3)
{
	static int intel = -1;
	long ret;
	if (intel < 0) {
		u32 r[4];
		cpuid(0, r);
		intel = r[1] == 0x756e6547; /* "Genu" */
	}
	if (intel)
		asm volatile("vmcall"
			     : "=a"(ret)
			     : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3)
			     : "memory");
	else
		asm volatile("vmmcall"
			     : "=a"(ret)
			     : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3)
			     : "memory");
	return ret;
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		idt[v] = (struct gate){ (u16)stubs[v], 0x08, 0, 0x8e, (u16)(stubs[v] >> 16) };
}

void set_handler(u8 v, void (*fn)(struct frame *f)) { handlers[v] = fn; }

void trap(struct frame *f);
void trap(struct frame *f)
{
	if (handlers[f->vector]) {
		handlers[f->vector](f);
		return;
	}
	print("X86TEST FAIL: vector %u (error %x) at eip %x\n", f->vector, f->error, f->eip);
	for (;;)
		asm volatile("cli; hlt");
}

u32 x2apic_enable(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_EN | APIC_BASE_EXTD);
	wrmsr(X2APIC_SVR, 0x1ff);
	return (u32)rdmsr(X2APIC_ID);
}

/* The ACPI table with that signature in the RSDT or XSDT, or 0. */
static u32 acpi_table(u32 rsdp, const char *sig)
{
	const u8 *r = (const u8 *)rsdp;
	bool x = r[15] >= 2; /* revision 2: the XSDT */
	const u8 *sdt = (const u8 *)(x ? *(const u32 *)(r + 24) : *(const u32 *)(r + 16));
	u32 n = (*(const u32 *)(sdt + 4) - 36) / (x ? 8 : 4);
	for (u32 i = 0; i < n; i++) {
		u32 t = *(const u32 *)(sdt + 36 + i * (x ? 8 : 4));
		if (!memcmp((const void *)t, sig, 4))
			return t;
	}
	return 0;
}

void acpi_poweroff(const struct start_info *si)
{
	u32 fadt = acpi_table((u32)si->rsdp_paddr, "FACP");
	if (fadt) {
		u16 pm1a = (u16) * (const u32 *)(fadt + 64);
		const u8 *dsdt = (const u8 *)*(const u32 *)(fadt + 40);
		u32 len = *(const u32 *)(dsdt + 4);
		/* Name (_S5, Package () { SLP_TYPa, ... }) (ACPI 7.4.2): NameSeg, PackageOp,
		 * PkgLength (one byte here), NumElements, then a ByteConst or Zero/One. */
		for (u32 i = 36; i + 8 < len; i++)
			if (!memcmp(dsdt + i, "_S5_", 4) && dsdt[i + 4] == 0x12) {
				const u8 *e = dsdt + i + 7;
				u16 typ = *e == 0x0a ? e[1] : *e;
				outw(pm1a, (u16)(typ << 10 | 1u << 13)); /* SLP_TYP, SLP_EN */
			}
	}
	print("X86TEST FAIL: no ACPI power-off\n");
	for (;;)
		asm volatile("cli; hlt");
}
