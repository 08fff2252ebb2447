/* SPDX-License-Identifier: GPL-2.0-only */
/* The HTTP server's hold on a shared page (net/telemetry/http_server.c, in the real lwIP
 * 2.1.3 build): the handler points the answer at a page with a done callback; a HEAD
 * lets it go at once (no body is sent), a GET holds it until the connection is gone (here
 * a reset: lwIP's error callback), and a request the parser refuses never takes one. The
 * callbacks are driven as lwIP calls them, on a pcb that never connected (its sends
 * fail, which the server takes as a full send buffer). */
#include "../console_capture.h"
#include "../../../net/telemetry/http_request.c"
#include "../../../net/telemetry/http_server.c"
#include "lwip/init.h"
#include "../test.h"

#include <stdlib.h>
#include "lwip_platform.h"

/* ---- what lwIP and the server ask of the platform */
u32_t sys_now(void) { return 0; }
u32 net_lwip_rand(void) { return 4; }
u32 tcp_isn(u32 local_addr, u16 local_port, u32 remote_addr, u16 remote_port)
{
	return local_addr + local_port + remote_addr + remote_port;
}
void *alloc_zeroed(u64 bytes) { return calloc(1, bytes); }

static const char page[] = "the shared page\n";
static int held; /* references the server holds */

static void done(void *ref)
{
	CHECK(ref == page);
	held--;
}

static void serve(const struct http_req *req, struct http_answer *a)
{
	(void)req;
	a->text = page;
	a->len = sizeof page - 1;
	a->done = done;
	a->ref = (void *)page;
	held++;
}

/* A connection that sends text: its slot. */
static struct slot *request(const char *text)
{
	struct tcp_pcb *pcb = tcp_new();
	CHECK(pcb != NULL);
	CHECK_EQ(on_accept(NULL, pcb, ERR_OK), ERR_OK);
	struct slot *s = pcb->callback_arg;
	struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16)strlen(text), PBUF_RAM);
	memcpy(p->payload, text, strlen(text));
	on_recv(s, pcb, p, ERR_OK);
	return s;
}

int main(void)
{
	lwip_init();
	handler = serve;
	for (u32 i = 0; i < HTTP_SERVER_CONNS; i++) {
		slots[i].a.body = alloc_zeroed(HTTP_SERVER_BODY_MAX);
		slots[i].a.max = HTTP_SERVER_BODY_MAX;
	}

	struct slot *s = request("HEAD /metrics HTTP/1.0\r\n\r\n");
	CHECK(s->answering);
	CHECK_EQ(held, 0); /* the length was taken, the page let go */
	CHECK_EQ(s->total, s->head_len);
	CHECK(strstr(s->head, "Content-Length: 16\r\n") != NULL);
	on_err(s, ERR_RST);

	s = request("GET /metrics HTTP/1.0\r\n\r\n");
	CHECK_EQ(held, 1); /* sent from the page: held */
	CHECK_EQ(s->total, s->head_len + sizeof page - 1);
	on_err(s, ERR_RST); /* the client reset: lwIP freed the pcb */
	CHECK_EQ(held, 0);
	CHECK(s->pcb == NULL);

	s = request("GET /metrics HTTP/1.0\r\n\r\n");
	CHECK_EQ(held, 1);
	CHECK_EQ(reset(s), ERR_ABRT); /* the server's own reset (idle, ...) */
	CHECK_EQ(held, 0);

	s = request("BREW /metrics HTTP/1.0\r\n\r\n"); /* refused: never handled */
	CHECK(s->answering);
	CHECK_EQ(held, 0);
	on_err(s, ERR_RST);
	return test_summary();
}
