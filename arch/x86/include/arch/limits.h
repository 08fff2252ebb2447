/* SPDX-License-Identifier: GPL-2.0-only */
/* How many vCPUs an x86 VM can have: x2APIC IDs 0-254. Without interrupt remapping an
 * IOAPIC or MSI names its destination in 8 bits, 0xFF being the broadcast, so Linux uses
 * no CPU with a higher APIC ID (its x2apic_set_max_apicid(255) in try_to_enable_x2apic);
 * more would need an emulated IOMMU or KVM's extended destination ID. */
#ifndef ARCH_X86_LIMITS_H
#define ARCH_X86_LIMITS_H

#define ARCH_MAX_VCPUS 255

#endif
