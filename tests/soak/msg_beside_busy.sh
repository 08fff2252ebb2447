# SPDX-License-Identifier: GPL-2.0-only
# Soak (scripts/flake.sh, not make test): a VM of 4 vCPUs runs msgbench (make bench's
# messaging benchmark, hackbench-like) beside a VM whose 2 vCPUs spin in user space, on 2
# pCPUs, sched = aware: wakeups, IPIs and world switches at the highest rate the project
# knows (the configuration of the "state saved at #VMEXIT is the host's" reports).
. "$(dirname "$0")/../emu/lib.sh"
boot "[hv]
sched = aware
$(linux_vm bench 4 256M "hv.mode=test hv.tools=msgbench hv.msgbench=groups=2:fds=5:loops=100:runs=5")
$(linux_vm spin 2 192M "hv.mode=spin hv.spin=40")" 600
expect_guest_ok bench 4
expect_vm bench "msgbench ran to its end" "GUEST-msgbench msgbench: "
expect "spin: powered off and reported" "hv: VM 'spin' powered off;"
finish
