/* SPDX-License-Identifier: GPL-2.0-only */
/* HTTP server (http_server.h). Each connection has a slot: the request head is read by
 * net/telemetry/http_request.c, the whole answer is made at once into the slot's buffer
 * (or is a shared page the handler points at) and then handed to lwIP as the send buffer
 * frees up (tcp_sent), without copies: lwIP's segments point into it, so it stays as it
 * is until every byte is acknowledged or the connection is aborted (then the slot lets a
 * shared page go: done). A connection that does not finish in
 * IDLE_S is reset, so a slow or silent client holds a slot for that long at most. */
#include "net/telemetry/http_server.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "lwip/tcp.h"

#define HEAD_MAX 256
#define IDLE_S 10     /* a connection's whole life, at most */
#define POLL_HALF_S 2 /* tcp_poll's interval is in half seconds (TCP_SLOW_INTERVAL) */

struct slot {
	struct tcp_pcb *pcb; /* NULL: free */
	struct http_req req;
	char head[HEAD_MAX];
	size_t head_len;
	struct http_answer a;
	const char *out;    /* the answer: head then body */
	size_t sent, total; /* bytes of head + body handed to lwIP, and in all */
	bool answering;
	u32 polls;
};

static struct slot slots[HTTP_SERVER_CONNS];
static void (*handler)(const struct http_req *req, struct http_answer *a);
struct http_server_stats http_server_stats;

/* The shared page the answer points at is no longer needed. */
static void let_go(struct slot *s)
{
	if (s->a.done)
		s->a.done(s->a.ref);
	s->a.done = NULL;
}

static void release(struct slot *s)
{
	let_go(s);
	if (s->pcb) {
		tcp_arg(s->pcb, NULL);
		tcp_recv(s->pcb, NULL);
		tcp_sent(s->pcb, NULL);
		tcp_err(s->pcb, NULL);
		tcp_poll(s->pcb, NULL, 0);
	}
	s->pcb = NULL;
}

/* Ends the connection from a callback: closed, else reset. Returns what the callback
 * returns to lwIP. */
static err_t finish(struct slot *s)
{
	struct tcp_pcb *pcb = s->pcb;
	release(s);
	if (tcp_close(pcb) == ERR_OK)
		return ERR_OK;
	tcp_abort(pcb);
	return ERR_ABRT;
}

static err_t reset(struct slot *s)
{
	struct tcp_pcb *pcb = s->pcb;
	release(s);
	tcp_abort(pcb);
	return ERR_ABRT;
}

/* Hands lwIP as much of the answer as its send buffer takes. */
static err_t push(struct slot *s)
{
	while (s->sent < s->total) {
		size_t n = MIN(s->total - s->sent, (size_t)tcp_sndbuf(s->pcb));
		if (!n || tcp_sndqueuelen(s->pcb) >= TCP_SND_QUEUELEN)
			break;
		const char *from = s->sent < s->head_len ? s->head + s->sent
							 : s->a.text + (s->sent - s->head_len);
		if (s->sent < s->head_len)
			n = MIN(n, s->head_len - s->sent);
		u8 more = s->sent + n < s->total ? TCP_WRITE_FLAG_MORE : 0;
		if (tcp_write(s->pcb, from, (u16)n, more) != ERR_OK)
			break; /* out of segments: again when some are acknowledged */
		s->sent += n;
	}
	tcp_output(s->pcb);
	return ERR_OK;
}

static void answer(struct slot *s)
{
	struct http_answer *a = &s->a;
	a->status = 200;
	a->type = "text/plain; charset=utf-8";
	a->len = 0;
	a->text = NULL;
	a->done = NULL;
	http_server_stats.requests++;
	if (s->req.state == HTTP_REQ_BAD) {
		http_server_stats.bad++;
		a->status = s->req.status;
		a->len = (size_t)snprintf(a->body, a->max, "%s\n", s->req.why);
	} else {
		handler(&s->req, a);
	}
	if (!a->text)
		a->text = a->body;
	bool head_only = s->req.state == HTTP_REQ_DONE && s->req.method == HTTP_HEAD;
	s->head_len = http_response_head(s->head, sizeof s->head, a->status, a->type, a->len);
	s->total = s->head_len + (head_only ? 0 : a->len);
	if (head_only)
		let_go(s); /* the length was all it needed */
	s->answering = true;
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct slot *s = arg;
	(void)err;
	if (!p) /* the client closed its side */
		return s->answering ? ERR_OK : finish(s);
	if (!s->answering)
		for (const struct pbuf *q = p; q; q = q->next)
			http_req_feed(&s->req, q->payload, q->len);
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	if (s->answering || s->req.state == HTTP_REQ_MORE)
		return ERR_OK;
	answer(s);
	return push(s);
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16 len)
{
	struct slot *s = arg;
	(void)pcb;
	(void)len;
	if (s->sent < s->total)
		return push(s);
	return tcp_sndqueuelen(s->pcb) ? ERR_OK : finish(s);
}

static err_t on_poll(void *arg, struct tcp_pcb *pcb)
{
	struct slot *s = arg;
	(void)pcb;
	if (++s->polls * POLL_HALF_S / 2 >= IDLE_S) {
		http_server_stats.timed_out++;
		return reset(s);
	}
	return s->sent < s->total ? push(s) : ERR_OK; /* a tcp_write that found no memory */
}

/* lwIP has freed the pcb. */
static void on_err(void *arg, err_t err)
{
	struct slot *s = arg;
	(void)err;
	let_go(s);
	s->pcb = NULL;
}

static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void)arg;
	if (err != ERR_OK || !pcb)
		return ERR_VAL;
	struct slot *s = NULL;
	for (u32 i = 0; i < ARRAY_SIZE(slots) && !s; i++)
		if (!slots[i].pcb)
			s = &slots[i];
	if (!s) {
		http_server_stats.refused++;
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	char *body = s->a.body;
	size_t max = s->a.max;
	memset(s, 0, sizeof *s);
	s->a.body = body;
	s->a.max = max;
	s->pcb = pcb;
	http_req_init(&s->req);
	tcp_arg(pcb, s);
	tcp_recv(pcb, on_recv);
	tcp_sent(pcb, on_sent);
	tcp_err(pcb, on_err);
	tcp_poll(pcb, on_poll, POLL_HALF_S);
	return ERR_OK;
}

int http_server_start(u16 port, void (*h)(const struct http_req *req, struct http_answer *a),
		      const char **why)
{
	handler = h;
	for (u32 i = 0; i < ARRAY_SIZE(slots); i++) {
		slots[i].a.body = alloc_zeroed(HTTP_SERVER_BODY_MAX);
		slots[i].a.max = HTTP_SERVER_BODY_MAX;
	}
	struct tcp_pcb *pcb = tcp_new();
	if (!pcb) {
		*why = "lwIP has no TCP connection left";
		return -1;
	}
	/* The lowest priority, which connections inherit from the listener: lwIP, short of
	 * pcbs for a new connection, then ends none of those being served (tcp_kill_prio). */
	tcp_setprio(pcb, TCP_PRIO_MIN);
	if (tcp_bind(pcb, IP4_ADDR_ANY, port) != ERR_OK) {
		tcp_close(pcb);
		*why = "lwIP could not bind the HTTP port";
		return -1;
	}
	struct tcp_pcb *listen = tcp_listen(pcb);
	if (!listen) {
		tcp_close(pcb);
		*why = "lwIP could not listen on the HTTP port";
		return -1;
	}
	tcp_accept(listen, on_accept);
	return 0;
}
