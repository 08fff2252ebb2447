/* SPDX-License-Identifier: GPL-2.0-only */
/* Network boot (netboot.h) on lwIP: one interface, polled. */
#include "net/netboot.h"
#include "boot/efi.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/sys.h"
#include "lwip/timeouts.h"
#include "net/snp_netif.h"
#include "net/tftp_client.h"

#define DHCP_WAIT_MS 30000 /* lwIP sends DISCOVER again after 2, 4, 8, 16 s (RFC 2131 4.1) */

static struct netif nif;
static ip4_addr_t server;

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
	lwip_init();
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
	server = d->offered_si_addr;
	if (ip4_addr_isany_val(server))
		server = *ip_2_ip4(&d->server_ip_addr);
	char addr[16], mask[16], gw[16], dhcp[16], boot[16];
	printk("hv: network: address %s netmask %s gateway %s (DHCP server %s); boot server %s "
	       "(TFTP)\n",
	       ip4addr_ntoa_r(netif_ip4_addr(&nif), addr, sizeof addr),
	       ip4addr_ntoa_r(netif_ip4_netmask(&nif), mask, sizeof mask),
	       ip4addr_ntoa_r(netif_ip4_gw(&nif), gw, sizeof gw),
	       ip4addr_ntoa_r(ip_2_ip4(&d->server_ip_addr), dhcp, sizeof dhcp),
	       ip4addr_ntoa_r(&server, boot, sizeof boot));
	return 0;
}

int netboot_up(EFI_HANDLE nic, const char **why)
{
	EFI_TPL tpl = hold_nic();
	int r = up(nic, why);
	release_nic(tpl);
	return r;
}

void *netboot_read(const char *path, u64 *len, const char **why)
{
	static char msg[200];
	char addr[16];
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
	dhcp_stop(&nif);
	snp_netif_close(&nif);
}
