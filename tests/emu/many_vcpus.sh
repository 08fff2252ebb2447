# SPDX-License-Identifier: GPL-2.0-only
# A Linux VM of 128 vCPUs on 2 pCPUs (the default policy, aware) brings every vCPU online,
# runs its test steps and powers off: 70-107 s under QEMU 7.2 (5 boots of 6; the sixth
# ended in QEMU's triple fault outside guest mode, README "Tests"). x86 allows 255 vCPUs
# (arch/x86/include/arch/limits.h), but under QEMU TCG on 2 pCPUs such a VM is too slow
# for a test: under rr it reached its test steps after about 200 s, under aware it had not
# after 480 s (its clocksource change, a stop_machine of all 255 vCPUs, still running),
# and 3 boots of 7 met QEMU's "state saved at #VMEXIT is the host's" (7.2 and 10 alike:
# its rate grows with the world switches).
. "$(dirname "$0")/lib.sh"
boot "[vm wide]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 128
memory = 1G" 400 2
expect_guest_ok wide 128
finish
