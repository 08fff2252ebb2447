/* SPDX-License-Identifier: GPL-2.0-only */
/* The arithmetic of the emulated read-modify-write instructions (arch/x86/alu.c) against
 * the CPU running the test: every operation at every size, the result and each status
 * flag the SDM defines, for all 8-bit operand pairs with CF clear and set, and for
 * boundary and pseudo-random values at 16, 32 and 64 bits. */
#include "../../../arch/x86/alu.c"
#include "../test.h"

/* host_MN_T(dst, src, &flags): MN at the size of T on the host CPU, with operands ops
 * ("%[s], %[d]" or "%[d]"); its RFLAGS status flags set from flags and read back around
 * the instruction (the stack pointer steps over the red zone the compiler may use). */
#define HOST(mn, sfx, T, ops)                                                                \
	static u64 host_##mn##_##T(u64 dst, u64 src, u64 *flags)                             \
	{                                                                                    \
		T d = (T)dst, s = (T)src;                                                    \
		u64 f = *flags;                                                              \
		__asm__ volatile("sub $128, %%rsp\n\tpush %[f]\n\tpopf\n\t" #mn #sfx " " ops \
				 "\n\tpushf\n\tpop %[f]\n\tadd $128, %%rsp"                  \
				 : [d] "+r"(d), [f] "+r"(f)                                  \
				 : [s] "r"(s)                                                \
				 : "cc", "memory");                                          \
		*flags = f;                                                                  \
		return d;                                                                    \
	}
#define HOST2(mn, sfx, T) HOST(mn, sfx, T, "%[s], %[d]")
#define HOST1(mn, sfx, T) HOST(mn, sfx, T, "%[d]")
/* clang-format off */
#define HOST_ALL(T, sfx)                                                                   \
	HOST2(add, sfx, T) HOST2(or, sfx, T) HOST2(adc, sfx, T) HOST2(sbb, sfx, T)         \
	HOST2(and, sfx, T) HOST2(sub, sfx, T) HOST2(xor, sfx, T) HOST2(cmp, sfx, T)        \
	HOST2(test, sfx, T) HOST1(not, sfx, T) HOST1(neg, sfx, T) HOST1(inc, sfx, T)       \
	HOST1(dec, sfx, T) HOST2(xchg, sfx, T)
/* clang-format on */

typedef uint8_t u8_t;
typedef uint16_t u16_t;
typedef uint32_t u32_t;
typedef uint64_t u64_t;
HOST_ALL(u8_t, b)
HOST_ALL(u16_t, w)
HOST_ALL(u32_t, l)
HOST_ALL(u64_t, q)

typedef u64 (*host_fn)(u64, u64, u64 *);
#define ROW(T)                                                                                     \
	{                                                                                          \
		host_add_##T, host_or_##T, host_adc_##T, host_sbb_##T, host_and_##T, host_sub_##T, \
			host_xor_##T, host_cmp_##T, host_test_##T, host_not_##T, host_neg_##T,     \
			host_inc_##T, host_dec_##T, host_xchg_##T                                  \
	}
/* by size index (1, 2, 4, 8 bytes) and enum x86_alu_op */
static const host_fn host[4][X86_ALU_XCHG + 1] = { ROW(u8_t), ROW(u16_t), ROW(u32_t), ROW(u64_t) };
static const char *const names[] = { "add", "or",   "adc", "sbb", "and", "sub", "xor",
				     "cmp", "test", "not", "neg", "inc", "dec", "xchg" };

static unsigned long long mismatches;

/* One case: x86_alu against the host, on the result (what the instruction leaves in its
 * destination) and the flags the SDM defines. */
static void one(enum x86_alu_op op, unsigned int size_idx, u64 dst, u64 src, u64 in_flags)
{
	unsigned int size = 1u << size_idx;
	u64 fl_host = 0x202 | (in_flags & X86_RFLAGS_STATUS), fl_ours = fl_host;
	u64 want = host[size_idx][op](dst, src, &fl_host);
	u64 got = x86_alu(op, size, dst, src, &fl_ours);
	/* AF is undefined after AND, OR, XOR and TEST */
	u64 defined = X86_RFLAGS_STATUS;
	if (op == X86_ALU_AND || op == X86_ALU_OR || op == X86_ALU_XOR || op == X86_ALU_TEST)
		defined &= ~X86_RFLAGS_AF;
	/* CMP and TEST leave the destination as it was */
	if (op == X86_ALU_CMP || op == X86_ALU_TEST)
		want = dst & (size == 8 ? ~0ull : (1ull << (8 * size)) - 1);
	if (got != want || (fl_ours ^ fl_host) & defined ||
	    (fl_ours & ~X86_RFLAGS_STATUS) != (0x202 & ~X86_RFLAGS_STATUS)) {
		if (mismatches++ < 10)
			fprintf(stderr,
				"%s%u %llx, %llx flags %llx: got %llx flags %llx, the CPU %llx "
				"flags %llx\n",
				names[op], 8 * size, (unsigned long long)dst,
				(unsigned long long)src, (unsigned long long)in_flags,
				(unsigned long long)got, (unsigned long long)fl_ours,
				(unsigned long long)want, (unsigned long long)fl_host);
	}
}

/* Every 8-bit pair, each with all status flags clear and all set. */
static void test_exhaustive_8bit(void)
{
	for (unsigned int op = 0; op <= X86_ALU_XCHG; op++) {
		mismatches = 0;
		for (unsigned int a = 0; a < 256; a++)
			for (unsigned int b = 0; b < 256; b++) {
				one(op, 0, a, b, 0);
				one(op, 0, a, b, X86_RFLAGS_STATUS);
			}
		CHECK_EQ(mismatches, 0);
	}
}

static u64 rng = 0x9e3779b97f4a7c15ull;
static u64 next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* The wider sizes: each pair of boundary values (0, 1, the sign bit and its neighbours,
 * all-ones) and pseudo-random ones, CF clear and set. */
static void test_wide(void)
{
	for (unsigned int size_idx = 1; size_idx < 4; size_idx++) {
		u64 sign = 1ull << (8 * (1u << size_idx) - 1);
		u64 edge[] = { 0, 1, 2, 0xf, 0x10, sign - 1, sign, sign + 1, ~0ull, ~0ull - 1 };
		for (unsigned int op = 0; op <= X86_ALU_XCHG; op++) {
			mismatches = 0;
			for (unsigned int i = 0; i < ARRAY_SIZE(edge); i++)
				for (unsigned int j = 0; j < ARRAY_SIZE(edge); j++)
					for (u64 f = 0; f < 2; f++)
						one(op, size_idx, edge[i], edge[j],
						    f ? X86_RFLAGS_STATUS : 0);
			for (unsigned int k = 0; k < 20000; k++)
				one(op, size_idx, next(), next(), next() & X86_RFLAGS_STATUS);
			CHECK_EQ(mismatches, 0);
		}
	}
}

/* The flags outside the status flags are the caller's: kept as they were. */
static void test_other_flags_kept(void)
{
	u64 f = 0x2 | BIT(8) | BIT(9) | BIT(10) | BIT(21);
	CHECK_EQ(x86_alu(X86_ALU_ADD, 4, 0xffffffff, 1, &f), 0);
	CHECK_EQ(f, 0x2 | BIT(8) | BIT(9) | BIT(10) | BIT(21) | X86_RFLAGS_CF | X86_RFLAGS_ZF |
			    X86_RFLAGS_PF | X86_RFLAGS_AF);
}

int main(void)
{
	test_exhaustive_8bit();
	test_wide();
	test_other_flags_kept();
	return test_summary();
}
