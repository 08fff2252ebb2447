# SPDX-License-Identifier: GPL-2.0-only
# x86, sched = aware: a vCPU inside a guest critical section is not preempted at the end
# of its turn (boost), and the guest's published preempt count (pv preempt, guest module
# hvpreempt) is what shows a spinlock held with interrupts on: see boost in lib.sh.
. "$(dirname "$0")/lib.sh"
boost
finish
