/* SPDX-License-Identifier: GPL-2.0-only */
/* The stolen-time record of Arm PV time (DEN0057A, "Stolen time shared structure"): one
 * 64-byte, 64-byte-aligned, little-endian record per vCPU in guest memory, whose IPA the
 * guest gets from PV_TIME_ST (smccc.h). stolen_time is the time in nanoseconds the vCPU
 * was runnable but not running; the guest reads it at any time with a single 64-bit load
 * (Linux: le64_to_cpu(READ_ONCE(kaddr->stolen_time))), so it must only grow and be
 * written with one single-copy-atomic store. Linux accepts the record only if revision
 * and attributes are 0. */
#ifndef ARCH_ARM64_PVTIME_H
#define ARCH_ARM64_PVTIME_H

#include "hv/types.h"

#define PVTIME_RECORD_SIZE 64

struct pvtime_record {
	u32 revision;	 /* 0 */
	u32 attributes;	 /* 0 */
	u64 stolen_time; /* ns */
	u8 reserved[48]; /* 0 */
};

/* Writes a fresh record (everything 0) at rec, 64-byte aligned. Do this once for a vCPU
 * (at VM start or reset), not on every PV_TIME_ST: Linux calls PV_TIME_ST again when a CPU
 * comes back online and expects stolen_time not to go back. */
void pvtime_init_record(void *rec);

/* Publishes the vCPU's total stolen time. */
void pvtime_publish(void *rec, u64 stolen_ns);

#endif
