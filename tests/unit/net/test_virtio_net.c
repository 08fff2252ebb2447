/* SPDX-License-Identifier: GPL-2.0-only */
/* drivers/virtio_net.c against a made-up virtio-net on a made-up ECAM window
 * (fake_pci.h): the device's side of the common configuration registers is played
 * after each register write (VIRTIO_MMIO_WRITTEN), and its side of the split
 * virtqueues when it is notified or given a frame. Checked: finding the device among
 * others, the reset of a device the firmware left running, the features, the queues,
 * send and receive across ring wrap-around, a full transmit ring, frames too long, and
 * the errors probe reports. */
#include "../../../drivers/acpi.c"
#include "../fake_pci.h"

static void fake_virtio_written(unsigned long long addr, unsigned bytes);
#define VIRTIO_MMIO_WRITTEN(addr, bytes) fake_virtio_written(addr, bytes)

/* hv/mem.h's allocator: zeroed pages, given back at the next machine(). */
static void *pages[64];
static unsigned npages;

static void *alloc_pages(u64 n)
{
	void *p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	memset(p, 0, n * PAGE_SIZE);
	if (npages == 64)
		abort();
	pages[npages++] = p;
	return p;
}

static void free_pages(void)
{
	while (npages)
		free(pages[--npages]);
}

#include "../../../drivers/virtio_net.c"
#include "../test.h"

/* BAR 4: common at 0, ISR at 0x1000, device at 0x2000, notify at 0x3000 (QEMU's). */
#define BAR_SIZE 0x4000
#define NOTIFY_MULT 4

struct fake_queue {
	u16 max, size, enable;
	u64 desc, driver, device;
	u16 last_avail, used_idx;
};

static struct {
	u8 *bar;
	u64 offered, accepted;
	u32 gf[2];
	struct fake_queue q[2];
	bool refuse_features, lazy_tx;
	unsigned notifies[2];
	u8 wire[64][VIRTIO_NET_BUF_SIZE]; /* what was sent: header and frame */
	u32 wire_len[64];
	unsigned nwire;
} dev;

static u8 *common(void) { return dev.bar; }

static void show_queue(u16 sel)
{
	struct fake_queue z = { 0 }, *q = sel < 2 ? &dev.q[sel] : &z;
	u8 *c = common();
	w16(c + COMMON_Q_SIZE, q->size);
	w16(c + COMMON_Q_ENABLE, q->enable);
	w16(c + COMMON_Q_NOFF, sel);
	w64(c + COMMON_Q_DESC, q->desc);
	w64(c + COMMON_Q_DRIVER, q->driver);
	w64(c + COMMON_Q_DEVICE, q->device);
}

static void dev_reset(void)
{
	for (int i = 0; i < 2; i++)
		dev.q[i] = (struct fake_queue){ .max = dev.q[i].max, .size = dev.q[i].max };
	dev.gf[0] = dev.gf[1] = 0;
	common()[COMMON_STATUS] = 0;
	show_queue(rd16(common() + COMMON_Q_SELECT));
}

/* Returns the next available buffer of queue qi: its descriptor. */
static u8 *dev_pop(unsigned qi, u16 *head)
{
	struct fake_queue *q = &dev.q[qi];
	u8 *avail = (u8 *)(uintptr_t)q->driver;
	if (!q->enable || rd16(avail + AVAIL_IDX) == q->last_avail)
		return NULL;
	*head = rd16(avail + AVAIL_RING + 2 * (q->last_avail++ % q->size));
	CHECK(*head < q->size);
	return (u8 *)(uintptr_t)q->desc + DESC_LEN * *head;
}

static void dev_push(unsigned qi, u16 head, u32 len)
{
	struct fake_queue *q = &dev.q[qi];
	u8 *used = (u8 *)(uintptr_t)q->device;
	u8 *e = used + USED_RING + USED_ELEM_LEN * (q->used_idx++ % q->size);
	w32(e, head);
	w32(e + 4, len);
	w16(used + USED_IDX, q->used_idx);
}

static void dev_tx(void)
{
	u16 head;
	u8 *d;
	while ((d = dev_pop(1, &head))) {
		CHECK_EQ(rd16(d + 12), 0); /* one read-only descriptor, no chain */
		u32 len = rd32(d + 8);
		CHECK(len <= VIRTIO_NET_BUF_SIZE);
		if (dev.nwire < 64) {
			memcpy(dev.wire[dev.nwire], (void *)(uintptr_t)rd64(d), len);
			dev.wire_len[dev.nwire++] = len;
		}
		dev_push(1, head, 0);
	}
}

/* Delivers a frame into the next receive buffer; false when none is posted. */
static bool dev_rx(const u8 *frame, u32 len)
{
	u16 head;
	u8 *d = dev_pop(0, &head);
	if (!d)
		return false;
	CHECK_EQ(rd16(d + 12), DESC_F_WRITE);
	CHECK(rd32(d + 8) >= VIRTIO_NET_HDR_LEN + 1514);
	u8 *b = (u8 *)(uintptr_t)rd64(d);
	memset(b, 0, VIRTIO_NET_HDR_LEN);
	memcpy(b + VIRTIO_NET_HDR_LEN, frame, len);
	dev_push(0, head, VIRTIO_NET_HDR_LEN + len);
	return true;
}

static void fake_virtio_written(unsigned long long addr, unsigned bytes)
{
	u8 *c = common();
	u64 off = addr - (u64)(uintptr_t)c;
	(void)bytes;
	if (off >= 0x3000 && off < 0x4000) {
		u16 qi = rd16(c + off);
		CHECK_EQ(off, 0x3000 + qi * NOTIFY_MULT);
		CHECK(c[COMMON_STATUS] & STATUS_DRIVER_OK);
		if (qi < 2)
			dev.notifies[qi]++;
		if (qi == 1 && !dev.lazy_tx)
			dev_tx();
		return;
	}
	u16 sel = rd16(c + COMMON_Q_SELECT);
	struct fake_queue *q = sel < 2 ? &dev.q[sel] : NULL;
	switch (off) {
	case COMMON_DFSELECT: {
		u32 s = rd32(c + COMMON_DFSELECT);
		w32(c + COMMON_DF, s < 2 ? (u32)(dev.offered >> (32 * s)) : 0);
		break;
	}
	case COMMON_GF:
		if (rd32(c + COMMON_GFSELECT) < 2)
			dev.gf[rd32(c + COMMON_GFSELECT)] = rd32(c + COMMON_GF);
		break;
	case COMMON_STATUS:
		if (!c[COMMON_STATUS]) {
			dev_reset();
		} else if (c[COMMON_STATUS] & STATUS_FEATURES_OK) {
			dev.accepted = dev.gf[0] | (u64)dev.gf[1] << 32;
			if (dev.refuse_features || (dev.accepted & ~dev.offered))
				c[COMMON_STATUS] &= (u8)~STATUS_FEATURES_OK;
		}
		break;
	case COMMON_Q_SELECT:
		show_queue(sel);
		break;
	case COMMON_Q_SIZE:
		CHECK(q && rd16(c + off) <= q->max && !(rd16(c + off) & (rd16(c + off) - 1)));
		if (q)
			q->size = rd16(c + off);
		break;
	case COMMON_Q_ENABLE:
		CHECK(q && q->desc && q->driver && q->device);
		if (q)
			q->enable = 1;
		break;
	case COMMON_Q_DESC + 4:
	case COMMON_Q_DRIVER + 4:
	case COMMON_Q_DEVICE + 4:
		if (q) {
			q->desc = rd64(c + COMMON_Q_DESC);
			q->driver = rd64(c + COMMON_Q_DRIVER);
			q->device = rd64(c + COMMON_Q_DEVICE);
			CHECK(!(q->desc & 15) && !(q->driver & 1) && !(q->device & 3));
		}
		break;
	}
}

/* A virtio capability of type `type` for [off, off + len) of BAR 4. */
static void vcap(u8 *cfg, u8 type, u32 off, u32 len)
{
	u8 c = fake_cap(cfg, PCI_CAP_VENDOR, type == CFG_NOTIFY ? 20 : 16);
	cfg[c + CAP_CFG_TYPE] = type;
	cfg[c + CAP_BAR] = 4;
	w32(cfg + c + CAP_OFFSET, off);
	w32(cfg + c + CAP_LENGTH, len);
	if (type == CFG_NOTIFY)
		w32(cfg + c + CAP_NOTIFY_MULT, NOTIFY_MULT);
}

static const u8 MAC[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

/* The machine: a host bridge, a virtio-blk, then a virtio-net of the given device ID
 * on bus 1, its BAR 4 64-bit, above 4 GiB on real machines and here in host memory. */
static u8 *machine(u16 device_id, u16 rxq, u16 txq)
{
	static u8 *bar;
	if (!bar)
		bar = aligned_alloc(BAR_SIZE, BAR_SIZE);
	memset(&dev, 0, sizeof(dev));
	dev.bar = bar;
	free_pages();
	fake_ecam_init(0, 1);
	fake_fn_add(0, 0, 0, 0x8086, 0x29C0, 0);
	u8 *blk = fake_fn_add(0, 2, 0, 0x1AF4, 0x1001, 0);
	w16(blk + PCI_SUBSYSTEM_ID, 2);
	u8 *cfg = fake_fn_add(1, 0, 0, 0x1AF4, device_id, 0);
	w16(cfg + PCI_SUBSYSTEM_ID, 1);
	memset(dev.bar, 0, BAR_SIZE);
	fake_bar(cfg, 1, 0xFEB00000, 0x1000, 0);
	fake_bar(cfg, 4, (u64)(uintptr_t)dev.bar, BAR_SIZE, 4 | 8);
	fake_cap(cfg, 0x11, 12); /* MSI-X, not virtio's */
	vcap(cfg, CFG_COMMON, 0, 0x1000);
	vcap(cfg, CFG_ISR, 0x1000, 0x1000);
	vcap(cfg, CFG_DEVICE, 0x2000, 0x1000);
	vcap(cfg, CFG_NOTIFY, 0x3000, 0x1000);
	memcpy(dev.bar + 0x2000, MAC, 6);
	dev.offered = BIT(VIRTIO_F_VERSION_1) | BIT(VIRTIO_NET_F_MAC) | BIT(0) | BIT(15) | BIT(16) |
		      BIT(17) | BIT(28) | BIT(29);
	dev.q[0].max = rxq;
	dev.q[1].max = txq;
	w16(dev.bar + COMMON_NUM_QUEUES, 3);
	/* as the firmware's driver left it: running, queue 0 enabled */
	dev.bar[COMMON_STATUS] = STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK |
				 STATUS_DRIVER_OK;
	dev.q[0].enable = 1;
	show_queue(0);
	return cfg;
}

static void test_probe(void)
{
	struct virtio_net n;
	const char *why = NULL;
	u8 *cfg = machine(0x1000, 256, 1024);

	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), 0);
	CHECK(!why);
	CHECK(!memcmp(n.mac, MAC, 6));
	CHECK_EQ(n.pci.bus, 1);
	CHECK_EQ(dev.bar[COMMON_STATUS],
		 STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
	CHECK_EQ(dev.accepted, BIT(VIRTIO_F_VERSION_1) | BIT(VIRTIO_NET_F_MAC));
	CHECK_EQ(rd16(cfg + PCI_COMMAND),
		 PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE);
	CHECK_EQ(n.rx.size, 256);
	CHECK_EQ(n.tx.size, 256);
	CHECK_EQ(dev.q[0].size, 256);
	CHECK(dev.q[0].enable && dev.q[1].enable);
	CHECK_EQ(dev.q[0].desc, (u64)(uintptr_t)n.rx.desc);
	CHECK_EQ(rd16((u8 *)(uintptr_t)dev.q[0].driver + AVAIL_IDX), 256); /* all rx posted */
	CHECK_EQ(dev.notifies[0], 1);
	CHECK_EQ(n.common, (u64)(uintptr_t)dev.bar);
	CHECK_EQ(n.tx.notify, (u64)(uintptr_t)dev.bar + 0x3000 + NOTIFY_MULT);

	/* a modern-only device with small queues: 100 entries become 64 */
	machine(0x1041, 100, 2);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), 0);
	CHECK_EQ(n.rx.size, 64);
	CHECK_EQ(dev.q[0].size, 64);
	CHECK_EQ(n.tx.size, 2);
}

static void test_probe_errors(void)
{
	struct virtio_net n;
	const char *why = NULL;

	u8 *cfg = machine(0x1000, 256, 256);
	dev.offered &= ~BIT(VIRTIO_F_VERSION_1); /* a legacy-only device */
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "the device does not offer VIRTIO_F_VERSION_1");
	CHECK(dev.bar[COMMON_STATUS] & STATUS_FAILED);
	CHECK(!(rd16(cfg + PCI_COMMAND) & PCI_COMMAND_MASTER)); /* no DMA from it */

	machine(0x1000, 256, 256);
	dev.refuse_features = true;
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "the device refused the features (FEATURES_OK did not stick)");

	machine(0x1000, 256, 0);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "the device has no rx or tx queue");

	cfg = machine(0x1000, 256, 256);
	w32(cfg + PCI_BAR0 + 16, 4 | 8);
	w32(cfg + PCI_BAR0 + 20, 0);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "the firmware left a virtio BAR unassigned");

	cfg = machine(0x1000, 256, 256);
	w16(cfg + PCI_SUBSYSTEM_ID, 2); /* a transitional virtio-blk */
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "no virtio-net device on PCI");

	cfg = machine(0x1041, 256, 256);
	w16(cfg + PCI_STATUS, 0); /* no capability list: a legacy device */
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "the device lacks virtio 1.x PCI capabilities (common, notify, device)");

	cfg = machine(0x1041, 256, 256);
	w32(cfg + 0x40 + 12 + CAP_LENGTH, 0x2000); /* the common window past the BAR */
	w32(cfg + 0x40 + 12 + CAP_OFFSET, 0x3000);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "a virtio capability's window does not fit its BAR");

	/* A notify window of 2 bytes with a multiplier of 0x1000: tx's doorbell (offset 1)
	 * would be 0x1000 past it, beyond the BAR (Linux's vp_modern_map_vq_notify refuses
	 * it too); rx's, at 0, fits. */
	cfg = machine(0x1041, 256, 256);
	u8 nc = 0x40 + 12 + 3 * 16; /* the notify capability, after common, ISR and device */
	CHECK_EQ(cfg[nc + CAP_CFG_TYPE], CFG_NOTIFY);
	w32(cfg + nc + CAP_LENGTH, 2);
	w32(cfg + nc + CAP_NOTIFY_MULT, 0x1000);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), -1);
	CHECK_STR(why, "a queue's doorbell lies outside the notify window");
	CHECK(dev.bar[COMMON_STATUS] & STATUS_FAILED);
	CHECK(!dev.q[1].enable);
	/* the last 2 bytes of the window are a doorbell still */
	cfg = machine(0x1041, 256, 256);
	w32(cfg + nc + CAP_LENGTH, NOTIFY_MULT + 2);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), 0);
	CHECK_EQ(n.tx.notify, (u64)(uintptr_t)dev.bar + 0x3000 + NOTIFY_MULT);

	CHECK_EQ(virtio_net_probe(NULL, &n, &why), -1);
	CHECK_STR(why, "no valid ACPI RSDP");
}

static void test_traffic(void)
{
	struct virtio_net n;
	const char *why = NULL;
	u8 frame[1514], buf[1514];

	machine(0x1041, 16, 8);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, &n, &why), 0);
	CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 0);

	/* receive: in order, across the ring's wrap-around several times */
	for (unsigned i = 0; i < 50; i++) {
		u32 len = 60 + (i * 97) % (1514 - 60 + 1);
		for (u32 j = 0; j < len; j++)
			frame[j] = (u8)(i + j);
		CHECK(dev_rx(frame, len));
		if (i % 3 == 0) { /* two waiting at once now and then */
			CHECK(dev_rx(frame, len));
			CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), len);
		}
		memset(buf, 0, sizeof buf);
		CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), len);
		CHECK(!memcmp(buf, frame, len));
		CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 0);
	}
	CHECK_EQ(n.rx_frames, 67);
	/* all 16 buffers can be filled; a frame longer than the caller's buffer is dropped
	 * and the next one returned */
	for (unsigned i = 0; i < 16; i++)
		CHECK(dev_rx(frame, i ? 100 : 1000));
	CHECK(!dev_rx(frame, 100));
	CHECK_EQ(virtio_net_recv(&n, buf, 500), 100);
	CHECK_EQ(n.rx_dropped, 1);
	while (virtio_net_recv(&n, buf, sizeof buf))
		;
	CHECK_EQ(rd16((u8 *)(uintptr_t)dev.q[0].driver + AVAIL_IDX), 16 + 67 + 16);

	/* send: the header is 12 zero bytes, then the frame */
	for (unsigned i = 0; i < 20; i++) {
		memset(frame, 0xA0 + i, 60);
		CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	}
	CHECK_EQ(dev.nwire, 20);
	CHECK_EQ(dev.wire_len[19], VIRTIO_NET_HDR_LEN + 60);
	static const u8 zero[VIRTIO_NET_HDR_LEN];
	CHECK(!memcmp(dev.wire[19], zero, VIRTIO_NET_HDR_LEN));
	CHECK_EQ(dev.wire[19][VIRTIO_NET_HDR_LEN], 0xA0 + 19);
	CHECK_EQ(virtio_net_send(&n, frame, 1515), -1);
	CHECK_EQ(virtio_net_send(&n, frame, 1514), 0);
	/* a device that does not take them: 8 in flight, then the ring is full */
	dev.lazy_tx = true;
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	CHECK_EQ(virtio_net_send(&n, frame, 60), -1);
	dev_tx();
	CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	CHECK_EQ(n.tx_frames, 30);
	/* the device asks for no notifications: none come */
	unsigned before = dev.notifies[1];
	w16((u8 *)(uintptr_t)dev.q[1].device, USED_F_NO_NOTIFY);
	CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	CHECK_EQ(dev.notifies[1], before);
}

/* A modern virtio-net with rxq and txq queue entries, probed. */
static void started(struct virtio_net *n, u16 rxq, u16 txq)
{
	const char *why = NULL;
	machine(0x1041, rxq, txq);
	CHECK_EQ(virtio_net_probe_windows(&fake_win, 1, n, &why), 0);
}

/* A device that gives back ids it does not hold (again, or never given): they are skipped
 * and counted, so no transmit buffer is used twice. */
static void test_bogus_ids(void)
{
	struct virtio_net n;
	u8 frame[60] = { 1 }, buf[1514];

	started(&n, 8, 8);
	/* rx: a real frame in buffer 0, then an id outside the ring (every rx buffer is
	 * with the device all the time, so only those can be told apart) */
	CHECK(dev_rx(frame, sizeof frame));
	dev_push(0, 9, VIRTIO_NET_HDR_LEN + 60);
	CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 60);
	CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 0);
	CHECK_EQ(n.bogus_ids, 1);
	CHECK_EQ(rd16((u8 *)(uintptr_t)dev.q[0].driver + AVAIL_IDX), 8 + 1); /* only buffer 0 */
	/* tx: a frame sent and taken, then its id given back a second time and an id never
	 * sent: the free list stays exact (8 more sends fit, the ninth does not) */
	dev.lazy_tx = true;
	CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	u16 head;
	CHECK(dev_pop(1, &head));
	dev_push(1, head, 0);
	dev_push(1, head, 0);
	dev_push(1, (u16)(head ^ 1), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
	CHECK_EQ(virtio_net_send(&n, frame, 60), -1);
	CHECK_EQ(n.bogus_ids, 3);
	dev.lazy_tx = false;
}

/* A device that stops on its own: its host resets it (status 0), or it asks for a reset
 * (DEVICE_NEEDS_RESET) with frames in flight. It is seen as broken, starts again in the
 * probe's memory (no page allocated; a larger queue offered after the reset is capped at
 * what that memory holds), and sends and receives again. */
static void test_restart(void)
{
	struct virtio_net n;
	const char *why = NULL;
	u8 frame[60] = { 7 }, buf[1514];

	started(&n, 16, 8);
	CHECK(!virtio_net_broken(&n));
	unsigned pages_then = npages;
	for (int how = 0; how < 3; how++) {
		dev.lazy_tx = true;
		CHECK_EQ(virtio_net_send(&n, frame, 60), 0); /* in flight, then lost */
		CHECK(dev_rx(frame, 60));
		dev.lazy_tx = false;
		if (how == 0) {
			dev_reset(); /* by its host */
		} else if (how == 1) {
			common()[COMMON_STATUS] |= STATUS_NEEDS_RESET;
		} else {
			common()[COMMON_STATUS] |= STATUS_NEEDS_RESET;
			dev.q[0].max = 64; /* now offers more than the memory holds */
		}
		CHECK(virtio_net_broken(&n));
		CHECK_EQ(virtio_net_restart(&n, &why), 0);
		CHECK(!virtio_net_broken(&n));
		CHECK_EQ(n.restarts, (u64)how + 1);
		CHECK_EQ(npages, pages_then);
		CHECK_EQ(n.rx.size, 16);
		CHECK_EQ(dev.q[0].size, 16);
		CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 0); /* the old frame is gone */
		CHECK(dev_rx(frame, 60));
		CHECK_EQ(virtio_net_recv(&n, buf, sizeof buf), 60);
		unsigned sent = dev.nwire;
		for (int i = 0; i < 20; i++) /* more than the ring: buffers come back */
			CHECK_EQ(virtio_net_send(&n, frame, 60), 0);
		CHECK_EQ(dev.nwire, sent + 20);
	}
	/* one that does not start again can do no DMA any more */
	common()[COMMON_STATUS] |= STATUS_NEEDS_RESET;
	dev.refuse_features = true;
	CHECK_EQ(virtio_net_restart(&n, &why), -1);
	CHECK_STR(why, "the device refused the features (FEATURES_OK did not stick)");
	CHECK(!(rd16((u8 *)(uintptr_t)pci_ecam_addr(&fake_win, 1, 0, 0) + PCI_COMMAND) &
		PCI_COMMAND_MASTER));
}

int main(void)
{
	test_probe();
	test_probe_errors();
	test_traffic();
	test_bogus_ids();
	test_restart();
	free_pages();
	free(fake_ecam);
	return test_summary();
}
