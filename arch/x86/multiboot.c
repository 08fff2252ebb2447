/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot version 1 kernels (multiboot.h); section numbers are the Multiboot
 * Specification 0.6.96's. */
#include "arch/x86/multiboot.h"
#include "arch/x86/guest_layout.h"
#include "hv/lib.h"

#define HDR_MIN 12   /* magic, flags, checksum */
#define HDR_ADDRS 32 /* ... header_addr, load_addr, load_end_addr, bss_end_addr, entry_addr */
#define FLAGS_KNOWN (MB_PAGE_ALIGN | MB_MEMORY_INFO)
#define LIMIT_4G (1ull << 32)

/* The information structure's flags (3.3). */
#define INFO_MEMORY BIT(0)
#define INFO_CMDLINE BIT(2)
#define INFO_MODS BIT(3)
#define INFO_MMAP BIT(6)
#define INFO_LOADER_NAME BIT(9)

struct mb_info {
	u32 flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr, drives_length, drives_addr, config_table;
	u32 boot_loader_name, apm_table;
	u32 vbe[4];
	u32 framebuffer[8];
} PACKED;

struct mb_mod {
	u32 mod_start, mod_end, string, reserved;
} PACKED;

struct mb_mmap_entry {
	u32 size; /* of the rest of the entry: 20 */
	u64 base_addr, length;
	u32 type;
} PACKED;

int multiboot_find(const void *buf, size_t len, u32 *off, const char **why)
{
	const u8 *b = buf;
	int found = 0;
	for (u32 o = 0; o + HDR_MIN <= MIN(len, MULTIBOOT_SEARCH); o += 4) {
		if (elf_le32(b + o) != MULTIBOOT_MAGIC)
			continue;
		if ((u32)(MULTIBOOT_MAGIC + elf_le32(b + o + 4) + elf_le32(b + o + 8)) == 0) {
			*off = o;
			return 1;
		}
		found = -1;
	}
	if (found)
		*why = "a multiboot kernel whose header's checksum is wrong (magic + flags + "
		       "checksum must be 0)";
	return found;
}

/* MB_AOUT_KLUDGE (3.1.3): the header's address fields say where the file goes. */
static int parse_aout(const u8 *b, size_t len, u32 hoff, struct elf_image *out, const char **why)
{
	const u8 *h = b + hoff;
	if (hoff + HDR_ADDRS > MIN(len, MULTIBOOT_SEARCH)) {
		*why = "its multiboot header's address fields (flag 16) run past the first 8 KiB "
		       "or the file";
		return -1;
	}
	u32 header_addr = elf_le32(h + 12), load_addr = elf_le32(h + 16);
	u32 load_end = elf_le32(h + 20), bss_end = elf_le32(h + 24), entry = elf_le32(h + 28);

	if (load_addr > header_addr)
		*why = "multiboot load_addr is above header_addr";
	else if (header_addr - load_addr > hoff)
		*why = "multiboot load_addr lies before the start of the file";
	else if (load_end && load_end < load_addr)
		*why = "multiboot load_end_addr is below load_addr";
	if (*why)
		return -1;
	u64 foff = hoff - (header_addr - load_addr);
	u64 size = load_end ? (u64)load_end - load_addr : len - foff;
	u64 memsz = bss_end ? (u64)bss_end - load_addr : size;
	if (size > len - foff)
		*why = "multiboot load_end_addr lies past the end of the file";
	else if (bss_end && bss_end < load_addr + size)
		*why = "multiboot bss_end_addr is below the end of what is loaded";
	else if (!memsz)
		*why = "multiboot: nothing to load";
	else if (load_addr + memsz > LIMIT_4G)
		*why = "multiboot: the kernel runs past 4 GiB";
	else if (entry < load_addr || entry - load_addr >= size)
		*why = "multiboot entry_addr lies outside what is loaded";
	if (*why)
		return -1;
	out->nsegments = 1;
	out->seg[0] = (struct elf_segment){ load_addr, foff, size, memsz };
	out->lowest_paddr = load_addr;
	out->highest_paddr_end = load_addr + memsz;
	out->entry = entry;
	return 0;
}

/* Without MB_AOUT_KLUDGE the file is an ELF: its segments at their physical addresses. */
static int parse_elf(const u8 *b, size_t len, struct elf_image *out, const char **why)
{
	if (elf_parse(b, len, ELF_X86_64 | ELF_I386, out, why))
		return -1;
	u32 i;
	for (i = 0; i < out->nsegments; i++)
		if (out->entry >= out->seg[i].paddr &&
		    out->entry - out->seg[i].paddr < out->seg[i].filesz)
			break;
	if (out->highest_paddr_end > LIMIT_4G)
		*why = "multiboot: a segment lies above 4 GiB";
	else if (i == out->nsegments)
		*why = "multiboot: the ELF entry point lies outside the loaded code";
	return *why ? -1 : 0;
}

int multiboot_parse(const void *buf, size_t len, struct elf_image *out, const char **why)
{
	const u8 *b = buf;
	u32 hoff = 0;
	const char *reason = NULL;

	memset(out, 0, sizeof(*out));
	if (multiboot_find(b, len, &hoff, &reason) <= 0)
		return elf_fail(out, why, reason ? reason : "no multiboot header");
	u32 flags = elf_le32(b + hoff + 4);
	if (flags & MB_VIDEO_MODE)
		return elf_fail(
			out, why,
			"the kernel requires a video mode (multiboot flag 2): a VM here has "
			"no display");
	if (flags & 0xFFFF & ~FLAGS_KNOWN)
		return elf_fail(out, why,
				"the kernel requires multiboot features this loader does not know "
				"(flags 3-15)");
	if (flags & MB_AOUT_KLUDGE ? parse_aout(b, len, hoff, out, &reason)
				   : parse_elf(b, len, out, &reason))
		return elf_fail(out, why, reason);
	return 0;
}

/* Whether [start, end) lies in RAM a kernel may load to: the conventional memory above the
 * VM's boot data, or from 1 MiB to ram_end. */
static bool kernel_ram(u64 start, u64 end, u64 ram_end)
{
	return (start >= GPA_BOOT_DATA_END && end <= GPA_LOW_RESERVED) ||
	       (start >= MiB && end <= ram_end);
}

int multiboot_place(const struct elf_image *k, u64 ram_end, const u64 *mod_len, u32 nmods,
		    u64 *mod_gpa, const char **why)
{
	for (u32 i = 0; i < k->nsegments; i++)
		if (!kernel_ram(k->seg[i].paddr, k->seg[i].paddr + k->seg[i].memsz, ram_end)) {
			*why = "the kernel lies outside the VM's RAM (0x8000-0x9F000, and from "
			       "1 MiB up)";
			return -1;
		}
	u64 next = ALIGN_UP(MAX(k->highest_paddr_end, MiB), PAGE_SIZE);
	for (u32 i = 0; i < nmods; i++) {
		if (next > ram_end || mod_len[i] > ram_end - next) {
			*why = "the modules do not fit in the VM's RAM after the kernel";
			return -1;
		}
		mod_gpa[i] = next;
		next = ALIGN_UP(next + mod_len[i], PAGE_SIZE);
	}
	return 0;
}

/* Appends n bytes to the structure being built at buf[*used]: their guest address, or 0
 * when they do not fit. */
static u32 put(u8 *buf, size_t cap, u64 gpa, size_t *used, const void *src, size_t n)
{
	if (n > cap - *used || gpa + *used + n > LIMIT_4G)
		return 0;
	u32 at = (u32)(gpa + *used);
	memcpy(buf + *used, src, n);
	*used += ALIGN_UP(n, 8);
	*used = MIN(*used, cap);
	return at;
}

static u32 put_str(u8 *buf, size_t cap, u64 gpa, size_t *used, const char *s)
{
	return put(buf, cap, gpa, used, s, strlen(s) + 1);
}

int multiboot_info_build(u8 *buf, size_t cap, u64 gpa, const struct multiboot_params *p,
			 const char **why)
{
	struct mb_info info = {
		.flags = INFO_MEMORY | INFO_CMDLINE | INFO_MODS | INFO_MMAP | INFO_LOADER_NAME,
		.mem_lower = p->mem_lower,
		.mem_upper = p->mem_upper,
		.mods_count = p->nmods,
		.mmap_length = p->nmap * (u32)sizeof(struct mb_mmap_entry),
	};
	size_t used = ALIGN_UP(sizeof info, 8);
	bool ok = cap >= used && gpa + used <= LIMIT_4G;

	if (ok)
		memset(buf, 0, used);
	for (u32 i = 0; ok && i < p->nmap; i++) {
		struct mb_mmap_entry e = { 20, p->map[i].addr, p->map[i].len, p->map[i].type };
		u32 at = put(buf, cap, gpa, &used, &e, sizeof e);
		if (!i)
			info.mmap_addr = at;
		ok = at;
	}
	/* The module list first (its strings' places follow), then filled in. */
	size_t mods = used;
	struct mb_mod mod = { 0 };
	for (u32 i = 0; ok && i < p->nmods; i++) {
		u32 at = put(buf, cap, gpa, &used, &mod, sizeof mod);
		if (!i)
			info.mods_addr = at;
		ok = at;
	}
	for (u32 i = 0; ok && i < p->nmods; i++) {
		mod = (struct mb_mod){ (u32)p->mod_gpa[i], (u32)(p->mod_gpa[i] + p->mod_len[i]),
				       put_str(buf, cap, gpa, &used, p->mod_string[i]), 0 };
		ok = mod.string && p->mod_gpa[i] + p->mod_len[i] <= LIMIT_4G;
		memcpy(buf + mods + i * sizeof mod, &mod, sizeof mod);
	}
	ok = ok && (info.cmdline = put_str(buf, cap, gpa, &used, p->cmdline)) &&
	     (info.boot_loader_name = put_str(buf, cap, gpa, &used, p->loader_name));
	if (!ok) {
		*why = "the multiboot information does not fit its place in the VM's RAM";
		return -1;
	}
	memcpy(buf, &info, sizeof info);
	return 0;
}
