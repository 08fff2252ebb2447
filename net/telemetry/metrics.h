/* SPDX-License-Identifier: GPL-2.0-only */
/* The counters of every VM and vCPU as text for a scraper: the Prometheus text exposition
 * format, version 0.0.4 (what users' monitoring already reads; issue 10's /metrics), and
 * JSON (issue 10's /stats). */
#ifndef NET_METRICS_H
#define NET_METRICS_H

#include "hv/vm.h"

/* One of the machine's own counters (not a VM's), after the VMs' in both formats: a
 * family's samples follow each other, a label value each or none. */
struct metric_sample {
	const char *family, *help, *label, *value; /* label NULL: a family of one sample */
	u64 n; /* in a _seconds_total family: nanoseconds, written as seconds */
};

/* Writes the metrics of the nvms VMs, then the ns machine samples, into buf (size bytes,
 * NUL-terminated). Returns the length written, or -1 when buf was too small (buf then
 * holds whole lines only). */
int metrics_prometheus(char *buf, size_t size, struct vm *const *vms, u32 nvms,
		       const struct metric_sample *s, u32 ns);
/* The same counters as one JSON document (RFC 8259, ASCII, ending with a newline):
 *   {"vms":[{"name":"linux0","counters":{...},"vcpus":[{"id":0,"counters":{...}},...]},...]}
 * counters: each family by its Prometheus name, its value a number (seconds with nine
 * decimals) or, for a family with a label, an object of the numbers by label value
 * ("hv_vcpu_exits_total":{"host-irq":3523,"io":70111,...}); a VM's counters are its
 * vCPUs' summed (a gauge: the largest). Returns the length written, or -1 when buf was too
 * small (buf then holds "" when size > 0). With machine samples (ns > 0) the document has a
 * "machine" member after "vms", in the same shape: {"hv_pcpu_switches_total":{"0":12,...},
 * "hv_net_rx_dropped_total":0,...}. */
int metrics_json(char *buf, size_t size, struct vm *const *vms, u32 nvms,
		 const struct metric_sample *s, u32 ns);

/* The size of buffer (NUL included) that the writers above never outgrow with these VMs
 * (their names as they are) and samples (labels as they are), whatever the counters'
 * values: the length of the output with every value at its widest. */
size_t metrics_prometheus_max(struct vm *const *vms, u32 nvms, const struct metric_sample *s,
			      u32 ns);
size_t metrics_json_max(struct vm *const *vms, u32 nvms, const struct metric_sample *s, u32 ns);

#endif
