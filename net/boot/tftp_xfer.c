/* SPDX-License-Identifier: GPL-2.0-only */
/* A TFTP read transfer (tftp_xfer.h), in lock step (RFC 1350 section 2): the read request,
 * then an ACK for each DATA block in order; the server's first answer fixes its port (its
 * transfer ID, section 4). A block shorter than the block size ends the file. A packet
 * without an answer is sent again after a wait that doubles (RFC 1123 4.2.3.2: exponential
 * backoff), TFTP_XFER_TRIES times in all. Everything the server sends is checked
 * (tftp_proto.c): its size against the transfer size it announced and the limit, block
 * numbers against the one expected (16 bits: they wrap, as most servers do past 65535
 * blocks). */
#include "net/boot/tftp_xfer.h"
#include "hv/lib.h"
#include "net/boot/tftp_proto.h"

#define BUF_FIRST (1 * MiB) /* the buffer without a transfer size; it doubles as needed */

/* Ends the transfer with the reason. */
static void failed(struct tftp_xfer *x, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void failed(struct tftp_xfer *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->why, sizeof x->why, fmt, ap);
	va_end(ap);
	x->done = true;
}

static void send_to(struct tftp_xfer *x, const void *pkt, size_t n, u16 port)
{
	x->io->send(x->io->ctx, pkt, n, port);
}

/* Sends x->out, n bytes, which expects an answer (kept to be sent again). */
static void send_expecting(struct tftp_xfer *x, size_t n, u32 now)
{
	x->out_len = n;
	x->sent_at = now;
	x->wait_ms = TFTP_XFER_WAIT_MS;
	x->tries = 1;
	send_to(x, x->out, n, x->tid ? x->tid : TFTP_PORT);
}

/* An ERROR packet to port (it expects no answer). */
static void refuse(struct tftp_xfer *x, u16 port, u16 code, const char *text)
{
	u8 err[80];
	send_to(x, err, tftp_make_error(err, sizeof err, code, text), port);
}

static void too_large(struct tftp_xfer *x, u64 at_least)
{
	refuse(x, x->tid, TFTP_ERR_DISK_FULL, "file too large");
	failed(x, "file too large: %llu bytes%s, the hypervisor takes at most %llu MiB",
	       (unsigned long long)at_least, x->has_tsize ? "" : " and more",
	       (unsigned long long)(x->max >> 20));
}

/* Room for n more bytes: within the announced size, else the buffer doubles up to the
 * limit. */
static bool room(struct tftp_xfer *x, size_t n)
{
	u64 need = x->len + n;
	if (need <= x->cap)
		return true;
	if (x->has_tsize) {
		refuse(x, x->tid, TFTP_ERR_ILLEGAL, "more data than the tsize");
		failed(x, "the server sent more than the %llu bytes it announced",
		       (unsigned long long)x->tsize);
		return false;
	}
	if (need > x->max) {
		too_large(x, need);
		return false;
	}
	u64 cap = MAX(x->cap * 2, BUF_FIRST);
	cap = MIN(MAX(cap, need), x->max);
	u8 *buf = x->io->alloc(x->io->ctx, cap + 1);
	if (!buf) {
		refuse(x, x->tid, TFTP_ERR_DISK_FULL, "out of memory");
		failed(x, "no memory for %llu KiB", (unsigned long long)(cap >> 10));
		return false;
	}
	if (x->buf) {
		memcpy(buf, x->buf, x->len);
		x->io->free(x->io->ctx, x->buf);
	}
	x->buf = buf;
	x->cap = cap;
	return true;
}

static void on_oack(struct tftp_xfer *x, const struct tftp_msg *m, u32 now)
{
	if (x->oack && !x->block && !x->len) { /* our ACK of it was lost: again */
		send_to(x, x->out, x->out_len, x->tid);
		return;
	}
	if (x->oack || x->block || x->len) {
		refuse(x, x->tid, TFTP_ERR_ILLEGAL, "OACK in the middle of the transfer");
		failed(x, "bad packet from the server: OACK in the middle of the transfer");
		return;
	}
	x->oack = true;
	x->blksize = m->blksize ? m->blksize : TFTP_BLKSIZE_DEFAULT;
	if (m->has_tsize) {
		x->has_tsize = true;
		x->tsize = m->tsize;
		if (m->tsize > x->max) {
			too_large(x, m->tsize);
			return;
		}
		x->buf = x->io->alloc(x->io->ctx, m->tsize + 1);
		if (!x->buf) {
			refuse(x, x->tid, TFTP_ERR_DISK_FULL, "out of memory");
			failed(x, "no memory for its %llu bytes", (unsigned long long)m->tsize);
			return;
		}
		x->cap = m->tsize;
	}
	send_expecting(x, tftp_make_ack(x->out, 0), now); /* RFC 2347: block 0 acknowledges it */
}

static void on_data(struct tftp_xfer *x, const struct tftp_msg *m, u32 now)
{
	if (m->block == x->block && (x->block || x->len)) {
		send_to(x, x->out, x->out_len, x->tid); /* our ACK was lost: again */
		return;
	}
	if (m->block != (u16)(x->block + 1))
		return; /* not the one expected: ignored (section 2) */
	if (!room(x, m->len))
		return;
	if (m->len) /* an empty file's only block may come before any buffer */
		memcpy(x->buf + x->len, m->data, m->len);
	x->len += m->len;
	x->block = m->block;
	send_expecting(x, tftp_make_ack(x->out, x->block), now);
	if (m->len == x->blksize)
		return;
	x->done = true;
	if (x->has_tsize && x->len != x->tsize)
		failed(x, "short file: %llu of the %llu bytes the server announced",
		       (unsigned long long)x->len, (unsigned long long)x->tsize);
}

/* " after N bytes" (of the size announced) when some came, else "". */
static const char *after(const struct tftp_xfer *x, char *buf, size_t n)
{
	buf[0] = 0;
	if (x->len && x->has_tsize)
		snprintf(buf, n, " after %llu of %llu bytes", (unsigned long long)x->len,
			 (unsigned long long)x->tsize);
	else if (x->len)
		snprintf(buf, n, " after %llu bytes", (unsigned long long)x->len);
	return buf;
}

void tftp_xfer_input(struct tftp_xfer *x, const u8 *p, size_t n, bool whole, u16 port, u32 now)
{
	struct tftp_msg m = { 0 };
	if (x->done)
		return;
	if (x->tid && port != x->tid) { /* another transfer's packet (section 4) */
		refuse(x, port, TFTP_ERR_UNKNOWN_TID, "Unknown transfer ID");
		return;
	}
	const char *bad = whole ? tftp_parse(p, n, x->blksize, x->asked, &m)
				: "larger than the block size";
	if (bad) { /* RFC 2347: a refused OACK is answered with error 8 */
		refuse(x, port, m.op == TFTP_OACK ? TFTP_ERR_OPTION : TFTP_ERR_ILLEGAL, bad);
		failed(x, "bad packet from the server: %s", bad);
		return;
	}
	x->tid = port;
	char more[64];
	if (m.op == TFTP_ERROR)
		failed(x, "%s (TFTP error %u: \"%s\")%s", tftp_error_name(m.code), m.code, m.text,
		       after(x, more, sizeof more));
	else if (m.op == TFTP_OACK)
		on_oack(x, &m, now);
	else
		on_data(x, &m, now);
}

void tftp_xfer_tick(struct tftp_xfer *x, u32 now)
{
	if (x->done || now - x->sent_at < x->wait_ms)
		return;
	if (x->tries < TFTP_XFER_TRIES) {
		x->tries++;
		x->sent_at = now;
		x->wait_ms = MIN(x->wait_ms * 2, (u32)TFTP_XFER_WAIT_MAX_MS);
		send_to(x, x->out, x->out_len, x->tid ? x->tid : TFTP_PORT);
		return;
	}
	char more[64];
	if (!x->tid)
		failed(x, "no answer (%d read requests, the last %u s ago)", x->tries,
		       x->wait_ms / 1000);
	else
		failed(x, "the transfer stopped: no block %u%s (%d ACKs sent, the last %u s ago)",
		       (u16)(x->block + 1), after(x, more, sizeof more), x->tries,
		       x->wait_ms / 1000);
}

int tftp_xfer_start(struct tftp_xfer *x, const struct tftp_xfer_io *io, const char *path, u32 asked,
		    u64 max, u32 now)
{
	memset(x, 0, sizeof *x);
	x->io = io;
	x->max = max;
	x->blksize = TFTP_BLKSIZE_DEFAULT;
	x->asked = asked;
	size_t n = tftp_make_rrq(x->out, sizeof x->out, path, asked);
	if (!n) {
		failed(x, "path too long for a TFTP request");
		return -1;
	}
	send_expecting(x, n, now);
	return 0;
}

void tftp_xfer_drop(struct tftp_xfer *x)
{
	if (x->buf)
		x->io->free(x->io->ctx, x->buf);
	x->buf = NULL;
}
