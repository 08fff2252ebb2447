/* SPDX-License-Identifier: GPL-2.0-only */
/* virtio-net over modern virtio PCI, polled (see virtio_net.h). Section numbers are
 * those of OASIS virtio 1.2: 2.1 status, 2.2 features, 2.7 split virtqueues, 3.1.1
 * driver initialization, 4.1.4 PCI capabilities, 5.1 network device. */
#include "drivers/virtio_net.h"
#include "hv/lib.h"
#include "hv/mem.h"

/* Host unit tests define this to play the device's side of a register write. */
#ifndef VIRTIO_MMIO_WRITTEN
#define VIRTIO_MMIO_WRITTEN(addr, bytes) ((void)0)
#endif

#define VIRTIO_VENDOR 0x1AF4
#define VIRTIO_DEV_NET_MODERN 0x1041 /* 0x1040 + device type 1 (4.1.2.1) */
#define VIRTIO_DEV_NET_TRANSITIONAL 0x1000
#define VIRTIO_SUBSYS_NET 1

/* struct virtio_pci_cap (4.1.4): vendor capability, then these bytes. */
#define CAP_CFG_TYPE 3
#define CAP_BAR 4
#define CAP_OFFSET 8
#define CAP_LENGTH 12
#define CAP_NOTIFY_MULT 16 /* struct virtio_pci_notify_cap's notify_off_multiplier */
#define CAP_LEN_MIN 16
#define CAP_NOTIFY_LEN_MIN 20
#define CFG_COMMON 1
#define CFG_NOTIFY 2
#define CFG_ISR 3 /* interrupt status: not needed, the driver polls */
#define CFG_DEVICE 4

/* struct virtio_pci_common_cfg (4.1.4.3) */
#define COMMON_DFSELECT 0
#define COMMON_DF 4
#define COMMON_GFSELECT 8
#define COMMON_GF 12
#define COMMON_NUM_QUEUES 18
#define COMMON_STATUS 20
#define COMMON_CFG_GENERATION 21
#define COMMON_Q_SELECT 22
#define COMMON_Q_SIZE 24
#define COMMON_Q_MSIX 26
#define COMMON_Q_ENABLE 28
#define COMMON_Q_NOFF 30
#define COMMON_Q_DESC 32
#define COMMON_Q_DRIVER 40
#define COMMON_Q_DEVICE 48
#define COMMON_LEN 56 /* virtio 1.0's layout, all this driver uses */
#define VIRTIO_MSI_NO_VECTOR 0xFFFF

/* Device status (2.1) */
#define STATUS_ACKNOWLEDGE 1
#define STATUS_DRIVER 2
#define STATUS_DRIVER_OK 4
#define STATUS_FEATURES_OK 8
#define STATUS_NEEDS_RESET 64
#define STATUS_FAILED 128

/* Feature bits (5.1.3, 6) */
#define VIRTIO_NET_F_MAC 5
#define VIRTIO_F_VERSION_1 32

/* struct virtio_net_config (5.1.4): mac[6] first. */
#define NET_CFG_MAC 0
#define NET_CFG_LEN_MIN 6

/* Split virtqueue layout (2.7.5, 2.7.6, 2.7.8) */
#define DESC_LEN 16 /* le64 addr, le32 len, le16 flags, le16 next */
#define DESC_F_WRITE 2
#define AVAIL_IDX 2
#define AVAIL_RING 4
#define USED_F_NO_NOTIFY 1
#define USED_IDX 2
#define USED_RING 4
#define USED_ELEM_LEN 8 /* le32 id, le32 len */

#define RESET_SPINS 10000000u

/* Ordering between the CPU and the device's DMA: the ring entries before the index
 * that publishes them (wmb), the used index before the entries it covers (rmb), and
 * the published avail index before the read of the device's notification hint (mb). */
#if defined(__aarch64__)
/* wmb orders earlier loads too (dmb osh, not oshst): a received buffer is read, then
 * given back to the device by the index store. */
static inline void vq_wmb(void) { __asm__ volatile("dmb osh" ::: "memory"); }
static inline void vq_rmb(void) { __asm__ volatile("dmb oshld" ::: "memory"); }
static inline void vq_mb(void) { __asm__ volatile("dmb osh" ::: "memory"); }
#else
/* x86: stores are seen in order and loads are not moved before loads, so only the
 * compiler must be stopped; a later load may pass an earlier store, hence mfence. */
static inline void vq_wmb(void) { __asm__ volatile("" ::: "memory"); }
static inline void vq_rmb(void) { __asm__ volatile("" ::: "memory"); }
static inline void vq_mb(void) { __asm__ volatile("mfence" ::: "memory"); }
#endif

/* Device registers: single accesses of their width (4.1.3.1). */
static u8 rd_reg8(u64 a) { return *(volatile u8 *)(uintptr_t)a; }
static u16 rd_reg16(u64 a) { return *(volatile u16 *)(uintptr_t)a; }
static u32 rd_reg32(u64 a) { return *(volatile u32 *)(uintptr_t)a; }

static void wr_reg8(u64 a, u8 v)
{
	*(volatile u8 *)(uintptr_t)a = v;
	VIRTIO_MMIO_WRITTEN(a, 1);
}

static void wr_reg16(u64 a, u16 v)
{
	*(volatile u16 *)(uintptr_t)a = v;
	VIRTIO_MMIO_WRITTEN(a, 2);
}

static void wr_reg32(u64 a, u32 v)
{
	*(volatile u32 *)(uintptr_t)a = v;
	VIRTIO_MMIO_WRITTEN(a, 4);
}

/* 64-bit fields as two 32-bit halves, low first (4.1.3.1 allows it). */
static void wr_reg64(u64 a, u64 v)
{
	wr_reg32(a, (u32)v);
	wr_reg32(a + 4, (u32)(v >> 32));
}

/* Ring memory: written by one side and read by the other, so volatile. */
static u16 ring16(volatile u8 *p) { return *(volatile u16 *)p; }
static u32 ring32(volatile u8 *p) { return *(volatile u32 *)p; }
static void ring_set16(volatile u8 *p, u16 v) { *(volatile u16 *)p = v; }

static void set_desc(struct virtq *q, u16 i, u32 len, u16 flags)
{
	volatile u8 *d = q->desc + (u32)i * DESC_LEN;
	*(volatile u64 *)d = (u64)(uintptr_t)(q->bufs + (u64)i * VIRTIO_NET_BUF_SIZE);
	*(volatile u32 *)(d + 8) = len;
	*(volatile u16 *)(d + 12) = flags;
	*(volatile u16 *)(d + 14) = 0;
}

/* ------------------------------------------------------------------------- */
/* finding the device                                                        */

static bool is_virtio_net(const struct pci_dev *d)
{
	if (d->vendor != VIRTIO_VENDOR || d->header_type != 0)
		return false;
	if (d->device == VIRTIO_DEV_NET_MODERN)
		return true;
	return d->device == VIRTIO_DEV_NET_TRANSITIONAL &&
	       pci_read16(d, PCI_SUBSYSTEM_ID) == VIRTIO_SUBSYS_NET;
}

struct find {
	struct virtio_net *n;
	const char *why; /* why the last virtio-net seen could not be used */
};

static u32 cap_length(const struct pci_dev *d, u8 cap)
{
	return pci_read32(d, (u16)(cap + CAP_LENGTH));
}

/* The register window a virtio capability at `cap` describes, or 0 when its BAR is not
 * a memory BAR the firmware placed, or the window does not fit in it. */
static u64 cap_window(const struct pci_dev *d, u8 cap, u32 min_len, const char **why)
{
	u8 bar = pci_read8(d, (u16)(cap + CAP_BAR));
	u32 off = pci_read32(d, (u16)(cap + CAP_OFFSET));
	u32 len = cap_length(d, cap);
	struct pci_bar b;

	if (bar > 5 || pci_bar(d, bar, &b) || b.io) {
		*why = "a virtio capability names no memory BAR";
		return 0;
	}
	if (!b.addr || !b.size) {
		*why = "the firmware left a virtio BAR unassigned";
		return 0;
	}
	if (len < min_len || (u64)off + len > b.size) {
		*why = "a virtio capability's window does not fit its BAR";
		return 0;
	}
	return b.addr + off;
}

/* The notify capability's window: each queue's doorbell is at base + queue_notify_off *
 * mult (4.1.4.4), and must lie inside it (a device may say otherwise). */
struct notify_window {
	u64 base;
	u32 len, mult;
};

/* Locates the common, notify, ISR and device-specific windows (the first usable one of
 * each type, as 4.1.4.1 asks). */
static int find_caps(struct virtio_net *n, struct notify_window *nw, const char **why)
{
	const struct pci_dev *d = &n->pci;
	u64 notify = 0;
	u32 mult = 0, len = 0;

	n->common = n->device = 0;
	for (u8 c = pci_find_cap(d, PCI_CAP_VENDOR, 0); c; c = pci_find_cap(d, PCI_CAP_VENDOR, c)) {
		u8 type = pci_read8(d, (u16)(c + CAP_CFG_TYPE));
		u8 cap_len = pci_read8(d, (u16)(c + 2));
		if (cap_len < CAP_LEN_MIN)
			continue;
		if (type == CFG_COMMON && !n->common) {
			n->common = cap_window(d, c, COMMON_LEN, why);
		} else if (type == CFG_NOTIFY && !notify && cap_len >= CAP_NOTIFY_LEN_MIN) {
			notify = cap_window(d, c, 2, why);
			mult = pci_read32(d, (u16)(c + CAP_NOTIFY_MULT));
			len = cap_length(d, c);
		} else if (type == CFG_DEVICE && !n->device) {
			n->device = cap_window(d, c, NET_CFG_LEN_MIN, why);
		}
	}
	if (!n->common || !notify || !n->device) {
		if (!*why)
			*why = "the device lacks virtio 1.x PCI capabilities "
			       "(common, notify, device)";
		return -1;
	}
	*nw = (struct notify_window){ .base = notify, .len = len, .mult = mult };
	*why = NULL;
	return 0;
}

/* ------------------------------------------------------------------------- */
/* initialization (3.1.1)                                                    */

static void set_status(struct virtio_net *n, u8 bits)
{
	wr_reg8(n->common + COMMON_STATUS, (u8)(rd_reg8(n->common + COMMON_STATUS) | bits));
}

static int fail(struct virtio_net *n, const char *reason, const char **why)
{
	set_status(n, STATUS_FAILED);
	*why = reason;
	return -1;
}

static int reset(struct virtio_net *n)
{
	wr_reg8(n->common + COMMON_STATUS, 0);
	/* The driver waits for the reset to complete before touching the device again. */
	for (u32 i = 0; i < RESET_SPINS; i++)
		if (rd_reg8(n->common + COMMON_STATUS) == 0)
			return 0;
	return -1;
}

static u64 device_features(struct virtio_net *n)
{
	wr_reg32(n->common + COMMON_DFSELECT, 0);
	u64 lo = rd_reg32(n->common + COMMON_DF);
	wr_reg32(n->common + COMMON_DFSELECT, 1);
	return lo | (u64)rd_reg32(n->common + COMMON_DF) << 32;
}

static void driver_features(struct virtio_net *n, u64 f)
{
	wr_reg32(n->common + COMMON_GFSELECT, 0);
	wr_reg32(n->common + COMMON_GF, (u32)f);
	wr_reg32(n->common + COMMON_GFSELECT, 1);
	wr_reg32(n->common + COMMON_GF, (u32)(f >> 32));
}

/* Sets up queue `index`: its size (a power of 2, at most VIRTIO_NET_QUEUE_MAX and what
 * the device offers), rings and buffers; enables it. nw from find_caps. */
static int queue_init(struct virtio_net *n, struct virtq *q, u16 index,
		      const struct notify_window *nw, const char **why)
{
	u64 c = n->common;
	wr_reg16(c + COMMON_Q_SELECT, index);
	u16 max = rd_reg16(c + COMMON_Q_SIZE);
	if (!max) {
		*why = "the device has no rx or tx queue";
		return -1;
	}
	/* The doorbell is a 2-byte write (4.1.4.4); Linux refuses such a queue too. */
	u64 doorbell = (u64)rd_reg16(c + COMMON_Q_NOFF) * nw->mult;
	if (doorbell + 2 > nw->len) {
		*why = "a queue's doorbell lies outside the notify window";
		return -1;
	}
	if (rd_reg16(c + COMMON_Q_ENABLE)) {
		*why = "a queue stays enabled after the reset";
		return -1;
	}
	/* A restart keeps the first start's memory, and so at most its size. */
	u16 size = 1, limit = q->cap ? q->cap : VIRTIO_NET_QUEUE_MAX;
	while (size * 2 <= MIN(max, limit))
		size *= 2;
	struct virtq old = *q;
	*q = (struct virtq){ .size = size, .index = index, .cap = old.cap ? old.cap : size };
	/* Descriptors (16-byte aligned), available ring (2), used ring (4): one page each,
	 * as size <= 256. */
	q->desc = old.desc ? old.desc : alloc_pages(3);
	memset((void *)q->desc, 0, 3 * PAGE_SIZE);
	q->avail = q->desc + PAGE_SIZE;
	q->used = q->desc + 2 * PAGE_SIZE;
	q->bufs = old.bufs ? old.bufs
			   : alloc_pages(ALIGN_UP((u64)size * VIRTIO_NET_BUF_SIZE, PAGE_SIZE) /
					 PAGE_SIZE);
	wr_reg16(c + COMMON_Q_SIZE, size);
	wr_reg16(c + COMMON_Q_MSIX, VIRTIO_MSI_NO_VECTOR);
	wr_reg64(c + COMMON_Q_DESC, (u64)(uintptr_t)q->desc);
	wr_reg64(c + COMMON_Q_DRIVER, (u64)(uintptr_t)q->avail);
	wr_reg64(c + COMMON_Q_DEVICE, (u64)(uintptr_t)q->used);
	q->notify = nw->base + doorbell;
	wr_reg16(c + COMMON_Q_ENABLE, 1);
	return 0;
}

/* The MAC, read until the configuration generation holds still (4.1.4.3.1, 2.5.1). */
static void read_mac(struct virtio_net *n)
{
	u8 gen;
	do {
		gen = rd_reg8(n->common + COMMON_CFG_GENERATION);
		for (int i = 0; i < 6; i++)
			n->mac[i] = rd_reg8(n->device + NET_CFG_MAC + i);
	} while (gen != rd_reg8(n->common + COMMON_CFG_GENERATION));
}

static void notify(struct virtq *q)
{
	vq_mb(); /* avail->idx out before the hint is read and the doorbell rung */
	if (!(ring16(q->used) & USED_F_NO_NOTIFY))
		wr_reg16(q->notify, q->index);
}

/* Gives buffer id to the device (not yet published: see publish()). */
static void post(struct virtq *q, u16 id)
{
	q->held[id / 8] |= (u8)BIT(id % 8);
	ring_set16(q->avail + AVAIL_RING + 2u * (q->avail_idx & (q->size - 1)), id);
	q->avail_idx++;
}

static void publish(struct virtq *q)
{
	vq_wmb(); /* descriptors, ring entries and a given-back buffer's reads before the index */
	ring_set16(q->avail + AVAIL_IDX, q->avail_idx);
}

static int init_device(struct virtio_net *n, const char **why)
{
	struct notify_window nw;
	if (find_caps(n, &nw, why))
		return -1;

	/* Registers first; DMA only once the reset has stopped whatever the firmware
	 * left running on the device. */
	pci_write16(&n->pci, PCI_COMMAND, pci_read16(&n->pci, PCI_COMMAND) | PCI_COMMAND_MEMORY);
	if (reset(n)) {
		*why = "the device does not complete its reset";
		return -1;
	}
	pci_enable_mmio_dma(&n->pci);
	set_status(n, STATUS_ACKNOWLEDGE);
	set_status(n, STATUS_DRIVER);
	u64 offered = device_features(n);
	if (!(offered & BIT(VIRTIO_F_VERSION_1)))
		return fail(n, "the device does not offer VIRTIO_F_VERSION_1", why);
	if (!(offered & BIT(VIRTIO_NET_F_MAC)))
		return fail(n, "the device gives no MAC address (VIRTIO_NET_F_MAC)", why);
	driver_features(n, BIT(VIRTIO_F_VERSION_1) | BIT(VIRTIO_NET_F_MAC));
	set_status(n, STATUS_FEATURES_OK);
	if (!(rd_reg8(n->common + COMMON_STATUS) & STATUS_FEATURES_OK))
		return fail(n, "the device refused the features (FEATURES_OK did not stick)", why);
	if (rd_reg16(n->common + COMMON_NUM_QUEUES) < 2)
		return fail(n, "the device has fewer than 2 queues", why);
	if (queue_init(n, &n->rx, 0, &nw, why) || queue_init(n, &n->tx, 1, &nw, why))
		return fail(n, *why, why);
	/* Every receive buffer to the device; every transmit buffer free. */
	for (u16 i = 0; i < n->rx.size; i++) {
		set_desc(&n->rx, i, VIRTIO_NET_BUF_SIZE, DESC_F_WRITE);
		post(&n->rx, i);
	}
	publish(&n->rx);
	for (u16 i = 0; i < n->tx.size; i++)
		n->tx.free[n->tx.nfree++] = (u16)(n->tx.size - 1 - i);
	read_mac(n);
	set_status(n, STATUS_DRIVER_OK);
	if (rd_reg8(n->common + COMMON_STATUS) & STATUS_FAILED) {
		*why = "the device failed at DRIVER_OK";
		return -1;
	}
	notify(&n->rx);
	return 0;
}

static void stop_dma(const struct pci_dev *d)
{
	pci_write16(d, PCI_COMMAND, pci_read16(d, PCI_COMMAND) & ~PCI_COMMAND_MASTER);
}

static int try_device(const struct pci_dev *d, void *arg)
{
	struct find *f = arg;
	if (!is_virtio_net(d))
		return 0;
	f->n->pci = *d;
	f->why = NULL;
	if (!init_device(f->n, &f->why))
		return 1;
	/* Perhaps a later one works. This one keeps its FAILED status (3.1.1) and can do
	 * no DMA any more; its rings stay allocated (the probe runs once), and the next
	 * device gets its own (a restart reuses only a device's own). */
	stop_dma(d);
	memset(&f->n->rx, 0, sizeof f->n->rx);
	memset(&f->n->tx, 0, sizeof f->n->tx);
	return 0;
}

bool virtio_net_broken(const struct virtio_net *n)
{
	u8 s = rd_reg8(n->common + COMMON_STATUS);
	return (s & (STATUS_NEEDS_RESET | STATUS_FAILED)) || !(s & STATUS_DRIVER_OK);
}

int virtio_net_restart(struct virtio_net *n, const char **why)
{
	n->restarts++;
	if (!init_device(n, why))
		return 0;
	stop_dma(&n->pci); /* left alone: it writes nothing more into the rings */
	return -1;
}

int virtio_net_probe_windows(const struct acpi_mcfg_entry *w, u32 nw, struct virtio_net *n,
			     const char **why)
{
	struct find f = { .n = n, .why = NULL };
	memset(n, 0, sizeof(*n));
	for (u32 i = 0; i < nw; i++)
		if (pci_scan(&w[i], try_device, &f))
			return 0;
	*why = f.why ? f.why : "no virtio-net device on PCI";
	return -1;
}

int virtio_net_probe(const void *rsdp, struct virtio_net *n, const char **why)
{
	struct acpi_mcfg_entry w[ACPI_MCFG_MAX];
	int nw = acpi_mcfg(rsdp, w, ACPI_MCFG_MAX, why);
	if (nw < 0)
		return -1;
	return virtio_net_probe_windows(w, (u32)nw, n, why);
}

/* ------------------------------------------------------------------------- */
/* polled operation                                                          */

/* The next buffer the device gave back, skipping (and counting in *bogus) ids that are
 * not buffers it holds: a broken or hostile device's repeats and inventions must not make
 * one buffer used twice. */
static bool next_used(struct virtq *q, u16 *id, u32 *len, u64 *bogus)
{
	while (ring16(q->used + USED_IDX) != q->used_seen) {
		vq_rmb(); /* the index before the entry and the buffer it covers */
		volatile u8 *e = q->used + USED_RING +
				 USED_ELEM_LEN * (q->used_seen & (q->size - 1u));
		u32 got = ring32(e);
		*len = ring32(e + 4);
		q->used_seen++;
		if (got >= q->size || !(q->held[got / 8] & BIT(got % 8))) {
			(*bogus)++;
			continue;
		}
		q->held[got / 8] &= (u8)~BIT(got % 8);
		*id = (u16)got;
		return true;
	}
	return false;
}

int virtio_net_send(struct virtio_net *n, const void *frame, size_t len)
{
	struct virtq *q = &n->tx;
	u16 id;
	u32 used_len;

	if (!q->size || len > VIRTIO_NET_FRAME_MAX)
		return -1;
	while (next_used(q, &id, &used_len, &n->bogus_ids))
		q->free[q->nfree++] = id; /* held by the device: not in free[] */
	if (!q->nfree)
		return -1;
	id = q->free[--q->nfree];
	u8 *b = q->bufs + (u64)id * VIRTIO_NET_BUF_SIZE;
	memset(b, 0, VIRTIO_NET_HDR_LEN); /* no checksum offload, no GSO */
	memcpy(b + VIRTIO_NET_HDR_LEN, frame, len);
	set_desc(q, id, (u32)(VIRTIO_NET_HDR_LEN + len), 0);
	post(q, id);
	publish(q);
	notify(q);
	n->tx_frames++;
	return 0;
}

size_t virtio_net_recv(struct virtio_net *n, void *buf, size_t max)
{
	struct virtq *q = &n->rx;
	u16 id;
	u32 len;
	size_t got = 0;
	bool reposted = false;

	while (q->size && next_used(q, &id, &len, &n->bogus_ids)) {
		if (len <= VIRTIO_NET_HDR_LEN || len > VIRTIO_NET_BUF_SIZE ||
		    len - VIRTIO_NET_HDR_LEN > max) {
			n->rx_dropped++;
		} else {
			got = len - VIRTIO_NET_HDR_LEN;
			memcpy(buf, q->bufs + (u64)id * VIRTIO_NET_BUF_SIZE + VIRTIO_NET_HDR_LEN,
			       got);
			n->rx_frames++;
		}
		set_desc(q, id, VIRTIO_NET_BUF_SIZE, DESC_F_WRITE);
		post(q, id);
		reposted = true;
		if (got)
			break;
	}
	if (reposted) {
		publish(q);
		notify(q);
	}
	return got;
}
