# SPDX-License-Identifier: GPL-2.0-only
# One guest with 4 vCPUs time-sharing 2 pCPUs.
. "$(dirname "$0")/lib.sh"
boot "[vm big]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 4
memory = 256M" 500
expect_guest_ok big 4
finish
