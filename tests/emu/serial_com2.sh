# SPDX-License-Identifier: GPL-2.0-only
# The console on COM2, where servers' serial-over-LAN usually is: serial = com2 under [hv].
# QEMU's COM1 goes nowhere here and COM2 is the test's console (OVMF writes to both): what
# the hypervisor prints after the takeover, through its own driver, arrives only if that
# driver writes to COM2 (at 115200 baud, which it programs itself).
export SERIAL=com2
. "$(dirname "$0")/lib.sh"
boot "[hv]
serial = com2
$(linux_vm a 1 128M hv.mode=test)" 300
expect "the console is COM2" "hv: console: 16550 at io 0x2f8, 115200 baud (hv.cfg serial)"
expect_guest_ok a 1
expect "the end reported on COM2" "hv: powering off (ACPI S5)"
finish
