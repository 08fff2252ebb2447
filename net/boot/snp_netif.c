/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP netif over the UEFI Simple Network Protocol (snp_netif.h). Frames go whole
 * (Ethernet header included: Transmit with HeaderSize 0, UEFI 2.10 24.1.12; Receive,
 * 24.1.13) through one bounce buffer each way; a sent buffer is the driver's until
 * GetStatus hands it back (24.1.11), so a transmit first waits for the last one to come
 * back (a slow driver, or an emulator's busy host, can take longer than one frame's
 * time) and drops its frame, as a lost one, if it does not.
 * How the NIC was found (its SNP state, receive filters, whether its drivers were
 * stopped) is kept, so that a boot that fails gives it back as it was and the firmware's
 * next boot option can still use it. */
#include "net/boot/snp_netif.h"
#include "boot/efi.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "lwip/etharp.h"
#include "lwip/sys.h"
#include "netif/ethernet.h"

#define FRAME_MAX 1536 /* an Ethernet frame of a 1500-byte MTU, and room */
#define TX_WAIT_MS 500 /* how long a transmit waits for the last frame to come back */
#define RX_PER_POLL 32 /* frames handed to lwIP per poll, at most */

static u8 tx_buf[FRAME_MAX] __attribute__((aligned(64)));
static u8 rx_buf[FRAME_MAX] __attribute__((aligned(64)));
static bool tx_busy; /* tx_buf is with the driver */

/* The NIC as it was found. */
static struct {
	EFI_HANDLE handle;
	EFI_SIMPLE_NETWORK_PROTOCOL *snp; /* NULL: not opened */
	bool added;			  /* to lwIP */
	bool exclusive;			  /* opened EXCLUSIVE: the drivers on it were stopped */
	UINT32 state;			  /* its SNP Mode->State */
	UINT32 filters;			  /* its receive filters */
	bool filters_changed;		  /* they were set */
} found;

static EFI_SIMPLE_NETWORK_PROTOCOL *snp_of(struct netif *nif) { return nif->state; }

/* Waits until the driver gives tx_buf back; false after TX_WAIT_MS. */
static bool tx_reclaim(EFI_SIMPLE_NETWORK_PROTOCOL *snp)
{
	u32 start = sys_now();
	while (tx_busy) {
		void *done = NULL;
		if (EFI_ERROR(snp->GetStatus(snp, NULL, &done)) || sys_now() - start > TX_WAIT_MS)
			return false;
		tx_busy = done != tx_buf;
	}
	return true;
}

static err_t linkoutput(struct netif *nif, struct pbuf *p)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = snp_of(nif);
	if (p->tot_len > sizeof tx_buf || !tx_reclaim(snp))
		return ERR_IF;
	u16 n = pbuf_copy_partial(p, tx_buf, p->tot_len, 0);
	EFI_STATUS s = snp->Transmit(snp, 0, n, tx_buf, NULL, NULL, NULL);
	if (s == EFI_NOT_READY) { /* its queue is full (of the firmware's frames): empty it */
		void *done = tx_buf;
		while (done && !EFI_ERROR(snp->GetStatus(snp, NULL, &done)))
			;
		s = snp->Transmit(snp, 0, n, tx_buf, NULL, NULL, NULL);
	}
	if (EFI_ERROR(s))
		return ERR_IF;
	tx_busy = true;
	return ERR_OK;
}

void snp_netif_poll(struct netif *nif)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = snp_of(nif);
	for (int i = 0; i < RX_PER_POLL; i++) {
		UINTN len = sizeof rx_buf;
		EFI_STATUS s = snp->Receive(snp, NULL, &len, rx_buf, NULL, NULL, NULL);
		if (s == EFI_NOT_READY)
			return;
		if (EFI_ERROR(s) || len > sizeof rx_buf) /* EFI_BUFFER_TOO_SMALL: dropped */
			continue;
		struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16)len, PBUF_POOL);
		if (!p)
			return; /* lwIP is out of buffers: the frames wait in the NIC */
		pbuf_take(p, rx_buf, (u16)len);
		if (nif->input(p, nif) != ERR_OK)
			pbuf_free(p);
	}
}

static err_t netif_setup(struct netif *nif)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = snp_of(nif);
	nif->name[0] = 'e';
	nif->name[1] = 'n';
	nif->output = etharp_output;
	nif->linkoutput = linkoutput;
	nif->mtu = (u16)MIN(snp->Mode->MaxPacketSize, 1500u);
	nif->hwaddr_len = ETH_HWADDR_LEN;
	memcpy(nif->hwaddr, &snp->Mode->CurrentAddress, ETH_HWADDR_LEN);
	nif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
	return ERR_OK;
}

static const char *state_name(UINT32 state)
{
	return state == EfiSimpleNetworkStopped	  ? "stopped"
	       : state == EfiSimpleNetworkStarted ? "started"
						  : "initialized";
}

/* Gives the NIC back as it was found (UEFI 2.10 section 24.1: Shutdown undoes
 * Initialize, Stop undoes Start), after the driver returned the last frame sent: hv.efi's
 * memory, tx_buf with it, goes back to the firmware. The EXCLUSIVE open is closed, and
 * the drivers it stopped are connected again (7.3: they do not come back by themselves),
 * so that the firmware's network stack, and its next boot option, have the NIC again.
 * Called at the caller's TPL (TPL_APPLICATION), where drivers may be started. */
static void give_back(EFI_SIMPLE_NETWORK_PROTOCOL *snp)
{
	EFI_GUID guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	EFI_BOOT_SERVICES *bs = efi_st->BootServices;
	tx_reclaim(snp);
	if (found.state == EfiSimpleNetworkInitialized && found.filters_changed)
		snp->ReceiveFilters(snp, found.filters,
				    snp->Mode->ReceiveFilterSetting & ~found.filters &
					    snp->Mode->ReceiveFilterMask,
				    FALSE, 0, NULL);
	if (found.state != EfiSimpleNetworkInitialized &&
	    snp->Mode->State == EfiSimpleNetworkInitialized)
		snp->Shutdown(snp);
	if (found.state == EfiSimpleNetworkStopped && snp->Mode->State == EfiSimpleNetworkStarted)
		snp->Stop(snp);
	if (found.exclusive) {
		bs->CloseProtocol(found.handle, &guid, efi_image, NULL);
		bs->ConnectController(found.handle, NULL, NULL, TRUE);
	}
	printk("hv: network: NIC given back to the firmware %s, as found\n",
	       state_name(snp->Mode->State));
}

static int bring_up(EFI_SIMPLE_NETWORK_PROTOCOL *snp, const char **why)
{
	if (snp->Mode->State == EfiSimpleNetworkStopped && EFI_ERROR(snp->Start(snp))) {
		*why = "the NIC did not start (SNP Start)";
		return -1;
	}
	if (snp->Mode->State == EfiSimpleNetworkStarted && EFI_ERROR(snp->Initialize(snp, 0, 0))) {
		*why = "the NIC did not initialize (SNP Initialize)";
		return -1;
	}
	if (snp->Mode->HwAddressSize != ETH_HWADDR_LEN || snp->Mode->MediaHeaderSize != 14) {
		*why = "the NIC is not Ethernet";
		return -1;
	}
	u32 want = EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST;
	found.filters_changed = true;
	if (EFI_ERROR(snp->ReceiveFilters(snp, want & snp->Mode->ReceiveFilterMask, 0, FALSE, 0,
					  NULL))) {
		*why = "the NIC refused its receive filters";
		return -1;
	}
	return 0;
}

int snp_netif_open(EFI_HANDLE handle, struct netif *nif, const char **why)
{
	EFI_GUID guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	EFI_BOOT_SERVICES *bs = efi_st->BootServices;
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;
	memset(&found, 0, sizeof found);
	found.handle = handle;
	/* EXCLUSIVE (UEFI 2.10, 7.3 OpenProtocol) stops the drivers that use the SNP, the
	 * firmware's MNP (and the PXE stack above it), which would take our frames. EDK2's
	 * PXE stack that loaded hv.efi refuses (AAVMF: EFI_ACCESS_DENIED): then the SNP is
	 * shared, and net/boot/netboot.c keeps MNP's polls away while it waits for frames. */
	found.exclusive = !EFI_ERROR(bs->OpenProtocol(handle, &guid, (void **)&snp, efi_image, NULL,
						      EFI_OPEN_PROTOCOL_EXCLUSIVE));
	if (!found.exclusive && EFI_ERROR(bs->HandleProtocol(handle, &guid, (void **)&snp))) {
		*why = "the NIC has no Simple Network Protocol";
		return -1;
	}
	found.snp = snp;
	found.state = snp->Mode->State;
	found.filters = snp->Mode->ReceiveFilterSetting;
	tx_busy = false;
	if (bring_up(snp, why))
		return -1;
	if (!netif_add(nif, IP4_ADDR_ANY4, IP4_ADDR_ANY4, IP4_ADDR_ANY4, snp, netif_setup,
		       ethernet_input)) {
		*why = "lwIP refused the interface";
		return -1;
	}
	found.added = true;
	netif_set_default(nif);
	netif_set_up(nif);
	netif_set_link_up(nif);
	return 0;
}

/* Removes nif from lwIP; returns the SNP still to be ended, or NULL. */
static EFI_SIMPLE_NETWORK_PROTOCOL *detach(struct netif *nif)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = found.snp;
	if (found.added)
		netif_remove(nif);
	found.added = false;
	found.snp = NULL;
	return snp;
}

void snp_netif_close(struct netif *nif)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = detach(nif);
	if (!snp)
		return;
	tx_reclaim(snp);
	snp->Shutdown(snp);
	snp->Stop(snp);
}

void snp_netif_release(struct netif *nif)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = detach(nif);
	if (snp)
		give_back(snp);
}
