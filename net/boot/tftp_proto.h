/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP packets (RFC 1350) as a read-only client sends and reads them, with the option
 * extension (RFC 2347) for the block size (RFC 2348) and the transfer size (RFC 2349).
 * Pure: no I/O, so the host unit tests and a fuzz harness run it. Every packet from the
 * network is untrusted: lengths, strings and numbers are checked here. */
#ifndef NET_TFTP_PROTO_H
#define NET_TFTP_PROTO_H

#include "hv/types.h"

#define TFTP_PORT 69
#define TFTP_BLKSIZE_DEFAULT 512 /* RFC 1350 section 2, without the blksize option */
#define TFTP_BLKSIZE_MIN 8	 /* RFC 2348 */
#define TFTP_TSIZE_MAX (1ull << 40)
#define TFTP_TEXT_MAX 64 /* an error message as kept: truncated, printable ASCII */

/* Opcodes (RFC 1350 section 5, RFC 2347 for OACK) and error codes (RFC 1350 appendix). */
enum tftp_op { TFTP_RRQ = 1, TFTP_DATA = 3, TFTP_ACK = 4, TFTP_ERROR = 5, TFTP_OACK = 6 };
enum tftp_error {
	TFTP_ERR_NOT_FOUND = 1,
	TFTP_ERR_ACCESS = 2,
	TFTP_ERR_DISK_FULL = 3,
	TFTP_ERR_ILLEGAL = 4, /* illegal TFTP operation */
	TFTP_ERR_UNKNOWN_TID = 5,
	TFTP_ERR_OPTION = 8 /* RFC 2347: the client refuses the OACK */
};

/* A packet the server sent, as tftp_parse() read it. */
struct tftp_msg {
	u16 op;
	u16 block;		  /* DATA: its block number */
	const u8 *data;		  /* DATA: the payload, inside the packet */
	size_t len;		  /* DATA: its length, at most the block size */
	u16 code;		  /* ERROR: the error code */
	char text[TFTP_TEXT_MAX]; /* ERROR: its message */
	u32 blksize;		  /* OACK: the block size granted, 0 if not given */
	bool has_tsize;		  /* OACK: the transfer size given */
	u64 tsize;		  /* OACK: the file's size in bytes */
};

/* Reads a packet of n bytes from the server. blksize: the block size in force (DATA may
 * carry up to that many bytes); asked: the block size the request asked for (an OACK may
 * grant at most that). Returns NULL, or why the packet is malformed. */
const char *tftp_parse(const u8 *p, size_t n, u32 blksize, u32 asked, struct tftp_msg *m);

/* What an error code means, for the console ("file not found", "access violation", ...);
 * codes beyond RFC 1350's and RFC 2347's are "unknown error". */
const char *tftp_error_name(u16 code);

/* A read request for path in octet mode asking for blksize and tsize; returns its length,
 * 0 if it does not fit in cap bytes or path is empty. */
size_t tftp_make_rrq(u8 *buf, size_t cap, const char *path, u32 blksize);
/* An ACK of block (4 bytes). */
size_t tftp_make_ack(u8 buf[4], u16 block);
/* An ERROR packet; returns its length (the text is cut to fit cap). */
size_t tftp_make_error(u8 *buf, size_t cap, u16 code, const char *text);

#endif
