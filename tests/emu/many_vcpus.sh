# SPDX-License-Identifier: GPL-2.0-only
# A Linux VM of more vCPUs than the old limit of 64 (72, vCPU IDs past 64) on 2 pCPUs,
# under the default policy (aware), brings every vCPU online, runs its test steps and
# powers off (about 65 s with QEMU's TCG single-threaded). x86 allows 255 vCPUs
# (arch/x86/include/arch/limits.h); with multi-threaded TCG, wide VMs met QEMU's nested-SVM
# race more often as the world switches grew (docs/emulator_faults.md): 128 vCPUs passed 5
# boots of 6 under QEMU 7.2 in 70-107 s; 255 were too slow (under rr the test steps came
# after about 200 s; under aware, whose directed yields switch about 14,000 times a second
# per pCPU in the clocksource change's stop_machine, they had not after 480 s) and 3 boots
# of 7 met "the state saved at #VMEXIT is the host's" (7.2 and 10 alike).
. "$(dirname "$0")/lib.sh"
boot "[vm wide]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 72
memory = 1G" 400 2
expect_guest_ok wide 72
finish
