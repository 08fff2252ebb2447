# SPDX-License-Identifier: GPL-2.0-only
# arm64: the exceptions a guest can provoke get a machine's answer, handled by the guest
# itself, and the VM runs on (tests/guest/arm64/exceptions.c): an instruction fetch from
# an address with no memory and from a device, a load pair from no device, a plain load,
# cache maintenance on no device and on a device.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64 GIC=3
ESP_FILES="$TOP/build/aarch64/guests-test/exceptions.img=/guests/exceptions.img"
boot "[vm x]
kernel = /guests/exceptions.img
vcpus = 1
memory = 64M" 120 1
for what in fetch ldp ldr mmio-pc dc; do
	expect_vm x "$what: the guest's own handler saw what a machine gives" "EXCEPTIONS $what ok"
done
expect_not "no guest failure" "EXCEPTIONS FAIL"
expect_vm x "finished" "EXCEPTIONS DONE"
expect "the VM powered off by itself" "hv: VM 'x' powered off;"
expect "each bad access counted and reported" "prefetch abort"
finish
