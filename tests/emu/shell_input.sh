# SPDX-License-Identifier: GPL-2.0-only
# The guest's shell on the serial console answers typed commands (interrupt-driven UART
# receive through the virtual IOAPIC), and poweroff typed there ends the VM.
. "$(dirname "$0")/lib.sh"
TYPE_AFTER="Type commands" TYPE_LINES='echo typed-$((6*7))
echo cpus-$(grep -c ^processor /proc/cpuinfo)
poweroff -f' boot "[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=shell
vcpus = 2
memory = 256M" 400
expect "shell ran a typed command" "[linux0] typed-42"
expect "typed commands see both CPUs" "[linux0] cpus-2"
expect "typed poweroff ends the VM" "hv: VM 'linux0' powered off;"
finish
