/* SPDX-License-Identifier: GPL-2.0-only */
/* The telemetry's live page (GET /): HTML and JavaScript with no external assets, which
 * reads /stats every second and shows each VM's counters, their rates, and a chart of
 * exits and IPIs per second. */
#ifndef NET_LIVE_PAGE_H
#define NET_LIVE_PAGE_H

#include "hv/types.h"

extern const char live_page[];
extern const size_t live_page_len;

#endif
