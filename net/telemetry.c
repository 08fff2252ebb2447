/* SPDX-License-Identifier: GPL-2.0-only */
/* Telemetry (telemetry.h): the NIC, the address, and what each URL answers. */
#include "net/telemetry.h"
#include "drivers/virtio_net.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/metrics.h"
#include "lwip/dhcp.h"
#include "lwip/timeouts.h"
#include "net/http_server.h"
#include "net/live_page.h"
#include "net/lwip_port.h"
#include "net/virtio_netif.h"

static struct virtio_net nic;
static struct netif nif;
static bool running, told; /* told: the address was printed */
static u16 port;
static struct vm *const *vms;
static u32 nvms;

#define CONSOLE_PREFIX "/console/"

static void route(const char *path, const char *query, struct http_answer *a)
{
	(void)query;
	int n;
	if (!strcmp(path, "/metrics")) {
		a->type = "text/plain; version=0.0.4; charset=utf-8";
		n = metrics_prometheus(a->body, a->max, vms, nvms);
	} else if (!strcmp(path, "/stats")) {
		a->type = "application/json";
		n = metrics_json(a->body, a->max, vms, nvms);
	} else if (!strcmp(path, "/")) {
		a->type = "text/html; charset=utf-8";
		n = (int)MIN(live_page_len, a->max);
		memcpy(a->body, live_page, (size_t)n);
	} else if (!strncmp(path, CONSOLE_PREFIX, strlen(CONSOLE_PREFIX))) {
		size_t got = console_tail(path + strlen(CONSOLE_PREFIX), a->body, a->max);
		if (got == (size_t)-1) {
			a->status = 404;
			n = snprintf(a->body, a->max, "no VM named '%s'\n",
				     path + strlen(CONSOLE_PREFIX));
		} else {
			n = (int)got;
		}
	} else {
		a->status = 404;
		n = snprintf(a->body, a->max,
			     "no such page: %s (try /, /metrics, /stats, /console/NAME)\n", path);
	}
	if (n < 0) {
		a->status = 500;
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
	if (cfg->dhcp && dhcp_start(&nif) != ERR_OK) {
		printk("hv: telemetry off: DHCP did not start (lwIP out of memory)\n");
		return;
	}
	running = true;
	if (!cfg->dhcp)
		tell_address();
}

void telemetry_poll(void)
{
	if (!running)
		return;
	virtio_netif_poll(&nif);
	sys_check_timeouts();
	if (!told && dhcp_supplied_address(&nif))
		tell_address();
}
