/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP packets (net/boot/tftp_proto.c): the request and ACK as RFC 1350/2347 lay them out, and
 * what the server may send, good and malformed. Each packet is parsed from a heap copy
 * of exactly its length, so ASan catches a read past its end. */
#include <stdlib.h>
#include "../../../net/boot/tftp_proto.c"
#include "../test.h"

static struct tftp_msg m;

/* Parses n bytes of s (block size 512 in force, 1468 asked for). */
static const char *parse(const char *s, size_t n)
{
	u8 *p = malloc(n ? n : 1);
	memcpy(p, s, n);
	const char *why = tftp_parse(p, n, 512, 1468, &m);
	m.data = why || m.op != TFTP_DATA ? NULL : (const u8 *)s + (m.data - p);
	free(p);
	return why;
}
#define PARSE(lit) parse(lit, sizeof(lit) - 1)

int main(void)
{
	u8 buf[600];
	size_t n = tftp_make_rrq(buf, sizeof buf, "/guests/vmlinuz", 1468);
	static const char rrq[] = "\0\1/guests/vmlinuz\0octet\0blksize\0001468\0tsize\0000\0";
	CHECK_EQ(n, sizeof rrq - 1);
	CHECK(!memcmp(buf, rrq, sizeof rrq - 1));
	CHECK_EQ(tftp_make_rrq(buf, 20, "/guests/vmlinuz", 1468), 0); /* does not fit */
	CHECK_EQ(tftp_make_rrq(buf, sizeof buf, "", 1468), 0);
	CHECK_EQ(tftp_make_ack(buf, 0x1234), 4);
	CHECK(!memcmp(buf, "\0\4\x12\x34", 4));
	CHECK_EQ(tftp_make_error(buf, sizeof buf, TFTP_ERR_OPTION, "no"), 7);
	CHECK(!memcmp(buf, "\0\5\0\10no\0", 7));
	CHECK_EQ(tftp_make_error(buf, 8, TFTP_ERR_UNKNOWN_TID, "Unknown transfer ID"), 8);
	CHECK_EQ(buf[7], 0);

	/* DATA: block number, payload up to the block size in force. */
	CHECK(!PARSE("\0\3\0\7abc"));
	CHECK_EQ(m.op, TFTP_DATA);
	CHECK_EQ(m.block, 7);
	CHECK_EQ(m.len, 3);
	CHECK(m.data && !memcmp(m.data, "abc", 3));
	CHECK(!PARSE("\0\3\xff\xff"));
	CHECK_EQ(m.block, 0xffff);
	CHECK_EQ(m.len, 0);
	char big[4 + 513] = { 0, 3, 0, 1 };
	CHECK(!parse(big, 4 + 512));
	CHECK_STR(parse(big, sizeof big), "DATA longer than the block size");
	CHECK_STR(PARSE("\0\3\0"), "DATA without a block number");

	/* ERROR: code and message, kept printable and bounded. */
	CHECK(!PARSE("\0\5\0\1File not found\0"));
	CHECK_EQ(m.op, TFTP_ERROR);
	CHECK_EQ(m.code, TFTP_ERR_NOT_FOUND);
	CHECK_STR(m.text, "File not found");
	CHECK(!PARSE("\0\5\0\2a\tb\x80\0"));
	CHECK_STR(m.text, "a?b?");
	char longmsg[4 + 200 + 1] = { 0, 5, 0, 2 };
	memset(longmsg + 4, 'x', 200);
	CHECK(!parse(longmsg, sizeof longmsg));
	CHECK_EQ(strlen(m.text), TFTP_TEXT_MAX - 1);
	CHECK_STR(PARSE("\0\5\0\1File"), "ERROR message not terminated");
	CHECK_STR(PARSE("\0\5\0\1"), "ERROR without a message");

	/* OACK: the options asked for, in range; names in any case (RFC 2347). */
	CHECK(!PARSE("\0\6blksize\0001428\0TSIZE\0008245760\0"));
	CHECK_EQ(m.op, TFTP_OACK);
	CHECK_EQ(m.blksize, 1428);
	CHECK(m.has_tsize);
	CHECK_EQ(m.tsize, 8245760);
	CHECK(!PARSE("\0\6"));
	CHECK(!m.blksize && !m.has_tsize);
	CHECK_STR(PARSE("\0\6blksize\0001469\0"), "OACK block size out of range");
	CHECK_STR(PARSE("\0\6blksize\0007\0"), "OACK block size out of range");
	CHECK_STR(PARSE("\0\6tsize\0009999999999999\0"), "OACK transfer size too large");
	CHECK_STR(PARSE("\0\6tsize\00099999999999999\0"), "OACK option value is not a number");
	CHECK_STR(PARSE("\0\6tsize\0\0"), "OACK option value is not a number");
	CHECK_STR(PARSE("\0\6tsize\0-1\0"), "OACK option value is not a number");
	CHECK_STR(PARSE("\0\6timeout\0005\0"), "OACK option that was not asked for");
	CHECK_STR(PARSE("\0\6tsize\0005"), "OACK option not terminated");
	CHECK_STR(PARSE("\0\6tsize"), "OACK option not terminated");

	/* Whatever else a server could send. */
	CHECK_STR(PARSE("\0"), "packet shorter than an opcode");
	CHECK_STR(PARSE("\0\4\0\1"), "unexpected opcode");
	CHECK_STR(PARSE("\0\1x\0octet\0"), "unexpected opcode");
	return test_summary();
}
