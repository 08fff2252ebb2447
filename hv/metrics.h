/* SPDX-License-Identifier: GPL-2.0-only */
/* The counters of every VM and vCPU as text for a scraper: the Prometheus text exposition
 * format, version 0.0.4 (what users' monitoring already reads; issue 10's /metrics). */
#ifndef HV_METRICS_H
#define HV_METRICS_H

#include "hv/vm.h"

/* Writes the metrics of the nvms VMs into buf (size bytes, NUL-terminated). Returns the
 * length written, or -1 when buf was too small (buf then holds whole lines only). */
int metrics_prometheus(char *buf, size_t size, struct vm *const *vms, u32 nvms);

#endif
