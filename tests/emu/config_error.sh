# SPDX-License-Identifier: GPL-2.0-only
# A misspelt key, a VM's pcpus that names no pCPU of the machine, two initrd files for
# Linux, and an exit port on a device's ports: each error names the file, line and reason, and the firmware gets the
# machine back (no takeover).
. "$(dirname "$0")/lib.sh"
STOP_AT="Shell>" boot "[vm linux0]
kernel = /guests/vmlinuz
vpcus = 2" 120 1
expect "error with file, line and reason" "hv: hv.cfg:3: unknown key 'vpcus' in [vm linux0]"
expect "said it returns to the firmware" "nothing was started; returning to the firmware"
expect "the firmware took over again (its shell)" "Shell>"
expect_not "machine not taken over" "taking over the machine"
STOP_AT="Shell>" boot "[vm pinned]
kernel = /guests/vmlinuz
pcpus = 1" 120 1
expect "pcpus beyond the machine explained" "hv: VM 'pinned': pcpus (line 3) names no pCPU of the 1 that run here (0..0)"
expect "with the VM's config line" "hv: hv.cfg:1: VM 'pinned' cannot be created"
expect_not "machine not taken over" "taking over the machine"
# Two initrd files for a Linux kernel.
STOP_AT="Shell>" boot "[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz, /guests/initrd.gz" 120 1
expect "two initrd files for Linux refused with the line" "hv: VM 'linux0': hv.cfg:3: initrd names 2 files; a Linux kernel takes one (a multiboot kernel takes several, as its modules)"
expect_not "machine not taken over" "taking over the machine"
# An exit port on the VM's COM1 (0x3f8-0x3ff).
STOP_AT="Shell>" boot "[vm linux0]
kernel = /guests/vmlinuz
exit_port = 0x3f6" 120 1
expect "an exit port on a device's ports, with file and line" "hv: VM 'linux0': hv.cfg:3: exit_port 0x3f6: its ports 0x3f6-0x3f9 overlap an emulated device's, 0x3f8-0x3ff"
expect "with the VM's config line" "hv: hv.cfg:1: VM 'linux0' cannot be created"
expect_not "machine not taken over" "taking over the machine"
finish
