/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/arm64/esr.c: ESR_EL2 decoding, fault IPA and load extension. */
#include "../../../arch/arm64/esr.c"
#include "../test.h"

static struct esr_exit ex;

static void decode(u64 esr)
{
	memset(&ex, 0xa5, sizeof(ex));
	esr_decode(esr, &ex);
}

static void test_data_abort_loads(void)
{
	/* 0x93c08007 = EC 0x24 [31:26], IL [25], ISV [24], SAS 0b11 [23:22] (8 bytes),
	 * SSE 0, SRT 0 [20:16], SF [15], AR 0, WnR 0, DFSC 0b000111: LDR X0 translation
	 * fault at level 3. */
	decode(0x93c08007);
	CHECK_EQ(ex.kind, ESR_DABT);
	CHECK_EQ(ex.ec, 0x24);
	CHECK(ex.abort.isv);
	CHECK_EQ(ex.abort.size, 8);
	CHECK(!ex.abort.sign_extend);
	CHECK_EQ(ex.abort.srt, 0);
	CHECK(ex.abort.sf);
	CHECK(!ex.abort.write);
	CHECK(!ex.abort.cm);
	CHECK(!ex.abort.s1ptw);
	CHECK(!ex.abort.fnv);
	CHECK(!ex.abort.ea);
	CHECK_EQ(ex.abort.fsc, 0x07);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_TRANSLATION);
	CHECK_EQ(ex.abort.level, 3);
	CHECK_EQ(esr_insn_len(0x93c08007), 4);
	CHECK(esr_hpfar_valid(&ex.abort));

	/* 0x93220007: ISV, SAS 0b00 (byte), SSE [21], SRT 2, SF 0: LDRSB W2. */
	decode(0x93220007);
	CHECK(ex.abort.isv);
	CHECK_EQ(ex.abort.size, 1);
	CHECK(ex.abort.sign_extend);
	CHECK_EQ(ex.abort.srt, 2);
	CHECK(!ex.abort.sf);
	CHECK(!ex.abort.write);

	/* 0x93638007: SAS 0b01 (halfword), SSE, SRT 3, SF: LDRSH X3. */
	decode(0x93638007);
	CHECK_EQ(ex.abort.size, 2);
	CHECK(ex.abort.sign_extend);
	CHECK_EQ(ex.abort.srt, 3);
	CHECK(ex.abort.sf);

	/* 0x93a48007: SAS 0b10 (word), SSE, SRT 4, SF: LDRSW X4. */
	decode(0x93a48007);
	CHECK_EQ(ex.abort.size, 4);
	CHECK(ex.abort.sign_extend);
	CHECK_EQ(ex.abort.srt, 4);
	CHECK(ex.abort.sf);

	/* 0x93050006: SAS byte, SRT 5, DFSC 0b000110: LDRB W5, translation level 2. */
	decode(0x93050006);
	CHECK_EQ(ex.abort.size, 1);
	CHECK(!ex.abort.sign_extend);
	CHECK_EQ(ex.abort.srt, 5);
	CHECK(!ex.abort.sf);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_TRANSLATION);
	CHECK_EQ(ex.abort.level, 2);

	/* 0x93c6c005: SAS doubleword, SRT 6, SF, AR [14]: LDAR X6, translation level 1.
	 * AR is not decoded and does not disturb the rest. */
	decode(0x93c6c005);
	CHECK_EQ(ex.abort.size, 8);
	CHECK_EQ(ex.abort.srt, 6);
	CHECK(ex.abort.sf);
	CHECK_EQ(ex.abort.level, 1);
}

static void test_data_abort_stores(void)
{
	/* 0x93810047: ISV, SAS 0b10 (word), SRT 1, SF 0, WnR [6], DFSC 0x07: STR W1. */
	decode(0x93810047);
	CHECK_EQ(ex.kind, ESR_DABT);
	CHECK(ex.abort.isv);
	CHECK_EQ(ex.abort.size, 4);
	CHECK_EQ(ex.abort.srt, 1);
	CHECK(!ex.abort.sf);
	CHECK(ex.abort.write);

	/* 0x935f0047: SAS halfword, SRT 31, WnR: STRH WZR (stores 0). */
	decode(0x935f0047);
	CHECK_EQ(ex.abort.size, 2);
	CHECK_EQ(ex.abort.srt, 31);
	CHECK(ex.abort.write);

	/* 0x93df8047: SAS doubleword, SRT 31, SF, WnR: STR XZR. */
	decode(0x93df8047);
	CHECK_EQ(ex.abort.size, 8);
	CHECK_EQ(ex.abort.srt, 31);
	CHECK(ex.abort.sf);
	CHECK(ex.abort.write);
}

static void test_data_abort_no_syndrome(void)
{
	/* 0x9200000f: ISV 0 (e.g. LDP), DFSC 0b001111: permission fault, level 3.
	 * HPFAR_EL2 is not written for it. */
	decode(0x9200000f);
	CHECK_EQ(ex.kind, ESR_DABT);
	CHECK(!ex.abort.isv);
	CHECK_EQ(ex.abort.size, 0);
	CHECK_EQ(ex.abort.srt, 0);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_PERMISSION);
	CHECK_EQ(ex.abort.level, 3);
	CHECK(!esr_hpfar_valid(&ex.abort));

	/* 0x920000c9: S1PTW [7], WnR, DFSC 0b001001: access flag fault at level 1 on the
	 * guest's stage 1 walk. */
	decode(0x920000c9);
	CHECK(ex.abort.s1ptw);
	CHECK(ex.abort.write);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_ACCESS_FLAG);
	CHECK_EQ(ex.abort.level, 1);
	CHECK(esr_hpfar_valid(&ex.abort));

	/* The same with a permission fault (level 2): on a walk, HPFAR_EL2 is valid. */
	decode(0x920000ce);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_PERMISSION);
	CHECK_EQ(ex.abort.level, 2);
	CHECK(esr_hpfar_valid(&ex.abort));

	/* 0x92000610: FnV [10], EA [9], DFSC 0b010000: synchronous External abort. */
	decode(0x92000610);
	CHECK(ex.abort.fnv);
	CHECK(ex.abort.ea);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_EXTERNAL);
	CHECK_EQ(ex.abort.level, 0);
	CHECK(!esr_hpfar_valid(&ex.abort));

	/* 0x92000147: CM [8], WnR, translation level 3: DC CIVAC on an unmapped IPA. */
	decode(0x92000147);
	CHECK(ex.abort.cm);
	CHECK(ex.abort.write);
	CHECK(!ex.abort.isv);
}

static void test_fault_codes(void)
{
	static const struct {
		u8 fsc;
		enum esr_fault fault;
		s8 level;
	} t[] = {
		{ 0x00, ESR_FAULT_ADDR_SIZE, 0 },
		{ 0x03, ESR_FAULT_ADDR_SIZE, 3 },
		{ 0x04, ESR_FAULT_TRANSLATION, 0 },
		{ 0x05, ESR_FAULT_TRANSLATION, 1 },
		{ 0x06, ESR_FAULT_TRANSLATION, 2 },
		{ 0x07, ESR_FAULT_TRANSLATION, 3 },
		{ 0x08, ESR_FAULT_ACCESS_FLAG, 0 },
		{ 0x09, ESR_FAULT_ACCESS_FLAG, 1 },
		{ 0x0B, ESR_FAULT_ACCESS_FLAG, 3 },
		{ 0x0C, ESR_FAULT_PERMISSION, 0 },
		{ 0x0D, ESR_FAULT_PERMISSION, 1 },
		{ 0x0F, ESR_FAULT_PERMISSION, 3 },
		{ 0x10, ESR_FAULT_EXTERNAL, 0 },
		{ 0x11, ESR_FAULT_OTHER, 0 }, /* tag check fault */
		{ 0x13, ESR_FAULT_EXTERNAL_WALK, -1 },
		{ 0x14, ESR_FAULT_EXTERNAL_WALK, 0 },
		{ 0x17, ESR_FAULT_EXTERNAL_WALK, 3 },
		{ 0x18, ESR_FAULT_OTHER, 0 }, /* parity/ECC */
		{ 0x21, ESR_FAULT_ALIGNMENT, 0 },
		{ 0x29, ESR_FAULT_ADDR_SIZE, -1 },
		{ 0x2B, ESR_FAULT_TRANSLATION, -1 },
		{ 0x30, ESR_FAULT_OTHER, 0 }, /* TLB conflict */
		{ 0x3F, ESR_FAULT_OTHER, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		decode(0x92000000 | t[i].fsc);
		CHECK_EQ(ex.abort.fsc, t[i].fsc);
		CHECK_EQ(ex.abort.fault, t[i].fault);
		CHECK_EQ(ex.abort.level, t[i].level);
	}
}

static void test_instruction_abort(void)
{
	/* 0x82000007: EC 0x20, IL, IFSC 0x07: instruction fetch, translation level 3. */
	decode(0x82000007);
	CHECK_EQ(ex.kind, ESR_IABT);
	CHECK_EQ(ex.ec, 0x20);
	CHECK(!ex.abort.isv);
	CHECK(!ex.abort.write);
	CHECK_EQ(ex.abort.fault, ESR_FAULT_TRANSLATION);
	CHECK_EQ(ex.abort.level, 3);
	CHECK(esr_hpfar_valid(&ex.abort));

	/* 0x82000086: S1PTW, IFSC 0x06: the fetch's stage 1 walk, translation level 2. */
	decode(0x82000086);
	CHECK(ex.abort.s1ptw);
	CHECK_EQ(ex.abort.level, 2);

	/* Bits that mean something only for data aborts (ISV, WnR, CM) are ignored. */
	decode(0x83000147);
	CHECK(!ex.abort.isv);
	CHECK(!ex.abort.write);
	CHECK(!ex.abort.cm);
}

static void test_sysreg(void)
{
	/* 0x623a3036: EC 0x18, IL, Op0 3 [21:20], Op2 5 [19:17], Op1 0 [16:14],
	 * CRn 12 [13:10], Rt 1 [9:5], CRm 11 [4:1], Direction 0: MSR ICC_SGI1R_EL1, X1. */
	decode(0x623a3036);
	CHECK_EQ(ex.kind, ESR_SYSREG);
	CHECK_EQ(ex.ec, 0x18);
	CHECK_EQ(ex.sys.id, ESR_SYSREG_ICC_SGI1R_EL1);
	CHECK_EQ(ex.sys.op0, 3);
	CHECK_EQ(ex.sys.op1, 0);
	CHECK_EQ(ex.sys.crn, 12);
	CHECK_EQ(ex.sys.crm, 11);
	CHECK_EQ(ex.sys.op2, 5);
	CHECK_EQ(ex.sys.rt, 1);
	CHECK(!ex.sys.read);

	/* 0x623c3056: Op2 6, Rt 2: MSR ICC_ASGI1R_EL1, X2. */
	decode(0x623c3056);
	CHECK_EQ(ex.sys.id, ESR_SYSREG_ICC_ASGI1R_EL1);
	CHECK_EQ(ex.sys.rt, 2);
	CHECK(!ex.sys.read);

	/* 0x623e33f6: Op2 7, Rt 31: MSR ICC_SGI0R_EL1, XZR. */
	decode(0x623e33f6);
	CHECK_EQ(ex.sys.id, ESR_SYSREG_ICC_SGI0R_EL1);
	CHECK_EQ(ex.sys.rt, 31);

	/* 0x623a3077: Rt 3, Direction 1: MRS X3, ICC_SGI1R_EL1 (write-only; the id still
	 * matches, the direction tells). */
	decode(0x623a3077);
	CHECK_EQ(ex.sys.id, ESR_SYSREG_ICC_SGI1R_EL1);
	CHECK_EQ(ex.sys.rt, 3);
	CHECK(ex.sys.read);

	/* 0x6234f801: MRS X0, (3, 3, 14, 0, 2) = CNTVCT_EL0: not an SGI register. */
	decode(0x6234f801);
	CHECK_EQ(ex.sys.id, ESR_SYSREG(3, 3, 14, 0, 2));
	CHECK(ex.sys.id != ESR_SYSREG_ICC_SGI1R_EL1);
	CHECK_EQ(ex.sys.op1, 3);
	CHECK_EQ(ex.sys.crn, 14);
	CHECK(ex.sys.read);

	/* The three SGI registers differ only in Op2. */
	CHECK(ESR_SYSREG_ICC_SGI1R_EL1 != ESR_SYSREG_ICC_ASGI1R_EL1);
	CHECK(ESR_SYSREG_ICC_ASGI1R_EL1 != ESR_SYSREG_ICC_SGI0R_EL1);
	CHECK_EQ(ESR_SYSREG_ICC_SGI1R_EL1 ^ ESR_SYSREG_ICC_SGI0R_EL1, 2u << 17);
}

static void test_other_classes(void)
{
	/* Everything else is unknown with the EC kept: 0x00 unknown reason, 0x07 FP/SIMD,
	 * 0x12 HVC32, 0x13 SMC32, 0x15 SVC64, 0x21 IABT same EL, 0x25 DABT same EL,
	 * 0x2F SError, 0x3C BRK. */
	static const u8 others[] = { 0x00, 0x07, 0x12, 0x13, 0x15, 0x21, 0x25, 0x2F, 0x3C };
	size_t i;

	/* EC 0x01, IL, TI 0b00: WFI; 0b01: WFE; 0b10: WFIT; 0b11: WFET. */
	decode(0x06000000);
	CHECK_EQ(ex.kind, ESR_WFI);
	CHECK_EQ(ex.ec, 1);
	decode(0x06000001);
	CHECK_EQ(ex.kind, ESR_WFE);
	decode(0x06000002);
	CHECK_EQ(ex.kind, ESR_WFI);
	decode(0x06000003);
	CHECK_EQ(ex.kind, ESR_WFE);
	/* A conditional AArch32 WFE (CV, COND 0b0000) is still a WFE by TI. */
	decode(0x07000001);
	CHECK_EQ(ex.kind, ESR_WFE);

	/* AArch32 coprocessor accesses that MDCR_EL2 and HCR_EL2.TIDCP trap: EC 0x03 MRC
	 * p15 (0x0F3E7C13: IL, CV, COND 0b0011, Opc2 7, Opc1 1, CRn 15, Rt 0, CRm 9, read),
	 * 0x04 MRRC p15, 0x05 MRC p14, 0x06 LDC p14, 0x0C MRRC p14; IL 0 (T32) too. */
	static const u32 cp[] = { 0x0F3E7C13, 0x12000000, 0x16000000,
				  0x18000000, 0x30000000, 0x0C000000 };
	for (i = 0; i < sizeof cp / sizeof cp[0]; i++) {
		decode(cp[i]);
		CHECK_EQ(ex.kind, ESR_CP);
		CHECK_EQ(ex.ec, cp[i] >> 26);
	}
	CHECK_EQ(esr_insn_len(0x0C000000), 2);

	/* EC 0x16 HVC #0 and HVC #0x4711; EC 0x17 SMC #0 and SMC #0xffff. */
	decode(0x5a000000);
	CHECK_EQ(ex.kind, ESR_HVC);
	CHECK_EQ(ex.imm16, 0);
	decode(0x5a004711);
	CHECK_EQ(ex.kind, ESR_HVC);
	CHECK_EQ(ex.imm16, 0x4711);
	decode(0x5e000000);
	CHECK_EQ(ex.kind, ESR_SMC);
	CHECK_EQ(ex.ec, 0x17);
	CHECK_EQ(ex.imm16, 0);
	decode(0x5e00ffff);
	CHECK_EQ(ex.imm16, 0xffff);

	for (i = 0; i < ARRAY_SIZE(others); i++) {
		decode(((u64)others[i] << 26) | ESR_IL);
		CHECK_EQ(ex.kind, ESR_UNKNOWN);
		CHECK_EQ(ex.ec, others[i]);
	}

	/* ISS2 (ESR_EL2 [55:32]) does not disturb the decode. */
	decode(0x0000001f93c08007ull);
	CHECK_EQ(ex.kind, ESR_DABT);
	CHECK_EQ(ex.abort.size, 8);
	CHECK_EQ(ex.abort.level, 3);
}

static void test_insn_len(void)
{
	CHECK_EQ(esr_insn_len(0x06000000), 4); /* WFI, A64 */
	CHECK_EQ(esr_insn_len(0x04000000), 2); /* 16-bit T32 WFI */
	CHECK_EQ(esr_insn_len(0x62000000), 4);
	CHECK_EQ(esr_insn_len(0x93c08007), 4);
	CHECK_EQ(esr_insn_len(0x91c08007), 2); /* a 16-bit T32 load */
}

static void test_fault_ipa(void)
{
	/* IPA 0x0900_0abc: FIPA = IPA >> 12 = 0x9000 at bits [47:4]. */
	CHECK_EQ(esr_fault_ipa(0x9000ull << 4, 0xffff000012345abcull), 0x09000abc);
	/* The FAR's page number is ignored; only bits [11:0] count. */
	CHECK_EQ(esr_fault_ipa(0x9000ull << 4, 0xfff), 0x09000fff);
	/* A 48-bit IPA, a 52-bit IPA (FEAT_LPA, FIPA [43:4]) and a 56-bit one (FEAT_D128,
	 * FIPA [47:4]). */
	CHECK_EQ(esr_fault_ipa(0xfffffffffull << 4, 0x123), 0xfffffffff123ull);
	CHECK_EQ(esr_fault_ipa(0xfedcba9876ull << 4, 0x8), 0xfedcba9876008ull);
	CHECK_EQ(esr_fault_ipa(0xfedcba98765ull << 4, 0), 0xfedcba98765000ull);
	/* NS [63], RES0 [62:48] and [3:0] are not part of the IPA. */
	CHECK_EQ(esr_fault_ipa(BIT(63) | (0x7fffull << 48) | 0xf | (0x40000ull << 4), 0x10),
		 0x40000010);
}

static void test_load_value(void)
{
	/* Every size, zero-extended, SF = 1 and SF = 0; bytes above the size ignored. */
	CHECK_EQ(esr_load_value(0xaaaaaaaaaaaaaa80ull, 1, false, true), 0x80);
	CHECK_EQ(esr_load_value(0xaaaaaaaaaaaa8001ull, 2, false, true), 0x8001);
	CHECK_EQ(esr_load_value(0xaaaaaaaa80000001ull, 4, false, true), 0x80000001);
	CHECK_EQ(esr_load_value(0x8000000000000001ull, 8, false, true), 0x8000000000000001ull);
	CHECK_EQ(esr_load_value(0xaaaaaaaaaaaaaa80ull, 1, false, false), 0x80);
	CHECK_EQ(esr_load_value(0xaaaaaaaaaaaa8001ull, 2, false, false), 0x8001);
	CHECK_EQ(esr_load_value(0xaaaaaaaa80000001ull, 4, false, false), 0x80000001);

	/* Sign-extended to 64 bits (LDRSB/LDRSH/LDRSW Xt). */
	CHECK_EQ(esr_load_value(0x80, 1, true, true), 0xffffffffffffff80ull);
	CHECK_EQ(esr_load_value(0x8001, 2, true, true), 0xffffffffffff8001ull);
	CHECK_EQ(esr_load_value(0x80000001, 4, true, true), 0xffffffff80000001ull);
	/* ... to 32 bits (LDRSB/LDRSH Wt): the upper half of Xt is zero. */
	CHECK_EQ(esr_load_value(0x80, 1, true, false), 0xffffff80);
	CHECK_EQ(esr_load_value(0x8001, 2, true, false), 0xffff8001);
	CHECK_EQ(esr_load_value(0xaaaaaaaa80000001ull, 4, true, false), 0x80000001);
	/* Positive values stay as they are. */
	CHECK_EQ(esr_load_value(0x7f, 1, true, true), 0x7f);
	CHECK_EQ(esr_load_value(0xffffffffffff7fffull, 2, true, true), 0x7fff);
	CHECK_EQ(esr_load_value(0x7fffffff, 4, true, false), 0x7fffffff);
	/* A doubleword load: SSE does not apply. */
	CHECK_EQ(esr_load_value(0x8000000000000000ull, 8, true, true), 0x8000000000000000ull);

	/* Decoded syndrome into value: LDRSH X3 of 0xfffe reads -2. */
	decode(0x93638007);
	CHECK_EQ(esr_load_value(0xfffe, ex.abort.size, ex.abort.sign_extend, ex.abort.sf),
		 0xfffffffffffffffeull);
	/* LDRSB W2 of 0xfe reads 0x00000000_fffffffe. */
	decode(0x93220007);
	CHECK_EQ(esr_load_value(0xfe, ex.abort.size, ex.abort.sign_extend, ex.abort.sf),
		 0xfffffffe);
}

int main(void)
{
	test_data_abort_loads();
	test_data_abort_stores();
	test_data_abort_no_syndrome();
	test_fault_codes();
	test_instruction_abort();
	test_sysreg();
	test_other_classes();
	test_insn_len();
	test_fault_ipa();
	test_load_value();
	return test_summary();
}
