# SPDX-License-Identifier: GPL-2.0-only
# One Linux guest with 2 vCPUs on 2 pCPUs.
. "$(dirname "$0")/lib.sh"
boot "[vm linux0]
kernel = /guests/vmlinux
initrd = /guests/initrd.gz
cmdline = console=ttyS0 hv.mode=test
vcpus = 2
memory = 256M" 400
expect "banner" "(x86_64, AMD SVM backend)"
expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
expect_guest_ok linux0 2
expect "kvmclock found" "kvm-clock: Using msrs 4b564d01 and 4b564d00"
expect "machine powered off when the last VM stopped" "hv: no VM left, powering off"
finish
