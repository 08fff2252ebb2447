# SPDX-License-Identifier: GPL-2.0-only
# One Linux guest with 2 vCPUs on 2 pCPUs; then the machine powers off the way QEMU's
# ACPI tables say (q35: S5 through PM1a_CNT at 0x604), and with on_exit = halt stays on.
. "$(dirname "$0")/lib.sh"
boot "[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 hv.mode=test
vcpus = 2
memory = 256M" 400
expect "banner" "(x86_64, AMD SVM backend)"
expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
if [ "${QEMU:-7}" = 10 ]; then
	expect "QEMU 10 has x2APIC: the host APIC in x2APIC mode" ", x2APIC (switched on"
else
	expect "QEMU 7.2 has no x2APIC: the host APIC in xAPIC mode" ", xAPIC (MMIO)"
fi
expect "the TSC measured against the ACPI PM timer" "MHz (ACPI PM timer), "
expect_guest_ok linux0 2
expect "kvmclock found" "kvm-clock: Using msrs 4b564d01 and 4b564d00"
expect "power-off and reboot as the FADT and DSDT say" "hv: power-off: ACPI S5 (PM1a_CNT io 0x604, SLP_TYP 0); reboot: FADT reset register (io 0xcf9 = 0x0f)"
expect "machine powered off when the last VM stopped" "hv: powering off (ACPI S5)"
expect_not "QEMU saw no reset" "qemu: the machine reset itself"
STOP_AT="hv: halted" boot "[hv]
on_exit = halt
[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
memory = 128M" 300
expect "on_exit = halt: the machine stays on" "hv: halted (on_exit = halt)"
expect_not "on_exit = halt: no power-off" "hv: powering off"
finish
