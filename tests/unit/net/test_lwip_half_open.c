/* SPDX-License-Identifier: GPL-2.0-only */
/* Half-open connections bounded (lib/lwip/half_open.c) in the real lwIP 2.1.3 build with
 * the hypervisor's options (build/unit/lwip.a), on the telemetry's own netif
 * (net/telemetry/virtio_netif.c) over a fake NIC: each frame goes in through
 * virtio_netif_poll with the telemetry's admit (frame_filter, then
 * tcp_half_open_make_room before a SYN to port 80), what lwIP sends comes out of the NIC
 * (while the SYN is still in the receive buffer: a shared one lost every SYN that made
 * room). A flood of SYNs never followed up: each gets its SYN-ACK, at most
 * TCP_HALF_OPEN_MAX stay half-open, the oldest are reset; a connection established before
 * the flood stays, and a client after it connects. Without the bound the pcbs run out
 * after MEMP_NUM_TCP_PCB SYNs and every later SYN goes unanswered (the lockout it
 * prevents: run with BOUND=0 to see it). */
#include "../console_capture.h"
#include "../../../lib/lwip/half_open.c"
#include "../../../net/telemetry/frame_filter.c"
#include "../../../net/telemetry/virtio_netif.c"
#include "lwip/etharp.h"
#include "lwip/init.h"
#include "lwip/timeouts.h"
#include "netif/ethernet.h"
#include "../test.h"

#include <stdlib.h>
#include "lwip_platform.h"

/* ---- what lwIP asks of its platform (lib/lwip/lwip_port.c, tcp_isn.c, lwip_assert.c) */
static u32 now_ms;
u32_t sys_now(void) { return now_ms; }
u32 net_lwip_rand(void) { return 0x1234; }
u32 tcp_isn(u32 local_addr, u16 local_port, u32 remote_addr, u16 remote_port)
{
	return local_addr ^ remote_addr ^ (u32)local_port << 16 ^ remote_port;
}

/* ---- the wire ---- */
static const u8 our_mac[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
static const u8 peer_mac[6] = { 0x52, 0x55, 10, 0, 2, 2 };
static const u8 our_ip[4] = { 10, 0, 2, 15 }, peer_ip[4] = { 10, 0, 2, 2 };

struct seg {
	u16 sport, dport;
	u32 seq, ack;
	u8 flags;
};
static struct seg out[256];
static int nout;

/* The fake NIC: one frame waiting to be received, what is sent recorded. */
static u8 rx[1600];
static size_t rx_len;
size_t virtio_net_recv(struct virtio_net *n, void *buf, size_t max)
{
	(void)n;
	size_t len = rx_len <= max ? rx_len : 0;
	memcpy(buf, rx, len);
	rx_len = 0;
	return len;
}
int virtio_net_send(struct virtio_net *n, const void *frame, size_t len)
{
	(void)n;
	const u8 *f = frame;
	if (len >= 54 && f[12] == 8 && f[13] == 0 && f[23] == 6 && nout < 256) {
		const u8 *t = f + 14 + (f[14] & 0xF) * 4;
		out[nout++] = (struct seg){
			(u16)(t[0] << 8 | t[1]), (u16)(t[2] << 8 | t[3]),
			(u32)t[4] << 24 | (u32)t[5] << 16 | (u32)t[6] << 8 | t[7],
			(u32)t[8] << 24 | (u32)t[9] << 16 | (u32)t[10] << 8 | t[11], t[13]
		};
	}
	return 0;
}

static struct netif nif;
static bool bound = true;
static const struct frame_rules rules = { .syn_port = 80 };

/* The telemetry's (telemetry.c): room made before each SYN to its port. */
static bool admit(const u8 *frame, size_t len)
{
	if (frame_filter(&rules, frame, len) == FRAME_PASS_SYN && bound)
		tcp_half_open_make_room();
	return true;
}

static u16 csum(const u8 *p, size_t n, u32 sum)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (u32)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (u32)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (u16)~sum;
}

static void put16(u8 *p, u16 v) { p[0] = (u8)(v >> 8), p[1] = (u8)v; }
static void put32(u8 *p, u32 v) { put16(p, (u16)(v >> 16)), put16(p + 2, (u16)v); }

/* A frame into lwIP as the telemetry's poll hands it over. */
static void deliver(const u8 *f, u16 n)
{
	memcpy(rx, f, n);
	rx_len = n;
	virtio_netif_poll(&nif, admit);
}

/* A TCP segment from the peer's port sport to our port 80. */
static void segment(u16 sport, u32 seq, u32 ack, u8 flags)
{
	u8 f[54] = { 0 };
	memcpy(f, our_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	put16(f + 12, 0x0800);
	u8 *ip = f + 14, *t = f + 34;
	ip[0] = 0x45, put16(ip + 2, 40), ip[8] = 64, ip[9] = 6;
	memcpy(ip + 12, peer_ip, 4), memcpy(ip + 16, our_ip, 4);
	put16(ip + 10, csum(ip, 20, 0));
	put16(t, sport), put16(t + 2, 80), put32(t + 4, seq), put32(t + 8, ack);
	t[12] = 5 << 4, t[13] = flags, put16(t + 14, 8192);
	u32 pseudo = (u32)(peer_ip[0] << 8 | peer_ip[1]) + (u32)(peer_ip[2] << 8 | peer_ip[3]) +
		     (u32)(our_ip[0] << 8 | our_ip[1]) + (u32)(our_ip[2] << 8 | our_ip[3]) + 6 + 20;
	put16(t + 16, csum(t, 20, pseudo));
	deliver(f, sizeof f);
}

/* The peer says who it is (an ARP request for our address): lwIP answers it and keeps
 * its MAC, so that what it sends goes out as IPv4, not as an ARP request. */
static void arp_from_peer(void)
{
	u8 f[42] = { 0 };
	memset(f, 0xFF, 6);
	memcpy(f + 6, peer_mac, 6);
	put16(f + 12, 0x0806);
	put16(f + 14, 1), put16(f + 16, 0x0800), f[18] = 6, f[19] = 4, put16(f + 20, 1);
	memcpy(f + 22, peer_mac, 6), memcpy(f + 28, peer_ip, 4), memcpy(f + 38, our_ip, 4);
	deliver(f, sizeof f);
}

static struct tcp_pcb *accepted[8];
static int naccepted;
static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void)arg, (void)err;
	if (naccepted < 8)
		accepted[naccepted++] = pcb;
	return ERR_OK;
}

/* The SYN-ACK lwIP sent to sport, if it did. */
static const struct seg *syn_ack_to(u16 sport)
{
	for (int i = nout - 1; i >= 0; i--)
		if (out[i].dport == sport && (out[i].flags & 0x12) == 0x12)
			return &out[i];
	return NULL;
}

static bool reset_sent_to(u16 sport)
{
	for (int i = 0; i < nout; i++)
		if (out[i].dport == sport && (out[i].flags & 0x04))
			return true;
	return false;
}

static u32 half_open(void)
{
	u32 n = 0;
	for (struct tcp_pcb *p = tcp_active_pcbs; p; p = p->next)
		n += p->state == SYN_RCVD;
	return n;
}

/* A whole handshake from sport: accepted by the listener. */
static bool connect_from(u16 sport)
{
	int before = naccepted;
	segment(sport, 1000, 0, 0x02);
	const struct seg *sa = syn_ack_to(sport);
	if (!sa)
		return false;
	segment(sport, 1001, sa->seq + 1, 0x10);
	return naccepted == before + 1;
}

int main(void)
{
	const char *b = getenv("BOUND");
	bound = !b || strcmp(b, "0");
	lwip_init();
	ip4_addr_t ip, mask, gw;
	IP4_ADDR(&ip, 10, 0, 2, 15);
	IP4_ADDR(&mask, 255, 255, 255, 0);
	IP4_ADDR(&gw, 10, 0, 2, 2);
	static struct virtio_net nic = { .mac = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 } };
	CHECK_EQ(virtio_netif_add(&nic, &nif, &ip, &mask, &gw), 0);
	struct tcp_pcb *l = tcp_new();
	CHECK(tcp_bind(l, IP_ADDR_ANY, 80) == ERR_OK);
	l = tcp_listen(l);
	CHECK(l != NULL);
	tcp_accept(l, on_accept);
	arp_from_peer();

	/* A client connected before the flood. */
	CHECK(connect_from(30000));

	/* 40 SYNs never followed up, a few ms apart: each answered, at most 8 half-open. */
	bool all_answered = true;
	for (u16 i = 0; i < 40; i++) {
		now_ms += 5;
		tcp_tmr();
		segment((u16)(40000 + i), 7000, 0, 0x02);
		all_answered &= syn_ack_to((u16)(40000 + i)) != NULL;
		CHECK(half_open() <= TCP_HALF_OPEN_MAX);
	}
	CHECK(all_answered);
	CHECK_EQ(tcp_half_open_evicted, 40 - TCP_HALF_OPEN_MAX);
	/* The oldest reset, the newest still waiting. */
	CHECK(reset_sent_to(40000) && reset_sent_to(40031));
	CHECK(!reset_sent_to(40032) && !reset_sent_to(40039));
	/* The connection from before stays; a client after the flood gets in. */
	CHECK(naccepted == 1 && accepted[0]->state == ESTABLISHED && !reset_sent_to(30000));
	CHECK(connect_from(30001));
	CHECK(strlen(console) == 0); /* lwIP said nothing */
	return test_summary();
}
