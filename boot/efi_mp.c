/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPUs as the firmware's MP Services protocol lists them (UEFI PI spec vol. 2, 13.4):
 * the firmware started and counted them itself, so this works where no ACPI table lists
 * them (OVMF under Bochs, or QEMU with acpi=off, publishes none). gnu-efi does not define
 * the protocol; the two members used are declared here as the spec gives them. */
#include "boot/efi.h"
#include "hv/lib.h"

/* EFI_PROCESSOR_INFORMATION.StatusFlag (13.4.3) */
#define MP_STATUS_BSP BIT(0)
#define MP_STATUS_ENABLED BIT(1)
#define MP_STATUS_HEALTHY BIT(2)

struct mp_processor_info {
	UINT64 processor_id; /* x86: the local APIC ID; arm64: MPIDR's affinity fields */
	UINT32 status;	     /* MP_STATUS_* */
	UINT32 package, core, thread;
	/* PI 1.7's extended topology, written only when asked for with bit 24 of the
	 * processor number; room for it all the same. */
	UINT32 extended[6];
};

struct mp_services;
typedef EFI_STATUS(EFIAPI *mp_count_fn)(struct mp_services *self, UINTN *all, UINTN *enabled);
typedef EFI_STATUS(EFIAPI *mp_info_fn)(struct mp_services *self, UINTN number,
				       struct mp_processor_info *info);

struct mp_services {
	mp_count_fn get_number_of_processors;
	mp_info_fn get_processor_info;
	/* StartupAllAPs, StartupThisAP, SwitchBSP, EnableDisableAP, WhoAmI: unused */
};

/* Whether the firmware's CPU number i is enabled and passed its self-test; its id, and
 * whether it is the boot CPU. */
static bool usable_cpu(struct mp_services *mp, UINTN i, u64 *id, bool *boot_cpu)
{
	struct mp_processor_info info;
	memset(&info, 0, sizeof info);
	if (EFI_ERROR(mp->get_processor_info(mp, i, &info)))
		return false;
	*id = info.processor_id;
	*boot_cpu = info.status & MP_STATUS_BSP;
	return (info.status & (MP_STATUS_ENABLED | MP_STATUS_HEALTHY)) ==
	       (MP_STATUS_ENABLED | MP_STATUS_HEALTHY);
}

int efi_mp_cpus(u64 *ids, u32 max, const char **why)
{
	EFI_GUID guid = {
		0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 }
	};
	struct mp_services *mp = NULL;
	UINTN all = 0, enabled = 0;
	if (EFI_ERROR(efi_st->BootServices->LocateProtocol(&guid, NULL, (void **)&mp)) || !mp) {
		*why = "the firmware offers no MP services protocol";
		return -1;
	}
	if (EFI_ERROR(mp->get_number_of_processors(mp, &all, &enabled))) {
		*why = "the MP services protocol cannot count the CPUs";
		return -1;
	}
	/* The boot CPU first, wherever the firmware numbers it, then the others. */
	u32 n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (UINTN i = 0; i < all && n < max; i++) {
			u64 id;
			bool boot_cpu;
			if (usable_cpu(mp, i, &id, &boot_cpu) && boot_cpu == (pass == 0))
				ids[n++] = id;
		}
	if (!n)
		*why = "the MP services protocol lists no usable CPU";
	return n ? (int)n : -1;
}
