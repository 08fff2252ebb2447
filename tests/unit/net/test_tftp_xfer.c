/* SPDX-License-Identifier: GPL-2.0-only */
/* A TFTP read transfer (net/boot/tftp_xfer.c) against a scripted server: a whole file with and
 * without the options, and each way a real PXE server can fail it, which must end the
 * transfer with a reason and never leave it waiting: an ERROR packet (file not found,
 * access violation), no answer at all, a transfer that stops half way, a file larger
 * than the limit (announced or not), a short file, lost packets (sent again, with a
 * doubling wait), a stray port. */
#include <stdlib.h>
#include "../../../net/boot/tftp_proto.c"
#include "../../../net/boot/tftp_xfer.c"
#include "../test.h"

#define SERVER_TID 3000

static struct {
	u8 pkt[600];
	size_t n;
	u16 port;
	int count;
	int allocs;
	bool no_memory;
} sent;

static void send_pkt(void *ctx, const u8 *pkt, size_t n, u16 port)
{
	(void)ctx;
	memcpy(sent.pkt, pkt, n);
	sent.n = n;
	sent.port = port;
	sent.count++;
}

static void *alloc(void *ctx, u64 n)
{
	(void)ctx;
	if (sent.no_memory)
		return NULL;
	sent.allocs++;
	return malloc(n);
}

static void release(void *ctx, void *p)
{
	(void)ctx;
	sent.allocs--;
	free(p);
}

static const struct tftp_xfer_io io = { NULL, send_pkt, alloc, release };
static struct tftp_xfer x;
static u32 now;

static void start(const char *path, u64 max)
{
	memset(&sent, 0, sizeof sent);
	now = 1000;
	CHECK_EQ(tftp_xfer_start(&x, &io, path, 1468, max, now), 0);
	CHECK_EQ(sent.pkt[1], TFTP_RRQ);
	CHECK_EQ(sent.port, TFTP_PORT);
}

static void in(const void *p, size_t n) { tftp_xfer_input(&x, p, n, true, SERVER_TID, now); }
#define IN(lit) in(lit, sizeof(lit) - 1)

/* A DATA block of len bytes of the letter 'a' + block % 26. */
static void data(u16 block, size_t len)
{
	u8 p[4 + 1468];
	p[0] = 0, p[1] = TFTP_DATA, p[2] = (u8)(block >> 8), p[3] = (u8)block;
	memset(p + 4, 'a' + block % 26, len);
	in(p, 4 + len);
}

static bool acked(u16 block)
{
	return sent.n == 4 && sent.pkt[1] == TFTP_ACK && sent.pkt[2] == (u8)(block >> 8) &&
	       sent.pkt[3] == (u8)block && sent.port == SERVER_TID;
}

static bool error_sent(u16 code)
{
	return sent.n >= 5 && sent.pkt[1] == TFTP_ERROR && sent.pkt[3] == code &&
	       sent.port == SERVER_TID;
}

/* Lets ms pass, a tick each 100 ms. */
static void wait_ms(u32 ms)
{
	for (u32 t = 0; t < ms; t += 100) {
		now += 100;
		tftp_xfer_tick(&x, now);
	}
}

int main(void)
{
	/* Without options (an old server): 512-byte blocks, the short one ends the file. */
	start("/guests/vmlinuz", 1 << 20);
	data(1, 512);
	CHECK(acked(1));
	data(2, 100);
	CHECK(acked(2) && x.done && !x.why[0]);
	CHECK_EQ(x.len, 612);
	CHECK(x.buf[0] == 'b' && x.buf[511] == 'b' && x.buf[512] == 'c');
	tftp_xfer_drop(&x);
	CHECK_EQ(sent.allocs, 0);

	/* An empty file without options: one empty block, nothing allocated. */
	start("/empty", 1 << 20);
	data(1, 0);
	CHECK(acked(1) && x.done && !x.why[0] && x.len == 0 && !x.buf);

	/* With the options: the OACK is acknowledged with block 0; the size is announced. */
	start("hv.cfg", 1 << 20);
	IN("\0\6blksize\0001468\0tsize\0003000\0");
	CHECK(acked(0));
	data(1, 1468);
	data(1, 1468); /* our ACK was lost: the server sends it again, we ACK again */
	CHECK(acked(1) && x.len == 1468);
	data(3, 1468); /* not the next one: ignored */
	CHECK(acked(1) && x.len == 1468);
	data(2, 1468);
	data(3, 64);
	CHECK(acked(3) && x.done && !x.why[0] && x.len == 3000);
	tftp_xfer_drop(&x);

	/* The server's errors end the transfer with their meaning, code and text. */
	static const struct {
		const char *pkt, *why;
	} errors[] = {
		{ "\0\5\0\1File not found", "file not found (TFTP error 1: \"File not found\")" },
		{ "\0\5\0\2Access violation",
		  "access violation (TFTP error 2: \"Access violation\")" },
		{ "\0\5\0\0permission denied",
		  "server error (TFTP error 0: \"permission denied\")" },
		{ "\0\5\0\77odd", "unknown error (TFTP error 63: \"odd\")" },
	};
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		start("/guests/missing", 1 << 20);
		in(errors[i].pkt, 4 + strlen(errors[i].pkt + 4) + 1);
		CHECK(x.done);
		CHECK_STR(x.why, errors[i].why);
	}
	/* ... also in the middle of a transfer (a file that became unreadable). */
	start("/x", 1 << 20);
	IN("\0\6tsize\0002000\0");
	data(1, 512);
	IN("\0\5\0\1File not found\0");
	CHECK_STR(x.why, "file not found (TFTP error 1: \"File not found\") after 512 of 2000 "
			 "bytes");
	tftp_xfer_drop(&x);
	CHECK_EQ(sent.allocs, 0);

	/* No answer: the request goes 5 times, the waits doubling to 4 s (1+2+4+4+4 s). */
	start("hv.cfg", 1 << 20);
	wait_ms(900);
	CHECK_EQ(sent.count, 1);
	wait_ms(200);
	CHECK_EQ(sent.count, 2);
	CHECK(sent.pkt[1] == TFTP_RRQ && sent.port == TFTP_PORT);
	wait_ms(2000);
	CHECK_EQ(sent.count, 3);
	wait_ms(8000);
	CHECK_EQ(sent.count, 5);
	CHECK(!x.done);
	wait_ms(4000);
	CHECK(x.done);
	CHECK_EQ(sent.count, 5);
	CHECK_STR(x.why, "no answer (5 read requests, the last 4 s ago)");
	CHECK(now - 1000 <= 15100);

	/* A lost packet is sent again and the transfer goes on, the wait back to 1 s. */
	start("/x", 1 << 20);
	data(1, 512);
	wait_ms(1100);
	CHECK(acked(1) && sent.count == 3);
	data(2, 10);
	CHECK(x.done && !x.why[0] && x.len == 522);
	tftp_xfer_drop(&x);

	/* A transfer that stops half way: the last ACK goes 5 times, then it fails. */
	start("/guests/initrd.gz", 1 << 20);
	IN("\0\6blksize\0001024\0tsize\0004096\0");
	data(1, 1024);
	data(2, 1024);
	wait_ms(16000);
	CHECK(x.done && acked(2));
	CHECK_STR(x.why, "the transfer stopped: no block 3 after 2048 of 4096 bytes (5 ACKs sent, "
			 "the last 4 s ago)");
	tftp_xfer_drop(&x);
	CHECK_EQ(sent.allocs, 0);
	/* ... nothing happens after that: late packets are ignored. */
	int count = sent.count;
	data(3, 1024);
	wait_ms(5000);
	CHECK_EQ(sent.count, count);

	/* Too large, announced: refused at the OACK (error 3 to the server), nothing kept. */
	start("/guests/huge", 1 << 20);
	IN("\0\6tsize\0002097152\0");
	CHECK(x.done && error_sent(TFTP_ERR_DISK_FULL) && !x.buf);
	CHECK_STR(x.why, "file too large: 2097152 bytes, the hypervisor takes at most 1 MiB");
	/* ... not announced: refused at the block that passes the limit. */
	start("/guests/huge", 2048);
	for (u16 b = 1; b <= 4; b++)
		data(b, 512);
	CHECK(!x.done && x.len == 2048);
	data(5, 512);
	CHECK(x.done && error_sent(TFTP_ERR_DISK_FULL));
	CHECK_STR(x.why, "file too large: 2560 bytes and more, the hypervisor takes at most 0 MiB");
	tftp_xfer_drop(&x);
	CHECK_EQ(sent.allocs, 0);

	/* More than announced, or less. */
	start("/x", 1 << 20);
	IN("\0\6tsize\000600\0");
	data(1, 512);
	data(2, 512);
	CHECK(x.done && error_sent(TFTP_ERR_ILLEGAL));
	CHECK_STR(x.why, "the server sent more than the 600 bytes it announced");
	tftp_xfer_drop(&x);
	start("/x", 1 << 20);
	IN("\0\6tsize\000600\0");
	data(1, 100);
	CHECK_STR(x.why, "short file: 100 of the 600 bytes the server announced");
	tftp_xfer_drop(&x);

	/* No memory for the announced size: error 3, a reason. */
	start("/x", 1 << 20);
	sent.no_memory = true;
	IN("\0\6tsize\000600\0");
	CHECK(x.done && error_sent(TFTP_ERR_DISK_FULL));
	CHECK_STR(x.why, "no memory for its 600 bytes");

	/* A packet from another port once the transfer has one: error 5 to it, ignored. */
	start("/x", 1 << 20);
	data(1, 512);
	tftp_xfer_input(&x, (const u8 *)"\0\5\0\1nope", 9, true, 4000, now);
	CHECK(!x.done && sent.port == 4000 && sent.pkt[3] == TFTP_ERR_UNKNOWN_TID);
	/* A malformed packet or an OACK refused: the server is told, the transfer ends. */
	IN("\0\6blksize\0001024\0");
	CHECK(x.done && error_sent(TFTP_ERR_ILLEGAL));
	CHECK_STR(x.why, "bad packet from the server: OACK in the middle of the transfer");
	tftp_xfer_drop(&x);
	start("/x", 1 << 20);
	IN("\0\6blksize\0009000\0");
	CHECK(x.done && error_sent(TFTP_ERR_OPTION));
	CHECK_STR(x.why, "bad packet from the server: OACK block size out of range");
	start("/x", 1 << 20);
	tftp_xfer_input(&x, (const u8 *)"\0\3\0\1", 4, false, SERVER_TID, now);
	CHECK_STR(x.why, "bad packet from the server: larger than the block size");

	/* A path too long for a request. */
	char path[700];
	memset(path, 'p', sizeof path - 1);
	path[sizeof path - 1] = 0;
	CHECK_EQ(tftp_xfer_start(&x, &io, path, 1468, 1 << 20, 0), -1);
	CHECK(x.done);
	CHECK_STR(x.why, "path too long for a TFTP request");

	CHECK_STR(tftp_error_name(2), "access violation");
	CHECK_STR(tftp_error_name(8), "option negotiation refused");
	return test_summary();
}
