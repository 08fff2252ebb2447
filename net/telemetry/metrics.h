/* SPDX-License-Identifier: GPL-2.0-only */
/* The counters of every VM and vCPU as text for a scraper: the Prometheus text exposition
 * format, version 0.0.4 (what users' monitoring already reads; issue 10's /metrics), and
 * JSON (issue 10's /stats). */
#ifndef NET_METRICS_H
#define NET_METRICS_H

#include "hv/vm.h"

/* Writes the metrics of the nvms VMs into buf (size bytes, NUL-terminated). Returns the
 * length written, or -1 when buf was too small (buf then holds whole lines only). */
int metrics_prometheus(char *buf, size_t size, struct vm *const *vms, u32 nvms);
/* The same counters as one JSON document (RFC 8259, ASCII, ending with a newline):
 *   {"vms":[{"name":"linux0","counters":{...},"vcpus":[{"id":0,"counters":{...}},...]},...]}
 * counters: each family by its Prometheus name, its value a number (seconds with nine
 * decimals) or, for a family with a label, an object of the numbers by label value
 * ("hv_vcpu_exits_total":{"host-irq":3523,"io":70111,...}); a VM's counters are its
 * vCPUs' summed (a gauge: the largest). Returns the length written, or -1 when buf was too
 * small (buf then holds "" when size > 0). */
int metrics_json(char *buf, size_t size, struct vm *const *vms, u32 nvms);

#endif
