/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/multiboot.c: the header search, the kernel's segments by ELF32,
 * ELF64 and the address fields (flag 16), the flags a loader must refuse, the modules'
 * places, and the information structure, also in too little room. Each file is parsed
 * from a heap copy of exactly its length, so ASan catches reads past the end. */
#include <stdlib.h>
#include "../../../arch/x86/elf.c"
#include "../../../arch/x86/multiboot.c"
#include "../bytes.h"
#include "../test.h"

#define LEN 0x3000
#define HDR 0x100 /* where the builders put the multiboot header */

static u8 img[LEN];
static struct elf_image ei;
static const char *why;

static int parse_n(size_t len)
{
	u8 *b = malloc(len ? len : 1);
	memcpy(b, img, len);
	why = NULL;
	int r = multiboot_parse(b, len, &ei, &why);
	free(b);
	return r;
}

static int parse(void) { return parse_n(LEN); }

#define CHECK_BAD(msg)                     \
	do {                               \
		CHECK_EQ(parse(), -1);     \
		CHECK_STR(why, msg);       \
		CHECK_EQ(ei.nsegments, 0); \
	} while (0)

static void header(size_t off, u32 flags)
{
	w32(img + off, MULTIBOOT_MAGIC);
	w32(img + off + 4, flags);
	w32(img + off + 8, 0u - MULTIBOOT_MAGIC - flags);
}

/* An ELF32 i386 file as objcopy -O elf32-i386 makes of a kvm-unit-tests test: one
 * segment of code at 4 MiB with bss, the header in it, entry after the header. */
static void build_elf32(u32 flags)
{
	memset(img, 0, sizeof img);
	memcpy(img, "\177ELF", 4);
	img[4] = 1, img[5] = 1, img[6] = 1;
	w16(img + 16, 2), w16(img + 18, 3), w32(img + 20, 1);
	w32(img + 24, 0x400000 + HDR + 0x20); /* e_entry */
	w32(img + 28, 52), w16(img + 42, 32), w16(img + 44, 1);
	u8 *ph = img + 52;
	w32(ph, PT_LOAD), w32(ph + 4, 0), w32(ph + 8, 0x400000), w32(ph + 12, 0x400000);
	w32(ph + 16, 0x2000), w32(ph + 20, 0x5000);
	header(HDR, flags);
}

static void build_elf64(void)
{
	memset(img, 0, sizeof img);
	memcpy(img, "\177ELF", 4);
	img[4] = 2, img[5] = 1, img[6] = 1;
	w16(img + 16, 2), w16(img + 18, 62), w32(img + 20, 1);
	w64(img + 24, 0x200000 + HDR + 0x20);
	w64(img + 32, 64), w16(img + 54, 56), w16(img + 56, 2);
	u8 *ph = img + 64;
	w32(ph, PT_LOAD), w64(ph + 8, 0), w64(ph + 24, 0x200000);
	w64(ph + 32, 0x1000), w64(ph + 40, 0x1000);
	ph += 56;
	w32(ph, PT_LOAD), w64(ph + 8, 0x1000), w64(ph + 24, 0x300000);
	w64(ph + 32, 0x1000), w64(ph + 40, 0x3000);
	header(HDR, MB_PAGE_ALIGN | MB_MEMORY_INFO);
}

/* Flag 16: the file from offset 0 at 1 MiB (header_addr - load_addr = HDR). */
static void build_aout(u32 load_end, u32 bss_end, u32 entry)
{
	memset(img, 0, sizeof img);
	header(HDR, MB_AOUT_KLUDGE | MB_MEMORY_INFO);
	w32(img + HDR + 12, 0x100000 + HDR);
	w32(img + HDR + 16, 0x100000);
	w32(img + HDR + 20, load_end);
	w32(img + HDR + 24, bss_end);
	w32(img + HDR + 28, entry);
}

static void test_find(void)
{
	u32 off = 0;
	memset(img, 0, sizeof img);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 0);
	for (u32 at = 0; at + 12 <= MULTIBOOT_SEARCH; at += 0x7fc) {
		memset(img, 0, sizeof img);
		header(at, 0);
		CHECK_EQ(multiboot_find(img, LEN, &off, &why), 1);
		CHECK_EQ(off, at);
	}
	/* Its last 12 bytes in the first 8 KiB, or past them: not a header. */
	memset(img, 0, sizeof img);
	header(MULTIBOOT_SEARCH - 12, 0);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 1);
	memset(img, 0, sizeof img);
	header(MULTIBOOT_SEARCH - 8, 0);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 0);
	memset(img, 0, sizeof img);
	header(MULTIBOOT_SEARCH, 0);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 0);
	CHECK_BAD("no multiboot header");
	/* Not on a 4-byte boundary. */
	memset(img, 0, sizeof img);
	header(0x102, 0);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 0);
	/* A file shorter than the header. */
	header(0, 0);
	CHECK_EQ(multiboot_find(img, 11, &off, &why), 0);
	CHECK_EQ(multiboot_find(img, 12, &off, &why), 1);
	/* A bad checksum, then a good header after it: the good one. */
	memset(img, 0, sizeof img);
	header(0x40, 0);
	w32(img + 0x48, 1);
	why = NULL;
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), -1);
	CHECK_STR(why, "a multiboot kernel whose header's checksum is wrong (magic + flags + "
		       "checksum must be 0)");
	CHECK_BAD("a multiboot kernel whose header's checksum is wrong (magic + flags + checksum "
		  "must be 0)");
	header(0x80, 0);
	CHECK_EQ(multiboot_find(img, LEN, &off, &why), 1);
	CHECK_EQ(off, 0x80);
}

static void test_elf(void)
{
	build_elf32(0);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.nsegments, 1);
	CHECK_EQ(ei.seg[0].paddr, 0x400000);
	CHECK_EQ(ei.seg[0].filesz, 0x2000);
	CHECK_EQ(ei.seg[0].memsz, 0x5000);
	CHECK_EQ(ei.entry, 0x400120);
	CHECK_EQ(ei.lowest_paddr, 0x400000);
	CHECK_EQ(ei.highest_paddr_end, 0x405000);
	CHECK(!ei.elf64);

	build_elf64();
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.nsegments, 2);
	CHECK_EQ(ei.entry, 0x200120);
	CHECK_EQ(ei.highest_paddr_end, 0x303000);
	CHECK(ei.elf64);

	/* Entry in the bss or beyond: not code of the file. */
	build_elf32(0);
	w32(img + 24, 0x402000);
	CHECK_BAD("multiboot: the ELF entry point lies outside the loaded code");
	/* A segment above 4 GiB (ELF64). */
	build_elf64();
	w64(img + 64 + 56 + 24, 0xFFFFF000ull);
	CHECK_BAD("multiboot: a segment lies above 4 GiB");
	/* Overlapping segments. */
	build_elf64();
	w64(img + 64 + 56 + 24, 0x200800);
	CHECK_BAD("segments overlap");
	/* A segment past the end of the file, and one that wraps. */
	build_elf32(0);
	w32(img + 52 + 16, LEN + 1), w32(img + 52 + 20, LEN + 1);
	CHECK_BAD("segment outside the file");
	build_elf64();
	w64(img + 64 + 24, ~0ull - 0x10);
	CHECK_BAD("segment address range overflows");
	/* Without flag 16 a file must be an x86 ELF. */
	build_elf32(0);
	w16(img + 18, 183);
	CHECK_BAD("not an x86 ELF executable (ELF32 i386 or ELF64 x86-64)");
	build_elf32(0);
	img[4] = 2; /* ELF64 with EM_386 */
	CHECK_EQ(parse(), -1);
	memset(img, 0, 64);
	CHECK_BAD("not an ELF file");
	/* The whole file as the loader copies it, cut anywhere. */
	build_elf32(0);
	for (size_t n = 0; n < 0x2000; n += 0x3f)
		CHECK_EQ(parse_n(n), -1);
	CHECK_EQ(parse_n(0x2000), 0);
}

static void test_flags(void)
{
	build_elf32(MB_PAGE_ALIGN | MB_MEMORY_INFO | BIT(17) | BIT(31));
	CHECK_EQ(parse(), 0); /* optional bits it does not know are ignored */
	build_elf32(MB_VIDEO_MODE);
	CHECK_BAD("the kernel requires a video mode (multiboot flag 2): a VM here has no display");
	for (u32 bit = 3; bit < 16; bit++) {
		build_elf32(BIT(bit));
		CHECK_BAD("the kernel requires multiboot features this loader does not know (flags "
			  "3-15)");
	}
}

static void test_aout(void)
{
	/* load_end 0: the rest of the file; bss to 1 MiB + 64 KiB. */
	build_aout(0, 0x110000, 0x100000 + HDR + 0x20);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.nsegments, 1);
	CHECK_EQ(ei.seg[0].paddr, 0x100000);
	CHECK_EQ(ei.seg[0].file_offset, 0);
	CHECK_EQ(ei.seg[0].filesz, LEN);
	CHECK_EQ(ei.seg[0].memsz, 0x10000);
	CHECK_EQ(ei.entry, 0x100120);
	/* A part of the file, no bss; the header need not be at its start. */
	build_aout(0x101000, 0, 0x100000 + HDR + 0x20);
	w32(img + HDR + 16, 0x100000 + 0x80); /* load_addr: the file from offset 0x80 */
	w32(img + HDR + 20, 0x101080);
	w32(img + HDR + 28, 0x100100);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.seg[0].file_offset, 0x80);
	CHECK_EQ(ei.seg[0].filesz, 0x1000);
	CHECK_EQ(ei.seg[0].memsz, 0x1000);

	build_aout(0, 0, 0x100120);
	w32(img + HDR + 16, 0x100000 + HDR + 4);
	CHECK_BAD("multiboot load_addr is above header_addr");
	build_aout(0, 0, 0x100120);
	w32(img + HDR + 16, 0x100000 - 4); /* the text would start 4 bytes before the file */
	CHECK_BAD("multiboot load_addr lies before the start of the file");
	build_aout(0x0FFFFF, 0, 0x100120);
	CHECK_BAD("multiboot load_end_addr is below load_addr");
	build_aout(0x100000 + LEN + 1, 0, 0x100120);
	CHECK_BAD("multiboot load_end_addr lies past the end of the file");
	build_aout(0x101000, 0x100FFF, 0x100120);
	CHECK_BAD("multiboot bss_end_addr is below the end of what is loaded");
	build_aout(0x100000, 0, 0x100000);
	CHECK_BAD("multiboot: nothing to load");
	build_aout(0x101000, 0x110000, 0x101000); /* in the bss */
	CHECK_BAD("multiboot entry_addr lies outside what is loaded");
	build_aout(0x101000, 0, 0xFFFFF);
	CHECK_BAD("multiboot entry_addr lies outside what is loaded");
	/* Near 4 GiB: bss_end below load_addr + size wraps in 32 bits. */
	build_aout(0, 0, 0);
	w32(img + HDR + 12, 0xFFFFF000u + HDR);
	w32(img + HDR + 16, 0xFFFFF000u);
	w32(img + HDR + 28, 0xFFFFF000u);
	CHECK_BAD("multiboot: the kernel runs past 4 GiB");
	/* The address fields past the first 8 KiB, or past a short file. */
	memset(img, 0, sizeof img);
	header(MULTIBOOT_SEARCH - 12, MB_AOUT_KLUDGE);
	CHECK_BAD("its multiboot header's address fields (flag 16) run past the first 8 KiB or "
		  "the file");
	build_aout(0, 0, 0x100120);
	CHECK_EQ(parse_n(HDR + 31), -1);
	CHECK_STR(why, "its multiboot header's address fields (flag 16) run past the first 8 KiB "
		       "or the file");
	CHECK_EQ(parse_n(HDR + 32), -1); /* the entry is not in the 32 bytes loaded */
	CHECK_EQ(parse_n(HDR + 0x21), 0);
}

static void test_place(void)
{
	struct elf_image k = { .nsegments = 2,
			       .seg = { { .paddr = 0x400000, .memsz = 0x1000 },
					{ .paddr = 0x404000, .memsz = 0x1001 } },
			       .lowest_paddr = 0x400000,
			       .highest_paddr_end = 0x405001 };
	u64 len[3] = { 1, 0x2000, 0 }, gpa[3] = { 0 };
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 3, gpa, &why), 0);
	CHECK_EQ(gpa[0], 0x406000);
	CHECK_EQ(gpa[1], 0x407000);
	CHECK_EQ(gpa[2], 0x409000);
	/* Exactly to the end of RAM, one byte more. */
	len[2] = 16 * MiB - 0x409000;
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 3, gpa, &why), 0);
	len[2]++;
	why = NULL;
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 3, gpa, &why), -1);
	CHECK_STR(why, "the modules do not fit in the VM's RAM after the kernel");
	len[2] = ~0ull; /* no wrap-around */
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 3, gpa, &why), -1);
	len[0] = ~0ull - 0x1000;
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 3, gpa, &why), -1);
	/* A segment on the VM's boot data, in the BIOS area, across 1 MiB, past its RAM. */
	static const u64 bad[][2] = { { 0x7000, 0x2000 },
				      { 0x9E000, 0x2000 },
				      { 0xE0000, 0x1000 },
				      { 0xFF000, 0x2000 },
				      { 16 * MiB - 0x1000, 0x1001 } };
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		k.seg[1] = (struct elf_segment){ .paddr = bad[i][0], .memsz = bad[i][1] };
		why = NULL;
		CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 0, gpa, &why), -1);
		CHECK_STR(why, "the kernel lies outside the VM's RAM (0x8000-0x9F000, and from "
			       "1 MiB up)");
	}
	/* kvm-unit-tests' realmode test: at 0x8000, its modules from 1 MiB. */
	k = (struct elf_image){ .nsegments = 2,
				.seg = { { .paddr = 0x8000, .memsz = 0x286c },
					 { .paddr = 0xB000, .memsz = 0x2a30 } },
				.lowest_paddr = 0x8000,
				.highest_paddr_end = 0xDA30 };
	len[0] = 1;
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 1, gpa, &why), 0);
	CHECK_EQ(gpa[0], MiB);
	k.seg[1].memsz = 0x94000; /* to the EBDA, one byte more */
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 1, gpa, &why), 0);
	k.seg[1].memsz++;
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 1, gpa, &why), -1);
	/* To the end of RAM: no room for a module after it. */
	k = (struct elf_image){ .nsegments = 1,
				.seg = { { .paddr = MiB, .memsz = 15 * MiB } },
				.lowest_paddr = MiB,
				.highest_paddr_end = 16 * MiB };
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 0, gpa, &why), 0);
	CHECK_EQ(multiboot_place(&k, 16 * MiB, len, 1, gpa, &why), -1);
}

static const struct multiboot_mmap map[] = {
	{ 0, 0x8000, 1 }, { 0x8000, 0x8000, 3 }, { 0x9F000, 0x61000, 2 }, { MiB, 15 * MiB, 1 }
};
static const u64 mod_gpa[] = { 0x406000, 0x407000 }, mod_len[] = { 5, 0x1000 };
static const char *const mod_string[] = { "/a.bin", "/b.bin" };
static const struct multiboot_params params = {
	.mem_lower = 636,
	.mem_upper = 15 * 1024,
	.cmdline = "/kernel.elf -v x=1",
	.loader_name = "hv",
	.nmods = 2,
	.mod_gpa = mod_gpa,
	.mod_len = mod_len,
	.mod_string = mod_string,
	.nmap = 4,
	.map = map,
};

#define GPA 0x6000
static u8 *mem;
static size_t mem_cap;

/* What a kernel reads at a 32-bit address of the structure: inside it, or NULL. */
static const u8 *at(u32 addr, size_t n)
{
	return addr >= GPA && addr - GPA <= mem_cap && n <= mem_cap - (addr - GPA)
		       ? mem + (addr - GPA)
		       : NULL;
}

static void test_info(void)
{
	mem_cap = 0x2000;
	mem = malloc(mem_cap);
	memset(mem, 0xAA, mem_cap);
	CHECK_EQ(multiboot_info_build(mem, mem_cap, GPA, &params, &why), 0);
	CHECK_EQ(elf_le32(mem), BIT(0) | BIT(2) | BIT(3) | BIT(6) | BIT(9));
	CHECK_EQ(elf_le32(mem + 4), 636);
	CHECK_EQ(elf_le32(mem + 8), 15 * 1024);
	CHECK_EQ(elf_le32(mem + 12), 0); /* no boot device */
	const u8 *s = at(elf_le32(mem + 16), 19);
	CHECK(s && !memcmp(s, "/kernel.elf -v x=1", 19));
	CHECK_EQ(elf_le32(mem + 20), 2);
	const u8 *mods = at(elf_le32(mem + 24), 32);
	CHECK(mods != NULL);
	for (u32 i = 0; mods && i < 2; i++) {
		CHECK_EQ(elf_le32(mods + i * 16), mod_gpa[i]);
		CHECK_EQ(elf_le32(mods + i * 16 + 4), mod_gpa[i] + mod_len[i]);
		s = at(elf_le32(mods + i * 16 + 8), 7);
		CHECK(s && !memcmp(s, mod_string[i], 7));
		CHECK_EQ(elf_le32(mods + i * 16 + 12), 0);
	}
	/* The memory map, walked as the spec says: size, then size bytes more. */
	u32 len = elf_le32(mem + 44), addr = elf_le32(mem + 48), n = 0;
	CHECK_EQ(len, 4 * 24);
	CHECK(at(addr, len) != NULL);
	for (u32 off = 0; at(addr, len) && off < len; off += elf_le32(at(addr + off, 4)) + 4, n++) {
		const u8 *e = at(addr + off, 24);
		CHECK_EQ(elf_le32(e), 20);
		CHECK_EQ(elf_le64(e + 4), map[n].addr);
		CHECK_EQ(elf_le64(e + 12), map[n].len);
		CHECK_EQ(elf_le32(e + 20), map[n].type);
	}
	CHECK_EQ(n, 4);
	s = at(elf_le32(mem + 64), 3);
	CHECK(s && !memcmp(s, "hv", 3));
	/* Nothing the structure names overlaps it: its own 116 bytes are fields. */
	CHECK(elf_le32(mem + 48) >= GPA + 116 && elf_le32(mem + 24) >= GPA + 116);

	/* Every room too small is refused, and nothing is written past it (ASan). */
	size_t need = 0;
	for (size_t cap = 0; cap < 0x2000; cap++) {
		u8 *b = malloc(cap ? cap : 1);
		int r = multiboot_info_build(b, cap, GPA, &params, &why);
		free(b);
		if (r == 0) {
			need = cap;
			break;
		}
	}
	CHECK(need > 116 && need < 0x200);
	why = NULL;
	u8 small[64];
	CHECK_EQ(multiboot_info_build(small, sizeof small, GPA, &params, &why), -1);
	CHECK_STR(why, "the multiboot information does not fit its place in the VM's RAM");
	/* Addresses that do not fit 32 bits: the structure's own, a module's. */
	CHECK_EQ(multiboot_info_build(mem, mem_cap, (1ull << 32) - 0x100, &params, &why), -1);
	CHECK_EQ(multiboot_info_build(mem, mem_cap, (1ull << 32) - need, &params, &why), 0);
	CHECK_EQ(multiboot_info_build(mem, mem_cap, (1ull << 32) - need + 1, &params, &why), -1);
	struct multiboot_params p = params;
	const u64 far[] = { 0xFFFFF000u, 0xFFFFF000u }, big[] = { 0x1000, 0x1001 };
	p.mod_gpa = far;
	p.mod_len = big;
	CHECK_EQ(multiboot_info_build(mem, mem_cap, GPA, &p, &why), -1);
	/* A command line longer than the room. */
	char *line = malloc(0x2000);
	memset(line, 'x', 0x1fff);
	line[0x1fff] = 0;
	p = params;
	p.cmdline = line;
	CHECK_EQ(multiboot_info_build(mem, mem_cap, GPA, &p, &why), -1);
	free(line);
	free(mem);
}

/* A real multiboot kernel where one is built: the emulator test's (tests/guest/x86). */
static void test_real(void)
{
	size_t len;
	u8 *b = read_file("build/x86_64/guests-test/mbtest.elf", &len);
	if (!b) {
		TEST_SKIP("build/x86_64/guests-test/mbtest.elf is not built (make ARCH=x86_64)");
		return;
	}
	u32 off;
	CHECK_EQ(multiboot_find(b, len, &off, &why), 1);
	CHECK_EQ(multiboot_parse(b, len, &ei, &why), 0);
	CHECK(ei.lowest_paddr >= MiB && ei.entry >= ei.lowest_paddr);
	printf("mbtest.elf: header at 0x%x, %u segment(s) 0x%llx..0x%llx, entry 0x%llx\n", off,
	       ei.nsegments, (unsigned long long)ei.lowest_paddr,
	       (unsigned long long)ei.highest_paddr_end, (unsigned long long)ei.entry);
	free(b);
}

int main(void)
{
	test_find();
	test_elf();
	test_flags();
	test_aout();
	test_place();
	test_info();
	test_real();
	return test_summary();
}
