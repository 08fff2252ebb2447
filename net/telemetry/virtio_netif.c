/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP netif over the hypervisor's virtio-net driver (virtio_netif.h): frames are
 * copied whole into the driver's buffers each way (drivers/virtio_net.h), polled. */
#include "net/telemetry/virtio_netif.h"
#include "hv/lib.h"
#include "lwip/etharp.h"
#include "netif/ethernet.h"

#define FRAME_MAX 1536 /* an Ethernet frame of a 1500-byte MTU, and room */
#define RX_PER_POLL 32 /* frames handed to lwIP per poll, at most: bounds a poll's time */

/* One frame each way: a received one is still being looked at (admit) when lwIP sends
 * (a RST for the half-open connection room is made from). */
static u8 rx_frame[FRAME_MAX] __attribute__((aligned(64))),
	tx_frame[FRAME_MAX] __attribute__((aligned(64)));

static struct virtio_net *nic_of(struct netif *nif) { return nif->state; }

static err_t linkoutput(struct netif *nif, struct pbuf *p)
{
	if (p->tot_len > sizeof tx_frame)
		return ERR_IF;
	u16 n = pbuf_copy_partial(p, tx_frame, p->tot_len, 0);
	return virtio_net_send(nic_of(nif), tx_frame, n) ? ERR_IF : ERR_OK;
}

void virtio_netif_poll(struct netif *nif, bool (*admit)(const u8 *frame, size_t len))
{
	for (int i = 0; i < RX_PER_POLL; i++) {
		size_t len = virtio_net_recv(nic_of(nif), rx_frame, sizeof rx_frame);
		if (!len)
			return;
		if (!admit(rx_frame, len))
			continue;
		struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16)len, PBUF_POOL);
		if (!p)
			return; /* lwIP is out of buffers: the frame is dropped, as a lost one */
		pbuf_take(p, rx_frame, (u16)len);
		if (nif->input(p, nif) != ERR_OK)
			pbuf_free(p);
	}
}

static err_t netif_setup(struct netif *nif)
{
	nif->name[0] = 'v';
	nif->name[1] = 'n';
	nif->output = etharp_output;
	nif->linkoutput = linkoutput;
	nif->mtu = 1500;
	nif->hwaddr_len = ETH_HWADDR_LEN;
	memcpy(nif->hwaddr, nic_of(nif)->mac, ETH_HWADDR_LEN);
	nif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
	return ERR_OK;
}

int virtio_netif_add(struct virtio_net *nic, struct netif *nif, const ip4_addr_t *ip,
		     const ip4_addr_t *mask, const ip4_addr_t *gw)
{
	if (!netif_add(nif, ip, mask, gw, nic, netif_setup, ethernet_input))
		return -1;
	netif_set_default(nif);
	netif_set_up(nif);
	netif_set_link_up(nif);
	return 0;
}
