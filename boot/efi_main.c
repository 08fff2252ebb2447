/* UEFI entry point. Everything that can fail because of the configuration or an image
 * is checked while the firmware still owns the machine, and reported with the file,
 * line and reason before returning to the firmware. Only then are boot services left,
 * every pCPU started, and the VMs run. */
#include "boot/config.h"
#include "boot/efi.h"
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/pcpu.h"
#include "drivers/acpi.h"
#include "drivers/uart.h"
#include "hv/arch.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/pv_features.h"
#include "hv/pvclock.h"
#include "hv/sched.h"
#include "hv/vm.h"

#define CONFIG_FILE "hv.cfg"
#define HV_POOL_BYTES (64 * MiB)

static struct hv_config cfg;
static u32 apic_ids[MAX_PCPUS];
static volatile bool aps_go;

static void uart_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

static void print_banner(u32 ncpus)
{
	u32 a, b, c, d;
	char vendor[13];
	cpuid(0, 0, &a, &b, &c, &d);
	memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	printk("hv %s (x86_64, AMD SVM backend)\n", HV_VERSION);
	printk("hv: CPU %s; SVM rev %u, %u ASIDs; NPT%s%s%s%s%s\n", vendor, a & 0xFF, b,
	       d & BIT(3) ? " NRIP-save" : "", d & BIT(5) ? " VMCB-clean" : "",
	       d & BIT(7) ? " decode-assists" : "", d & BIT(13) ? " AVIC" : "", d & BIT(18) ? " x2AVIC" : "");
	printk("hv: %u pCPUs (ACPI MADT), %llu MiB RAM, TSC %llu MHz\n", ncpus,
	       (unsigned long long)(efi_ram_bytes() >> 20), (unsigned long long)(x86_tsc_hz() / 1000000));
}

static EFI_STATUS fail(const char *what)
{
	printk("hv: %s\nhv: nothing was started; returning to the firmware\n", what);
	return EFI_LOAD_ERROR;
}

static void *load_file(const char *path, u64 *len)
{
	const char *why = "";
	void *p = efi_read_file(path, len, &why);
	if (!p)
		printk("hv: %s: %s\n", path, why);
	return p;
}

static int create_vms(void)
{
	for (u32 i = 0; i < cfg.nvms; i++) {
		struct vm_config *vc = &cfg.vms[i];
		struct guest_images img = { 0 };
		if (!(img.kernel = load_file(vc->kernel, &img.kernel_len)))
			goto bad;
		if (vc->initrd[0] && !(img.initrd = load_file(vc->initrd, &img.initrd_len)))
			goto bad;
		/* 2 MiB aligned so nested paging can use large pages. */
		u8 *ram = efi_alloc_pages(vc->memory / PAGE_SIZE + 512, 0);
		if (!ram) {
			printk("hv: " CONFIG_FILE ":%d: cannot get %llu MiB of RAM for VM '%s'\n", vc->line,
			       (unsigned long long)(vc->memory >> 20), vc->name);
			goto bad;
		}
		ram = (u8 *)ALIGN_UP((u64)(uintptr_t)ram, 2 * MiB);
		memset(ram, 0, vc->memory); /* nothing of the firmware's leaks into the guest */
		struct vm *vm = vm_create(i, vc, ram, &img);
		if (!vm)
			goto bad;
		char pv[64];
		pv_features_format(vm->pv, pv, sizeof pv);
		printk("hv: VM '%s': %u vCPUs, %llu MiB, kernel %s (%llu KiB), initrd %s (%llu KiB), pv %s\n",
		       vm->name, vm->nvcpus, (unsigned long long)(vm->ram_size >> 20), vc->kernel,
		       (unsigned long long)(img.kernel_len >> 10), vc->initrd[0] ? vc->initrd : "none",
		       (unsigned long long)(img.initrd_len >> 10), pv);
		efi_free((void *)img.kernel);
		if (img.initrd)
			efi_free((void *)img.initrd);
		continue;
bad:
		printk("hv: " CONFIG_FILE ":%d: VM '%s' cannot be created\n", vc->line, vc->name);
		return -1;
	}
	return 0;
}

static void ap_main(u32 id)
{
	while (!__atomic_load_n(&aps_go, __ATOMIC_ACQUIRE))
		cpu_relax();
	(void)id;
	sched_loop();
}

/* gnu-efi's crt0 calls this with the System V convention after relocating us. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	efi_image = image;
	efi_st = st;
	console_set_sink(efi_console_write);
	x86_calibrate(efi_stall_us);
	wallclock_set(efi_unix_time_ns(), arch_time_now());

	const char *why = "";
	int ncpus = acpi_madt_cpus(efi_acpi_rsdp(), apic_ids, MAX_PCPUS, &why);
	print_banner(ncpus > 0 ? (u32)ncpus : 0);
	if (ncpus < 0)
		return fail(why);
	if (svm_check_support(&why))
		return fail(why);

	u64 len;
	char *text = load_file(CONFIG_FILE, &len);
	if (!text)
		return fail("no configuration");
	struct cfg_error err;
	if (config_parse(text, len, &cfg, &err)) {
		printk("hv: " CONFIG_FILE ":%d: %s\n", err.line, err.msg);
		return fail("the configuration has an error");
	}
	efi_free(text);

	/* The boot CPU first, then the others as the MADT lists them, up to `pcpus`. */
	u32 bsp = x86_lapic_id();
	for (int i = 0; i < ncpus; i++)
		if (apic_ids[i] == bsp) {
			apic_ids[i] = apic_ids[0];
			apic_ids[0] = bsp;
		}
	sched_init(cfg.pcpus && cfg.pcpus < (u32)ncpus ? cfg.pcpus : (u32)ncpus);

	void *pool = efi_alloc_pages(HV_POOL_BYTES / PAGE_SIZE, 0);
	void *tramp = efi_alloc_pages(1, 0x9F000);
	if (!pool || !tramp)
		return fail("cannot reserve the hypervisor's memory");
	mem_init((u64)(uintptr_t)pool, HV_POOL_BYTES);
	if (create_vms())
		return fail("a VM could not be created");
	if (cfg.console[0])
		console_focus(cfg.console);

	printk("hv: taking over the machine (ExitBootServices); console continues on COM1\n");
	if (!efi_exit_boot_services())
		return fail("the firmware refused ExitBootServices");
	irq_disable();
	uart_init();
	console_set_sink(uart_write);
	x86_pcpu_init(0, bsp);
	u32 up = x86_start_aps(apic_ids, npcpus, (u64)(uintptr_t)tramp, ap_main);
	printk("hv: %u of %u pCPUs running; starting %u VM%s (Ctrl-T moves console input to the next VM)\n",
	       up, npcpus, cfg.nvms, cfg.nvms == 1 ? "" : "s");
	if (up < npcpus) {
		printk("hv: FATAL: vCPUs were placed on pCPUs that did not start\n");
		arch_power_off();
	}
	__atomic_store_n(&aps_go, true, __ATOMIC_RELEASE);
	sched_loop();
}
