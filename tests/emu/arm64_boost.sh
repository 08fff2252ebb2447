# SPDX-License-Identifier: GPL-2.0-only
# arm64 (GICv3), sched = aware: the boost, and the preempt count that hvpreempt publishes
# through HV_SMCCC_PREEMPT_COUNT (the running task's count, followed at every task
# switch): see boost in lib.sh.
export ARCH=aarch64 GIC=3
. "$(dirname "$0")/lib.sh"
boost
finish
