/* SPDX-License-Identifier: GPL-2.0-only */
/* Telemetry (telemetry.h): the NIC, the address, and what each URL answers. */
#include "net/telemetry/telemetry.h"
#include "drivers/virtio_net.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/sched.h"
#include "lib/lwip/half_open.h"
#include "lib/lwip/lwip_assert.h"
#include "lib/lwip/lwip_port.h"
#include "lwip/dhcp.h"
#include "lwip/etharp.h"
#include "lwip/sys.h"
#include "lwip/timeouts.h"
#include "net/telemetry/console_page.h"
#include "net/telemetry/frame_filter.h"
#include "net/telemetry/http_server.h"
#include "net/telemetry/live_page.h"
#include "net/telemetry/metrics.h"
#include "net/telemetry/time_budget.h"
#include "net/telemetry/virtio_netif.h"

static struct virtio_net nic;
static struct netif nif;
static bool running, told; /* told: the address was printed */
static u16 port;
static bool serve_console;
static char host_name[sizeof(((struct net_config *)0)->host)]; /* [net] host, or "" */
static struct cfg_cidr allow[CFG_MAX_ALLOW];		       /* [net] allow */
static struct frame_rules rules = { .allow = allow };
static u64 rx_denied; /* frames from outside the allow list */
static struct vm *const *vms;
static u32 nvms;

/* Appends what snprintf would write to buf (max bytes, len used); false when it does not
 * fit. */
static bool append(char *buf, size_t max, size_t *len, const char *fmt, ...) PRINTF_LIKE(4, 5);
static bool append(char *buf, size_t max, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, max - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= max - *len)
		return false;
	*len += (size_t)n;
	return true;
}

/* The machine's own counters, beside the VMs' (net/telemetry/metrics.c): each pCPU's vCPU
 * switches and idle waits, the NIC's frames and the server's requests; a family's samples
 * follow each other, a label value each or none. */
struct sample {
	const char *family, *help, *label, *value; /* label NULL: a family of one sample */
	u64 n; /* in a _seconds_total family: nanoseconds, written as seconds (as metrics.c) */
};
#define MACHINE_SAMPLES (2 * MAX_PCPUS + 12)

/* A sample's value as both formats write it. */
static const char *sample_value(const struct sample *s, char buf[32])
{
	size_t l = strlen(s->family), suffix = strlen("_seconds_total");
	if (l > suffix && !strcmp(s->family + l - suffix, "_seconds_total"))
		snprintf(buf, 32, "%llu.%09llu", (unsigned long long)(s->n / 1000000000),
			 (unsigned long long)(s->n % 1000000000));
	else
		snprintf(buf, 32, "%llu", (unsigned long long)s->n);
	return buf;
}

/* The network's share of pCPU 0 (time_budget.h): it polls while its credit lasts, at
 * most NET_PERCENT of the pCPU over time, NET_BURST_MS at once; its time is counted. */
#define NET_PERCENT 10
#define NET_BURST_MS 20
static struct time_budget net_budget = { .percent = NET_PERCENT };
static u64 net_ns, net_throttled;

static u32 machine_samples(struct sample *s)
{
	static char ids[MAX_PCPUS][4];
	const struct http_server_stats *h = &http_server_stats;
	u32 k = 0;
	for (u32 f = 0; f < 2; f++)
		for (u32 i = 0; i < npcpus; i++) {
			snprintf(ids[i], sizeof ids[i], "%u", i);
			const u64 *v = f ? &pcpus[i].idle_ticks : &pcpus[i].switches;
			s[k++] = (struct sample){ f ? "hv_pcpu_idle_waits_total"
						    : "hv_pcpu_switches_total",
						  f ? "Times the pCPU slept with nothing to run."
						    : "vCPU switches on the pCPU.",
						  "pcpu", ids[i],
						  __atomic_load_n(v, __ATOMIC_RELAXED) };
		}
	static const char frames[] = "hv_net_frames_total", requests[] = "hv_http_requests_total",
			  resets[] = "hv_http_resets_total";
	static const char frames_help[] = "Frames through the hypervisor's NIC, by direction.",
			  requests_help[] = "Telemetry requests answered, by result.",
			  resets_help[] = "Telemetry connections reset, by reason (busy: no free "
					  "slot; half-open: the oldest of too many unfinished "
					  "handshakes).";
	s[k++] = (struct sample){ frames, frames_help, "direction", "rx", nic.rx_frames };
	s[k++] = (struct sample){ frames, frames_help, "direction", "tx", nic.tx_frames };
	s[k++] = (struct sample){ "hv_net_nic_restarts_total",
				  "Times the NIC stopped on its own and was started again.", NULL,
				  NULL, nic.restarts };
	s[k++] = (struct sample){ "hv_net_rx_dropped_total",
				  "Received frames dropped (malformed or too long), and used-ring "
				  "entries naming no buffer of the device's.",
				  NULL, NULL, nic.rx_dropped + nic.bogus_ids };
	s[k++] = (struct sample){ "hv_net_poll_seconds_total",
				  "pCPU 0's time in the network's polls (at most 10% of it).", NULL,
				  NULL, net_ns };
	s[k++] = (struct sample){ "hv_net_poll_throttled_total",
				  "Network polls skipped: its share of pCPU 0 was spent.", NULL,
				  NULL, net_throttled };
	s[k++] = (struct sample){ "hv_net_rx_denied_total",
				  "Received frames dropped: their sender is not on the allow list.",
				  NULL, NULL, rx_denied };
	s[k++] = (struct sample){ requests, requests_help, "result", "ok", h->requests - h->bad };
	s[k++] = (struct sample){ requests, requests_help, "result", "bad", h->bad };
	s[k++] = (struct sample){ resets, resets_help, "reason", "busy", h->refused };
	s[k++] = (struct sample){ resets, resets_help, "reason", "idle", h->timed_out };
	s[k++] = (struct sample){ resets, resets_help, "reason", "half-open",
				  tcp_half_open_evicted };
	return k;
}

/* The machine's samples after the VMs' Prometheus text (len bytes of buf): the new
 * length, or -1 when they do not fit. */
static int machine_prometheus(char *buf, size_t max, size_t len)
{
	static struct sample s[MACHINE_SAMPLES];
	char v[32];
	u32 n = machine_samples(s);
	for (u32 i = 0; i < n; i++) {
		bool first = !i || strcmp(s[i].family, s[i - 1].family);
		if ((first && !append(buf, max, &len, "# HELP %s %s\n# TYPE %s counter\n",
				      s[i].family, s[i].help, s[i].family)) ||
		    !append(buf, max, &len, "%s", s[i].family) ||
		    (s[i].label &&
		     !append(buf, max, &len, "{%s=\"%s\"}", s[i].label, s[i].value)) ||
		    !append(buf, max, &len, " %s\n", sample_value(&s[i], v)))
			return -1;
	}
	return (int)len;
}

/* The machine's samples into the VMs' JSON document (len bytes of buf, ending "}\n"), as
 * its "machine" member: {"hv_pcpu_switches_total":{"0":12,...},...,
 * "hv_net_rx_dropped_total":0,...}. The new length, or -1 when they do not fit. */
static int machine_json(char *buf, size_t max, size_t len)
{
	static struct sample s[MACHINE_SAMPLES];
	char v[32];
	u32 n = machine_samples(s);
	if (len < 2 || strcmp(buf + len - 2, "}\n"))
		return -1;
	len -= 2;
	if (!append(buf, max, &len, ",\"machine\":{"))
		return -1;
	for (u32 i = 0; i < n; i++) {
		bool first = !i || strcmp(s[i].family, s[i - 1].family);
		bool last = i + 1 == n || strcmp(s[i].family, s[i + 1].family);
		if ((first && !append(buf, max, &len, "%s\"%s\":%s", i ? "," : "", s[i].family,
				      s[i].label ? "{" : "")) ||
		    (s[i].label &&
		     !append(buf, max, &len, "%s\"%s\":", first ? "" : ",", s[i].value)) ||
		    !append(buf, max, &len, "%s%s", sample_value(&s[i], v),
			    s[i].label && last ? "}" : ""))
			return -1;
	}
	return append(buf, max, &len, "}}\n") ? (int)len : -1;
}

#define CONSOLE_PREFIX "/console/"

/* The console of the VM named name (console_page.h), or why not. */
static int console_answer(const struct http_req *req, const char *name, struct http_answer *a)
{
	static char tail[CONSOLE_TAIL];
	char addr[16];
	ip4addr_ntoa_r(netif_ip4_addr(&nif), addr, sizeof addr);
	if (!serve_console) {
		a->status = 404;
		return snprintf(a->body, a->max,
				"the consoles are not served here (console = yes under [net] "
				"serves them)\n");
	}
	if (!console_host_ok(req->host, addr, host_name, port)) {
		a->status = 403;
		return snprintf(a->body, a->max,
				"the Host header names another server: ask for %s:%u (or the "
				"name that host = under [net] gives)\n",
				addr, port);
	}
	size_t got = console_tail(name, tail, sizeof tail);
	if (got == (size_t)-1) {
		a->status = 404;
		return snprintf(a->body, a->max, "no VM named '%s'\n", name);
	}
	return (int)console_text(tail, got, a->body, a->max);
}

static void route(const struct http_req *req, struct http_answer *a)
{
	const char *path = req->path;
	int n;
	if (!strcmp(path, "/metrics")) {
		a->type = "text/plain; version=0.0.4; charset=utf-8";
		n = metrics_prometheus(a->body, a->max, vms, nvms);
		if (n >= 0)
			n = machine_prometheus(a->body, a->max, (size_t)n);
	} else if (!strcmp(path, "/stats")) {
		a->type = "application/json";
		n = metrics_json(a->body, a->max, vms, nvms);
		if (n >= 0)
			n = machine_json(a->body, a->max, (size_t)n);
	} else if (!strcmp(path, "/")) {
		a->type = "text/html; charset=utf-8";
		n = (int)MIN(live_page_len, a->max);
		memcpy(a->body, live_page, (size_t)n);
	} else if (!strncmp(path, CONSOLE_PREFIX, strlen(CONSOLE_PREFIX))) {
		n = console_answer(req, path + strlen(CONSOLE_PREFIX), a);
	} else {
		a->status = 404;
		n = snprintf(a->body, a->max,
			     "no such page: %s (try /, /metrics, /stats, /console/NAME)\n", path);
	}
	if (n < 0) {
		a->status = 500;
		a->type = "text/plain; charset=utf-8";
		n = snprintf(a->body, a->max, "the answer is larger than %zu bytes\n", a->max);
	}
	a->len = (size_t)n;
}

static void tell_address(void)
{
	char addr[16];
	printk("hv: telemetry: http://%s:%u/metrics (%s)\n",
	       ip4addr_ntoa_r(netif_ip4_addr(&nif), addr, sizeof addr), port,
	       netif_dhcp_data(&nif) ? "DHCP" : "static");
	told = true;
}

void telemetry_start(const struct net_config *cfg, const void *rsdp, struct vm *const *v, u32 n)
{
	const char *why;
	if (!cfg->enabled)
		return;
	vms = v;
	nvms = n;
	port = cfg->port;
	serve_console = cfg->console;
	memcpy(host_name, cfg->host, sizeof host_name);
	memcpy(allow, cfg->allow, sizeof allow);
	rules.nallow = cfg->nallow;
	rules.dhcp = cfg->dhcp;
	rules.syn_port = port;
	if (virtio_net_probe(rsdp, &nic, &why)) {
		printk("hv: telemetry off: %s\n", why);
		return;
	}
	net_lwip_init();
	ip4_addr_t ip = { 0 }, mask = { 0 }, gw = { 0 };
	if (!cfg->dhcp) {
		IP4_ADDR(&ip, cfg->ip[0], cfg->ip[1], cfg->ip[2], cfg->ip[3]);
		ip4_addr_set_u32(&mask, lwip_htonl(~0u << (32 - cfg->prefix)));
		if (cfg->has_gateway)
			IP4_ADDR(&gw, cfg->gateway[0], cfg->gateway[1], cfg->gateway[2],
				 cfg->gateway[3]);
	}
	if (virtio_netif_add(&nic, &nif, &ip, &mask, &gw)) {
		printk("hv: telemetry off: lwIP could not add the interface\n");
		return;
	}
	if (http_server_start(port, route, &why)) {
		printk("hv: telemetry off: %s\n", why);
		return;
	}
	const u8 *mac = nif.hwaddr;
	printk("hv: telemetry: NIC %02x:%02x:%02x:%02x:%02x:%02x (virtio-net), %s\n", mac[0],
	       mac[1], mac[2], mac[3], mac[4], mac[5],
	       cfg->dhcp ? "asking DHCP for an address" : "static address");
	if (rules.nallow) {
		char list[CFG_MAX_ALLOW * 20] = "";
		for (u32 i = 0, len = 0; i < rules.nallow; i++) {
			const u8 *a = allow[i].ip;
			len += (u32)snprintf(list + len, sizeof list - len, "%s%u.%u.%u.%u/%u",
					     i ? ", " : "", a[0], a[1], a[2], a[3],
					     allow[i].prefix);
		}
		printk("hv: telemetry: only IPv4 frames from %s reach it (allow)\n", list);
	}
	if (cfg->dhcp && dhcp_start(&nif) != ERR_OK) {
		printk("hv: telemetry off: DHCP did not start (lwIP out of memory)\n");
		return;
	}
	running = true;
	net_budget.burst = NET_BURST_MS * (arch_time_hz / 1000);
	sched_add_housekeeping(telemetry_poll);
	if (!cfg->dhcp)
		tell_address();
}

/* Once a second: a NIC that stopped on its own (its host reset it, or it asks for a reset)
 * is started again, said on the console; one that cannot be, or keeps stopping, ends the
 * telemetry. */
#define NIC_CHECK_MS 1000
#define NIC_RESTARTS_MAX 5 /* in the machine's life */

static bool nic_works(void)
{
	static u32 checked;
	const char *why;
	if (sys_now() - checked < NIC_CHECK_MS)
		return true;
	checked = sys_now();
	if (!virtio_net_broken(&nic))
		return true;
	if (nic.restarts == NIC_RESTARTS_MAX) {
		running = false;
		printk("hv: telemetry stopped: the NIC stopped on its own %u times; the VMs run "
		       "on\n",
		       NIC_RESTARTS_MAX + 1);
		return false;
	}
	printk("hv: telemetry: the NIC stopped on its own (reset by its host, or it asks for "
	       "one): starting it again\n");
	if (!virtio_net_restart(&nic, &why)) {
		if (memcmp(nif.hwaddr, nic.mac, sizeof nic.mac)) { /* a new MAC: ARP anew */
			memcpy(nif.hwaddr, nic.mac, sizeof nic.mac);
			etharp_cleanup_netif(&nif);
		}
		return true;
	}
	running = false;
	printk("hv: telemetry stopped: the NIC does not start again: %s; the VMs run on\n", why);
	return false;
}

/* What reaches lwIP (frame_filter.h): frames from the allow list, with room made for
 * each connection asked for. */
static bool admit(const u8 *frame, size_t len)
{
	enum frame_verdict v = frame_filter(&rules, frame, len);
	if (v == FRAME_DENY)
		rx_denied++;
	else if (v == FRAME_PASS_SYN)
		tcp_half_open_make_room();
	return v != FRAME_DENY;
}

static void poll_network(void)
{
	if (!nic_works())
		return;
	virtio_netif_poll(&nif, admit);
	sys_check_timeouts();
	if (!told && dhcp_supplied_address(&nif))
		tell_address();
}

void telemetry_poll(void)
{
	if (!running)
		return;
	u64 start = arch_time_now();
	if (!time_budget_allows(&net_budget, start)) {
		net_throttled++;
		return;
	}
	if (!net_lwip_call(poll_network)) {
		running = false;
		printk("hv: telemetry stopped: lwIP failed (above); the VMs run on\n");
	}
	u64 spent = arch_time_now() - start;
	time_budget_spend(&net_budget, spent);
	net_ns += spent * 1000 / (arch_time_hz / 1000000);
}
