# SPDX-License-Identifier: GPL-2.0-only
# x86, sched = aware: a vCPU inside a guest critical section is not preempted at the end
# of its turn (boost), and the guest's published preempt count (pv preempt, guest module
# hvpreempt) is what shows a spinlock held with interrupts on. Three VMs of 2 vCPUs on 2
# pCPUs (a spinner keeps them overcommitted); `pc` and `nopc` run lockbench (plain
# spin_lock held 200 us per round), only `pc` offers and registers the preempt count.
. "$(dirname "$0")/lib.sh"
bench="hv.mode=test hv.modules=hvpreempt,lockbench hv.lockbench=iters=400:hold_us=200:gap_us=100"
boot "[hv]
sched = aware
$(linux_vm pc 2 192M "$bench")
$(linux_vm nopc 2 192M "$bench" 'pv = all,-preempt')
$(linux_vm spin 2 128M 'hv.mode=spin hv.spin=20')" 500
expect_guest_ok pc 2
expect_guest_ok nopc 2
expect_vm pc "pc: hvpreempt registered both CPUs" "hvpreempt: registered the preempt count of 2 CPUs"
expect_vm nopc "nopc: hvpreempt refused (pv lacks preempt)" "hvpreempt: the VM does not offer it"
# The published count showed critical sections only where the VM offers it, and they
# were boosted (lockbench's boosts, per lock round, informational beside nopc's).
expect_counter "pc: the scheduler saw the published preempt count" pc preempt-count-hits 20
expect_counter_zero "nopc: no preempt count without pv preempt" nopc preempt-count-hits
boosts() {
	sed -n "s/^\[$1\] GUEST-lockbench lockbench: .* ops=\([0-9]*\) .* boosts\/op=\([0-9.]*\).*/\1 \2/p" "$LOG" |
		awk '{ printf "%d\n", $1 * $2 + 0.5 }' | head -n1
}
p=$(boosts pc)
n=$(boosts nopc)
if [ -n "$p" ] && [ "$p" -ge 10 ]; then
	echo "ok:   pc: lockbench's vCPUs were boosted (boosts $p; nopc ${n:-missing})"
else
	echo "FAIL: pc: lockbench's vCPUs were boosted ${p:-missing} times (expected at least 10)"; failed=1
fi
finish
