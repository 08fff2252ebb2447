# SPDX-License-Identifier: GPL-2.0-only
# Multiboot kernels and the test exit port: two VMs of the multiboot test kernel
# (tests/guest/x86/mbtest.asm, an ELF32 file as kvm-unit-tests' .flat files are). `mb1`
# gets two modules and finds the magic in EAX, the information's flags, mem_lower and
# mem_upper, the command line (its path first, as QEMU gives it), each module's path,
# length and text, and the memory map; it writes status 0 to its exit port and stops at
# once. `mb2` runs on for half a second after that, then writes status 1: the hypervisor
# reports each status with QEMU's exit code, and powers off once both have stopped.
# About 30 seconds.
. "$(dirname "$0")/lib.sh"
mods=$(mktemp -d /tmp/hv-test-mods.XXXXXX)
printf 'alpha\n' > "$mods/a.txt"
printf 'bravo-module, the second\n' > "$mods/b.txt"
ESP_FILES="$TOP/build/x86_64/guests-test/mbtest.elf=/guests/mbtest.elf $mods/a.txt=/mods/a.txt $mods/b.txt=/mods/b.txt"
boot "[vm mb1]
kernel = /guests/mbtest.elf
initrd = /mods/a.txt, /mods/b.txt
cmdline = status=0 x=1
memory = 16M
exit_port = 0xf4

[vm mb2]
kernel = /guests/mbtest.elf
cmdline = delay=5 status=1
memory = 16M
exit_port = 0xf4" 180 2
rm -rf "$mods"
expect "loaded as a multiboot kernel" "hv: VM 'mb1': /guests/mbtest.elf: multiboot kernel, 1ff000-2030d0, entry 20000c, 2 modules"
expect "both files named as initrd" "initrd /mods/a.txt (0 KiB), /mods/b.txt (0 KiB)"
expect_vm mb1 "EAX held the multiboot magic" "MBTEST magic ok"
expect_vm mb1 "flags MEM, CMDLINE, MODS, MMAP, LOADER_NAME; 636 KiB low, 15 MiB from 1 MiB" "MBTEST flags=0x0000024d mem_lower=0x0000027c mem_upper=0x00003c00"
expect_vm mb1 "the command line, the kernel's path first" "MBTEST cmdline=/guests/mbtest.elf status=0 x=1"
expect_vm mb1 "module 0: path, length, text" "MBTEST mod 0x00000000 /mods/a.txt len=0x00000006: alpha"
expect_vm mb1 "module 1: path, length, text" "MBTEST mod 0x00000001 /mods/b.txt len=0x00000019: bravo-module, the second"
expect_vm mb1 "memory map: conventional RAM up to the EBDA" "MBTEST mmap 0x00000000 0x0009f000 0x00000001"
expect_vm mb1 "memory map: the BIOS area (the ACPI tables in it) reserved" "MBTEST mmap 0x0009f000 0x00061000 0x00000002"
expect_vm mb1 "memory map: RAM from 1 MiB" "MBTEST mmap 0x00100000 0x00f00000 0x00000001"
expect_vm mb2 "mb2: its own command line" "MBTEST cmdline=/guests/mbtest.elf delay=5 status=1"
expect_not "no module in mb2" "[mb2] MBTEST mod"
expect "mb1's status and QEMU's exit code" "hv: VM 'mb1' exit port 0xf4: status 0 (QEMU would exit with 1)"
expect "mb1 reported as stopped by its exit port" "hv: VM 'mb1' stopped by its exit port;"
expect "mb2's bad status and QEMU's exit code" "hv: VM 'mb2' exit port 0xf4: status 1 (QEMU would exit with 3)"
expect "mb2 reported as stopped by its exit port" "hv: VM 'mb2' stopped by its exit port;"
# mb2 ran on after mb1 had stopped.
stop1=$(grep -n "hv: VM 'mb1' exit port" "$LOG" | head -n1 | cut -d: -f1)
done2=$(grep -n "\[mb2\] MBTEST done" "$LOG" | head -n1 | cut -d: -f1)
if [ -n "$stop1" ] && [ -n "$done2" ] && [ "$stop1" -lt "$done2" ]; then
	echo "ok:   mb2 kept running after mb1 stopped (log lines $stop1, $done2)"
else
	echo "FAIL: mb2 kept running after mb1 stopped (log lines ${stop1:-none}, ${done2:-none})"
	failed=1
fi
expect "no VM left: powered off as after a guest power-off" "hv: powering off ("
expect_not "no guest error" "MBTEST FAIL"
finish
