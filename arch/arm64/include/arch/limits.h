/* SPDX-License-Identifier: GPL-2.0-only */
/* How many vCPUs an arm64 VM can have (GICv3; a GICv2 has 8 CPU interfaces). */
#ifndef ARCH_ARM64_LIMITS_H
#define ARCH_ARM64_LIMITS_H

#define ARCH_MAX_VCPUS 64

#endif
