/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the virtual PL011 (hv/dev/vpl011.c), including the register sequences
 * Linux 6.1's amba-pl011.c issues: AMBA probe, earlycon, console, startup, TX, RX,
 * shutdown, and the SBSA variant an ACPI boot binds. */
#include "../../../hv/dev/vpl011.c"
#include "../test.h"
#include "../uart_sink.h"

static const struct vpl011_ops sink_ops = { .tx = sink_tx, .irq = sink_irq, .bad = sink_bad };

static void setup(struct vpl011 *u, struct sink *s)
{
	memset(s, 0, sizeof(*s));
	vpl011_init(u, &sink_ops, s);
}

#define FR_IDLE (VPL011_FR_CTS | VPL011_FR_DSR | VPL011_FR_DCD | VPL011_FR_TXFE)

/* Linux's pl011_fifo_to_tty(): read DR until FR.RXFE; returns the count. */
static unsigned drain(struct vpl011 *u, u8 *out, unsigned max)
{
	unsigned n = 0;

	while (n < 256 && !(vpl011_read(u, VPL011_FR) & VPL011_FR_RXFE)) {
		u32 c = vpl011_read(u, VPL011_DR);
		CHECK_EQ(c & 0xF00, 0); /* no OE/BE/PE/FE */
		if (n < max)
			out[n] = (u8)c;
		n++;
	}
	return n;
}

static void test_reset(void)
{
	struct vpl011 u;
	struct sink s;
	u32 pid = 0, cid = 0;

	setup(&u, &s);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE);
	CHECK_EQ(vpl011_read(&u, VPL011_CR), 0x0300);
	CHECK_EQ(vpl011_read(&u, VPL011_IFLS), 0x12);
	CHECK_EQ(vpl011_read(&u, VPL011_LCR_H), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_IBRD), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_FBRD), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_ILPR), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_IMSC), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_MIS), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_DMACR), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_RSR), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_ICR), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_DR), 0); /* empty */

	/* drivers/amba/bus.c: PeriphID/PCellID, the low byte of each of the last
	 * eight words of the 4 KiB frame. */
	for (unsigned i = 0; i < 4; i++) {
		pid |= (vpl011_read(&u, 0x1000 - 0x20 + 4 * i) & 255) << (i * 8);
		cid |= (vpl011_read(&u, 0x1000 - 0x10 + 4 * i) & 255) << (i * 8);
	}
	CHECK_EQ(pid, 0x00141011);
	CHECK_EQ(cid, 0xB105F00D);		/* AMBA_CID */
	CHECK_EQ(pid & 0x000FFFFF, 0x00041011); /* pl011_ids[0] */
	CHECK_EQ((pid >> 20) & 0xF, 1);		/* amba_rev(): 16-byte FIFO to Linux */
	CHECK_EQ(u.unknown, 0);

	/* register masks */
	vpl011_write(&u, VPL011_IBRD, 0xFFFFFFFF);
	vpl011_write(&u, VPL011_FBRD, 0xFFFFFFFF);
	vpl011_write(&u, VPL011_IFLS, 0xFFFFFFFF);
	vpl011_write(&u, VPL011_CR, 0xFFFFFFFF & ~VPL011_CR_LBE);
	vpl011_write(&u, VPL011_IMSC, 0xFFFFFFFF);
	vpl011_write(&u, VPL011_DMACR, 0xFFFFFFFF);
	vpl011_write(&u, VPL011_ILPR, 0x1FF);
	CHECK_EQ(vpl011_read(&u, VPL011_IBRD), 0xFFFF);
	CHECK_EQ(vpl011_read(&u, VPL011_FBRD), 0x3F);
	CHECK_EQ(vpl011_read(&u, VPL011_IFLS), 0x3F);
	CHECK_EQ(vpl011_read(&u, VPL011_CR), 0xFF07);
	CHECK_EQ(vpl011_read(&u, VPL011_IMSC), 0x7FF);
	CHECK_EQ(vpl011_read(&u, VPL011_DMACR), 7);
	CHECK_EQ(vpl011_read(&u, VPL011_ILPR), 0xFF);
	CHECK_EQ(s.nirq, 0);

	/* read-only registers ignore writes, without counting */
	vpl011_write(&u, VPL011_FR, 0);
	vpl011_write(&u, VPL011_RIS, 0x7FF);
	vpl011_write(&u, VPL011_MIS, 0xFF); /* the ST variant's LCRH delay does this */
	vpl011_write(&u, VPL011_PERIPHID0, 0);
	vpl011_write(&u, VPL011_PCELLID0 + 12, 0);
	vpl011_write(&u, VPL011_RSR, 0xFF);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	CHECK_EQ(vpl011_read(&u, VPL011_PERIPHID0), 0x11);
	CHECK_EQ(u.unknown, 0);

	/* unknown offsets read 0, ignore writes and are counted */
	CHECK_EQ(vpl011_read(&u, 0x008), 0);
	CHECK_EQ(vpl011_read(&u, 0x01C), 0);
	CHECK_EQ(vpl011_read(&u, 0x04C), 0);
	CHECK_EQ(vpl011_read(&u, 0xFDC), 0);
	CHECK_EQ(vpl011_read(&u, 0xFE1), 0);
	CHECK_EQ(vpl011_read(&u, 0x1000), 0);
	vpl011_write(&u, 0x080, 1);
	vpl011_write(&u, 0x002, 'x');
	CHECK_EQ(u.unknown, 8);
	CHECK_EQ(s.ntx, 0);
}

/* Each access at an offset that is no register is reported to ops->bad (the hypervisor
 * counts it as a bad access, tests/emu/arm64_hostile_guest.sh); registers, read-only
 * ones written and the ID words are not. */
static void test_bad_accesses(void)
{
	static const u32 regs[] = { VPL011_DR,	 VPL011_RSR,   VPL011_FR,    VPL011_ILPR,
				    VPL011_IBRD, VPL011_FBRD,  VPL011_LCR_H, VPL011_CR,
				    VPL011_IFLS, VPL011_IMSC,  VPL011_RIS,   VPL011_MIS,
				    VPL011_ICR,	 VPL011_DMACR, 0xFE0,	     0xFFC };
	struct vpl011 u;
	struct sink s;
	unsigned i;

	setup(&u, &s);
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		vpl011_read(&u, regs[i]);
		if (regs[i] != VPL011_DR)
			vpl011_write(&u, regs[i], vpl011_read(&u, regs[i]));
	}
	CHECK_EQ(s.nbad, 0);
	vpl011_read(&u, 0x031); /* unaligned, inside CR */
	CHECK_EQ(s.nbad, 1);
	CHECK_EQ(s.bad_offset, 0x031);
	CHECK(!s.bad_write);
	vpl011_write(&u, 0x04C, 0xFF); /* past DMACR */
	CHECK_EQ(s.nbad, 2);
	CHECK_EQ(s.bad_offset, 0x04C);
	CHECK(s.bad_write);
	vpl011_io_write(&u, 0xFE2, 1, 0);
	vpl011_io_read(&u, 0x010, 2);
	CHECK_EQ(s.nbad, 4);
	CHECK_EQ(s.bad_offset, 0x010);
	CHECK_EQ(u.unknown, 4);
}

/* Earlycon (pl011_putc) and the SPCR's "earlycon" write DR with the UART as the
 * firmware left it: here UARTEN is clear, and the bytes must still come out. */
static void test_earlycon(void)
{
	struct vpl011 u;
	struct sink s;
	const char *msg = "Booting Linux";
	unsigned n = strlen(msg);

	setup(&u, &s);
	for (unsigned i = 0; i < n; i++) {
		while (vpl011_read(&u, VPL011_FR) & VPL011_FR_TXFF)
			;
		vpl011_write(&u, VPL011_DR, (u8)msg[i]);
		CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_BUSY));
	}
	CHECK_EQ(s.ntx, n);
	CHECK(memcmp(s.tx, msg, n) == 0);
	CHECK_EQ(s.nirq, 0);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_TX);
}

/* The AMBA driver (device tree boot): probe, console, open, I/O, close. */
static void test_linux_amba(void)
{
	struct vpl011 u;
	struct sink s;
	u32 cr, im, old_cr;
	u8 got[8];

	setup(&u, &s);
	/* pl011_register_port() */
	vpl011_write(&u, VPL011_IMSC, 0);
	vpl011_write(&u, VPL011_ICR, 0xFFFF);

	/* pl011_console_setup() without options: UARTEN clear -> keep 38400 8n1 */
	CHECK(!(vpl011_read(&u, VPL011_CR) & VPL011_CR_UARTEN));
	/* pl011_set_termios(): 38400 baud from a 24 MHz clock, 8 bits, FIFOs */
	old_cr = vpl011_read(&u, VPL011_CR);
	old_cr &= ~(0xC000u); /* no CTSEN/RTSEN */
	vpl011_write(&u, VPL011_FBRD, 0x3F & 2500);
	vpl011_write(&u, VPL011_IBRD, 2500 >> 6);
	vpl011_write(&u, VPL011_LCR_H, 0x60 | VPL011_LCR_H_FEN);
	vpl011_write(&u, VPL011_CR, old_cr);

	/* pl011_console_write() */
	old_cr = vpl011_read(&u, VPL011_CR);
	vpl011_write(&u, VPL011_CR, (old_cr & ~0x8000u) | VPL011_CR_UARTEN | VPL011_CR_TXE);
	for (const char *p = "con\r\n"; *p; p++) {
		CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_TXFF));
		vpl011_write(&u, VPL011_DR, (u8)*p);
	}
	CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_BUSY));
	vpl011_write(&u, VPL011_CR, old_cr);
	CHECK_EQ(s.ntx, 5);
	CHECK_EQ(s.nirq, 0);

	/* pl011_startup(): pl011_hwinit() */
	vpl011_write(&u, VPL011_ICR,
		     VPL011_INT_OE | VPL011_INT_BE | VPL011_INT_PE | VPL011_INT_FE | VPL011_INT_RT |
			     VPL011_INT_RX);
	im = vpl011_read(&u, VPL011_IMSC);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT | VPL011_INT_RX);
	/* pl011_allocate_irq() */
	vpl011_write(&u, VPL011_IMSC, im);
	vpl011_write(&u, VPL011_IFLS, 0x12); /* RX4_8 | TX4_8 */
	cr = vpl011_read(&u, VPL011_CR);
	cr &= VPL011_CR_RTS | VPL011_CR_DTR;
	cr |= VPL011_CR_UARTEN | VPL011_CR_RXE | VPL011_CR_TXE;
	vpl011_write(&u, VPL011_CR, cr);
	/* old_status: the modem inputs a cable would give */
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & 0x07, 0x07);
	/* pl011_enable_interrupts() */
	vpl011_write(&u, VPL011_ICR, VPL011_INT_RT | VPL011_INT_RX);
	CHECK_EQ(drain(&u, got, sizeof(got)), 0);
	im = VPL011_INT_RT | VPL011_INT_RX;
	vpl011_write(&u, VPL011_IMSC, im);
	CHECK(!s.level);
	CHECK_EQ(s.nirq, 0);
	/* pl011_set_mctrl(TIOCM_RTS | TIOCM_DTR) */
	vpl011_write(&u, VPL011_CR, vpl011_read(&u, VPL011_CR) | VPL011_CR_RTS | VPL011_CR_DTR);
	CHECK_EQ(vpl011_read(&u, VPL011_CR), 0x0F01);

	/* pl011_start_tx_pio(): pl011_tx_chars(from_irq = false) fills the FIFO
	 * until FR.TXFF; with instant transmission it never fills, the whole buffer
	 * goes out and TXIM is never unmasked (pl011_stop_tx). */
	s.ntx = 0;
	for (const char *p = "login: "; *p; p++) {
		CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_TXFF));
		vpl011_write(&u, VPL011_DR, (u8)*p);
	}
	vpl011_write(&u, VPL011_IMSC, im & ~VPL011_INT_TX);
	CHECK_EQ(s.ntx, 7);
	CHECK(memcmp(s.tx, "login: ", 7) == 0);
	CHECK(!s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE); /* tx_empty */

	/* input: below the 1/2 trigger only the receive timeout fires */
	CHECK(vpl011_rx_push(&u, 'l'));
	CHECK(s.level);
	CHECK_EQ(s.nirq, 1);
	CHECK(vpl011_rx_push(&u, 's'));
	CHECK(vpl011_rx_push(&u, '\r'));
	CHECK_EQ(s.nirq, 1);
	/* pl011_int() */
	u32 status = vpl011_read(&u, VPL011_RIS) & im;
	CHECK_EQ(status, VPL011_INT_RT);
	CHECK_EQ(vpl011_read(&u, VPL011_MIS), VPL011_INT_RT);
	vpl011_write(&u, VPL011_ICR, status & ~(VPL011_INT_TX | VPL011_INT_RT | VPL011_INT_RX));
	CHECK(s.level);
	CHECK_EQ(drain(&u, got, sizeof(got)), 3);
	CHECK(memcmp(got, "ls\r", 3) == 0);
	CHECK(!s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS) & im, 0);
	CHECK_EQ(s.nirq, 2);

	/* pl011_shutdown(): pl011_disable_interrupts(), pl011_disable_uart() */
	vpl011_write(&u, VPL011_IMSC, 0);
	vpl011_write(&u, VPL011_ICR, 0xFFFF);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	cr = vpl011_read(&u, VPL011_CR);
	cr &= VPL011_CR_RTS | VPL011_CR_DTR;
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_UARTEN | VPL011_CR_TXE);
	vpl011_write(&u, VPL011_LCR_H, vpl011_read(&u, VPL011_LCR_H) & ~(VPL011_LCR_H_FEN | 1u));
	CHECK_EQ(vpl011_read(&u, VPL011_LCR_H), 0x60);
	CHECK_EQ(s.nirq, 2);
	CHECK_EQ(u.unknown, 0);
}

/* The SBSA driver (ACPI "ARMH0011"): 32-bit accesses, never touches CR, LCR_H,
 * IFLS or the baud rate; the FIFOs stay as reset (off: a 1-byte holding register). */
static void test_linux_sbsa(void)
{
	struct vpl011 u;
	struct sink s;
	u8 got[4];

	setup(&u, &s);
	vpl011_write(&u, VPL011_IMSC, 0);
	vpl011_write(&u, VPL011_ICR, 0xFFFF);
	/* sbsa_uart_startup(): pl011_hwinit(), allocate_irq, enable_interrupts */
	vpl011_write(&u, VPL011_ICR, 0x7D0);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT | VPL011_INT_RX);
	vpl011_write(&u, VPL011_IMSC, 0);
	vpl011_write(&u, VPL011_ICR, VPL011_INT_RT | VPL011_INT_RX);
	CHECK_EQ(drain(&u, got, sizeof(got)), 0);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT | VPL011_INT_RX);
	CHECK(!s.level);

	CHECK(vpl011_rx_space(&u));
	CHECK(vpl011_rx_push(&u, 'a'));
	CHECK(s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_RX | VPL011_INT_RT); /* trigger 1 */
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFF);
	CHECK(!vpl011_rx_space(&u));
	CHECK(!vpl011_rx_push(&u, 'b'));
	CHECK_EQ(u.rx_dropped, 1);
	CHECK_EQ(drain(&u, got, sizeof(got)), 1);
	CHECK_EQ(got[0], 'a');
	CHECK(!s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	CHECK(vpl011_rx_push(&u, 'b'));
	CHECK_EQ(vpl011_read(&u, VPL011_DR), 'b');

	/* TX as pl011_tx_chars() */
	vpl011_write(&u, VPL011_DR, 'o');
	vpl011_write(&u, VPL011_DR, 'k');
	CHECK_EQ(s.ntx, 2);
	CHECK_EQ(s.nirq, 4);
}

static void test_fifo(void)
{
	struct vpl011 u;
	struct sink s;
	unsigned i;

	setup(&u, &s);
	vpl011_write(&u, VPL011_LCR_H, 0x70);
	/* wrap the ring first */
	for (i = 0; i < 20; i++)
		CHECK(vpl011_rx_push(&u, (u8)i));
	for (i = 0; i < 20; i++)
		CHECK_EQ(vpl011_read(&u, VPL011_DR), i);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE);

	for (i = 0; i < VPL011_FIFO_SIZE; i++) {
		CHECK(vpl011_rx_space(&u));
		CHECK(vpl011_rx_push(&u, (u8)(0x40 + i)));
		CHECK_EQ(vpl011_read(&u, VPL011_FR) & (VPL011_FR_RXFE | VPL011_FR_RXFF),
			 i == VPL011_FIFO_SIZE - 1 ? VPL011_FR_RXFF : 0);
	}
	CHECK(!vpl011_rx_space(&u));
	CHECK(!vpl011_rx_push(&u, 0xEE));
	CHECK(!vpl011_rx_push(&u, 0xEF));
	CHECK_EQ(u.rx_dropped, 2);
	for (i = 0; i < VPL011_FIFO_SIZE; i++) {
		CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFE));
		CHECK_EQ(vpl011_read(&u, VPL011_DR), 0x40 + i);
		CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFF));
	}
	CHECK(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFE);
	CHECK_EQ(vpl011_read(&u, VPL011_DR), 0);

	/* switching the FIFOs off (or on) empties the receiver */
	vpl011_rx_push(&u, 1);
	vpl011_rx_push(&u, 2);
	vpl011_write(&u, VPL011_LCR_H, 0x70); /* same FEN: kept */
	CHECK(!(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFE));
	vpl011_write(&u, VPL011_LCR_H, 0x60);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	vpl011_rx_push(&u, 3);
	vpl011_write(&u, VPL011_LCR_H, 0x70);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE);
	CHECK_EQ(u.rx_dropped, 2);
}

/* RXIFLSEL 1/8, 1/4, 1/2, 3/4, 7/8 of 32 bytes; a reserved value acts as 1/2. */
static void test_ifls(void)
{
	static const unsigned level[6] = { 4, 8, 16, 24, 28, 16 };
	struct vpl011 u;
	struct sink s;

	for (unsigned sel = 0; sel < 6; sel++) {
		setup(&u, &s);
		vpl011_write(&u, VPL011_LCR_H, 0x70);
		vpl011_write(&u, VPL011_IFLS, sel << 3 | 2);
		vpl011_write(&u, VPL011_IMSC, VPL011_INT_RX);
		for (unsigned i = 1; i <= level[sel]; i++) {
			vpl011_rx_push(&u, (u8)i);
			CHECK_EQ(!!(vpl011_read(&u, VPL011_RIS) & VPL011_INT_RX), i == level[sel]);
			CHECK_EQ(s.level, i == level[sel]);
		}
		CHECK_EQ(s.nirq, 1);
		vpl011_rx_push(&u, 0);
		CHECK(s.level);
		/* reads that leave the level at the trigger keep it, one below clears */
		vpl011_read(&u, VPL011_DR);
		CHECK(s.level);
		vpl011_read(&u, VPL011_DR);
		CHECK(!s.level);
		CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_RT);
		/* back at the trigger: asserted again */
		vpl011_rx_push(&u, 0);
		CHECK(s.level);
		CHECK_EQ(s.nirq, 3);
	}

	/* ICR clears RXRIS while at or above the trigger; it is not re-raised until
	 * the level falls below it and reaches it again (RT covers the data). */
	setup(&u, &s);
	vpl011_write(&u, VPL011_LCR_H, 0x70);
	vpl011_write(&u, VPL011_IFLS, 0); /* 4 bytes */
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RX);
	for (unsigned i = 0; i < 4; i++)
		vpl011_rx_push(&u, 'x');
	CHECK(s.level);
	vpl011_write(&u, VPL011_ICR, VPL011_INT_RX);
	CHECK(!s.level);
	vpl011_rx_push(&u, 'y');
	CHECK(!s.level);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RX | VPL011_INT_RT);
	CHECK(s.level);
}

/* TXRIS: set by DR writes, cleared only by ICR; 0 at reset. */
static void test_tx_irq(void)
{
	struct vpl011 u;
	struct sink s;

	setup(&u, &s);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_TX);
	CHECK(!s.level); /* nothing sent yet: no transition */
	CHECK_EQ(s.nirq, 0);
	vpl011_write(&u, VPL011_DR, 'a');
	CHECK(s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_MIS), VPL011_INT_TX);

	/* an interrupt-driven driver (pre-4.5 Linux, U-Boot style): the handler
	 * writes half a FIFO per interrupt, TXRIS stays set, and it masks TXIM
	 * when it runs out of data; unmasking later interrupts at once. */
	for (int burst = 0; burst < 3; burst++) {
		CHECK(vpl011_read(&u, VPL011_MIS) & VPL011_INT_TX);
		for (int i = 0; i < 8; i++)
			vpl011_write(&u, VPL011_DR, 'b');
	}
	vpl011_write(&u, VPL011_IMSC, 0);
	CHECK(!s.level);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_TX);
	CHECK(s.level);
	CHECK_EQ(s.ntx, 25);

	/* ICR acks it: no interrupt until the next DR write, mask games or not */
	vpl011_write(&u, VPL011_ICR, VPL011_INT_TX);
	CHECK(!s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);
	vpl011_write(&u, VPL011_IMSC, 0);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_TX);
	CHECK(!s.level);
	vpl011_write(&u, VPL011_DR, 'c');
	CHECK(s.level);
	CHECK_EQ(s.nirq, 5);

	/* Linux's pl011_int() never acks TX through ICR */
	vpl011_write(&u, VPL011_ICR,
		     VPL011_INT_ALL & ~(VPL011_INT_TX | VPL011_INT_RT | VPL011_INT_RX));
	CHECK(s.level);
}

static void test_irq_edges(void)
{
	struct vpl011 u;
	struct sink s;

	setup(&u, &s);
	vpl011_write(&u, VPL011_LCR_H, 0x70);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT | VPL011_INT_RX | VPL011_INT_TX);
	CHECK_EQ(s.nirq, 0);
	/* several sources under a high line: one callback each way */
	vpl011_rx_push(&u, 'a');
	vpl011_write(&u, VPL011_DR, 'b');
	CHECK_EQ(s.nirq, 1);
	CHECK_EQ(vpl011_read(&u, VPL011_MIS), VPL011_INT_RT | VPL011_INT_TX);
	vpl011_read(&u, VPL011_DR);
	CHECK(s.level);
	vpl011_write(&u, VPL011_ICR, VPL011_INT_TX);
	CHECK(!s.level);
	CHECK_EQ(s.nirq, 2);
	/* RT cleared by ICR with data left; the next byte raises it again */
	vpl011_rx_push(&u, 'c');
	vpl011_rx_push(&u, 'd');
	CHECK_EQ(s.nirq, 3);
	vpl011_write(&u, VPL011_ICR, VPL011_INT_RT);
	CHECK(!s.level);
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFE, 0);
	vpl011_rx_push(&u, 'e');
	CHECK(s.level);
	CHECK_EQ(s.nirq, 5);
	/* masking and unmasking follow MIS */
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_TX);
	CHECK(!s.level);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT);
	CHECK(s.level);
	CHECK_EQ(s.nirq, 7);
	/* rewriting the same state makes no callback */
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT);
	vpl011_write(&u, VPL011_ICR, 0);
	CHECK_EQ(s.nirq, 7);

	/* NULL ops */
	vpl011_init(&u, NULL, NULL);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_TX);
	vpl011_write(&u, VPL011_DR, 'z');
	CHECK(u.line);
	CHECK(vpl011_rx_push(&u, 'q'));
}

static void test_loopback(void)
{
	struct vpl011 u;
	struct sink s;
	u32 cr = VPL011_CR_UARTEN | VPL011_CR_TXE | VPL011_CR_RXE;

	setup(&u, &s);
	vpl011_write(&u, VPL011_LCR_H, 0x70);
	vpl011_write(&u, VPL011_CR, cr);
	vpl011_write(&u, VPL011_IMSC, 0x0F); /* modem interrupts */
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0);

	/* entering loopback with no outputs: CTS, DSR, DCD drop */
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_LBE);
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & 0x107, 0);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_CTS | VPL011_INT_DSR | VPL011_INT_DCD);
	CHECK(s.level);
	vpl011_write(&u, VPL011_ICR, 0x0F);
	CHECK(!s.level);

	/* RTS -> CTS, DTR -> DSR, Out1 -> DCD, Out2 -> RI */
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_LBE | VPL011_CR_RTS);
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & 0x107, VPL011_FR_CTS);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_CTS);
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_LBE | VPL011_CR_RTS | VPL011_CR_DTR);
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & 0x107, VPL011_FR_CTS | VPL011_FR_DSR);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), VPL011_INT_CTS | VPL011_INT_DSR);
	vpl011_write(&u, VPL011_ICR, 0x0F);
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_LBE | VPL011_CR_OUT1 | VPL011_CR_OUT2);
	CHECK_EQ(vpl011_read(&u, VPL011_FR) & 0x107, VPL011_FR_DCD | VPL011_FR_RI);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS), 0x0F);
	vpl011_write(&u, VPL011_ICR, 0x0F);
	vpl011_write(&u, VPL011_IMSC, VPL011_INT_RT);

	/* DR loops into the receiver, not out; host input is held off */
	vpl011_write(&u, VPL011_DR, 'L');
	CHECK_EQ(s.ntx, 0);
	CHECK(s.level);
	CHECK(!vpl011_rx_space(&u));
	CHECK(!vpl011_rx_push(&u, 'h'));
	CHECK_EQ(u.rx_dropped, 1);
	CHECK_EQ(vpl011_read(&u, VPL011_DR), 'L');
	CHECK(!s.level);
	/* a full receiver drops looped bytes */
	for (int i = 0; i < VPL011_FIFO_SIZE + 3; i++)
		vpl011_write(&u, VPL011_DR, (u8)i);
	CHECK_EQ(u.rx_dropped, 4);
	CHECK(vpl011_read(&u, VPL011_FR) & VPL011_FR_RXFF);
	for (int i = 0; i < VPL011_FIFO_SIZE; i++)
		CHECK_EQ(vpl011_read(&u, VPL011_DR), i);

	/* leaving loopback: the cable's inputs come back, a modem interrupt each */
	vpl011_write(&u, VPL011_CR, cr | VPL011_CR_OUT1 | VPL011_CR_OUT2);
	CHECK_EQ(vpl011_read(&u, VPL011_FR), FR_IDLE | VPL011_FR_RXFE);
	CHECK_EQ(vpl011_read(&u, VPL011_RIS) & 0x0F,
		 VPL011_INT_CTS | VPL011_INT_DSR | VPL011_INT_RI);
	CHECK(vpl011_rx_space(&u));
	CHECK(vpl011_rx_push(&u, 'h'));
	vpl011_write(&u, VPL011_DR, 'o');
	CHECK_EQ(s.ntx, 1);
	CHECK_EQ(s.tx[0], 'o');
	CHECK_EQ(vpl011_read(&u, VPL011_DR), 'h');
}

/* The device-bus callbacks reach the same registers. */
static void test_io_callbacks(void)
{
	struct vpl011 u;
	struct sink s;

	setup(&u, &s);
	vpl011_io_write(&u, VPL011_IBRD, 4, 0x1234);
	CHECK_EQ(vpl011_read(&u, VPL011_IBRD), 0x1234);
	CHECK_EQ(vpl011_io_read(&u, VPL011_IBRD, 4), 0x1234);
}

int main(void)
{
	test_io_callbacks();
	test_reset();
	test_bad_accesses();
	test_earlycon();
	test_linux_amba();
	test_linux_sbsa();
	test_fifo();
	test_ifls();
	test_tx_irq();
	test_irq_edges();
	test_loopback();
	return test_summary();
}
