# SPDX-License-Identifier: GPL-2.0-only
# Two VMs at once, each with 2 vCPUs, isolated from each other; one powers off, the
# other reboots, and each ends only itself; then, with on_exit = reboot, the machine resets
# through the FADT's reset register (QEMU's -no-reboot makes that its end). alpha boots the distribution's vmlinuz (a
# bzImage, through the 64-bit boot protocol), beta the vmlinux inside it (PVH entry).
. "$(dirname "$0")/lib.sh"
G=$TOP/build/guests/x86_64
ESP_FILES="$G/vmlinuz=/guests/vmlinuz $G/vmlinux=/guests/vmlinux $G/initrd.gz=/guests/initrd.gz" \
	boot "[hv]
on_exit = reboot

[vm alpha]
kernel = /guests/vmlinuz
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
expect "alpha: its vmlinuz taken as a bzImage" "hv: VM 'alpha': /guests/vmlinuz: bzImage, boot protocol 2."
expect_guest_ok alpha 2
expect_guest_ok beta 2 reset
expect "no VM left after both" "hv: no VM left"
expect "on_exit = reboot: the machine resets through the FADT" "hv: rebooting (FADT reset register)"
expect_not "the reset took effect" "did not reset the machine"
expect_not "QEMU saw no triple fault" "qemu: the machine reset itself"
finish
