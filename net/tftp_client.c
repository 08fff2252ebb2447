/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP client (tftp_client.h). One transfer at a time, in lock step (RFC 1350 section 2):
 * the read request, then an ACK for each DATA block in order; the server's first answer
 * fixes its port (its transfer ID, section 4). A block shorter than the block size ends
 * the file. Each packet sent is sent again after TIMEOUT_MS without an answer, TRIES
 * times in all. Everything the server sends is checked (net/tftp_proto.c): its size
 * against the transfer size it announced and TFTP_FILE_MAX, block numbers against the
 * one expected (16 bits: they wrap, as most servers do past 65535 blocks). */
#include "net/tftp_client.h"
#include "boot/efi.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "lwip/sys.h"
#include "lwip/udp.h"
#include "net/tftp_proto.h"

#define TIMEOUT_MS 1000
#define TRIES 5
#define PROGRESS_MS 2000
#define BUF_FIRST (1 * MiB) /* the buffer without a transfer size; it doubles as needed */
/* IPv4 and UDP headers: a block of the MTU less these comes in one frame (lwIP here
 * reassembles no fragments). */
#define IP_UDP_TFTP_HDR (20 + 8 + 4)

struct xfer {
	struct udp_pcb *pcb;
	ip_addr_t server;
	u16 tid;      /* the server's port, 0 until its first answer */
	bool oack;    /* it answered the options (RFC 2347) */
	u32 blksize;  /* in force: 512 until an OACK grants more */
	u32 asked;    /* asked for in the request */
	u16 block;    /* the last block received and acknowledged */
	u8 *buf;      /* the file */
	u64 len, cap; /* its length so far, and the room (less the NUL) */
	bool has_tsize;
	u64 tsize;
	u8 out[600]; /* the last packet sent (RRQ or ACK), to send again */
	size_t out_len;
	u32 sent_at;
	int tries;
	bool done;
	const char *why; /* set when it failed */
};

static char why_buf[160];

/* Ends the transfer with the reason. */
static void failed(struct xfer *x, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void failed(struct xfer *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why_buf, sizeof why_buf, fmt, ap);
	va_end(ap);
	x->why = why_buf;
	x->done = true;
}

static void send_to(struct xfer *x, const void *data, size_t n, u16 port)
{
	struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16)n, PBUF_RAM);
	if (!p)
		return; /* lost like a dropped packet: the timeout sends it again */
	pbuf_take(p, data, (u16)n);
	udp_sendto(x->pcb, p, &x->server, port);
	pbuf_free(p);
}

/* Sends a packet that expects an answer (kept to be sent again). */
static void send_expecting(struct xfer *x, size_t n)
{
	x->out_len = n;
	x->sent_at = sys_now();
	x->tries = 1;
	send_to(x, x->out, n, x->tid ? x->tid : TFTP_PORT);
}

/* An ERROR packet to port (it expects no answer). */
static void refuse(struct xfer *x, u16 port, u16 code, const char *text)
{
	u8 err[80];
	send_to(x, err, tftp_make_error(err, sizeof err, code, text), port);
}

/* Room for n more bytes: within the announced size, else the buffer doubles up to
 * TFTP_FILE_MAX. */
static bool room(struct xfer *x, size_t n)
{
	u64 need = x->len + n;
	if (need <= x->cap)
		return true;
	if (x->has_tsize) {
		failed(x, "more data than the %llu bytes the server announced",
		       (unsigned long long)x->tsize);
		return false;
	}
	if (need > TFTP_FILE_MAX) {
		failed(x, "larger than %llu MiB, the most the hypervisor takes",
		       (unsigned long long)(TFTP_FILE_MAX >> 20));
		return false;
	}
	u64 cap = MAX(x->cap * 2, BUF_FIRST);
	cap = MIN(MAX(cap, need), TFTP_FILE_MAX);
	u8 *buf = efi_alloc(cap + 1);
	if (!buf) {
		failed(x, "no memory for %llu KiB", (unsigned long long)(cap >> 10));
		return false;
	}
	if (x->buf) {
		memcpy(buf, x->buf, x->len);
		efi_free(x->buf);
	}
	x->buf = buf;
	x->cap = cap;
	return true;
}

static void on_oack(struct xfer *x, const struct tftp_msg *m)
{
	if (x->oack && !x->block && !x->len) { /* our ACK of it was lost: again */
		send_to(x, x->out, x->out_len, x->tid);
		return;
	}
	if (x->oack || x->block || x->len) {
		failed(x, "OACK in the middle of the transfer");
		return;
	}
	x->oack = true;
	x->blksize = m->blksize ? m->blksize : TFTP_BLKSIZE_DEFAULT;
	if (m->has_tsize) {
		if (m->tsize > TFTP_FILE_MAX) {
			refuse(x, x->tid, TFTP_ERR_DISK_FULL, "file too large");
			failed(x, "%llu bytes, larger than %llu MiB, the most the hypervisor takes",
			       (unsigned long long)m->tsize,
			       (unsigned long long)(TFTP_FILE_MAX >> 20));
			return;
		}
		x->has_tsize = true;
		x->tsize = m->tsize;
		x->buf = efi_alloc(m->tsize + 1);
		if (!x->buf) {
			failed(x, "no memory for its %llu bytes", (unsigned long long)m->tsize);
			return;
		}
		x->cap = m->tsize;
	}
	send_expecting(x, tftp_make_ack(x->out, 0)); /* RFC 2347: block 0 acknowledges it */
}

static void on_data(struct xfer *x, const struct tftp_msg *m)
{
	if (m->block == x->block && (x->block || x->len)) {
		send_to(x, x->out, x->out_len, x->tid); /* our ACK was lost: again */
		return;
	}
	if (m->block != (u16)(x->block + 1))
		return; /* not the one expected: ignored (section 2) */
	if (!room(x, m->len)) {
		refuse(x, x->tid, TFTP_ERR_DISK_FULL, "file too large");
		return;
	}
	memcpy(x->buf + x->len, m->data, m->len);
	x->len += m->len;
	x->block = m->block;
	send_expecting(x, tftp_make_ack(x->out, x->block));
	if (m->len == x->blksize)
		return;
	x->done = true;
	if (x->has_tsize && x->len != x->tsize)
		failed(x, "short read: %llu of the %llu bytes the server announced",
		       (unsigned long long)x->len, (unsigned long long)x->tsize);
}

static void on_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
		    u16_t port)
{
	struct xfer *x = arg;
	static u8 pkt[1500]; /* more than a frame's UDP payload (lwIP reassembles none here) */
	struct tftp_msg m = { 0 };
	(void)pcb;
	u16 n = pbuf_copy_partial(p, pkt, MIN(p->tot_len, sizeof pkt), 0);
	bool whole = p->tot_len <= sizeof pkt;
	pbuf_free(p);
	if (x->done || !ip_addr_cmp(addr, &x->server))
		return;
	if (x->tid && port != x->tid) { /* another transfer's packet (section 4) */
		refuse(x, port, TFTP_ERR_UNKNOWN_TID, "Unknown transfer ID");
		return;
	}
	const char *bad = whole ? tftp_parse(pkt, n, x->blksize, x->asked, &m)
				: "larger than a frame";
	if (bad) { /* RFC 2347: a refused OACK is answered with error 8 */
		refuse(x, port, m.op == TFTP_OACK ? TFTP_ERR_OPTION : TFTP_ERR_ILLEGAL, bad);
		failed(x, "bad packet from the server: %s", bad);
		return;
	}
	x->tid = port;
	if (m.op == TFTP_ERROR && m.code == TFTP_ERR_NOT_FOUND)
		failed(x, "file not found (TFTP error 1 from the server: \"%s\")", m.text);
	else if (m.op == TFTP_ERROR)
		failed(x, "TFTP error %u from the server: \"%s\"", m.code, m.text);
	else if (m.op == TFTP_OACK)
		on_oack(x, &m);
	else
		on_data(x, &m);
}

/* Sends the last packet again after TIMEOUT_MS; false after TRIES. */
static bool retry(struct xfer *x)
{
	if (sys_now() - x->sent_at < TIMEOUT_MS)
		return true;
	if (x->tries >= TRIES)
		return false;
	x->tries++;
	x->sent_at = sys_now();
	send_to(x, x->out, x->out_len, x->tid ? x->tid : TFTP_PORT);
	return true;
}

static void timed_out(struct xfer *x)
{
	int secs = TRIES * TIMEOUT_MS / 1000;
	if (x->tid)
		failed(x, "timeout: no block %u from the server in %d s, after %llu bytes",
		       (u16)(x->block + 1), secs, (unsigned long long)x->len);
	else
		failed(x, "timeout: no answer from the server in %d s", secs);
}

/* A size for the console: bytes below 64 KiB, else KiB. */
static const char *size_str(char *buf, size_t n, u64 bytes)
{
	if (bytes < 64 * KiB)
		snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(buf, n, "%llu KiB", (unsigned long long)(bytes >> 10));
	return buf;
}

/* A line on the console: how much came so far (of the size announced), or all of it. */
static void progress(const struct xfer *x, const char *path, u32 ms, bool done)
{
	char got[32], tot[32], all[40] = "";
	if (!done && x->has_tsize)
		snprintf(all, sizeof all, " of %s", size_str(tot, sizeof tot, x->tsize));
	printk("hv: tftp %s: %s%s%s in %u.%u s, %llu KiB/s\n", path, done ? "done, " : "",
	       size_str(got, sizeof got, x->len), all, ms / 1000, ms % 1000 / 100,
	       (unsigned long long)(ms ? x->len * 1000 / ms >> 10 : 0));
}

void *tftp_get(const ip4_addr_t *server, const char *path, u64 *len, void (*poll)(void),
	       const char **why)
{
	static struct xfer x;
	memset(&x, 0, sizeof x);
	ip_addr_copy_from_ip4(x.server, *server);
	x.blksize = TFTP_BLKSIZE_DEFAULT;
	x.asked = netif_default ? netif_default->mtu - IP_UDP_TFTP_HDR : TFTP_BLKSIZE_DEFAULT;
	size_t n = tftp_make_rrq(x.out, sizeof x.out, path, x.asked);
	if (!n) {
		*why = "path too long for a TFTP request";
		return NULL;
	}
	if (!(x.pcb = udp_new())) {
		*why = "lwIP has no UDP socket left";
		return NULL;
	}
	udp_recv(x.pcb, on_recv, &x);
	if (udp_bind(x.pcb, IP_ANY_TYPE, 0) != ERR_OK) {
		udp_remove(x.pcb);
		*why = "lwIP has no UDP port left";
		return NULL;
	}
	u32 start = sys_now(), shown = start;
	send_expecting(&x, n);
	while (!x.done) {
		poll();
		if (!retry(&x))
			timed_out(&x);
		if (!x.done && sys_now() - shown >= PROGRESS_MS) {
			shown = sys_now();
			progress(&x, path, shown - start, false);
		}
	}
	udp_remove(x.pcb);
	if (x.why) {
		if (x.buf)
			efi_free(x.buf);
		*why = x.why;
		return NULL;
	}
	progress(&x, path, sys_now() - start, true);
	if (!x.buf && !(x.buf = efi_alloc(1))) { /* an empty file without a transfer size */
		*why = "no memory";
		return NULL;
	}
	x.buf[x.len] = 0;
	*len = x.len;
	return x.buf;
}
