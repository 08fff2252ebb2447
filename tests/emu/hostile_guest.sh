# SPDX-License-Identifier: GPL-2.0-only
# A hostile guest hammers every hypercall and PV MSR with random arguments (kernel module
# tests/guest/modules/hcfuzz.c) while a second VM boots and runs its test steps: the
# hypervisor and the other VM keep running, and the errors are counted.
. "$(dirname "$0")/lib.sh"
boot "[vm fuzz]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=hcfuzz hv.hcfuzz=seconds=10:seed=7
vcpus = 2
memory = 256M

[vm victim]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 2
memory = 256M" 300
expect_vm fuzz "the fuzzer ran to its end" "hcfuzz: done"
expect_guest_ok fuzz 2
expect_guest_ok victim 2
expect "the hypervisor outlived both" "hv: no VM left"
expect_counter "the fuzzer's bad arguments were counted" fuzz bad-accesses 1
grep -F "[fuzz] GUEST-hcfuzz" "$LOG" | sed 's/^/      /'
finish
