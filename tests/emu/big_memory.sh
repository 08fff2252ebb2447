# SPDX-License-Identifier: GPL-2.0-only
# x86: a VM of more than 4 GiB. Its RAM below 3 GiB stays there; the rest lies from 4 GiB up,
# past the 32-bit MMIO hole (the IOAPIC and local APIC), in the e820 map and the nested page
# table; Linux uses all of it (its memory map, allocated top down, lands above 4 GiB).
. "$(dirname "$0")/lib.sh"
export MEM=8192 # QEMU's RAM: q35 puts 2 GiB below 4 GiB, the rest above, where 4.5 GiB fit whole
boot "[vm big]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 hv.mode=test
vcpus = 2
memory = 4608M" 600
expect "the VM was created with 4.5 GiB" "hv: VM 'big': 2 vCPUs, 4608 MiB"
expect "e820: RAM up to 3 GiB" "BIOS-e820: [mem 0x0000000000100000-0x00000000bfffffff] usable"
expect "e820: the rest from 4 GiB" "BIOS-e820: [mem 0x0000000100000000-0x000000015fffffff] usable"
expect_guest_ok big 2
expect_mem_above big 4
finish
