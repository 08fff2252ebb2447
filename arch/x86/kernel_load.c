/* SPDX-License-Identifier: GPL-2.0-only */
/* Which loader an x86 kernel file goes to: a multiboot kernel (its header in the first
 * 8 KiB comes first: a kvm-unit-tests image is also an ELF), a vmlinux with a PVH entry
 * (an ELF), or a bzImage; anything else is refused with what it is. */
#include "arch/x86/kernel_load.h"
#include "arch/x86/bzimage.h"
#include "arch/x86/elf_pvh.h"
#include "arch/x86/linux_boot.h"
#include "arch/x86/multiboot.h"
#include "hv/vm_config.h"
#include "hv/printk.h"
#include "hv/file_kind.h"
#include "hv/lib.h"

void x86_load_segments(struct vm *vm, const struct guest_images *img, const struct elf_image *k)
{
	for (u32 i = 0; i < k->nsegments; i++) {
		const struct elf_segment *s = &k->seg[i];
		memcpy(vm->ram + s->paddr, (const u8 *)img->kernel + s->file_offset, s->filesz);
		memset(vm->ram + s->paddr + s->filesz, 0, s->memsz - s->filesz);
	}
}

int x86_kernel_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		    struct x86_boot *boot)
{
	const u8 *k = img->kernel;
	u32 off;
	const char *multiboot = "";
	int mb = multiboot_find(k, img->kernel_len, &off, &multiboot);
	struct elf_image pvh;
	if (mb > 0)
		return multiboot_load(vm, cfg, img, boot);
	/* A magic with a wrong checksum: a broken multiboot kernel, unless it is a vmlinux. */
	if (mb < 0 && elf_pvh_parse(k, img->kernel_len, &pvh, NULL)) {
		printk("hv: VM '%s': %s: %s\n", vm->name, cfg->kernel, multiboot);
		return -1;
	}
	if (img->kernel_len >= 4 && !memcmp(k, "\177ELF", 4))
		return linux_pvh_load(vm, cfg, img, boot);
	if (bzimage_is(k, img->kernel_len))
		return linux_bzimage_load(vm, cfg, img, boot);
	printk("hv: VM '%s': %s: %s; an x86 VM boots a bzImage (a distribution's vmlinuz), a "
	       "vmlinux with a PVH entry note or a multiboot kernel\n",
	       vm->name, cfg->kernel, file_kind(k, img->kernel_len));
	return -1;
}
