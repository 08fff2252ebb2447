/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's own NIC after ExitBootServices: a virtio-net device (virtio 1.x, the
 * modern PCI transport; OASIS virtio 1.2, 4.1 and 5.1), found through the ACPI MCFG and
 * driven by polling (no interrupts). Features: VIRTIO_F_VERSION_1 and VIRTIO_NET_F_MAC
 * only, so every buffer starts with the 12-byte virtio_net_hdr and carries one whole
 * frame. Queue 0 receives (all its buffers posted), queue 1 transmits; both are split
 * virtqueues in identity-mapped hypervisor memory. Not thread-safe: one pCPU drives it. */
#ifndef DRIVERS_VIRTIO_NET_H
#define DRIVERS_VIRTIO_NET_H

#include "drivers/pci.h"
#include "hv/types.h"

#define VIRTIO_NET_QUEUE_MAX 256  /* entries per queue, at most (the device may offer fewer) */
#define VIRTIO_NET_BUF_SIZE 2048  /* one buffer: the header and a frame */
#define VIRTIO_NET_HDR_LEN 12	  /* struct virtio_net_hdr with VIRTIO_F_VERSION_1 (5.1.6) */
#define VIRTIO_NET_FRAME_MAX 1514 /* an Ethernet frame without FCS, no VLAN tag room */

/* One split virtqueue (2.7); descriptor i always describes buffer i. */
struct virtq {
	u16 size;      /* entries: a power of 2 */
	u16 cap;       /* entries its memory holds (the first start's size) */
	u16 index;     /* queue number */
	u16 avail_idx; /* the driver's avail->idx (what it published) */
	u16 used_seen; /* entries of the used ring consumed so far */
	volatile u8 *desc, *avail, *used;
	u8 *bufs;   /* size * VIRTIO_NET_BUF_SIZE */
	u64 notify; /* where to write index to notify the device */
	u16 nfree;  /* tx: descriptors not with the device, in free[] */
	u16 free[VIRTIO_NET_QUEUE_MAX];
	u8 held[VIRTIO_NET_QUEUE_MAX / 8]; /* bit i: buffer i is with the device */
};

struct virtio_net {
	u8 mac[6];
	struct pci_dev pci;
	u64 common, device; /* the capabilities' register windows (identity-mapped) */
	struct virtq rx, tx;
	u64 rx_frames, tx_frames;
	u64 rx_dropped; /* frames longer than the caller's buffer, or malformed */
	u64 bogus_ids;	/* used-ring entries naming a buffer the device did not hold */
	u64 restarts;	/* virtio_net_restart calls */
};

/* Finds the first virtio-net function in the windows the ACPI MCFG lists (vendor 0x1af4,
 * device 0x1041, or the transitional 0x1000 with subsystem ID 1 and modern
 * capabilities), resets it (which also stops whatever the firmware left running on it),
 * negotiates the features, sets up both queues and sets DRIVER_OK. Returns 0, or -1 with
 * *why set (no MCFG, no virtio-net, a refused feature, ...). Allocates with
 * alloc_pages(): call once. */
int virtio_net_probe(const void *rsdp, struct virtio_net *n, const char **why);

/* The same over given ECAM windows. */
int virtio_net_probe_windows(const struct acpi_mcfg_entry *w, u32 nw, struct virtio_net *n,
			     const char **why);

/* Whether the device stopped working on its own: it asks for a reset
 * (DEVICE_NEEDS_RESET, 2.1.2), failed, or lost DRIVER_OK (its host reset it). One register
 * read. */
bool virtio_net_broken(const struct virtio_net *n);
/* Starts a broken device again as the probe did (reset, features, queues, DRIVER_OK),
 * in the memory the probe allocated; frames in flight are lost, the MAC is read again.
 * Returns 0, or -1 with *why (the device can then do no DMA). */
int virtio_net_restart(struct virtio_net *n, const char **why);

/* Queues one frame (copied; len at most VIRTIO_NET_FRAME_MAX) for transmission. Returns
 * 0, or -1 when the frame is too long or every transmit buffer is still with the
 * device (try again after polling). */
int virtio_net_send(struct virtio_net *n, const void *frame, size_t len);

/* Copies the next received frame into buf and gives its buffer back to the device.
 * Returns its length, or 0 when none is waiting. Frames longer than max are dropped
 * (counted in rx_dropped). */
size_t virtio_net_recv(struct virtio_net *n, void *buf, size_t max);

#endif
