/* SPDX-License-Identifier: GPL-2.0-only */
/* Network boot (netboot.h) on lwIP: one interface, polled. */
#include "net/boot/netboot.h"
#include "boot/efi.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "lib/lwip/lwip_port.h"
#include "lwip/dhcp.h"
#include "lwip/sys.h"
#include "lwip/timeouts.h"
#include "lwip/prot/dhcp.h"
#include "net/boot/boot_server.h"
#include "net/boot/http_client.h"
#include "net/boot/snp_netif.h"
#include "net/boot/tftp_client.h"

#define DHCP_WAIT_MS 30000 /* lwIP sends DISCOVER again after 2, 4, 8, 16 s (RFC 2131 4.1) */

static struct netif nif;
static ip4_addr_t server;
static struct boot_server_dhcp ack; /* the options of the DHCP ACK lwIP does not keep */
static bool nic_up;		    /* snp_netif_open was called: the NIC is to be ended */

/* lwIP's hook for the options it skips (lwipopts.h): 66 and 150 of the ACK are kept. An
 * option lwIP parses before the message type (53, first in practice) is not seen as the
 * ACK's; then the next choice applies. */
void netboot_dhcp_option(unsigned char msg_type, unsigned char option, unsigned char len,
			 struct pbuf *p, unsigned short offset)
{
	if (msg_type != DHCP_ACK)
		return;
	if (option == 150)
		ack.opt150_len = (u8)pbuf_copy_partial(p, ack.opt150, len, offset);
	else if (option == 66)
		ack.opt66_len = (u8)pbuf_copy_partial(p, ack.opt66, len, offset);
}

static void poll(void)
{
	snp_netif_poll(&nif);
	sys_check_timeouts();
}

/* MNP, where it could not be stopped (snp_netif_open), polls the NIC from a timer event
 * at TPL_CALLBACK and would take the frames lwIP waits for; at TPL_CALLBACK it cannot run
 * (UEFI 2.10, 7.1: events are notified below their TPL), and every service used while
 * waiting (SNP, console, memory) may be called there (table 7-3). */
static EFI_TPL hold_nic(void) { return efi_st->BootServices->RaiseTPL(TPL_CALLBACK); }
static void release_nic(EFI_TPL tpl) { efi_st->BootServices->RestoreTPL(tpl); }

static int up(EFI_HANDLE nic, const char **why)
{
	const u8 *mac = nif.hwaddr;
	memset(&ack, 0, sizeof ack);
	net_lwip_init();
	nic_up = true; /* even when it fails half way: netboot_release gives it back */
	if (snp_netif_open(nic, &nif, why))
		return -1;
	printk("hv: network-booted: NIC %02x:%02x:%02x:%02x:%02x:%02x, asking DHCP for an "
	       "address\n",
	       mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	if (dhcp_start(&nif) != ERR_OK) {
		*why = "DHCP did not start (lwIP out of memory)";
		return -1;
	}
	u32 start = sys_now();
	while (!dhcp_supplied_address(&nif)) {
		if (sys_now() - start > DHCP_WAIT_MS) {
			*why = "DHCP: no address offered in 30 s";
			return -1;
		}
		poll();
	}
	const struct dhcp *d = netif_dhcp_data(&nif);
	const char *note;
	memcpy(ack.siaddr, &d->offered_si_addr, 4);
	memcpy(ack.server_id, ip_2_ip4(&d->server_ip_addr), 4);
	enum boot_server_from from = boot_server_choose(&ack, (u8 *)&server, &note);
	char addr[16], mask[16], gw[16], dhcp[16], boot[16];
	printk("hv: network: address %s netmask %s gateway %s (DHCP server %s); boot server %s "
	       "(TFTP, from %s)\n",
	       ip4addr_ntoa_r(netif_ip4_addr(&nif), addr, sizeof addr),
	       ip4addr_ntoa_r(netif_ip4_netmask(&nif), mask, sizeof mask),
	       ip4addr_ntoa_r(netif_ip4_gw(&nif), gw, sizeof gw),
	       ip4addr_ntoa_r(ip_2_ip4(&d->server_ip_addr), dhcp, sizeof dhcp),
	       ip4addr_ntoa_r(&server, boot, sizeof boot), boot_server_from_name(from));
	if (note)
		printk("hv: network: %s\n", note);
	if (from == BOOT_SERVER_NONE) {
		*why = "DHCP named no boot server (no siaddr, option 150, 66 or 54)";
		return -1;
	}
	return 0;
}

int netboot_up(EFI_HANDLE nic, const char **why)
{
	EFI_TPL tpl = hold_nic();
	int r = up(nic, why);
	release_nic(tpl);
	if (r)
		netboot_release();
	return r;
}

/* An http:// path: from that server, over HTTP. */
static void *http_read(const char *url, u64 *len, const char **why)
{
	static char msg[300];
	static struct http_url u;
	if (http_url_parse(url, &u, why))
		return NULL;
	EFI_TPL tpl = hold_nic();
	void *file = http_get(&u, url, len, poll, why);
	release_nic(tpl);
	if (!file) {
		snprintf(msg, sizeof msg, "HTTP server %s: %s", u.host, *why);
		*why = msg;
	}
	return file;
}

void *netboot_read(const char *path, u64 *len, const char **why)
{
	static char msg[200];
	char addr[16];
	if (http_is_url(path))
		return http_read(path, len, why);
	EFI_TPL tpl = hold_nic();
	void *file = tftp_get(&server, path, len, poll, why);
	release_nic(tpl);
	if (!file) {
		snprintf(msg, sizeof msg, "TFTP server %s: %s",
			 ip4addr_ntoa_r(&server, addr, sizeof addr), *why);
		*why = msg;
	}
	return file;
}

void netboot_down(void)
{
	if (!nic_up)
		return;
	nic_up = false;
	dhcp_stop(&nif);
	snp_netif_close(&nif);
}

void netboot_release(void)
{
	if (!nic_up)
		return;
	nic_up = false;
	EFI_TPL tpl = hold_nic();
	dhcp_stop(&nif); /* a DHCPRELEASE if it had an address (RFC 2131 4.4.6) */
	release_nic(tpl);
	snp_netif_release(&nif);
}
