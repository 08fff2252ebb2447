/* SPDX-License-Identifier: GPL-2.0-only */
/* Telemetry (telemetry.h): the NIC, the address, and what each URL answers. */
#include "net/telemetry/telemetry.h"
#include "drivers/virtio_net.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/on_exit.h"
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
#include "net/telemetry/snapshot.h"
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

#define MACHINE_SAMPLES (2 * MAX_PCPUS + 14)

/* /metrics and /stats (snapshot.h), made at most once a second. */
#define SNAPSHOT_MS 1000
static struct snapshot metrics_page, stats_page;

/* The network's share of pCPU 0 (time_budget.h): it polls while its credit lasts, at
 * most NET_PERCENT of the pCPU over time, NET_BURST_MS at once; its time is counted. */
#define NET_PERCENT 10
#define NET_BURST_MS 20
static struct time_budget net_budget = { .percent = NET_PERCENT };
static u64 net_ns, net_throttled;

/* The machine's own counters, beside the VMs' (metrics.h): each pCPU's vCPU switches and
 * idle waits, the NIC's frames, the server's requests and the snapshots built. */
static u32 machine_samples(struct metric_sample *s)
{
	static char ids[MAX_PCPUS][4];
	const struct http_server_stats *h = &http_server_stats;
	u32 k = 0;
	for (u32 f = 0; f < 2; f++)
		for (u32 i = 0; i < npcpus; i++) {
			snprintf(ids[i], sizeof ids[i], "%u", i);
			const u64 *v = f ? &pcpus[i].idle_ticks : &pcpus[i].switches;
			s[k++] = (struct metric_sample){
				f ? "hv_pcpu_idle_waits_total" : "hv_pcpu_switches_total",
				f ? "Times the pCPU slept with nothing to run."
				  : "vCPU switches on the pCPU.",
				"pcpu", ids[i], __atomic_load_n(v, __ATOMIC_RELAXED)
			};
		}
	static const char frames[] = "hv_net_frames_total", requests[] = "hv_http_requests_total",
			  resets[] = "hv_http_resets_total",
			  builds[] = "hv_http_snapshot_builds_total";
	static const char frames_help[] = "Frames through the hypervisor's NIC, by direction.",
			  requests_help[] = "Telemetry requests answered, by result.",
			  resets_help[] = "Telemetry connections reset, by reason (busy: no free "
					  "slot; half-open: the oldest of too many unfinished "
					  "handshakes).";
	static const char builds_help[] = "Times /metrics or /stats was made (at most once a "
					  "second; every request in between is answered the same).";
	s[k++] = (struct metric_sample){ frames, frames_help, "direction", "rx", nic.rx_frames };
	s[k++] = (struct metric_sample){ frames, frames_help, "direction", "tx", nic.tx_frames };
	s[k++] = (struct metric_sample){ "hv_net_nic_restarts_total",
					 "Times the NIC stopped on its own and was started again.",
					 NULL, NULL, nic.restarts };
	s[k++] = (struct metric_sample){
		"hv_net_rx_dropped_total",
		"Received frames dropped (malformed or too long), and used-ring "
		"entries naming no buffer of the device's.",
		NULL, NULL, nic.rx_dropped + nic.bogus_ids
	};
	s[k++] = (struct metric_sample){
		"hv_net_poll_seconds_total",
		"pCPU 0's time in the network's polls (at most 10% of it).", NULL, NULL, net_ns
	};
	s[k++] = (struct metric_sample){ "hv_net_poll_throttled_total",
					 "Network polls skipped: its share of pCPU 0 was spent.",
					 NULL, NULL, net_throttled };
	s[k++] = (struct metric_sample){
		"hv_net_rx_denied_total",
		"Received frames dropped: their sender is not on the allow list.", NULL, NULL,
		rx_denied
	};
	s[k++] = (struct metric_sample){ requests, requests_help, "result", "ok",
					 h->requests - h->bad };
	s[k++] = (struct metric_sample){ requests, requests_help, "result", "bad", h->bad };
	s[k++] = (struct metric_sample){ resets, resets_help, "reason", "busy", h->refused };
	s[k++] = (struct metric_sample){ resets, resets_help, "reason", "idle", h->timed_out };
	s[k++] = (struct metric_sample){ resets, resets_help, "reason", "half-open",
					 tcp_half_open_evicted };
	s[k++] = (struct metric_sample){ builds, builds_help, "page", "metrics",
					 metrics_page.builds };
	s[k++] = (struct metric_sample){ builds, builds_help, "page", "stats", stats_page.builds };
	return k;
}

/* /metrics and /stats (snapshot.h): built at most once a second, into buffers sized at
 * the start for the configuration's VMs and pCPUs (metrics_*_max), so they always fit. */
static int build_metrics(char *buf, size_t max)
{
	static struct metric_sample s[MACHINE_SAMPLES];
	return metrics_prometheus(buf, max, vms, nvms, s, machine_samples(s));
}

static int build_stats(char *buf, size_t max)
{
	static struct metric_sample s[MACHINE_SAMPLES];
	return metrics_json(buf, max, vms, nvms, s, machine_samples(s));
}

static void snapshot_start(struct snapshot *page, int (*build)(char *buf, size_t max), size_t max)
{
	char *bufs[2] = { alloc_zeroed(max), alloc_zeroed(max) };
	snapshot_init(page, build, bufs, max, SNAPSHOT_MS);
}

static void snapshot_done(void *copy) { snapshot_put(copy); }

/* The page's current copy as the answer, held until the connection is done with it. */
static int snapshot_answer(struct snapshot *page, struct http_answer *a)
{
	struct snapshot_copy *c = snapshot_get(page, arch_time_now() / (arch_time_hz / 1000));
	if (!c)
		return -1;
	a->text = c->text;
	a->done = snapshot_done;
	a->ref = c;
	return (int)c->len;
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
		n = snapshot_answer(&metrics_page, a);
	} else if (!strcmp(path, "/stats")) {
		a->type = "application/json";
		n = snapshot_answer(&stats_page, a);
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
		n = snprintf(a->body, a->max, "the answer did not fit its buffer\n");
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

/* At the end of the run: what reached the NIC, what the allow list kept out, what was
 * answered, and pCPU 0's time in the network (the same counters as /metrics). */
static void report(void)
{
	const struct http_server_stats *h = &http_server_stats;
	printk("hv: telemetry: frames rx=%llu tx=%llu dropped=%llu denied=%llu; requests ok=%llu "
	       "bad=%llu; resets busy=%llu idle=%llu half-open=%llu; pcpu0 network time %llu ms, "
	       "polls held back %llu\n",
	       (unsigned long long)nic.rx_frames, (unsigned long long)nic.tx_frames,
	       (unsigned long long)(nic.rx_dropped + nic.bogus_ids), (unsigned long long)rx_denied,
	       (unsigned long long)(h->requests - h->bad), (unsigned long long)h->bad,
	       (unsigned long long)h->refused, (unsigned long long)h->timed_out,
	       (unsigned long long)tcp_half_open_evicted, (unsigned long long)(net_ns / 1000000),
	       (unsigned long long)net_throttled);
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
	static struct metric_sample samples[MACHINE_SAMPLES];
	u32 ns = machine_samples(samples);
	size_t metrics_max = metrics_prometheus_max(vms, nvms, samples, ns);
	size_t stats_max = metrics_json_max(vms, nvms, samples, ns);
	/* The four copies take at most half of the hypervisor's free memory: the rest is
	 * for what the VMs need of it as they run (running out stops the machine). */
	u64 need = 2 * (u64)(metrics_max + stats_max), free = mem_free_bytes();
	if (need > free / 2) {
		printk("hv: telemetry off: /metrics and /stats of this configuration need %llu "
		       "KiB (two copies each), more than half of the hypervisor's %llu KiB free\n",
		       (unsigned long long)(need >> 10), (unsigned long long)(free >> 10));
		return;
	}
	snapshot_start(&metrics_page, build_metrics, metrics_max);
	snapshot_start(&stats_page, build_stats, stats_max);
	if (http_server_start(port, route, &why)) {
		printk("hv: telemetry off: %s\n", why);
		return;
	}
	const u8 *mac = nif.hwaddr;
	printk("hv: telemetry: NIC %02x:%02x:%02x:%02x:%02x:%02x (virtio-net), %s\n", mac[0],
	       mac[1], mac[2], mac[3], mac[4], mac[5],
	       cfg->dhcp ? "asking DHCP for an address" : "static address");
	printk("hv: telemetry: /metrics up to %zu KiB, /stats up to %zu KiB (two copies each)\n",
	       (metrics_max + 1023) / 1024, (stats_max + 1023) / 1024);
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
	on_exit_add_report(report);
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
