/* SPDX-License-Identifier: GPL-2.0-only */
/* One TFTP read transfer (RFC 1350 with the options of RFC 2347-2349) as a state machine:
 * packets in, packets out and the time are handed to it, so it does no I/O of its own and
 * the host unit tests drive every path (error packets, a silent server, a transfer that
 * stops half way, a file too large). net/boot/tftp_client.c runs it on lwIP. */
#ifndef NET_TFTP_XFER_H
#define NET_TFTP_XFER_H

#include "hv/types.h"

#define TFTP_XFER_TRIES 5	   /* sends of a packet (the first and 4 more) before giving up */
#define TFTP_XFER_WAIT_MS 1000	   /* the first wait for an answer; it doubles to ... */
#define TFTP_XFER_WAIT_MAX_MS 4000 /* ... at most this: 1+2+4+4+4 = 15 s of silence */
#define TFTP_XFER_WHY_MAX 160

/* What a transfer needs of its surroundings. */
struct tftp_xfer_io {
	void *ctx;
	void (*send)(void *ctx, const u8 *pkt, size_t n, u16 port); /* a lost send is retried */
	void *(*alloc)(void *ctx, u64 n);			    /* n bytes, or NULL */
	void (*free)(void *ctx, void *p);
};

struct tftp_xfer {
	const struct tftp_xfer_io *io;
	u64 max;      /* the largest file taken */
	u16 tid;      /* the server's port, 0 until its first answer */
	bool oack;    /* it answered the options (RFC 2347) */
	u32 blksize;  /* in force: 512 until an OACK grants more */
	u32 asked;    /* asked for in the request */
	u16 block;    /* the last block received and acknowledged */
	u8 *buf;      /* the file (from io->alloc), room for a NUL after it */
	u64 len, cap; /* its length so far, and the room (less the NUL) */
	bool has_tsize;
	u64 tsize;
	u8 out[600]; /* the last packet sent (RRQ or ACK), to send again */
	size_t out_len;
	u32 sent_at, wait_ms;
	int tries;
	bool done;
	char why[TFTP_XFER_WHY_MAX]; /* why it failed ("" while it has not) */
};

/* Sends the read request for path (asking for block size asked) at time now (ms) and
 * takes files of at most max bytes. Returns 0, or -1 with x->why. */
int tftp_xfer_start(struct tftp_xfer *x, const struct tftp_xfer_io *io, const char *path, u32 asked,
		    u64 max, u32 now);
/* A packet of n bytes from the server's address and port; whole is false when it was
 * larger than the n bytes kept. */
void tftp_xfer_input(struct tftp_xfer *x, const u8 *p, size_t n, bool whole, u16 port, u32 now);
/* Time passes: the last packet is sent again when its answer is late, and after
 * TFTP_XFER_TRIES sends the transfer fails (x->done, x->why). */
void tftp_xfer_tick(struct tftp_xfer *x, u32 now);
/* Frees the file of a failed transfer (or one not taken). */
void tftp_xfer_drop(struct tftp_xfer *x);

#endif
