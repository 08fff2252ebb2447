# SPDX-License-Identifier: GPL-2.0-only
# arm64: a kernel file that is not an arm64 Image, more vCPUs than GICv2 can address, a
# console at an I/O port (serial = com2), a test exit port, and two initrd files for Linux:
# each is reported with the file or config line and the reason, and the firmware gets
# the machine back.
export ARCH=aarch64 GIC=2
. "$(dirname "$0")/lib.sh"
STOP_AT="Shell>" boot "[vm notlinux]
kernel = /guests/initrd.gz" 120 1
expect "image error names the file and the reason" "hv: VM 'notlinux': /guests/initrd.gz: an initramfs (a cpio archive) given as the kernel: it belongs in initrd =; an arm64 VM boots an arm64 Image"
expect "image error names the VM's config line" "hv: hv.cfg:1: VM 'notlinux' cannot be created"
expect "the firmware took over again (its shell)" "Shell>"
expect_not "machine not taken over" "taking over the machine"
STOP_AT="Shell>" boot "[vm wide]
kernel = /guests/Image
vcpus = 9" 120 1
expect "GICv2's vCPU limit is explained" "hv: VM 'wide': GICv2 guests have at most 8 vCPUs"
expect "the firmware took over again (its shell)" "Shell>"
STOP_AT="Shell>" boot "[hv]
serial = com2
[vm a]
kernel = /guests/Image" 120 1
expect "an I/O-port console on arm64 is refused with the line" "hv: hv.cfg:2: serial names an I/O port, which arm64 has not: serial = mmio@ADDR names the PL011"
expect "the firmware took over again (its shell)" "Shell>"
STOP_AT="Shell>" boot "[vm a]
kernel = /guests/Image
initrd = /guests/initrd.gz
exit_port = 0xf4" 120 1
expect "an exit port on arm64 is refused with the line" "hv: VM 'a': hv.cfg:4: exit_port: an arm64 VM has no I/O ports"
expect "the firmware took over again (its shell)" "Shell>"
STOP_AT="Shell>" boot "[vm a]
kernel = /guests/Image
initrd = /guests/initrd.gz, /guests/initrd.gz" 120 1
expect "two initrd files for Linux refused with the line" "hv: VM 'a': hv.cfg:3: initrd names 2 files; a Linux kernel takes one (a multiboot kernel takes several, as its modules)"
expect "the firmware took over again (its shell)" "Shell>"
finish
