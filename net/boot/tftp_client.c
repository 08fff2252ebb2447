/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP client (tftp_client.h): a transfer (net/boot/tftp_xfer.c) on an lwIP UDP socket, with
 * firmware pool memory for the file and the progress on the console. */
#include "net/boot/tftp_client.h"
#include "boot/efi.h"
#include "hv/lib.h"
#include "lwip/sys.h"
#include "lwip/udp.h"
#include "net/boot/progress.h"
#include "net/boot/tftp_proto.h"
#include "net/boot/tftp_xfer.h"

/* IPv4 and UDP headers: a block of the MTU less these comes in one frame (lwIP here
 * reassembles no fragments). */
#define IP_UDP_TFTP_HDR (20 + 8 + 4)

struct client {
	struct udp_pcb *pcb;
	ip_addr_t server;
	struct tftp_xfer x;
};

static void send_pkt(void *ctx, const u8 *pkt, size_t n, u16 port)
{
	struct client *c = ctx;
	struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16)n, PBUF_RAM);
	if (!p)
		return; /* lost like a dropped packet: the timeout sends it again */
	pbuf_take(p, pkt, (u16)n);
	udp_sendto(c->pcb, p, &c->server, port);
	pbuf_free(p);
}

static void *alloc(void *ctx, u64 n)
{
	(void)ctx;
	return efi_alloc(n);
}

static void release(void *ctx, void *p)
{
	(void)ctx;
	efi_free(p);
}

static void on_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
		    u16_t port)
{
	struct client *c = arg;
	static u8 pkt[1500]; /* more than a frame's UDP payload (lwIP reassembles none here) */
	(void)pcb;
	u16 n = pbuf_copy_partial(p, pkt, MIN(p->tot_len, sizeof pkt), 0);
	bool whole = p->tot_len <= sizeof pkt;
	pbuf_free(p);
	if (ip_addr_cmp(addr, &c->server))
		tftp_xfer_input(&c->x, pkt, n, whole, port, sys_now());
}

/* A line on the console: how much came so far (of the size announced), or all of it. */
static void progress(const struct tftp_xfer *x, const char *path, u32 ms, bool done)
{
	net_progress("tftp", path, x->len, x->has_tsize, x->tsize, ms, done);
}

void *tftp_get(const ip4_addr_t *server, const char *path, u64 *len, void (*poll)(void),
	       const char **why)
{
	static struct client c;
	static const struct tftp_xfer_io io = { &c, send_pkt, alloc, release };
	struct tftp_xfer *x = &c.x;
	ip_addr_copy_from_ip4(c.server, *server);
	if (!(c.pcb = udp_new())) {
		*why = "lwIP has no UDP socket left";
		return NULL;
	}
	udp_recv(c.pcb, on_recv, &c);
	if (udp_bind(c.pcb, IP_ANY_TYPE, 0) != ERR_OK) {
		udp_remove(c.pcb);
		*why = "lwIP has no UDP port left";
		return NULL;
	}
	u32 asked = netif_default ? netif_default->mtu - IP_UDP_TFTP_HDR : TFTP_BLKSIZE_DEFAULT;
	u32 start = sys_now(), shown = start;
	tftp_xfer_start(x, &io, path, asked, TFTP_FILE_MAX, start);
	while (!x->done) {
		poll();
		tftp_xfer_tick(x, sys_now());
		if (!x->done && sys_now() - shown >= PROGRESS_MS) {
			shown = sys_now();
			progress(x, path, shown - start, false);
		}
	}
	udp_remove(c.pcb);
	if (x->why[0]) {
		tftp_xfer_drop(x);
		*why = x->why;
		return NULL;
	}
	progress(x, path, sys_now() - start, true);
	if (!x->buf && !(x->buf = efi_alloc(1))) { /* an empty file without a transfer size */
		*why = "no memory";
		return NULL;
	}
	x->buf[x->len] = 0;
	*len = x->len;
	return x->buf;
}
