# SPDX-License-Identifier: GPL-2.0-only
# x86 on a server CPU model, not only QEMU's `max`: EPYC-Rome (family 17h, Zen 2: other
# Linux code paths, other CPUID leaves and MSRs), a 2-vCPU Linux guest with the PV
# features that brings up both CPUs, runs its test steps and powers off.
. "$(dirname "$0")/lib.sh"
export CPU=EPYC-Rome
boot "[vm rome]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 hv.mode=test
vcpus = 2
memory = 256M" 400
expect "an AMD CPU with SVM" "hv: CPU AuthenticAMD; SVM"
expect_guest_ok rome 2
expect "kvmclock found" "kvm-clock: Using msrs 4b564d01 and 4b564d00"
finish
