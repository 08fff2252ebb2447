/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for boot/efi_mp.c, the CPUs from UEFI's MP services protocol, against a
 * made-up protocol: the boot CPU first wherever the firmware numbers it, disabled and
 * unhealthy CPUs left out, the limit kept, and each failure said. */
#include "../../../boot/efi_mp.c"
#include "../test.h"

EFI_SYSTEM_TABLE *efi_st;

struct cpu {
	u64 id;
	u32 status;
};
static struct cpu cpus[8];
static UINTN ncpus;
static bool no_protocol, count_fails;

static EFI_STATUS EFIAPI fake_count(struct mp_services *self, UINTN *all, UINTN *enabled)
{
	(void)self;
	*all = *enabled = ncpus;
	return count_fails ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_info(struct mp_services *self, UINTN i,
				   struct mp_processor_info *info)
{
	(void)self;
	if (i >= ncpus)
		return EFI_NOT_FOUND;
	info->processor_id = cpus[i].id;
	info->status = cpus[i].status;
	return EFI_SUCCESS;
}

static struct mp_services fake_mp = { fake_count, fake_info };

static EFI_STATUS EFIAPI fake_locate(EFI_GUID *guid, VOID *registration, VOID **iface)
{
	(void)registration;
	static const u8 want[16] = { 0x05, 0xa6, 0xdd, 0x3f, 0x6e, 0xa7, 0x46, 0x4f,
				     0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 };
	CHECK(!memcmp(guid, want, sizeof want)); /* the PI spec's GUID, as laid out in memory */
	if (no_protocol)
		return EFI_NOT_FOUND;
	*iface = &fake_mp;
	return EFI_SUCCESS;
}

#define OK (MP_STATUS_ENABLED | MP_STATUS_HEALTHY)

int main(void)
{
	static EFI_BOOT_SERVICES bs;
	static EFI_SYSTEM_TABLE st;
	bs.LocateProtocol = fake_locate;
	st.BootServices = &bs;
	efi_st = &st;
	u64 ids[8];
	const char *why = "";

	/* The boot CPU (APIC ID 4) third, a disabled CPU and one that failed its self-test. */
	cpus[0] = (struct cpu){ 0, OK };
	cpus[1] = (struct cpu){ 2, MP_STATUS_HEALTHY };
	cpus[2] = (struct cpu){ 4, OK | MP_STATUS_BSP };
	cpus[3] = (struct cpu){ 6, MP_STATUS_ENABLED };
	cpus[4] = (struct cpu){ 256, OK };
	ncpus = 5;
	CHECK_EQ(efi_mp_cpus(ids, 8, &why), 3);
	CHECK_EQ(ids[0], 4);
	CHECK_EQ(ids[1], 0);
	CHECK_EQ(ids[2], 256);
	/* A limit below the count keeps the boot CPU. */
	CHECK_EQ(efi_mp_cpus(ids, 1, &why), 1);
	CHECK_EQ(ids[0], 4);
	CHECK_EQ(efi_mp_cpus(ids, 2, &why), 2);
	CHECK_EQ(ids[1], 0);

	/* Nothing usable, a failing count, no protocol: -1 and the reason. */
	cpus[0].status = MP_STATUS_HEALTHY;
	cpus[2].status = MP_STATUS_BSP;
	ncpus = 4;
	CHECK_EQ(efi_mp_cpus(ids, 8, &why), -1);
	CHECK_STR(why, "the MP services protocol lists no usable CPU");
	count_fails = true;
	CHECK_EQ(efi_mp_cpus(ids, 8, &why), -1);
	CHECK_STR(why, "the MP services protocol cannot count the CPUs");
	no_protocol = true;
	CHECK_EQ(efi_mp_cpus(ids, 8, &why), -1);
	CHECK_STR(why, "the firmware offers no MP services protocol");
	return test_summary();
}
