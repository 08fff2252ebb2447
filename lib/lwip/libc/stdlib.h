/* SPDX-License-Identifier: GPL-2.0-only */
/* The <stdlib.h> that lwIP's sources include (see string.h here): only atoi, which
 * netif_find calls; lib/lwip/lwip_port.c defines it. */
#ifndef LWIP_LIBC_STDLIB_H
#define LWIP_LIBC_STDLIB_H

int atoi(const char *s);

#endif
