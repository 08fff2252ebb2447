/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's random numbers: a secret drawn once at boot, before ExitBootServices,
 * from every source the machine has (the CPU's random instruction, arch_random_u64; the
 * firmware's EFI_RNG_PROTOCOL; the time base), and numbers and keyed hashes made from it
 * with SipHash-2-4 (hv/siphash.h). Users: TCP's initial sequence numbers (RFC 6528), DHCP
 * transaction IDs and ephemeral ports (lib/lwip/lwip_port.c). */
#ifndef HV_RANDOM_H
#define HV_RANDOM_H

#include "types.h"

/* Draws the secret and says on the console where it came from (a warning where neither
 * the CPU nor the firmware gave any: then the numbers can be guessed). firmware fills buf
 * from the firmware's generator and returns true, or returns false; NULL: none. */
void random_init(bool (*firmware)(void *buf, size_t len));
/* The sources random_init found, in words ("RDSEED", "RNDR and the firmware's RNG
 * protocol"), or NULL where it found none. */
const char *random_sources(void);
/* A number nobody can predict without the secret (a counter hashed with it). */
u64 random_u64(void);
/* msg hashed with a second key from the secret: the same message gives the same value
 * within a boot, and a value nobody can predict without the secret. */
u64 random_hash(const void *msg, size_t len);

#endif
