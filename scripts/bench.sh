#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench, the overcommit table: the IPI microbenchmark (bench/modules/ipibench.c,
# a guest module) and msgbench (tests/guest/linux/msgbench.c: hackbench-like messaging
# over pipes, MSG_ARGS, default groups=2:fds=5:loops=100:runs=7, the median of 7 runs in
# one boot) in the default Linux guest, with 4 vCPUs on 2 pCPUs under each scheduling
# policy (sched = rr, sched = aware) and with 2 on 2 (aware: the no-overcommit check);
# then the 4-vCPU guest beside a VM whose 2 vCPUs spin in user space for SPIN_S seconds
# (default 60; rows "4+2spin"), under each policy. On x86 every setup runs once with the
# PV IPI hypercall and once without it (pv = all,-ipi); ARCH=aarch64 (GIC=3 or 2) runs
# the arm64 guest, pv = all.
# A third table: the spinlock-contention module (bench/modules/lockbench.c, LOCK_ARGS,
# default iters=300:hold_us=50:gap_us=50, on arm64 with bh=1) in the same two overcommit setups under rr,
# aware, and aware with the preempt count published (pv preempt + hvpreempt).
# Prints the tables: configuration x IPI benchmark -> ns/op, exits/op, the mean wake-up
# latency, preemptions by wakeup and migrations per op (from the hypervisor's own
# counters, read by the guest through HV_HC_GET_STATS); configuration -> msgbench time
# and the boot's vCPU switches; configuration -> lockbench ns per lock round, spin exits,
# preemptions inside a critical section and boosts per round.
# A fourth table: the guest's timer wake-up latency (tests/guest/linux/timerlat.c: TIMER_PROCS
# SCHED_FIFO processes, default 2, on a 1 kHz timer for TIMER_S seconds, default 20) in a
# 4-vCPU VM beside the 2 spinning vCPUs, BOOTS boots per policy (default 3), the policies
# interleaved (rr, aware, rr, aware ...): per boot the guest's mean and longest wakeup,
# wakeups over 10 ms, when the longest was due, and the hypervisor's own longest wake-up
# latency of that VM (hv/sched.c: from a kick to the guest entry); then per policy the
# median and the range of the boots' figures. TABLES (default "ipi msg lock timer") picks
# the tables: the ipi and msg tables come from the same boots.
# Exit counts are exact; times under QEMU TCG swing by 30-50% from run to run, so compare
# ratios within one table, on a quiet machine. Every row ends with host-steal%: the share of
# the machine's CPU time that its own hypervisor took away during that boot (/proc/stat's
# steal, when this machine is itself a VM): a row with more than a few percent was slowed
# by the machine's neighbours, not by the scheduler measured.
TOP=$(cd "$(dirname "$0")/.." && pwd)
ITERS=${ITERS:-200}
OUT=$TOP/build/bench
mkdir -p "$OUT"
. "$TOP/tests/emu/lib.sh" "$OUT/boot.log" > /dev/null
SPIN_S=${SPIN_S:-60}
MSG_ARGS=${MSG_ARGS:-groups=2:fds=5:loops=100:runs=7}
# arm64: spin_lock_bh, whose section the preempt count of Debian's arm64 kernel shows
# (built without CONFIG_PREEMPT_COUNT, its spin_lock does not raise the count).
LOCK_DEFAULT=iters=300:hold_us=50:gap_us=50
[ "${ARCH:-x86_64}" != aarch64 ] || LOCK_DEFAULT=$LOCK_DEFAULT:bh=1
LOCK_ARGS=${LOCK_ARGS:-$LOCK_DEFAULT}
IPIBENCH="hv.modules=ipibench hv.ipibench=iters=$ITERS "
if [ "${ARCH:-x86_64}" = aarch64 ]; then
	PVS=all TAG=arm64-v${GIC:-3}-
else
	PVS="all all,-ipi" TAG=""
fi
rows="" msgrows="" lockrows=""
# host_ticks: the host's steal and total CPU ticks so far (/proc/stat user..steal; 0 0
# without it).
host_ticks() {
	awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9 + 0, t; f = 1 } END { if (!f) print 0, 0 }' /proc/stat 2> /dev/null || echo 0 0
}
# host_steal BEFORE: the percentage of the CPU ticks since BEFORE (host_ticks) that were stolen.
host_steal() {
	# shellcheck disable=SC2046,SC2086 # two numbers each, split on purpose
	set -- $1 $(host_ticks)
	awk -v s="$(($3 - $1))" -v t="$(($4 - $2))" 'BEGIN { printf "%.1f", (t > 0 ? 100 * s / t : 0) }'
}
# run VCPUS SCHED PV [spin]: one boot; its rows join the tables.
run() {
	vcpus=$1 sched=$2 pv=$3 label=$1${4:++2spin}
	LOG=$OUT/$TAG"vcpus$label-$sched-$(echo "$pv" | tr -c 'a-z0-9\n' '_').log"
	echo "bench: ${ARCH:-x86_64}, $vcpus vCPUs on 2 pCPUs${4:+ beside 2 spinning}, sched = $sched, pv = $pv ..." >&2
	spinner=""
	[ -z "$4" ] || spinner=$(linux_vm spin 2 192M "hv.mode=spin hv.spin=$SPIN_S")
	t0=$(host_ticks)
	boot "[hv]
sched = $sched
$(linux_vm bench "$vcpus" 256M "hv.mode=test $IPIBENCH""hv.tools=msgbench hv.msgbench=$MSG_ARGS" "pv = $pv")
$spinner" 900
	hs=$(host_steal "$t0")
	grep -q "GUEST-msgbench msgbench: .* ns/msg=" "$LOG" || echo "bench: no result in $LOG" >&2
	if [ -n "$4" ] && grep -n "hv: VM '[a-z]*' powered off" "$LOG" | head -n1 | grep -q "'spin'"; then
		echo "bench: the spinner stopped before the benchmark did: raise SPIN_S ($LOG)" >&2
	fi
	# The boot's vCPU switches on all pCPUs (the power-off report): under TCG each costs
	# the guest its TLB, and msgbench's time beside the spinners follows them.
	switches=$(sed -n 's/^hv: pcpu[0-9]*: switches=\([0-9]*\).*/\1/p' "$LOG" | awk '{ s += $1 } END { print NR ? s : "n/a" }')
	msgrows="$msgrows$(sed -n "s/^\[bench\] GUEST-msgbench msgbench: .* messages=\([0-9]*\) ms=\([0-9.]*\) ns\/msg=\([0-9]*\).*/$label $sched $pv \1 \2 \3 $switches $hs/p" "$LOG")
"
	rows="$rows$(sed -n "s/^\[bench\] GUEST-ipibench ipibench: \([a-z-]*\) ops=\([0-9]*\) ns\/op=\([0-9]*\) exits\/op=\([0-9.n\/a]*\) ipis_pv\/op=\([0-9.n\/a]*\) ipis_icr\/op=\([0-9.n\/a]*\) wake_us=\([0-9.n\/a]*\) wake_preempts\/op=\([0-9.n\/a]*\) migrations\/op=\([0-9.n\/a]*\).*/$label $sched $pv \1 \2 \3 \4 \5 \6 \7 \8 \9 $hs/p" "$LOG")
"
}
TABLES=${TABLES:-ipi msg lock timer}
wants() { case " $TABLES " in *" $1 "*) return 0 ;; esac; return 1; }
if wants ipi || wants msg; then
	for setup in "4 rr" "4 aware" "2 aware"; do
		for pv in $PVS; do
			run "${setup% *}" "${setup#* }" "$pv"
		done
	done
	for sched in rr aware; do
		run 4 "$sched" all spin
	done
fi
# lockrun VCPUS rr|aware|aware+pc [spin]: one boot running lockbench.
lockrun() {
	vcpus=$1 label=$1${3:++2spin}
	case $2 in
	aware+pc) sched=aware pv=all mods=hvpreempt,lockbench ;;
	*) sched=$2 pv=all,-preempt mods=lockbench ;;
	esac
	LOG=$OUT/$TAG"lock-vcpus$label-$2.log"
	echo "bench: lockbench, $vcpus vCPUs on 2 pCPUs${3:+ beside 2 spinning}, $2 ..." >&2
	spinner=""
	[ -z "$3" ] || spinner=$(linux_vm spin 2 192M "hv.mode=spin hv.spin=$SPIN_S")
	t0=$(host_ticks)
	boot "[hv]
sched = $sched
$(linux_vm bench "$vcpus" 256M "hv.mode=test hv.modules=$mods hv.lockbench=$LOCK_ARGS" "pv = $pv")
$spinner" 900
	hs=$(host_steal "$t0")
	grep -q "GUEST-lockbench lockbench: .* ns/op=" "$LOG" || echo "bench: no result in $LOG" >&2
	lockrows="$lockrows$(sed -n "s/^\[bench\] GUEST-lockbench lockbench: .* ops=\([0-9]*\) ns\/op=\([0-9]*\) exits\/op=\([0-9.n\/a]*\) spin_exits\/op=\([0-9.n\/a]*\) yields\/op=\([0-9.n\/a]*\) critical_preemptions\/op=\([0-9.n\/a]*\) boosts\/op=\([0-9.n\/a]*\).*/$label $2 \1 \2 \3 \4 \5 \6 \7 $hs/p" "$LOG")
"
}
if wants lock; then
	for spin in "" spin; do
		for policy in rr aware aware+pc; do
			lockrun 4 "$policy" $spin
		done
	done
fi
# timerrun BOOT rr|aware: one boot running timerlat beside the spinners; its row joins
# the timer table: policy, boot, the guest's mean (of its processes' means) and longest
# wakeup in us, wakeups over 10 ms, when the longest was due (ms into the measurement),
# the hypervisor's longest wake-up latency of the VM in us, host steal.
TIMER_S=${TIMER_S:-20}
TIMER_PROCS=${TIMER_PROCS:-2}
timerrows=""
timerrun() {
	LOG=$OUT/$TAG"timer-$2-$1.log"
	echo "bench: timerlat, 4 vCPUs on 2 pCPUs beside 2 spinning, $2, boot $1 ..." >&2
	t0=$(host_ticks)
	boot "[hv]
sched = $2
$(linux_vm bench 4 256M "hv.mode=test hv.tools=timerlat hv.timerlat=seconds=$TIMER_S:procs=$TIMER_PROCS" "pv = all")
$(linux_vm spin 2 192M "hv.mode=spin hv.spin=$((SPIN_S > TIMER_S + 60 ? SPIN_S : TIMER_S + 60))")" 900
	hs=$(host_steal "$t0")
	grep -q "GUEST-timerlat timerlat: done procs=$TIMER_PROCS" "$LOG" || echo "bench: no result in $LOG" >&2
	hvmax=$(sed -n "s/^hv: VM 'bench' scheduling .* wake-latency max=\([0-9]*\)us.*/\1/p" "$LOG" | head -n1)
	timerrows="$timerrows$(tr -d '\r' < "$LOG" | sed -n 's/^\[bench\] GUEST-timerlat timerlat: proc=[0-9]* n=[0-9]* mean_us=\([0-9]*\) max_us=\([0-9]*\) max_at_ms=\([0-9]*\) over1ms=[0-9]* over10ms=\([0-9]*\)$/\1 \2 \3 \4/p' |
		awk -v p="$2" -v b="$1" -v h="${hvmax:-n/a}" -v s="$hs" '{ m += $1; n++; if ($2 > x) { x = $2; at = $3 } o += $4 }
			END { if (n) printf "%s %s %d %d %d %d %s %s\n", p, b, m / n, x, o, at, h, s }')
"
}
if wants timer; then
	for b in $(seq "${BOOTS:-3}"); do
		for sched in rr aware; do
			timerrun "$b" "$sched"
		done
	done
fi
# exits/op: every exit of every vCPU (senders and receivers); pv-targets/op: IPI targets
# reached through the hypercall (one exit per call); icr-writes/op: IPIs sent by ICR
# writes (one exit each); wake-us: the mean wake-up latency of the VM's vCPUs during the
# benchmark (hv/sched.c: from the kick that made a vCPU runnable to its guest entry);
# preempts/op: turns cut short for a woken vCPU; moves/op: vCPU migrations.
if wants ipi; then
	printf '\n%s: ipibench\n%-8s %-6s %-10s %-16s %6s %10s %9s %14s %13s %9s %12s %9s %11s\n' "${ARCH:-x86_64}" \
		vcpus sched pv benchmark ops ns/op exits/op pv-targets/op icr-writes/op wake-us preempts/op moves/op \
		host-steal%
	printf '%s' "$rows" | while read -r v s p b o n e pvt icr wus wpre mv hs; do
		[ -n "$v" ] && printf '%-8s %-6s %-10s %-16s %6s %10s %9s %14s %13s %9s %12s %9s %11s\n' \
			"$v" "$s" "$p" "$b" "$o" "$n" "$e" "$pvt" "$icr" "$wus" "$wpre" "$mv" "$hs"
	done
fi
# msgbench: the median time of a run (all messages of all groups), per message, and the
# boot's vCPU switches.
if wants msg; then
	printf '\n%s: msgbench %s\n' "${ARCH:-x86_64}" "$MSG_ARGS"
	printf '%-8s %-6s %-10s %-16s %9s %12s %9s %14s %11s\n' vcpus sched pv benchmark messages ms ns/msg \
		boot-switches host-steal%
	printf '%s' "$msgrows" | while read -r v s p m t n sw hs; do
		[ -n "$v" ] && printf '%-8s %-6s %-10s %-16s %9s %12s %9s %14s %11s\n' "$v" "$s" "$p" msgbench "$m" "$t" "$n" "$sw" "$hs"
	done
fi
# lockbench: ns per lock round of the whole VM; spin exits, directed yields, preemptions
# inside a critical section and boosts per round.
if wants lock; then
	{
		printf '\n%s: lockbench %s\n' "${ARCH:-x86_64}" "$LOCK_ARGS"
		printf '%-8s %-9s %6s %10s %9s %11s %9s %10s %9s %11s\n' vcpus sched ops ns/op exits/op \
			spins/op yields/op crit-pre/op boosts/op host-steal%
		printf '%s' "$lockrows" | while read -r v s o n e sp y c b hs; do
			[ -n "$v" ] && printf '%-8s %-9s %6s %10s %9s %11s %9s %10s %9s %11s\n' \
				"$v" "$s" "$o" "$n" "$e" "$sp" "$y" "$c" "$b" "$hs"
		done
	}
fi
# timer: per boot, then per policy the median and the range (min-max) of the boots' means,
# longest wakeups and hypervisor maxima.
if wants timer; then
	printf '\n%s: timerlat, %s SCHED_FIFO processes on a 1 kHz timer for %s s, 4 vCPUs beside 2 spinning\n' \
		"${ARCH:-x86_64}" "$TIMER_PROCS" "$TIMER_S"
	printf '%-6s %5s %9s %8s %10s %10s %11s %11s\n' sched boot mean-us max-us over10ms max-at-ms hv-max-us host-steal%
	printf '%s' "$timerrows" | while read -r p b m x o at h hs; do
		[ -n "$p" ] && printf '%-6s %5s %9s %8s %10s %10s %11s %11s\n' "$p" "$b" "$m" "$x" "$o" "$at" "$h" "$hs"
	done
	for sched in rr aware; do
		printf '%s' "$timerrows" | awk -v p="$sched" '
			function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
				return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
			$1 == p { n++; m[n] = $3; x[n] = $4; h[n] = $7 + 0 }
			END { if (!n) exit; printf "%-6s median of %d boots: mean %d us, max %d us, hv max %d us; ", p, n, med(m, n), med(x, n), med(h, n)
				printf "range: mean %d-%d, max %d-%d, hv max %d-%d\n", m[1], m[n], x[1], x[n], h[1], h[n] }'
	done
fi
