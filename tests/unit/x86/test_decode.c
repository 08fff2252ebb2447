/* SPDX-License-Identifier: GPL-2.0-only */
/* MMIO instruction decoder: real byte sequences (mostly what Linux's readl/writel and
 * friends compile to) in every addressing form, and the two value helpers. */
#include "../../../arch/x86/alu.c"
#include "../../../arch/x86/decode.c"
#include "../test.h"

static struct x86_mmio_insn in;

#define BYTES(...) ((const u8[]){ __VA_ARGS__ })
#define NBYTES(...) sizeof((const u8[]){ __VA_ARGS__ })
/* Decode in `mode`; the result lands in `in`. */
#define DEC(mode, ...) x86_decode_mmio(BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__), mode, &in)

/* Decodes and checks rc 0, len, size, op and reg in one go. */
#define CHECK_DEC(mode, len_, size_, op_, reg_, ...) \
	do {                                         \
		CHECK_EQ(DEC(mode, __VA_ARGS__), 0); \
		CHECK_EQ(in.len, len_);              \
		CHECK_EQ(in.size, size_);            \
		CHECK_EQ(in.op, op_);                \
		CHECK_EQ(in.reg, reg_);              \
	} while (0)

#define LD X86_MMIO_LOAD
#define ST X86_MMIO_STORE

static void test_basic_mov(void)
{
	/* mov (%rdi),%eax */
	CHECK_DEC(64, 2, 4, LD, 0, 0x8b, 0x07);
	CHECK_EQ(in.dst_size, 4);
	CHECK(!in.has_imm && !in.high8 && !in.sign_extend);
	/* mov %edx,(%rax) */
	CHECK_DEC(64, 2, 4, ST, 2, 0x89, 0x10);
	CHECK(!in.has_imm);
	/* mov 0x10(%rax),%eax with disp32 */
	CHECK_DEC(64, 6, 4, LD, 0, 0x8b, 0x80, 0x10, 0x00, 0x00, 0x00);
	/* mov %eax,0x0(%r13): REX.B, mod 01 rm 101 -> [r13+disp8] */
	CHECK_DEC(64, 4, 4, ST, 0, 0x41, 0x89, 0x45, 0x00);
	/* mov %r8d,0x0(%rbp): REX.R */
	CHECK_DEC(64, 4, 4, ST, 8, 0x44, 0x89, 0x45, 0x00);
	/* mov %r15,(%r14): REX.WRB */
	CHECK_DEC(64, 3, 8, ST, 15, 0x4d, 0x89, 0x3e);
	/* mov 0xfec00000,%rax: SIB with no base and no index */
	CHECK_DEC(64, 8, 8, LD, 0, 0x48, 0x8b, 0x04, 0x25, 0x00, 0x00, 0xc0, 0xfe);
	CHECK_EQ(in.dst_size, 8);
	/* mov %ax,(%rcx) */
	CHECK_DEC(64, 3, 2, ST, 0, 0x66, 0x89, 0x01);
	/* mov (%rcx),%si */
	CHECK_DEC(64, 3, 2, LD, 6, 0x66, 0x8b, 0x31);
	CHECK_EQ(in.dst_size, 2);
	/* REX.W beats 66: mov %rax,(%rcx) */
	CHECK_DEC(64, 4, 8, ST, 0, 0x66, 0x48, 0x89, 0x01);
	/* a REX not right before the opcode is ignored: mov %ax,(%rcx) */
	CHECK_DEC(64, 4, 2, ST, 0, 0x48, 0x66, 0x89, 0x01);
	/* with two REX prefixes the last one counts: 41 -> mov %eax,(%r9) */
	CHECK_DEC(64, 4, 4, ST, 0, 0x48, 0x41, 0x89, 0x01);
	/* lock and segment prefixes are skipped: mov %fs:(%rax),%edx */
	CHECK_DEC(64, 3, 4, ST, 2, 0xf0, 0x89, 0x10);
	CHECK_DEC(64, 3, 4, LD, 2, 0x64, 0x8b, 0x10);
	CHECK_DEC(64, 7, 4, LD, 2, 0x2e, 0x36, 0x3e, 0x26, 0x65, 0x8b, 0x10);
	/* 67 in 64-bit mode: mov (%eax),%eax */
	CHECK_DEC(64, 3, 4, LD, 0, 0x67, 0x8b, 0x00);
}

static void test_byte_regs(void)
{
	/* mov %ah,(%rax): reg field 4 without REX -> AH */
	CHECK_DEC(64, 2, 1, ST, 0, 0x88, 0x20);
	CHECK(in.high8);
	/* with REX (even a bare 40) it is SPL */
	CHECK_DEC(64, 3, 1, ST, 4, 0x40, 0x88, 0x20);
	CHECK(!in.high8);
	/* REX.W does not widen a byte op: mov %spl,(%rax) */
	CHECK_DEC(64, 3, 1, ST, 4, 0x48, 0x88, 0x20);
	CHECK(!in.high8);
	/* mov %r9b,(%rax) */
	CHECK_DEC(64, 3, 1, ST, 9, 0x44, 0x88, 0x08);
	/* mov %al,(%rdx) and mov %cl,(%rdx) */
	CHECK_DEC(64, 2, 1, ST, 0, 0x88, 0x02);
	CHECK(!in.high8);
	CHECK_DEC(64, 2, 1, ST, 1, 0x88, 0x0a);
	/* mov (%rax),%bh -> reg 3, high8 */
	CHECK_DEC(64, 2, 1, LD, 3, 0x8a, 0x38);
	CHECK(in.high8);
	CHECK_EQ(in.dst_size, 1);
	/* mov (%rax),%dil */
	CHECK_DEC(64, 3, 1, LD, 7, 0x40, 0x8a, 0x38);
	CHECK(!in.high8);
	/* mov (%rax),%r8b */
	CHECK_DEC(64, 3, 1, LD, 8, 0x44, 0x8a, 0x00);
	/* 66 does not change a byte op: mov %ch,(%ebx) in 32-bit mode */
	CHECK_DEC(32, 3, 1, ST, 1, 0x66, 0x88, 0x2b);
	CHECK(in.high8);
}

static void test_imm(void)
{
	/* movl $0x12345678,(%rax) */
	CHECK_DEC(64, 6, 4, ST, 0, 0xc7, 0x00, 0x78, 0x56, 0x34, 0x12);
	CHECK(in.has_imm);
	CHECK_EQ(in.imm, 0x12345678);
	/* movq $-1,(%rax): imm32 sign-extended */
	CHECK_DEC(64, 7, 8, ST, 0, 0x48, 0xc7, 0x00, 0xff, 0xff, 0xff, 0xff);
	CHECK_EQ(in.imm, 0xffffffffffffffffull);
	/* movq $0x7fffffff,0x20(%rdi) */
	CHECK_DEC(64, 8, 8, ST, 0, 0x48, 0xc7, 0x47, 0x20, 0xff, 0xff, 0xff, 0x7f);
	CHECK_EQ(in.imm, 0x7fffffff);
	/* movw $0x1234,(%rax) */
	CHECK_DEC(64, 5, 2, ST, 0, 0x66, 0xc7, 0x00, 0x34, 0x12);
	CHECK_EQ(in.imm, 0x1234);
	/* movb $0xab,(%rax) and movb $0x80,0x10(%r12) (SIB + disp8 + imm8) */
	CHECK_DEC(64, 3, 1, ST, 0, 0xc6, 0x00, 0xab);
	CHECK_EQ(in.imm, 0xab);
	CHECK(!in.high8);
	CHECK_DEC(64, 6, 1, ST, 0, 0x41, 0xc6, 0x44, 0x24, 0x10, 0x80);
	CHECK_EQ(in.imm, 0x80);
	/* movl $1,0xfec00000 with disp32 + imm32 */
	CHECK_DEC(64, 11, 4, ST, 0, 0xc7, 0x04, 0x25, 0x00, 0x00, 0xc0, 0xfe, 0x01, 0x00, 0x00,
		  0x00);
	CHECK_EQ(in.imm, 1);
	/* 16-bit mode: movw $0x1234,(%bx); 66 -> movl */
	CHECK_DEC(16, 4, 2, ST, 0, 0xc7, 0x07, 0x34, 0x12);
	CHECK_EQ(in.imm, 0x1234);
	CHECK_DEC(16, 7, 4, ST, 0, 0x66, 0xc7, 0x07, 0x78, 0x56, 0x34, 0x12);
	CHECK_EQ(in.imm, 0x12345678);
	/* only /0 is MOV in groups C6/C7 */
	CHECK_EQ(DEC(64, 0xc6, 0x08, 0x00), -1);
	CHECK_EQ(DEC(64, 0xc7, 0x38, 0x00, 0x00, 0x00, 0x00), -1);
	/* REX.R does not make /0 into /8 either way: 44 c7 00 is still /0 */
	CHECK_DEC(64, 7, 4, ST, 0, 0x44, 0xc7, 0x00, 0x01, 0x00, 0x00, 0x00);
}

static void test_moffs(void)
{
	/* 64-bit mode: 8-byte moffs, 67 gives 4 */
	CHECK_DEC(64, 9, 4, LD, 0, 0xa1, 0x00, 0x00, 0xc0, 0xfe, 0x00, 0x00, 0x00, 0x00);
	CHECK_EQ(in.dst_size, 4);
	CHECK_DEC(64, 10, 8, ST, 0, 0x48, 0xa3, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0);
	CHECK_DEC(64, 6, 4, LD, 0, 0x67, 0xa1, 0x00, 0x00, 0xc0, 0xfe);
	CHECK_DEC(64, 9, 1, LD, 0, 0xa0, 0x00, 0x00, 0xc0, 0xfe, 0x00, 0x00, 0x00, 0x00);
	CHECK(!in.high8);
	CHECK_DEC(64, 10, 2, ST, 0, 0x66, 0xa3, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0);
	/* REX.B does not apply: the register is always rAX */
	CHECK_DEC(64, 10, 4, ST, 0, 0x41, 0xa3, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0);
	/* 32-bit mode: 4 bytes, 67 gives 2 */
	CHECK_DEC(32, 5, 4, LD, 0, 0xa1, 0x00, 0x00, 0xc0, 0xfe);
	CHECK_DEC(32, 4, 1, ST, 0, 0x67, 0xa2, 0x34, 0x12);
	/* 16-bit mode: 2 bytes, 67 gives 4 */
	CHECK_DEC(16, 3, 2, LD, 0, 0xa1, 0x34, 0x12);
	CHECK_DEC(16, 7, 4, ST, 0, 0x66, 0x67, 0xa3, 0x00, 0x00, 0xc0, 0xfe);
	/* cut short */
	CHECK_EQ(DEC(64, 0xa1, 0x00, 0x00, 0xc0, 0xfe), -1);
	CHECK_EQ(DEC(32, 0xa1, 0x00, 0x00, 0xc0), -1);
}

static void test_movzx_movsx(void)
{
	/* movzbl (%rdx),%eax */
	CHECK_DEC(64, 3, 1, LD, 0, 0x0f, 0xb6, 0x02);
	CHECK_EQ(in.dst_size, 4);
	CHECK(!in.sign_extend && !in.high8);
	/* movzwl 0x4(%rdi),%esi */
	CHECK_DEC(64, 4, 2, LD, 6, 0x0f, 0xb7, 0x77, 0x04);
	CHECK_EQ(in.dst_size, 4);
	/* movzbl (%rax),%esp (reg field 4 is never AH for movzx) */
	CHECK_DEC(64, 3, 1, LD, 4, 0x0f, 0xb6, 0x20);
	CHECK(!in.high8);
	/* movzbw (%rcx),%ax */
	CHECK_DEC(64, 4, 1, LD, 0, 0x66, 0x0f, 0xb6, 0x01);
	CHECK_EQ(in.dst_size, 2);
	/* movsbl (%rcx),%eax */
	CHECK_DEC(64, 3, 1, LD, 0, 0x0f, 0xbe, 0x01);
	CHECK(in.sign_extend);
	CHECK_EQ(in.dst_size, 4);
	/* movswq (%rcx),%rax */
	CHECK_DEC(64, 4, 2, LD, 0, 0x48, 0x0f, 0xbf, 0x01);
	CHECK(in.sign_extend);
	CHECK_EQ(in.dst_size, 8);
	/* movzwq 0x10(%r8),%r11 */
	CHECK_DEC(64, 5, 2, LD, 11, 0x4d, 0x0f, 0xb7, 0x58, 0x10);
	CHECK_EQ(in.dst_size, 8);
	/* movslq (%rdi),%rax: what a compiler makes of long x = *(volatile int *)p */
	CHECK_DEC(64, 3, 4, LD, 0, 0x48, 0x63, 0x07);
	CHECK(in.sign_extend);
	CHECK_EQ(in.dst_size, 8);
	{
		u64 regs[16] = { 0 };
		x86_mmio_load_complete(&in, regs, 0x80000001u);
		CHECK_EQ(regs[0], 0xffffffff80000001ull);
	}
	/* movsxd without REX.W: a 32-bit MOV, zero-extending */
	CHECK_DEC(64, 2, 4, LD, 0, 0x63, 0x07);
	CHECK(!in.sign_extend);
	CHECK_EQ(in.dst_size, 4);
	/* 63 outside 64-bit mode is ARPL */
	CHECK_EQ(DEC(32, 0x63, 0x07), -1);
	/* other 0F opcodes and a lone 0F */
	CHECK_EQ(DEC(64, 0x0f, 0x0b), -1);
	CHECK_EQ(DEC(64, 0x0f, 0xb8, 0x00), -1);
	CHECK_EQ(DEC(64, 0x0f), -1);
	CHECK_EQ(DEC(64, 0x0f, 0xb6), -1);
}

static void test_modrm_32_64(void)
{
	/* (%rsp): rm=100 -> SIB */
	CHECK_DEC(64, 3, 4, LD, 0, 0x8b, 0x04, 0x24);
	/* 0x8(%rsp) */
	CHECK_DEC(64, 4, 4, LD, 0, 0x8b, 0x44, 0x24, 0x08);
	/* 0x100(%rsp) */
	CHECK_DEC(64, 7, 4, LD, 0, 0x8b, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00);
	/* disp32(,%rcx,4): SIB base=101 with mod 00 -> no base, disp32 */
	CHECK_DEC(64, 7, 4, LD, 0, 0x8b, 0x04, 0x8d, 0x00, 0x00, 0xc0, 0xfe);
	/* 0x8(%rbp,%rcx,4): base=101 with mod 01 is rbp + disp8 */
	CHECK_DEC(64, 4, 4, LD, 0, 0x8b, 0x44, 0x8d, 0x08);
	/* 0x0(%r13,%rcx,4): REX.B; still mod 01 */
	CHECK_DEC(64, 5, 4, LD, 0, 0x41, 0x8b, 0x44, 0x8d, 0x00);
	/* (%r12): REX.B does not change the need for a SIB */
	CHECK_DEC(64, 4, 4, LD, 0, 0x41, 0x8b, 0x04, 0x24);
	/* 0x0(%r13): REX.B does not change rm=101 mod=01 */
	CHECK_DEC(64, 4, 4, LD, 0, 0x41, 0x8b, 0x45, 0x00);
	/* disp32(,%rcx,1) with REX.B: base=101 mod=00 stays "no base, disp32" */
	CHECK_DEC(64, 8, 4, LD, 0, 0x41, 0x8b, 0x04, 0x0d, 0x00, 0x00, 0xc0, 0xfe);
	/* (%rax,%r12,1): REX.X, index 100 with X is r12 */
	CHECK_DEC(64, 4, 4, LD, 0, 0x42, 0x8b, 0x04, 0x20);
	/* (%rax,%rbx,8) */
	CHECK_DEC(64, 3, 4, LD, 0, 0x8b, 0x04, 0xd8);
	/* 0x12345678(%rax,%rbx,2) */
	CHECK_DEC(64, 7, 4, LD, 0, 0x8b, 0x84, 0x58, 0x78, 0x56, 0x34, 0x12);
	/* RIP-relative: mov 0x100(%rip),%eax */
	CHECK_DEC(64, 6, 4, LD, 0, 0x8b, 0x05, 0x00, 0x01, 0x00, 0x00);
	/* RIP-relative with REX.B still disp32 (r13 is not used) */
	CHECK_DEC(64, 7, 4, LD, 0, 0x41, 0x8b, 0x05, 0x00, 0x01, 0x00, 0x00);
	/* 32-bit mode: mod 00 rm 101 is [disp32] */
	CHECK_DEC(32, 6, 4, LD, 0, 0x8b, 0x05, 0x00, 0x00, 0xc0, 0xfe);
	CHECK_DEC(32, 3, 2, ST, 2, 0x66, 0x89, 0x10);
	CHECK_DEC(32, 3, 4, ST, 0, 0x89, 0x04, 0x24);
	/* 16-bit mode with 67: 32-bit addressing, SIB */
	CHECK_DEC(16, 4, 2, LD, 0, 0x67, 0x8b, 0x04, 0x24);
	CHECK_DEC(16, 7, 2, LD, 0, 0x67, 0x8b, 0x05, 0x00, 0x00, 0xc0, 0xfe);
	/* in 32-bit mode 48 is DEC EAX, not REX */
	CHECK_EQ(DEC(32, 0x48, 0x8b, 0x07), -1);
}

static void test_modrm_16(void)
{
	/* mov (%bx),%ax */
	CHECK_DEC(16, 2, 2, LD, 0, 0x8b, 0x07);
	/* mod 00 rm 110 -> [disp16] */
	CHECK_DEC(16, 4, 2, LD, 0, 0x8b, 0x06, 0x34, 0x12);
	/* 0x10(%bx), disp8 */
	CHECK_DEC(16, 3, 2, LD, 0, 0x8b, 0x47, 0x10);
	/* mod 01 rm 110 is [bp+disp8], not disp16 */
	CHECK_DEC(16, 3, 2, LD, 0, 0x8b, 0x46, 0x10);
	/* 0x1234(%bx), disp16 */
	CHECK_DEC(16, 4, 2, LD, 0, 0x8b, 0x87, 0x34, 0x12);
	/* rm 100 is [si]: no SIB in 16-bit addressing */
	CHECK_DEC(16, 2, 2, LD, 0, 0x8b, 0x04);
	/* 66: mov (%bx),%eax */
	CHECK_DEC(16, 3, 4, LD, 0, 0x66, 0x8b, 0x07);
	CHECK_EQ(in.dst_size, 4);
	/* 32-bit mode with 67 uses 16-bit addressing */
	CHECK_DEC(32, 5, 4, LD, 0, 0x67, 0x8b, 0x06, 0x34, 0x12);
	CHECK_DEC(32, 3, 4, LD, 0, 0x67, 0x8b, 0x04, 0x24); /* 24 is not part of it */
	CHECK_DEC(32, 5, 4, LD, 0, 0x67, 0x8b, 0x80, 0x34, 0x12);
	/* movzbw (%si),%dx in 16-bit mode */
	CHECK_DEC(16, 3, 1, LD, 2, 0x0f, 0xb6, 0x14);
	CHECK_EQ(in.dst_size, 2);
}

static void test_reject(void)
{
	u8 buf[32];
	size_t i;

	/* register operands are not memory accesses */
	CHECK_EQ(DEC(64, 0x89, 0xc0), -1);
	CHECK_EQ(DEC(64, 0x8b, 0xc8), -1);
	CHECK_EQ(DEC(64, 0x88, 0xe0), -1);
	CHECK_EQ(DEC(64, 0xc7, 0xc0, 0x01, 0x00, 0x00, 0x00), -1);
	CHECK_EQ(DEC(64, 0x0f, 0xb6, 0xc0), -1);
	/* unsupported opcodes and prefixes */
	CHECK_EQ(DEC(64, 0xff, 0x10), -1); /* call *(%rax) */
	CHECK_EQ(DEC(64, 0xa5), -1);	   /* movs */
	CHECK_EQ(DEC(64, 0xf3, 0x89, 0x00), -1);
	CHECK_EQ(DEC(64, 0xf2, 0x89, 0x00), -1);
	/* bad mode, nothing at all, only prefixes */
	CHECK_EQ(DEC(48, 0x8b, 0x07), -1);
	CHECK_EQ(x86_decode_mmio(BYTES(0x8b, 0x07), 0, 64, &in), -1);
	CHECK_EQ(x86_decode_mmio(NULL, 4, 64, &in), -1);
	CHECK_EQ(DEC(64, 0x66, 0x48), -1);
	/* cut short at each part: ModRM, SIB, disp8, disp32, imm */
	CHECK_EQ(DEC(64, 0x8b), -1);
	CHECK_EQ(DEC(64, 0x8b, 0x04), -1);
	CHECK_EQ(DEC(64, 0x8b, 0x44, 0x24), -1);
	CHECK_EQ(DEC(64, 0x8b, 0x80, 0x00, 0x00, 0x00), -1);
	CHECK_EQ(DEC(64, 0x8b, 0x04, 0x25, 0x00, 0x00, 0xc0), -1);
	CHECK_EQ(DEC(64, 0xc7, 0x00, 0x01, 0x02, 0x03), -1);
	CHECK_EQ(DEC(64, 0xc6, 0x00), -1);
	CHECK_EQ(DEC(16, 0x8b, 0x06, 0x34), -1);
	/* avail shorter than the bytes given */
	CHECK_EQ(x86_decode_mmio(BYTES(0x8b, 0x80, 0, 0, 0, 0), 5, 64, &in), -1);
	CHECK_EQ(x86_decode_mmio(BYTES(0x8b, 0x80, 0, 0, 0, 0), 6, 64, &in), 0);

	/* 15 bytes is the architectural limit */
	memset(buf, 0x3e, sizeof(buf));
	buf[13] = 0x8b;
	buf[14] = 0x07;
	CHECK_EQ(x86_decode_mmio(buf, sizeof(buf), 64, &in), 0);
	CHECK_EQ(in.len, 15);
	memset(buf, 0x3e, sizeof(buf));
	buf[14] = 0x8b;
	buf[15] = 0x07;
	CHECK_EQ(x86_decode_mmio(buf, sizeof(buf), 64, &in), -1);
	/* every truncation of a long instruction fails, the full one succeeds */
	{
		const u8 *full = BYTES(0x65, 0x48, 0xc7, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00, 0xff,
				       0xff, 0xff, 0xff);
		for (i = 0; i < 13; i++)
			CHECK_EQ(x86_decode_mmio(full, i, 64, &in), -1);
		CHECK_EQ(x86_decode_mmio(full, 13, 64, &in), 0);
		CHECK_EQ(in.len, 13);
		CHECK_EQ(in.size, 8);
		CHECK_EQ(in.imm, ~0ull);
	}
	/* a failed decode leaves nothing stale behind */
	CHECK_EQ(DEC(64, 0xc7, 0x00, 0x01, 0x00, 0x00, 0x00), 0);
	CHECK_EQ(DEC(64, 0x89, 0xc0), -1);
	CHECK(!in.has_imm && in.imm == 0 && in.len == 0);
}

#define RMW X86_MMIO_RMW

/* Decodes an RMW and checks rc 0, len, size and the operation in one go. */
#define CHECK_RMW(mode, len_, size_, alu_, ...)                         \
	do {                                                            \
		CHECK_DEC(mode, len_, size_, RMW, in.reg, __VA_ARGS__); \
		CHECK_EQ(in.alu, alu_);                                 \
	} while (0)

/* The read-modify-write forms with the memory operand as destination: the ALU group
 * with a register and with an immediate, TEST, NOT/NEG, INC/DEC, XCHG (kvm-unit-tests'
 * hpet_read_test and emulator test, firmware's `*reg |= bit`, Linux's xchg-based xAPIC
 * write for the 11AP erratum). */
static void test_rmw(void)
{
	/* orq $1,(%rax): hpet_read_test's enable of the HPET */
	CHECK_RMW(64, 4, 8, X86_ALU_OR, 0x48, 0x83, 0x08, 0x01);
	CHECK(in.has_imm);
	CHECK_EQ(in.imm, 1);
	CHECK(x86_mmio_writes(&in));
	/* andq $-2,(%rax): imm8 sign-extended to 64 bits */
	CHECK_RMW(64, 4, 8, X86_ALU_AND, 0x48, 0x83, 0x20, 0xfe);
	CHECK_EQ(in.imm, 0xfffffffffffffffeull);
	/* andl $-2,(%rax): to 32 bits */
	CHECK_RMW(64, 3, 4, X86_ALU_AND, 0x83, 0x20, 0xfe);
	CHECK_EQ(in.imm, 0xfffffffe);
	/* the emulator test: or/add/xor/sub/adc/sbb %eax,0x1000(%r12) */
	CHECK_RMW(64, 8, 4, X86_ALU_OR, 0x41, 0x09, 0x84, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_EQ(in.reg, 0);
	CHECK(!in.has_imm);
	CHECK_EQ(in.mem.base, 12);
	CHECK_EQ(in.mem.disp, 0x1000);
	CHECK_RMW(64, 8, 4, X86_ALU_ADD, 0x41, 0x01, 0x84, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_RMW(64, 8, 4, X86_ALU_XOR, 0x41, 0x31, 0x84, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_RMW(64, 8, 4, X86_ALU_SUB, 0x41, 0x29, 0x84, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_RMW(64, 8, 4, X86_ALU_ADC, 0x41, 0x11, 0x9c, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_EQ(in.reg, 3);
	CHECK_RMW(64, 8, 4, X86_ALU_SBB, 0x41, 0x19, 0x9c, 0x24, 0x00, 0x10, 0x00, 0x00);
	CHECK_RMW(64, 8, 4, X86_ALU_AND, 0x41, 0x21, 0x84, 0x24, 0x00, 0x10, 0x00, 0x00);
	/* cmpl $0x9235,0x1000(%r12): reads only */
	CHECK_RMW(64, 12, 4, X86_ALU_CMP, 0x41, 0x81, 0xbc, 0x24, 0x00, 0x10, 0x00, 0x00, 0x35,
		  0x92, 0x00, 0x00);
	CHECK_EQ(in.imm, 0x9235);
	CHECK(!x86_mmio_writes(&in));
	/* cmp %dl,(%rax); test %edx,(%rax); testb $0x80,0x10(%rax); testl $imm32,(%rax) */
	CHECK_RMW(64, 2, 1, X86_ALU_CMP, 0x38, 0x10);
	CHECK_EQ(in.reg, 2);
	CHECK_RMW(64, 2, 4, X86_ALU_TEST, 0x85, 0x10);
	CHECK(!x86_mmio_writes(&in));
	CHECK_RMW(64, 4, 1, X86_ALU_TEST, 0xf6, 0x40, 0x10, 0x80);
	CHECK_EQ(in.imm, 0x80);
	CHECK_RMW(64, 6, 4, X86_ALU_TEST, 0xf7, 0x00, 0x00, 0x00, 0x00, 0x80);
	CHECK_EQ(in.imm, 0x80000000);
	/* addq $0x80000000 sign-extends; addw $0x1234; addb $0x80,(%rax) */
	CHECK_RMW(64, 7, 8, X86_ALU_ADD, 0x48, 0x81, 0x00, 0x00, 0x00, 0x00, 0x80);
	CHECK_EQ(in.imm, 0xffffffff80000000ull);
	CHECK_RMW(64, 5, 2, X86_ALU_ADD, 0x66, 0x81, 0x00, 0x34, 0x12);
	CHECK_EQ(in.imm, 0x1234);
	CHECK_RMW(64, 3, 1, X86_ALU_ADD, 0x80, 0x00, 0x80);
	CHECK_EQ(in.imm, 0x80);
	/* lock incl (%rax), decb (%rax), lock negq (%rax), notb (%rax): no operand */
	CHECK_RMW(64, 3, 4, X86_ALU_INC, 0xf0, 0xff, 0x00);
	CHECK(!in.has_imm && in.reg == 0 && !in.high8);
	CHECK_RMW(64, 2, 1, X86_ALU_DEC, 0xfe, 0x08);
	CHECK_RMW(64, 4, 8, X86_ALU_NEG, 0xf0, 0x48, 0xf7, 0x18);
	CHECK_RMW(64, 2, 1, X86_ALU_NOT, 0xf6, 0x10);
	/* REX.R does not make /1 into /9: 44 ff 08 is decl */
	CHECK_RMW(64, 3, 4, X86_ALU_DEC, 0x44, 0xff, 0x08);
	CHECK_EQ(in.reg, 0);
	/* xchg %edx,(%rax) loads its register: dst_size; xchg %ah,(%rax); xchg %r8,(%rsi) */
	CHECK_RMW(64, 2, 4, X86_ALU_XCHG, 0x87, 0x10);
	CHECK_EQ(in.reg, 2);
	CHECK_EQ(in.dst_size, 4);
	CHECK(x86_mmio_writes(&in));
	CHECK_RMW(64, 2, 1, X86_ALU_XCHG, 0x86, 0x20);
	CHECK(in.high8 && in.reg == 0 && in.dst_size == 1);
	CHECK_RMW(64, 3, 8, X86_ALU_XCHG, 0x4c, 0x87, 0x06);
	CHECK_EQ(in.reg, 8);
	CHECK_EQ(in.dst_size, 8);
	/* the others load no register */
	CHECK_RMW(64, 2, 4, X86_ALU_ADD, 0x01, 0x10);
	CHECK_EQ(in.dst_size, 0);
	/* 16-bit mode: addw $1,(%bx); 66 orl $0x100,(%bx) */
	CHECK_RMW(16, 3, 2, X86_ALU_ADD, 0x83, 0x07, 0x01);
	CHECK_RMW(16, 7, 4, X86_ALU_OR, 0x66, 0x81, 0x0f, 0x00, 0x01, 0x00, 0x00);
	CHECK_EQ(in.imm, 0x100);

	/* refused: register operands, register destinations, the other group members,
	 * string, bit, exchange-and-add and compare-and-exchange instructions */
	CHECK_EQ(DEC(64, 0x83, 0xc0, 0x01), -1);	     /* add $1,%eax */
	CHECK_EQ(DEC(64, 0x48, 0xf7, 0xd0), -1);	     /* not %rax */
	CHECK_EQ(DEC(64, 0x03, 0x00), -1);		     /* add (%rax),%eax */
	CHECK_EQ(DEC(64, 0x3b, 0x00), -1);		     /* cmp (%rax),%eax */
	CHECK_EQ(DEC(64, 0x05, 0x01, 0x00, 0x00, 0x00), -1); /* add $1,%eax */
	CHECK_EQ(DEC(64, 0x82, 0x00, 0x01), -1);	     /* invalid in 64-bit mode */
	CHECK_EQ(DEC(64, 0xf6, 0x08, 0x01), -1);	     /* F6 /1 */
	CHECK_EQ(DEC(64, 0xf7, 0x20), -1);		     /* mull (%rax) */
	CHECK_EQ(DEC(64, 0xf7, 0x38), -1);		     /* idivl (%rax) */
	CHECK_EQ(DEC(64, 0xfe, 0x10), -1);		     /* FE /2 */
	CHECK_EQ(DEC(64, 0xff, 0x30), -1);		     /* push (%rax) */
	CHECK_EQ(DEC(64, 0x0f, 0xc1, 0x00), -1);	     /* xadd */
	CHECK_EQ(DEC(64, 0x0f, 0xb1, 0x10), -1);	     /* cmpxchg */
	CHECK_EQ(DEC(64, 0x0f, 0xab, 0x00), -1);	     /* bts */
	CHECK_EQ(DEC(64, 0x0f, 0xba, 0x28, 0x01), -1);	     /* btsl $1,(%rax) */
	CHECK_EQ(DEC(64, 0xf3, 0xa7), -1);		     /* repe cmpsl */
	CHECK_EQ(DEC(64, 0xd1, 0x20), -1);		     /* shll (%rax) */
	/* cut short: the immediate */
	CHECK_EQ(DEC(64, 0x83, 0x00), -1);
	CHECK_EQ(DEC(64, 0x81, 0x00, 0x01, 0x02, 0x03), -1);
	CHECK_EQ(DEC(16, 0x81, 0x07, 0x01), -1);
	CHECK_EQ(DEC(64, 0xf7, 0x00, 0x01), -1);
}

/* An RMW's arithmetic on the value read: the source register or immediate, the flags, the
 * register of XCHG left for its completion. */
static void test_rmw_value(void)
{
	u64 gpr[16] = { 0 }, rflags;

	gpr[0] = 0x8001;
	gpr[3] = 0x100;
	/* or %eax,(%r12) on 0x1234; then adc %ebx with CF set: the emulator test's values */
	CHECK_EQ(DEC(64, 0x41, 0x09, 0x04, 0x24), 0);
	rflags = 0x2 | X86_RFLAGS_CF | X86_RFLAGS_OF;
	CHECK_EQ(x86_mmio_rmw(&in, gpr, &rflags, 0x1234), 0x9235);
	CHECK_EQ(rflags, 0x2 | X86_RFLAGS_PF); /* CF and OF cleared, 0x35 has 4 ones */
	CHECK_EQ(DEC(64, 0x41, 0x11, 0x1c, 0x24), 0);
	rflags = 0x202 | X86_RFLAGS_CF;
	CHECK_EQ(x86_mmio_rmw(&in, gpr, &rflags, 0x8400), 0x8501);
	CHECK_EQ(rflags, 0x202);
	/* orq $1 on nothing (all-ones): all-ones written back, SF set */
	CHECK_EQ(DEC(64, 0x48, 0x83, 0x08, 0x01), 0);
	rflags = 0x2;
	CHECK_EQ(x86_mmio_rmw(&in, gpr, &rflags, ~0ull), ~0ull);
	CHECK_EQ(rflags, 0x2 | X86_RFLAGS_SF | X86_RFLAGS_PF);
	/* cmpl $0x9235 against 0x9235: ZF, nothing to write */
	CHECK_EQ(DEC(64, 0x81, 0x38, 0x35, 0x92, 0x00, 0x00), 0);
	rflags = 0x2;
	x86_mmio_rmw(&in, gpr, &rflags, 0x9235);
	CHECK_EQ(rflags, 0x2 | X86_RFLAGS_ZF | X86_RFLAGS_PF);
	/* xchg %ah,(%rax): the memory gets AH; AH gets the old byte once completed */
	gpr[0] = 0x1234;
	CHECK_EQ(DEC(64, 0x86, 0x20), 0);
	rflags = 0x2 | X86_RFLAGS_CF;
	CHECK_EQ(x86_mmio_rmw(&in, gpr, &rflags, 0x5a), 0x12);
	CHECK_EQ(rflags, 0x2 | X86_RFLAGS_CF);
	CHECK_EQ(gpr[0], 0x1234);
	x86_mmio_load_complete(&in, gpr, 0x5a);
	CHECK_EQ(gpr[0], 0x5a34);
	/* lock decb on 0: 0xff, a borrow only for SUB (DEC keeps CF) */
	CHECK_EQ(DEC(64, 0xf0, 0xfe, 0x08), 0);
	rflags = 0x2;
	CHECK_EQ(x86_mmio_rmw(&in, gpr, &rflags, 0), 0xff);
	CHECK_EQ(rflags, 0x2 | X86_RFLAGS_SF | X86_RFLAGS_PF | X86_RFLAGS_AF);
}

static void test_store_value(void)
{
	u64 gpr[16];
	size_t i;

	for (i = 0; i < 16; i++)
		gpr[i] = 0x1111111111111111ull * i + 0x0102030405060708ull;
	gpr[0] = 0x8877665544332211ull;
	gpr[2] = 0xfedcba9876543210ull;

	CHECK_EQ(DEC(64, 0x89, 0x10), 0); /* mov %edx,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x76543210);
	CHECK_EQ(DEC(64, 0x48, 0x89, 0x10), 0); /* mov %rdx,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0xfedcba9876543210ull);
	CHECK_EQ(DEC(64, 0x66, 0x89, 0x01), 0); /* mov %ax,(%rcx) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x2211);
	CHECK_EQ(DEC(64, 0x88, 0x02), 0); /* mov %al,(%rdx) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x11);
	CHECK_EQ(DEC(64, 0x88, 0x20), 0); /* mov %ah,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x22);
	CHECK_EQ(DEC(64, 0x88, 0x30), 0); /* mov %dh,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x32);
	CHECK_EQ(DEC(64, 0x40, 0x88, 0x20), 0); /* mov %spl,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), gpr[4] & 0xff);
	CHECK_EQ(DEC(64, 0x4c, 0x89, 0x38), 0); /* mov %r15,(%rax) */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), gpr[15]);
	CHECK_EQ(DEC(64, 0x48, 0xa3, 0, 0, 0xc0, 0xfe, 0, 0, 0, 0), 0); /* movabs %rax */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), gpr[0]);
	CHECK_EQ(DEC(64, 0xa2, 0, 0, 0xc0, 0xfe, 0, 0, 0, 0), 0); /* movabs %al */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x11);
	CHECK_EQ(DEC(64, 0xc7, 0x00, 0x78, 0x56, 0x34, 0x12), 0);
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x12345678);
	CHECK_EQ(DEC(64, 0xc7, 0x00, 0xfe, 0xff, 0xff, 0xff), 0); /* 32-bit: no extension */
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0xfffffffe);
	CHECK_EQ(DEC(64, 0x48, 0xc7, 0x00, 0xfe, 0xff, 0xff, 0xff), 0);
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0xfffffffffffffffeull);
	CHECK_EQ(DEC(64, 0xc6, 0x00, 0x5a), 0);
	CHECK_EQ(x86_mmio_store_value(&in, gpr), 0x5a);
}

static void test_load_complete(void)
{
	const u64 old = 0x8877665544332211ull;
	u64 gpr[16];

#define RESET()                                    \
	do {                                       \
		for (size_t _i = 0; _i < 16; _i++) \
			gpr[_i] = old;             \
	} while (0)
	/* mov (%rdi),%eax: a 32-bit destination zero-extends */
	RESET();
	CHECK_EQ(DEC(64, 0x8b, 0x07), 0);
	x86_mmio_load_complete(&in, gpr, 0xdeadbeef);
	CHECK_EQ(gpr[0], 0xdeadbeef);
	CHECK_EQ(gpr[7], old);
	/* bits above insn->size in value are dropped */
	x86_mmio_load_complete(&in, gpr, 0xffffffff00000005ull);
	CHECK_EQ(gpr[0], 5);
	/* mov (%rdi),%rax */
	RESET();
	CHECK_EQ(DEC(64, 0x48, 0x8b, 0x07), 0);
	x86_mmio_load_complete(&in, gpr, 0x0123456789abcdefull);
	CHECK_EQ(gpr[0], 0x0123456789abcdefull);
	/* mov (%rcx),%si keeps bits 63:16 */
	RESET();
	CHECK_EQ(DEC(64, 0x66, 0x8b, 0x31), 0);
	x86_mmio_load_complete(&in, gpr, 0xabcd);
	CHECK_EQ(gpr[6], 0x887766554433abcdull);
	/* mov (%rax),%r8b keeps bits 63:8 */
	RESET();
	CHECK_EQ(DEC(64, 0x44, 0x8a, 0x00), 0);
	x86_mmio_load_complete(&in, gpr, 0xfe);
	CHECK_EQ(gpr[8], 0x88776655443322feull);
	/* mov (%rax),%bh writes bits 15:8 of rbx only */
	RESET();
	CHECK_EQ(DEC(64, 0x8a, 0x38), 0);
	x86_mmio_load_complete(&in, gpr, 0x1fe);
	CHECK_EQ(gpr[3], 0x887766554433fe11ull);
	CHECK_EQ(gpr[7], old);
	/* mov (%rax),%dil */
	RESET();
	CHECK_EQ(DEC(64, 0x40, 0x8a, 0x38), 0);
	x86_mmio_load_complete(&in, gpr, 0xfe);
	CHECK_EQ(gpr[7], 0x88776655443322feull);
	CHECK_EQ(gpr[3], old);
	/* movzbl (%rdx),%eax */
	RESET();
	CHECK_EQ(DEC(64, 0x0f, 0xb6, 0x02), 0);
	x86_mmio_load_complete(&in, gpr, 0x80);
	CHECK_EQ(gpr[0], 0x80);
	/* movzbw (%rcx),%ax keeps bits 63:16 */
	RESET();
	CHECK_EQ(DEC(64, 0x66, 0x0f, 0xb6, 0x01), 0);
	x86_mmio_load_complete(&in, gpr, 0x80);
	CHECK_EQ(gpr[0], 0x8877665544330080ull);
	/* movsbl (%rcx),%eax: sign-extends to 32, then zero-extends to 64 */
	RESET();
	CHECK_EQ(DEC(64, 0x0f, 0xbe, 0x01), 0);
	x86_mmio_load_complete(&in, gpr, 0x80);
	CHECK_EQ(gpr[0], 0xffffff80);
	x86_mmio_load_complete(&in, gpr, 0x7f);
	CHECK_EQ(gpr[0], 0x7f);
	/* movsbq (%rcx),%rax */
	RESET();
	CHECK_EQ(DEC(64, 0x48, 0x0f, 0xbe, 0x01), 0);
	x86_mmio_load_complete(&in, gpr, 0x80);
	CHECK_EQ(gpr[0], 0xffffffffffffff80ull);
	/* movswq (%rcx),%rax */
	RESET();
	CHECK_EQ(DEC(64, 0x48, 0x0f, 0xbf, 0x01), 0);
	x86_mmio_load_complete(&in, gpr, 0x8001);
	CHECK_EQ(gpr[0], 0xffffffffffff8001ull);
	/* movsbw (%rcx),%ax keeps bits 63:16 */
	RESET();
	CHECK_EQ(DEC(64, 0x66, 0x0f, 0xbe, 0x01), 0);
	x86_mmio_load_complete(&in, gpr, 0x90);
	CHECK_EQ(gpr[0], 0x887766554433ff90ull);
	/* movzwq 0x10(%r8),%r11 */
	RESET();
	CHECK_EQ(DEC(64, 0x4d, 0x0f, 0xb7, 0x58, 0x10), 0);
	x86_mmio_load_complete(&in, gpr, 0xffff);
	CHECK_EQ(gpr[11], 0xffff);
	/* mov moffs,%al keeps bits 63:8 */
	RESET();
	CHECK_EQ(DEC(32, 0xa0, 0x00, 0x00, 0xc0, 0xfe), 0);
	x86_mmio_load_complete(&in, gpr, 0x42);
	CHECK_EQ(gpr[0], 0x8877665544332242ull);
	/* 16-bit mode: mov (%bx),%ax */
	RESET();
	CHECK_EQ(DEC(16, 0x8b, 0x07), 0);
	x86_mmio_load_complete(&in, gpr, 0x1234);
	CHECK_EQ(gpr[0], 0x8877665544331234ull);
#undef RESET
}

static void test_mov_to_cr(void)
{
	u8 cr, reg, len;
#define MOVCR(...) x86_decode_mov_to_cr(BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__), &cr, &reg, &len)
	CHECK_EQ(MOVCR(0x44, 0x0f, 0x22, 0xc0), 0); /* mov %rax,%cr8 */
	CHECK_EQ(cr, 8);
	CHECK_EQ(reg, 0);
	CHECK_EQ(len, 4);
	CHECK_EQ(MOVCR(0x45, 0x0f, 0x22, 0xc7), 0); /* mov %r15,%cr8 */
	CHECK_EQ(cr, 8);
	CHECK_EQ(reg, 15);
	CHECK_EQ(MOVCR(0x66, 0x44, 0x0f, 0x22, 0xc3), 0); /* an ignored prefix */
	CHECK_EQ(reg, 3);
	CHECK_EQ(len, 5);
	CHECK_EQ(MOVCR(0x0f, 0x22, 0xe0), 0); /* mov %rax,%cr4 */
	CHECK_EQ(cr, 4);
	CHECK_EQ(len, 3);
	CHECK_EQ(MOVCR(0x44, 0x0f, 0x20, 0xc0), -1); /* a read */
	CHECK_EQ(MOVCR(0x44, 0x0f, 0x22), -1);	     /* cut short */
	CHECK_EQ(MOVCR(0xf0, 0x0f, 0x22, 0xc0), -1); /* LOCK: AMD's alternative, not offered */
#undef MOVCR
}

/* The GPRs the linear-address tests use: rax 0x100000, rcx 0x200000, ..., r15 0x1000000,
 * each with bits above 32 set where truncation matters. */
static u64 la_gpr[16];
#define LA_RIP 0x400000ull
/* Decodes in `mode` (must succeed) and gives the linear address with segment base `base`. */
static u64 la_of(int mode, u64 base, const u8 *bytes, size_t n)
{
	CHECK_EQ(x86_decode_mmio(bytes, n, mode, &in), 0);
	return x86_mmio_linear_address(&in, mode, la_gpr, LA_RIP, base);
}
#define LA(mode, base, ...) la_of(mode, base, BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__))

/* The effective address in every addressing form, the segment it is in, and the linear
 * address: the segment base where it counts, the wrap at the address size. */
static void test_linear_address(void)
{
	for (unsigned i = 0; i < 16; i++)
		la_gpr[i] = 0x100000ull * (i + 1);

	/* 64-bit mode */
	CHECK_EQ(LA(64, 0, 0x8b, 0x07), 0x800000); /* (%rdi) */
	CHECK_EQ(in.mem.seg, X86_SEG_DS);
	CHECK_EQ(LA(64, 0, 0x8b, 0x80, 0x10, 0x00, 0x00, 0x00), 0x100010); /* 0x10(%rax) */
	CHECK_EQ(LA(64, 0, 0x41, 0x8b, 0x45, 0xf8), 0xe00000 - 8);	   /* -8(%r13) */
	CHECK_EQ(LA(64, 0, 0x8b, 0x04, 0x24), 0x500000);		   /* (%rsp) */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(64, 0, 0x8b, 0x44, 0x8d, 0x08),
		 0x600000 + 4 * 0x200000 + 8); /* 8(%rbp,%rcx,4) */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(64, 0, 0x42, 0x8b, 0x04, 0x20), 0x100000 + 0xd00000); /* (%rax,%r12,1) */
	CHECK_EQ(LA(64, 0, 0x8b, 0x04, 0x20), 0x100000);		  /* index 100: none */
	CHECK_EQ(LA(64, 0, 0x8b, 0x84, 0x58, 0x78, 0x56, 0x34, 0x12), /* 0x12345678(%rax,%rbx,2) */
		 0x12345678 + 0x100000 + 2 * 0x400000);
	/* disp32(,%rcx,4) and an absolute disp32: sign-extended to 64 bits */
	CHECK_EQ(LA(64, 0, 0x8b, 0x04, 0x8d, 0x00, 0x00, 0xc0, 0xfe),
		 0xfffffffffec00000 + 0x800000);
	CHECK_EQ(LA(64, 0, 0x48, 0x8b, 0x04, 0x25, 0x00, 0x00, 0xc0, 0xfe), 0xfffffffffec00000);
	/* SIB base 101 with REX.B and mod 01 is r13 */
	CHECK_EQ(LA(64, 0, 0x41, 0x8b, 0x44, 0x25, 0x10), 0xe00000 + 0x10);
	/* RIP-relative: from the next instruction */
	CHECK_EQ(LA(64, 0, 0x8b, 0x05, 0x00, 0x01, 0x00, 0x00), LA_RIP + 6 + 0x100);
	CHECK_EQ(LA(64, 0, 0x48, 0x8b, 0x05, 0xf0, 0xff, 0xff, 0xff), LA_RIP + 7 - 0x10);
	CHECK_EQ(in.mem.base, X86_RIP_BASE);
	/* moffs: the offset as it stands, 8 bytes (4 with 67, zero-extended) */
	CHECK_EQ(LA(64, 0, 0xa1, 0x10, 0x00, 0x00, 0xd0, 0x00, 0x00, 0x00, 0x00), 0xd0000010);
	CHECK_EQ(LA(64, 0, 0x67, 0xa1, 0x10, 0x00, 0x00, 0xfe), 0xfe000010);
	/* 67: 32-bit addresses, RIP-relative ones too (EIP) */
	la_gpr[0] = 0x100100000ull;
	CHECK_EQ(LA(64, 0, 0x67, 0x8b, 0x00), 0x100000);
	la_gpr[0] = 0xfffffff0ull;
	CHECK_EQ(LA(64, 0, 0x67, 0x8b, 0x40, 0x20), 0x10); /* 0x20(%eax) wraps */
	la_gpr[0] = 0x100000;
	CHECK_EQ(LA(64, 0, 0x67, 0x8b, 0x05, 0x00, 0x00, 0x00, 0x00), LA_RIP + 7);
	CHECK_EQ(x86_mmio_linear_address(&in, 64, la_gpr, 0x1fffffff8ull, 0), 0xffffffff);
	/* segment bases: FS and GS count, the others not (SDM Vol. 3 3.2.4) */
	CHECK_EQ(LA(64, 0x7f0000000000, 0x64, 0x8b, 0x10), 0x7f0000100000);
	CHECK_EQ(in.mem.seg, X86_SEG_FS);
	CHECK_EQ(LA(64, 0x7f0000000000, 0x65, 0x48, 0xa1, 8, 0, 0, 0, 0, 0, 0, 0), 0x7f0000000008);
	CHECK_EQ(in.mem.seg, X86_SEG_GS);
	CHECK_EQ(LA(64, 0x7f0000000000, 0x26, 0x8b, 0x10), 0x100000); /* ES */
	CHECK_EQ(in.mem.seg, X86_SEG_ES);
	CHECK_EQ(LA(64, 0x7f0000000000, 0x65, 0x2e, 0x8b, 0x10), 0x100000); /* the last: CS */
	CHECK_EQ(in.mem.seg, X86_SEG_CS);

	/* 32-bit mode: the base added, the linear address wraps at 4 GiB */
	CHECK_EQ(LA(32, 0x2000000, 0x8b, 0x05, 0x00, 0x00, 0xc0, 0xfe), 0x00c00000);
	CHECK_EQ(in.mem.base, X86_NO_REG);
	la_gpr[4] = 0xabcd00000010ull;
	CHECK_EQ(LA(32, 0x1000, 0x8b, 0x44, 0x24, 0x08), 0x1018); /* 8(%esp) */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(32, 0x1000, 0x36, 0x8b, 0x07), 0x801000); /* ss:(%edi) */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(32, 0x1000, 0x3e, 0x8b, 0x45, 0x00), 0x601000); /* ds:0(%ebp) */
	CHECK_EQ(in.mem.seg, X86_SEG_DS);
	CHECK_EQ(LA(32, 0x10, 0xa1, 0x00, 0x00, 0xc0, 0xfe), 0xfec00010);
	/* 67: 16-bit addressing, [disp16] */
	CHECK_EQ(LA(32, 0x10000, 0x67, 0x8b, 0x06, 0x34, 0x12), 0x11234);

	/* 16-bit mode: the 16-bit forms, each wrapping at 64 KiB */
	for (unsigned i = 0; i < 16; i++)
		la_gpr[i] = 0x1000 * (i + 1);
	la_gpr[3] = 0xfff0;							       /* bx */
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x00), 0x20000 + ((0xfff0 + 0x7000) & 0xffff)); /* bx+si */
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x01), 0x20000 + ((0xfff0 + 0x8000) & 0xffff)); /* bx+di */
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x42, 0x10), 0x20000 + 0x6000 + 0x7000 + 0x10); /* bp+si */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x83, 0x00, 0x01), 0x20000 + 0x6000 + 0x8000 + 0x100);
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x04), 0x27000);			   /* si */
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x05), 0x28000);			   /* di */
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x46, 0xfe), 0x20000 + 0x6000 - 2); /* -2(%bp) */
	CHECK_EQ(in.mem.seg, X86_SEG_SS);
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x06, 0x34, 0x12), 0x21234); /* [0x1234] */
	CHECK_EQ(in.mem.seg, X86_SEG_DS);
	CHECK_EQ(LA(16, 0x20000, 0x8b, 0x07), 0x2fff0);		    /* bx */
	CHECK_EQ(LA(16, 0x30000, 0x26, 0x8b, 0x47, 0x20), 0x30010); /* es:0x20(%bx) wraps */
	CHECK_EQ(in.mem.seg, X86_SEG_ES);
	CHECK_EQ(LA(16, 0x20000, 0xa1, 0x34, 0x12), 0x21234); /* moffs16 */
	/* 67: 32-bit addressing with a SIB */
	CHECK_EQ(LA(16, 0x20000, 0x67, 0x8b, 0x04, 0x4b), 0x20000 + 0xfff0 + 2 * 0x2000);
}
#undef LA

int main(void)
{
	test_mov_to_cr();
	test_basic_mov();
	test_byte_regs();
	test_imm();
	test_moffs();
	test_movzx_movsx();
	test_modrm_32_64();
	test_modrm_16();
	test_reject();
	test_rmw();
	test_rmw_value();
	test_store_value();
	test_load_complete();
	test_linear_address();
	return test_summary();
}
