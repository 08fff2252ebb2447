# SPDX-License-Identifier: GPL-2.0-only
# A kernel file that is not a Linux kernel, and a missing initrd: each is reported with
# the file and the reason, and the firmware gets the machine back.
. "$(dirname "$0")/lib.sh"
STOP_AT="Shell>" boot "[vm notlinux]
kernel = /guests/initrd.gz" 60 1
expect "image error names the file and the reason" "hv: /guests/initrd.gz: not an ELF file"
expect "image error names the VM's config line" "hv: hv.cfg:1: VM 'notlinux' cannot be created"
expect "the firmware took over again (its shell)" "Shell>"
expect_not "machine not taken over" "taking over the machine"
STOP_AT="Shell>" boot "[vm noinitrd]
kernel = /guests/vmlinux
initrd = /guests/missing.gz" 60 1
expect "missing file is named" "hv: /guests/missing.gz: file not found"
expect "the firmware took over again (its shell)" "Shell>"
finish
