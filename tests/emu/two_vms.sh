# SPDX-License-Identifier: GPL-2.0-only
# Two VMs at once, each with 2 vCPUs, isolated from each other; one powers off, the
# other reboots, and each ends only itself.
. "$(dirname "$0")/lib.sh"
boot "[vm alpha]
kernel = /guests/vmlinux
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 2
memory = 256M

[vm beta]
kernel = /guests/vmlinux
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.exit=reboot
vcpus = 2
memory = 256M" 600
expect_guest_ok alpha 2
expect_guest_ok beta 2 reset
expect "machine powered off after both" "hv: no VM left, powering off"
finish
