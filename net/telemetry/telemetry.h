/* SPDX-License-Identifier: GPL-2.0-only */
/* Telemetry after the takeover (`[net]` in hv.cfg): lwIP on the hypervisor's own NIC
 * (virtio-net; guests never see it), an address by DHCP or static, and an HTTP server:
 * /metrics (Prometheus text), /stats (JSON), /console/NAME (a VM's last console lines)
 * and / (a live page). Polled by pCPU 0 only (lwIP runs NO_SYS, on one CPU). */
#ifndef NET_TELEMETRY_H
#define NET_TELEMETRY_H

#include "boot/config.h"

struct vm;

/* After the takeover, on pCPU 0: finds the NIC from the firmware's tables (rsdp) and
 * starts. A machine without a usable NIC says why on the console and runs without. */
void telemetry_start(const struct net_config *cfg, const void *rsdp, struct vm *const *vms,
		     u32 nvms);
/* Runs the network for a bounded time (at most a poll's worth of frames): pCPU 0's
 * housekeeping (hv/sched.h), registered by telemetry_start once it runs. */
void telemetry_poll(void);

#endif
