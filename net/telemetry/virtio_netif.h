/* SPDX-License-Identifier: GPL-2.0-only */
/* An lwIP network interface on the hypervisor's own virtio-net driver
 * (drivers/virtio_net.h), polled, after the takeover. */
#ifndef NET_VIRTIO_NETIF_H
#define NET_VIRTIO_NETIF_H

#include "drivers/virtio_net.h"
#include "lwip/netif.h"

/* Adds the NIC to lwIP as the default interface, up, with that address (all zero: none
 * yet, DHCP brings one). Returns 0, or -1 when lwIP refused it. */
int virtio_netif_add(struct virtio_net *nic, struct netif *nif, const ip4_addr_t *ip,
		     const ip4_addr_t *mask, const ip4_addr_t *gw);
/* Hands lwIP the frames the NIC received that admit lets through (true), a bounded number
 * per call. */
void virtio_netif_poll(struct netif *nif, bool (*admit)(const u8 *frame, size_t len));

#endif
