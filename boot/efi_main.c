/* SPDX-License-Identifier: GPL-2.0-only */
/* UEFI entry point. Everything that can fail because of the configuration or an image
 * is checked while the firmware still owns the machine, and reported with the file,
 * line and reason before returning to the firmware. Only then are boot services left,
 * every pCPU started, and the VMs run. */
#include "boot/config.h"
#include "boot/efi.h"
#include "boot/files.h"
#include "drivers/uart.h"
#include "hv/arch.h"
#include "hv/arch_boot.h"
#include "hv/console.h"
#include "hv/gunzip.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/pv_features.h"
#include "hv/pvclock.h"
#include "hv/random.h"
#include "hv/sched.h"
#include "hv/selftest.h"
#include "hv/spinlock.h"
#include "hv/on_exit.h"
#include "hv/vm.h"
#include "net/telemetry/telemetry.h"

/* The configuration, in the root of the boot volume: this architecture's own file where
 * there is one (a USB stick that boots both architectures holds both), else hv.cfg. */
#define ARCH_CONFIG_FILE "hv-" HV_ARCH ".cfg"
#define CONFIG_FILE "hv.cfg"
#define HV_POOL_BYTES (64 * MiB)

const char *config_file = CONFIG_FILE;

static struct hv_config cfg;
static struct vm *vms[CFG_MAX_VMS];
static u64 cpu_ids[MAX_PCPUS];
static volatile bool aps_go;

static void uart_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

static EFI_STATUS fail(const char *what)
{
	printk("hv: %s\n", what);
	files_release();
	printk("hv: nothing was started; returning to the firmware\n");
	return EFI_LOAD_ERROR;
}

static void *load_file(const char *path, u64 *len)
{
	const char *why = "";
	void *p = files_read(path, len, &why);
	if (!p)
		printk("hv: %s: %s\n", path, why);
	return p;
}

/* ARCH_CONFIG_FILE, else CONFIG_FILE; where neither can be read, both reasons are given. */
static char *load_config(u64 *len)
{
	const char *why = "";
	char why_arch[200]; /* a reason may live in a buffer that the next read reuses */
	char *text = files_read(ARCH_CONFIG_FILE, len, &why);
	if (text) {
		config_file = ARCH_CONFIG_FILE;
		printk("hv: configuration: " ARCH_CONFIG_FILE "\n");
		return text;
	}
	strlcpy(why_arch, why, sizeof why_arch);
	text = files_read(CONFIG_FILE, len, &why);
	if (!text)
		printk("hv: %s: %s; %s: %s (both are looked for where hv.efi was loaded from: the "
		       "root of its volume, or its TFTP server)\n",
		       ARCH_CONFIG_FILE, why_arch, CONFIG_FILE, why);
	return text;
}

/* A gzip'd kernel (the vmlinuz of most arm64 distributions) is inflated here, where a bad
 * file can still be reported before the machine is taken over. */
static bool inflate_kernel(const char *path, struct guest_images *img)
{
	if (!gzip_is(img->kernel, img->kernel_len))
		return true;
	u64 size = gzip_size(img->kernel, img->kernel_len), got = 0;
	const char *why = "gzip: the trailer gives no size";
	u8 *out = size ? efi_alloc(size) : NULL;
	if (size && !out)
		why = "gzip: no memory for what its trailer says it inflates to";
	if (!out || gunzip(img->kernel, img->kernel_len, out, size, &got, &why)) {
		printk("hv: %s: %s\n", path, why);
		if (out)
			efi_free(out);
		return false;
	}
	printk("hv: %s: gzip, inflated %llu KiB to %llu KiB\n", path,
	       (unsigned long long)(img->kernel_len >> 10), (unsigned long long)(got >> 10));
	efi_free((void *)img->kernel);
	img->kernel = out;
	img->kernel_len = got;
	return true;
}

#define SELFTEST_KERNEL "(the built-in test guest)"

/* selftest = yes: the self-test's VMs (hv/selftest.h) in place of [vm] sections. */
static int selftest_configure(void)
{
	const struct selftest_vm *st = arch_selftest_vms();
	if (!st)
		return -1;
	for (; cfg.nvms < SELFTEST_MAX_VMS && st[cfg.nvms].name; cfg.nvms++) {
		struct vm_config *vc = &cfg.vms[cfg.nvms];
		*vc = (struct vm_config){ .vcpus = 2,
					  .memory = 16 * MiB,
					  .pv = PV_FEATURES_ALL,
					  .apicv_off = st[cfg.nvms].apicv_off,
					  .line = cfg.selftest_line };
		strlcpy(vc->name, st[cfg.nvms].name, sizeof vc->name);
		strlcpy(vc->kernel, SELFTEST_KERNEL, sizeof vc->kernel);
	}
	strlcpy(cfg.console, cfg.vms[0].name, sizeof cfg.console);
	printk("hv: self-test (%s:%d selftest = yes): %u VM%s of the built-in test guest, then a "
	       "table of what this CPU has and how it went\n",
	       config_file, cfg.selftest_line, cfg.nvms, cfg.nvms == 1 ? "" : "s");
	return 0;
}

/* The VM's kernel: its file, or the self-test's built-in guest (a copy, freed as a file). */
static bool load_kernel(const struct vm_config *vc, struct guest_images *img)
{
	if (!cfg.selftest)
		return (img->kernel = load_file(vc->kernel, &img->kernel_len)) &&
		       inflate_kernel(vc->kernel, img);
	const char *tag;
	const void *guest = arch_selftest_guest(&img->kernel_len, &tag);
	void *copy = efi_alloc(img->kernel_len);
	if (copy)
		memcpy(copy, guest, img->kernel_len);
	return (img->kernel = copy) != NULL;
}

static int create_vms(void)
{
	for (u32 i = 0; i < cfg.nvms; i++) {
		struct vm_config *vc = &cfg.vms[i];
		struct guest_images img = { 0 };
		if (!load_kernel(vc, &img))
			goto bad;
		for (; img.ninitrds < vc->ninitrds; img.ninitrds++) {
			struct guest_file *f = &img.initrd[img.ninitrds];
			if (!(f->data = load_file(vc->initrd[img.ninitrds], &f->len)))
				goto bad;
		}
		/* 2 MiB aligned so nested paging can use large pages. */
		u8 *ram = efi_alloc_pages(vc->memory / PAGE_SIZE + 512, 0);
		if (!ram) {
			printk("hv: %s:%d: cannot get %llu MiB of RAM for VM '%s'\n", config_file,
			       vc->line, (unsigned long long)(vc->memory >> 20), vc->name);
			goto bad;
		}
		ram = (u8 *)ALIGN_UP((u64)(uintptr_t)ram, 2 * MiB);
		memset(ram, 0, vc->memory); /* nothing of the firmware's leaks into the guest */
		struct vm *vm = vms[i] = vm_create(i, vc, ram, &img);
		if (!vm)
			goto bad;
		char pv[64];
		pv_features_format(vm->pv, pv, sizeof pv);
		char initrds[CFG_MAX_INITRDS * (CFG_PATH_MAX + 24)] = "none (0 KiB)";
		for (u32 k = 0, n = 0; k < img.ninitrds && n < sizeof initrds; k++)
			n += (u32)snprintf(initrds + n, sizeof initrds - n, "%s%s (%llu KiB)",
					   k ? ", " : "", vc->initrd[k],
					   (unsigned long long)(img.initrd[k].len >> 10));
		printk("hv: VM '%s': %u vCPUs, %llu MiB, kernel %s (%llu KiB), initrd %s, pv %s\n",
		       vm->name, vm->nvcpus, (unsigned long long)(vm->ram_size >> 20), vc->kernel,
		       (unsigned long long)(img.kernel_len >> 10), initrds, pv);
		efi_free((void *)img.kernel);
		for (u32 k = 0; k < img.ninitrds; k++)
			efi_free((void *)img.initrd[k].data);
		continue;
	bad:
		printk("hv: %s:%d: VM '%s' cannot be created\n", config_file, vc->line, vc->name);
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

/* gnu-efi's crt0 calls this (with the C convention of the target) after relocating us. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	efi_image = image;
	efi_st = st;
	printk_set_sink(efi_console_write);
	const char *why = "";
	const void *rsdp = efi_acpi_rsdp();
	int ncpus = arch_boot_probe(rsdp, cpu_ids, MAX_PCPUS, &why);
	if (ncpus < 0)
		return fail(why);
	wallclock_set(efi_unix_time_ns(), arch_time_now());
	/* Before the network boot's DHCP; the firmware's generator is gone after
	 * ExitBootServices. */
	random_init(efi_random);

	if (files_init(&why))
		return fail(why);
	u64 len;
	char *text = load_config(&len);
	if (!text)
		return fail("no configuration");
	struct cfg_error err;
	if (config_parse(text, len, &cfg, &err)) {
		printk("hv: %s:%d: %s\n", config_file, err.line, err.msg);
		return fail("the configuration has an error");
	}
	efi_free(text);
	if (cfg.selftest && selftest_configure())
		return fail("selftest = yes: no self-test on this architecture");

	if (arch_boot_console(&cfg.serial, &why)) {
		printk("hv: %s:%d: %s\n", config_file, cfg.serial.line, why);
		return fail("the configuration has an error");
	}
	/* The boot CPU is pCPU 0; the others follow in the firmware's order, up to `pcpus`. */
	on_exit_set(cfg.on_exit);
	sched_init(cfg.pcpus && cfg.pcpus < (u32)ncpus ? cfg.pcpus : (u32)ncpus, cfg.sched);

	void *pool = efi_alloc_pages(HV_POOL_BYTES / PAGE_SIZE, 0);
	if (!pool)
		return fail("cannot reserve the hypervisor's memory");
	if (arch_boot_reserve(&why))
		return fail(why);
	hv_mem_init((u64)(uintptr_t)pool, HV_POOL_BYTES);
	if (create_vms())
		return fail("a VM could not be created");
	if (cfg.selftest)
		selftest_start(vms, cfg.nvms);
	if (cfg.console[0])
		console_focus(cfg.console);

	files_done();
	printk("hv: taking over the machine (ExitBootServices); console continues on the %s\n",
	       arch_boot_console_name());
	if (!efi_exit_boot_services())
		return fail("the firmware refused ExitBootServices");
	arch_boot_takeover();
	printk_set_sink(uart_write);
	console_set_source(uart_getc);
	sched_add_housekeeping(console_poll_input);
	printk("hv: console: %s\n", arch_boot_console_name());
	telemetry_start(&cfg.net, rsdp, vms, cfg.nvms);
	u32 up = arch_boot_start_secondaries(cpu_ids, npcpus, ap_main);
	printk("hv: %u of %u pCPUs running, sched %s; starting %u VM%s (Ctrl-T moves console input "
	       "to the next VM)\n",
	       up, npcpus, sched_ops->name, cfg.nvms, cfg.nvms == 1 ? "" : "s");
	if (up < npcpus) {
		printk("hv: FATAL: vCPUs were placed on pCPUs that did not start\n");
		hv_exit();
	}
	__atomic_store_n(&aps_go, true, __ATOMIC_RELEASE);
	sched_loop();
}
