/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/elf_pvh.c on small synthetic ELF images (and on the real guest
 * kernel when build/guests/x86_64/vmlinux exists). Images are parsed from buffers
 * of exactly their length, so ASan catches reads past the end. */
#include <stdlib.h>
#include "../../../arch/x86/elf.c"
#include "../../../arch/x86/elf_pvh.c"
#include "../bytes.h"
#include "../test.h"

#define IMG_LEN 0x1c00
#define NOTE_OFF 0x300
#define PH(i) (64 + (i)*56)

static u8 img[IMG_LEN];
static struct elf_image ei;
static const char *why;

static void phdr(int i, u32 type, u64 off, u64 paddr, u64 filesz, u64 memsz, u64 align)
{
	u8 *p = img + PH(i);

	w32(p, type);
	w32(p + 4, 5);
	w64(p + 8, off);
	w64(p + 16, 0xffffffff80000000ull | paddr);
	w64(p + 24, paddr);
	w64(p + 32, filesz);
	w64(p + 40, memsz);
	w64(p + 48, align);
}

/* Appends a note at *off; returns a pointer to its descriptor. */
static u8 *note(size_t *off, const char *name, u32 namesz, u32 type, u32 descsz)
{
	u8 *p = img + *off;

	w32(p, namesz);
	w32(p + 4, descsz);
	w32(p + 8, type);
	memcpy(p + 12, name, namesz);
	*off += 12 + ALIGN_UP(namesz, 4);
	p = img + *off;
	*off += ALIGN_UP(descsz, 4);
	return p;
}

static size_t notes_len;
static u8 *pvh_desc;

/* A good image: two PT_LOAD segments (the first with bss), and a PT_NOTE holding
 * a GNU build id, two other Xen notes and the PVH entry (4- or 8-byte desc). */
static void build(int entry_size)
{
	size_t off = NOTE_OFF;
	u8 *d;

	memset(img, 0, sizeof(img));
	memcpy(img, "\177ELF", 4);
	img[4] = 2;	   /* ELFCLASS64 */
	img[5] = 1;	   /* little endian */
	img[6] = 1;	   /* EV_CURRENT */
	w16(img + 16, 2);  /* ET_EXEC */
	w16(img + 18, 62); /* EM_X86_64 */
	w32(img + 20, 1);
	w64(img + 24, 0xffffffff81000000ull);
	w64(img + 32, 64); /* e_phoff */
	w16(img + 52, 64);
	w16(img + 54, 56);
	w16(img + 56, 3);

	d = note(&off, "GNU", 4, 3, 20);
	memset(d, 0xab, 20);
	d = note(&off, "Xen", 4, 6, 6);
	memcpy(d, "linux", 6);
	d = note(&off, "Xen", 4, 17, 4);
	w32(d, 0x8801);
	pvh_desc = note(&off, "Xen", 4, XEN_ELFNOTE_PHYS32_ENTRY, (u32)entry_size);
	if (entry_size == 4)
		w32(pvh_desc, 0x1000010);
	else
		w64(pvh_desc, 0x1000010);
	notes_len = off - NOTE_OFF;

	phdr(0, PT_LOAD, 0x1000, 0x1000000, 0x800, 0x2000, 0x1000);
	phdr(1, PT_NOTE, NOTE_OFF, 0x1000400, notes_len, notes_len, 4);
	phdr(2, PT_LOAD, 0x1800, 0x1100000, 0x400, 0x400, 0x1000);
	memset(img + 0x1000, 0x90, 0x800);
	memset(img + 0x1800, 0xcc, 0x400);
}

static int parse_n(size_t len)
{
	u8 *b = malloc(len ? len : 1);
	int r;

	memcpy(b, img, len);
	why = NULL;
	r = elf_pvh_parse(b, len, &ei, &why);
	free(b);
	return r;
}

static int parse(void) { return parse_n(IMG_LEN); }

#define CHECK_BAD(msg)                     \
	do {                               \
		CHECK_EQ(parse(), -1);     \
		CHECK_STR(why, msg);       \
		CHECK_EQ(ei.nsegments, 0); \
		CHECK_EQ(ei.entry, 0);     \
	} while (0)

static void test_good(void)
{
	int size;

	for (size = 4; size <= 8; size += 4) {
		build(size);
		CHECK_EQ(parse(), 0);
		CHECK(why == NULL);
		CHECK_EQ(ei.entry, 0x1000010);
		CHECK_EQ(ei.nsegments, 2);
		CHECK_EQ(ei.seg[0].paddr, 0x1000000);
		CHECK_EQ(ei.seg[0].file_offset, 0x1000);
		CHECK_EQ(ei.seg[0].filesz, 0x800);
		CHECK_EQ(ei.seg[0].memsz, 0x2000);
		CHECK_EQ(ei.seg[1].paddr, 0x1100000);
		CHECK_EQ(ei.seg[1].file_offset, 0x1800);
		CHECK_EQ(ei.seg[1].filesz, 0x400);
		CHECK_EQ(ei.seg[1].memsz, 0x400);
		CHECK_EQ(ei.lowest_paddr, 0x1000000);
		CHECK_EQ(ei.highest_paddr_end, 0x1100400);
	}

	/* NULL reason is allowed. */
	build(4);
	CHECK_EQ(elf_pvh_parse(img, IMG_LEN, &ei, NULL), 0);
	img[0] = 0;
	CHECK_EQ(elf_pvh_parse(img, IMG_LEN, &ei, NULL), -1);

	/* Segment order does not matter; lowest/highest follow the addresses. */
	build(4);
	phdr(0, PT_LOAD, 0x1800, 0x1100000, 0x400, 0x400, 0x1000);
	phdr(2, PT_LOAD, 0x1000, 0x1000000, 0x800, 0x2000, 0x1000);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.seg[0].paddr, 0x1100000);
	CHECK_EQ(ei.lowest_paddr, 0x1000000);
	CHECK_EQ(ei.highest_paddr_end, 0x1100400);

	/* Empty PT_LOAD segments are dropped; pure bss segments are kept. */
	build(4);
	phdr(2, PT_LOAD, 0, 0x5000000, 0, 0, 0x1000);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.nsegments, 1);
	CHECK_EQ(ei.highest_paddr_end, 0x1002000);
	phdr(2, PT_LOAD, 0, 0x5000000, 0, 0x3000, 0x1000);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.nsegments, 2);
	CHECK_EQ(ei.seg[1].filesz, 0);
	CHECK_EQ(ei.highest_paddr_end, 0x5003000);

	/* Adjacent segments are fine; segment ending exactly at the end of the file too. */
	build(4);
	phdr(2, PT_LOAD, 0x1800, 0x1002000, 0x400, 0x400, 0x1000);
	CHECK_EQ(parse(), 0);
	phdr(2, PT_LOAD, 0x1800, 0x1100000, IMG_LEN - 0x1800, IMG_LEN - 0x1800, 0x1000);
	CHECK_EQ(parse(), 0);

	/* The PVH note in a second PT_NOTE segment; the first without it. */
	build(4);
	w16(img + 56, 4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, 12 + 4 + 20, 12 + 4 + 20, 4); /* GNU note only */
	phdr(3, PT_NOTE, NOTE_OFF, 0, notes_len, notes_len, 4);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.entry, 0x1000010);

	/* A missing pad after the last note is tolerated: the "linux" note has a 6-byte
	 * desc, and the segment ends right after it. */
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, 36 + 12 + 4 + 6, 36 + 12 + 4 + 6, 4);
	CHECK_BAD("no PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY): not a PVH-capable Linux kernel");

	/* Notes in an 8-byte aligned segment use 8-byte padding. */
	build(4);
	{
		size_t off = IMG_LEN - 0x100;
		u8 *p = img + off;

		memset(p, 0, 0x100);

		w32(p, 4); /* "GNU\0", 20-byte desc: padded to 8 -> desc at 16, next at 40 */
		w32(p + 4, 20);
		w32(p + 8, 5);
		memcpy(p + 12, "GNU", 4);
		p += 40;
		w32(p, 4);
		w32(p + 4, 4);
		w32(p + 8, XEN_ELFNOTE_PHYS32_ENTRY);
		memcpy(p + 12, "Xen", 4);
		w32(p + 16, 0x1100008);
		phdr(1, PT_NOTE, off, 0, 40 + 24, 40 + 24, 8);
		CHECK_EQ(parse(), 0);
		CHECK_EQ(ei.entry, 0x1100008);
		phdr(1, PT_NOTE, off, 0, 40 + 24, 40 + 24, 4); /* misread with 4-byte padding */
		CHECK_EQ(parse(), -1);
	}
}

static void test_header(void)
{
	build(4);
	CHECK_EQ(parse_n(0), -1);
	CHECK_STR(why, "not an ELF file");
	CHECK_EQ(parse_n(3), -1);
	CHECK_STR(why, "not an ELF file");
	CHECK_EQ(parse_n(4), -1);
	CHECK_STR(why, "truncated ELF header");
	CHECK_EQ(parse_n(63), -1);
	CHECK_STR(why, "truncated ELF header");

	build(4);
	img[1] = 'e';
	CHECK_BAD("not an ELF file");
	build(4);
	img[0] = 'M';
	img[1] = 'Z';
	CHECK_BAD("not an ELF file");

	build(4);
	img[4] = 1; /* ELFCLASS32 */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	img[5] = 2; /* big endian */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	w16(img + 18, 3); /* EM_386 */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	w16(img + 18, 183); /* EM_AARCH64 */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	w16(img + 16, 3); /* ET_DYN */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	w16(img + 16, 1); /* ET_REL */
	CHECK_BAD("not a 64-bit x86 ELF executable");
	build(4);
	img[6] = 0;
	CHECK_BAD("unsupported ELF version");
	build(4);
	w32(img + 20, 2);
	CHECK_BAD("unsupported ELF version");

	build(4);
	w16(img + 54, 64);
	CHECK_BAD("bad program header size");
	build(4);
	w16(img + 54, 0);
	CHECK_BAD("bad program header size");
	build(4);
	w16(img + 56, 0);
	CHECK_BAD("no program headers");
	build(4);
	w64(img + 32, IMG_LEN);
	CHECK_BAD("program header table outside the file");
	build(4);
	w64(img + 32, IMG_LEN - 3 * 56 + 1);
	CHECK_BAD("program header table outside the file");
	build(4);
	w64(img + 32, UINT64_MAX - 8);
	CHECK_BAD("program header table outside the file");
	build(4);
	w16(img + 56, 0xffff); /* PN_XNUM: 3.5 MB of headers in a 7 KB file */
	CHECK_BAD("program header table outside the file");
	/* The table at the very end of the file is fine. */
	build(4);
	memcpy(img + IMG_LEN - 3 * 56, img + 64, 3 * 56);
	w64(img + 32, IMG_LEN - 3 * 56);
	CHECK_EQ(parse(), 0);
}

static void test_segments(void)
{
	build(4);
	phdr(0, PT_LOAD, 0x1000, 0x1000000, 0x2001, 0x2000, 0x1000);
	CHECK_BAD("segment file size larger than its memory size");
	build(4);
	phdr(0, PT_LOAD, IMG_LEN + 1, 0x1000000, 0, 0x2000, 0x1000);
	CHECK_BAD("segment outside the file");
	build(4);
	phdr(0, PT_LOAD, 0x1000, 0x1000000, IMG_LEN - 0x1000 + 1, 0x2000, 0x1000);
	CHECK_BAD("segment outside the file");
	build(4);
	phdr(0, PT_LOAD, UINT64_MAX - 0x7ff, 0x1000000, 0x800, 0x2000, 0x1000);
	CHECK_BAD("segment outside the file");
	build(4);
	phdr(0, PT_LOAD, 0x1000, 0x1000000, UINT64_MAX, UINT64_MAX, 0x1000);
	CHECK_BAD("segment outside the file");
	build(4);
	phdr(0, PT_LOAD, 0x1000, UINT64_MAX - 0x1000, 0x800, 0x2000, 0x1000);
	CHECK_BAD("segment address range overflows");
	build(4);
	phdr(0, PT_LOAD, 0x1000, 0x1000000, 0x800, UINT64_MAX, 0x1000);
	CHECK_BAD("segment address range overflows");
	/* Ending exactly at 2^64 - 1 is representable. */
	build(4);
	phdr(2, PT_LOAD, 0x1800, UINT64_MAX - 0x400, 0x400, 0x400, 0x1000);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.highest_paddr_end, UINT64_MAX);

	build(4);
	phdr(2, PT_LOAD, 0x1800, 0x1001fff, 0x400, 0x400, 0x1000);
	CHECK_BAD("segments overlap");
	build(4);
	phdr(2, PT_LOAD, 0x1800, 0xfffc01, 0x400, 0x400, 0x1000);
	CHECK_BAD("segments overlap");
	build(4);
	phdr(2, PT_LOAD, 0x1800, 0xff0000, 0x400, 0x100000, 0x1000); /* covers segment 0 */
	CHECK_BAD("segments overlap");

	build(4);
	phdr(0, 6, 0x1000, 0x1000000, 0x800, 0x2000, 0x1000); /* PT_PHDR */
	phdr(2, 0x6474e551, 0, 0, 0, 0, 0x10);		      /* PT_GNU_STACK */
	CHECK_BAD("no loadable segments");

	/* 16 segments fit, 17 do not. */
	static const int counts[] = { 16, 17 };
	size_t k;
	for (k = 0; k < ARRAY_SIZE(counts); k++) {
		int i, n = counts[k];

		build(4);
		w64(img + 32, 0x400);
		w16(img + 56, (u16)(n + 1));
		for (i = 0; i < n; i++) {
			u8 *p = img + 0x400 + i * 56;

			w32(p, PT_LOAD);
			w64(p + 8, 0x1000);
			w64(p + 24, 0x1000000 + (u64)i * 0x1000);
			w64(p + 32, 0x800);
			w64(p + 40, 0x1000);
		}
		memcpy(img + 0x400 + n * 56, img + PH(1), 56); /* the PT_NOTE */
		if (n == 16) {
			CHECK_EQ(parse(), 0);
			CHECK_EQ(ei.nsegments, 16);
			CHECK_EQ(ei.highest_paddr_end, 0x1010000);
		} else {
			CHECK_BAD("too many loadable segments");
		}
	}
}

static void test_notes(void)
{
	const char *none =
		"no PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY): not a PVH-capable Linux kernel";

	build(4);
	phdr(1, 0x6474e551, 0, 0, 0, 0, 0x10);
	CHECK_BAD(none);
	build(4);
	w32(pvh_desc - 8, 19); /* type */
	CHECK_BAD(none);
	build(4);
	memcpy(pvh_desc - 4, "XEN", 4); /* name */
	CHECK_BAD(none);
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, notes_len - 4, notes_len - 4, 4); /* PVH desc cut off */
	CHECK_BAD("malformed ELF note");
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, notes_len - 20, notes_len - 20, 4); /* ends before it */
	CHECK_BAD(none);
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, notes_len - 20 + 5, notes_len - 20 + 5,
	     4); /* half a header */
	CHECK_BAD("malformed ELF note");
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, 0, 0, 4);
	CHECK_BAD(none);

	build(4);
	w32(img + NOTE_OFF, 0xffffffff); /* namesz of the first note */
	CHECK_BAD("malformed ELF note");
	build(4);
	w32(img + NOTE_OFF, 0xfffffff4); /* 12 + namesz wraps a u32 */
	CHECK_BAD("malformed ELF note");
	build(4);
	w32(img + NOTE_OFF + 4, 0xffffffff); /* descsz */
	CHECK_BAD("malformed ELF note");

	build(4);
	w32(pvh_desc - 12, 2); /* descsz 2 */
	CHECK_BAD("PVH entry note has a bad size");
	build(4);
	w32(pvh_desc - 12, 0);
	CHECK_BAD("PVH entry note has a bad size");

	build(4);
	phdr(1, PT_NOTE, IMG_LEN - 8, 0, 16, 16, 4);
	CHECK_BAD("segment outside the file");
	build(4);
	phdr(1, PT_NOTE, NOTE_OFF, 0, UINT64_MAX, UINT64_MAX, 4);
	CHECK_BAD("segment outside the file");

	/* The entry must be below 4 GiB and inside the file part of a segment. */
	build(8);
	w64(pvh_desc, 0x100000000ull + 0x1000010);
	CHECK_BAD("PVH entry point above 4 GiB");
	build(4);
	w32(pvh_desc, 0);
	CHECK_BAD("PVH entry point outside the loaded code");
	build(4);
	w32(pvh_desc, 0x1000800); /* first byte of bss */
	CHECK_BAD("PVH entry point outside the loaded code");
	build(4);
	w32(pvh_desc, 0xfffffff);
	CHECK_BAD("PVH entry point outside the loaded code");
	build(4);
	w32(pvh_desc, 0x10003ff + 0x100000); /* last byte of segment 1 */
	CHECK_EQ(parse(), 0);
	CHECK_EQ(ei.entry, 0x11003ff);
}

/* Every truncation and many random corruptions must fail cleanly or give a result
 * that is consistent with the buffer. */
static void test_fuzz(void)
{
	static u8 good[IMG_LEN];
	size_t len;
	int i, bad = 0, ok = 0;

	build(4);
	memcpy(good, img, IMG_LEN);
	for (len = 0; len < IMG_LEN; len++)
		if (parse_n(len) != -1 || !why)
			bad++;
	CHECK_EQ(bad, 0);

	srand(1);
	for (i = 0; i < 50000; i++) {
		int k, flips = 1 + rand() % 4;

		memcpy(img, good, IMG_LEN);
		for (k = 0; k < flips; k++) {
			/* Mostly hit the headers and notes, where it matters. */
			size_t at = rand() % 2 ? (size_t)rand() % (PH(3))
					       : NOTE_OFF + (size_t)rand() % notes_len;
			img[at] = (u8)rand();
		}
		if (parse() == 0) {
			u32 s;

			ok++;
			if (ei.nsegments == 0 || ei.nsegments > ELF_MAX_SEGMENTS || why)
				bad++;
			for (s = 0; s < ei.nsegments; s++)
				if (ei.seg[s].filesz > ei.seg[s].memsz ||
				    ei.seg[s].file_offset + ei.seg[s].filesz > IMG_LEN ||
				    ei.seg[s].paddr < ei.lowest_paddr ||
				    ei.seg[s].paddr + ei.seg[s].memsz > ei.highest_paddr_end)
					bad++;
		} else if (!why) {
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(ok > 0);
}

static void test_vmlinux(void)
{
	static const char *paths[] = {
		"build/guests/x86_64/vmlinux",
		"../../../build/guests/x86_64/vmlinux",
	};
	size_t len = 0, i;
	u8 *b = NULL;
	u32 s;

	for (i = 0; i < ARRAY_SIZE(paths) && !b; i++)
		b = read_file(paths[i], &len);
	if (!b) {
		TEST_SKIP("Debian's vmlinux: no build/guests/x86_64/vmlinux (make guests)");
		return;
	}
	why = NULL;
	CHECK_EQ(elf_pvh_parse(b, len, &ei, &why), 0);
	CHECK(why == NULL);
	CHECK(ei.entry != 0);
	CHECK(ei.nsegments >= 1 && ei.nsegments <= ELF_MAX_SEGMENTS);
	CHECK(ei.lowest_paddr >= MiB);
	CHECK(ei.lowest_paddr < ei.highest_paddr_end);
	CHECK(ei.highest_paddr_end < 4 * GiB);
	CHECK(ei.entry >= ei.lowest_paddr && ei.entry < ei.highest_paddr_end);
	for (s = 0; s < ei.nsegments; s++) {
		CHECK(ei.seg[s].filesz <= ei.seg[s].memsz);
		CHECK(ei.seg[s].file_offset + ei.seg[s].filesz <= len);
	}
	printf("vmlinux: %u segments, %#llx..%#llx, PVH entry %#llx\n", ei.nsegments,
	       (unsigned long long)ei.lowest_paddr, (unsigned long long)ei.highest_paddr_end,
	       (unsigned long long)ei.entry);
	free(b);
}

int main(void)
{
	test_good();
	test_header();
	test_segments();
	test_notes();
	test_fuzz();
	test_vmlinux();
	return test_summary();
}
