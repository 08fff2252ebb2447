/* SPDX-License-Identifier: GPL-2.0-only */
/* HTTP client (http_client.h): one connection at a time on lwIP's raw TCP API, polled;
 * the head read by net/boot/http_proto.c, the body into firmware pool memory. */
#include "net/boot/http_client.h"
#include "boot/efi.h"
#include "hv/lib.h"
#include "lwip/sys.h"
#include "lwip/tcp.h"
#include "net/boot/progress.h"

#define CONNECT_MS 10000 /* no answer to the SYN (lwIP would retry for minutes) */
#define STALL_MS 30000	 /* a window in which the server must send STALL_BYTES */
#define STALL_BYTES 4096 /* so that a trickle of bytes cannot hold the boot for ever */
#define FIRST_BUF (1ull << 20)

struct client {
	struct tcp_pcb *pcb; /* NULL once lwIP freed it (an error) or we closed it */
	const struct http_url *u;
	bool connected, closed, over; /* over: the file is whole, or the transfer failed */
	struct http_head head;
	u8 *buf;
	u64 len, cap;
	u64 got;	/* bytes received, head and body */
	u64 window_got; /* got when the stall window began */
	u32 window;	/* sys_now() when it began */
	char why[200];
};

static void fail(struct client *c, const char *what)
{
	if (!c->over)
		snprintf(c->why, sizeof c->why, "%s", what);
	c->over = true;
}

/* Room for n more bytes (and a NUL), len + n at most HTTP_FILE_MAX: the buffer doubles,
 * up to HTTP_FILE_MAX + 1. */
static bool grow(struct client *c, u64 n)
{
	if (c->len + n + 1 <= c->cap)
		return true;
	u64 cap = MIN(MAX(c->cap ? c->cap * 2 : FIRST_BUF, c->len + n + 1), HTTP_FILE_MAX + 1);
	u8 *b = efi_alloc(cap);
	if (!b) {
		fail(c, "no memory for the file");
		return false;
	}
	if (c->buf) {
		memcpy(b, c->buf, c->len);
		efi_free(c->buf);
	}
	c->buf = b;
	c->cap = cap;
	return true;
}

/* Bytes of the body. Those past a Content-Length are dropped, wherever they fall (the
 * connection closes after the answer: RFC 9112 6.3). */
static void body(struct client *c, const u8 *data, size_t n)
{
	if (c->head.has_length)
		n = (size_t)MIN(n, c->head.length - c->len);
	if (c->len + n > HTTP_FILE_MAX) {
		fail(c, "file too large: the hypervisor takes at most 1024 MiB");
		return;
	}
	if (!grow(c, n))
		return;
	memcpy(c->buf + c->len, data, n);
	c->len += n;
	if (c->head.has_length && c->len == c->head.length)
		c->over = true; /* whole: no need to wait for the close */
}

/* The head is over: a 200, and a size that fits (its buffer at once when announced). */
static void head_done(struct client *c)
{
	char msg[sizeof c->why];
	if (c->head.status != 200) {
		snprintf(msg, sizeof msg, "HTTP %u %s", c->head.status, c->head.reason);
		fail(c, msg);
	} else if (c->head.has_length && c->head.length > HTTP_FILE_MAX) {
		snprintf(msg, sizeof msg,
			 "file too large: %llu bytes, the hypervisor takes at most 1024 MiB",
			 (unsigned long long)c->head.length);
		fail(c, msg);
	} else if (c->head.has_length && !c->head.length) {
		c->over = true; /* an empty file */
	} else if (c->head.has_length) {
		grow(c, c->head.length);
	}
}

static void input(struct client *c, const u8 *data, size_t n)
{
	if (c->over)
		return;
	if (c->head.state == HTTP_HEAD_MORE) {
		size_t took = http_head_feed(&c->head, data, n);
		data += took;
		n -= took;
		if (c->head.state == HTTP_HEAD_BAD) {
			char msg[sizeof c->why];
			snprintf(msg, sizeof msg, "a malformed answer: %s", c->head.why);
			fail(c, msg);
			return;
		}
		if (c->head.state == HTTP_HEAD_MORE)
			return;
		head_done(c);
	}
	if (n && !c->over)
		body(c, data, n);
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct client *c = arg;
	(void)err; /* always ERR_OK in lwIP 2.1 */
	if (!p) {
		c->closed = true;
		return ERR_OK;
	}
	c->got += p->tot_len;
	for (const struct pbuf *q = p; q; q = q->next)
		input(c, q->payload, q->len);
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	return ERR_OK;
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct client *c = arg;
	char req[HTTP_URL_MAX + 128];
	size_t n = http_request(req, sizeof req, c->u);
	(void)err; /* always ERR_OK: a failed connect calls on_error */
	c->connected = true;
	c->window = sys_now();
	if (!n || tcp_write(pcb, req, (u16)n, TCP_WRITE_FLAG_COPY) != ERR_OK ||
	    tcp_output(pcb) != ERR_OK)
		fail(c, "the request could not be sent (lwIP out of memory)");
	return ERR_OK;
}

/* lwIP's errors as a user reads them (its lwip_strerr exists only in debug builds). */
static const char *err_text(err_t err)
{
	static char other[32];
	switch (err) {
	case ERR_MEM:
	case ERR_BUF:
		return "lwIP out of memory";
	case ERR_RTE:
		return "no route to the server";
	case ERR_ABRT:
		return "the connection was aborted (no answer to retransmissions, or lwIP out of "
		       "memory)";
	case ERR_CLSD:
		return "the connection was closed";
	default:
		snprintf(other, sizeof other, "lwIP error %d", err);
		return other;
	}
}

/* lwIP has freed the pcb. */
static void on_error(void *arg, err_t err)
{
	struct client *c = arg;
	c->pcb = NULL;
	if (err == ERR_RST && !c->connected)
		fail(c, "connection refused (no server on that port)");
	else if (err == ERR_RST)
		fail(c, "the server reset the connection");
	else
		fail(c, err_text(err));
}

/* Ends the connection, the callbacks gone: closed after a whole file, reset after a
 * failure (so that the server stops sending). */
static void end(struct client *c)
{
	if (!c->pcb)
		return;
	tcp_arg(c->pcb, NULL);
	tcp_recv(c->pcb, NULL);
	tcp_err(c->pcb, NULL);
	if (c->why[0] || tcp_close(c->pcb) != ERR_OK)
		tcp_abort(c->pcb);
	c->pcb = NULL;
}

void *http_get(const struct http_url *u, const char *url, u64 *len, void (*poll)(void),
	       const char **why)
{
	static struct client c;
	ip_addr_t server;
	memset(&c, 0, sizeof c);
	c.u = u;
	http_head_init(&c.head);
	IP_ADDR4(&server, u->ip[0], u->ip[1], u->ip[2], u->ip[3]);
	if (!(c.pcb = tcp_new())) {
		*why = "lwIP has no TCP connection left";
		return NULL;
	}
	tcp_arg(c.pcb, &c);
	tcp_recv(c.pcb, on_recv);
	tcp_err(c.pcb, on_error);
	u32 start = sys_now(), shown = start;
	err_t e = tcp_connect(c.pcb, &server, u->port, on_connected);
	if (e != ERR_OK)
		fail(&c, err_text(e));
	while (!c.over) {
		poll();
		u32 now = sys_now();
		u64 deadline = http_deadline_ms(c.head.has_length ? c.head.length : HTTP_FILE_MAX);
		if (c.closed && c.head.state == HTTP_HEAD_MORE)
			fail(&c, "the server closed the connection before its answer's head ended");
		else if (c.closed && c.head.has_length && c.len < c.head.length) {
			char msg[sizeof c.why];
			snprintf(msg, sizeof msg,
				 "short read: the connection closed after %llu of "
				 "%llu bytes",
				 (unsigned long long)c.len, (unsigned long long)c.head.length);
			fail(&c, msg);
		} else if (c.closed) {
			c.over = true; /* no Content-Length: the body ends with the connection */
		} else if (!c.connected && now - start > CONNECT_MS) {
			fail(&c, "no answer from the server in 10 s (is it up, is there a route?)");
		} else if (now - start > deadline) {
			char msg[sizeof c.why];
			snprintf(msg, sizeof msg,
				 "too slow: %llu bytes in %u s, where a file of that size has "
				 "%llu s (%u s, then at least 1 MiB/s)",
				 (unsigned long long)c.len, (now - start) / 1000,
				 (unsigned long long)deadline / 1000, HTTP_DEADLINE_BASE_MS / 1000);
			fail(&c, msg);
		} else if (c.connected && now - c.window > STALL_MS) {
			if (c.got - c.window_got < STALL_BYTES)
				fail(&c, "the transfer stalled: less than 4 KiB in 30 s");
			c.window = now;
			c.window_got = c.got;
		}
		if (!c.over && c.head.state == HTTP_HEAD_DONE && now - shown >= PROGRESS_MS) {
			shown = now;
			net_progress("http", url, c.len, c.head.has_length, c.head.length,
				     now - start, false);
		}
	}
	end(&c);
	if (c.why[0]) {
		if (c.buf)
			efi_free(c.buf);
		*why = c.why;
		return NULL;
	}
	net_progress("http", url, c.len, true, c.len, sys_now() - start, true);
	if (!c.buf && !(c.buf = efi_alloc(1))) { /* an empty body */
		*why = "no memory for the file";
		return NULL;
	}
	c.buf[c.len] = 0;
	*len = c.len;
	return c.buf;
}
