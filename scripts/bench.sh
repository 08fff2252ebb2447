#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: the IPI microbenchmark (guest_abi/tools/ipibench.c) in a guest with the PV
# IPI hypercall and in one without it (pv = all,-ipi), with 4 vCPUs on 2 pCPUs under each
# scheduling policy (sched = rr, sched = aware) and with 2 on 2 (aware: the
# no-overcommit check). Prints one table: configuration x benchmark -> ns/op, exits/op,
# the mean wake-up latency and preemptions by wakeup per op (from the hypervisor's own
# counters, read by the guest through HV_HC_GET_STATS). Exit counts are exact; times
# under QEMU TCG swing by 30-50% from run to run, so compare ratios within one table.
TOP=$(cd "$(dirname "$0")/.." && pwd)
ITERS=${ITERS:-200}
OUT=$TOP/build/bench
mkdir -p "$OUT"
. "$TOP/tests/emu/lib.sh" "$OUT/boot.log" > /dev/null
rows=""
for run in "4 rr" "4 aware" "2 aware"; do
	vcpus=${run% *} sched=${run#* }
	for pv in all all,-ipi; do
		LOG=$OUT/vcpus$vcpus-$sched-$(echo "$pv" | tr -c 'a-z0-9\n' '_').log
		echo "bench: $vcpus vCPUs on 2 pCPUs, sched = $sched, pv = $pv ..." >&2
		boot "[hv]
sched = $sched
[vm bench]
kernel = /guests/vmlinux
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=ipibench hv.ipibench=iters=$ITERS
vcpus = $vcpus
memory = 256M
pv = $pv" 900
		grep -q "ipibench: done" "$LOG" || echo "bench: no result in $LOG" >&2
		rows="$rows$(sed -n "s/^\[bench\] GUEST-ipibench ipibench: \([a-z-]*\) ops=\([0-9]*\) ns\/op=\([0-9]*\) exits\/op=\([0-9.n\/a]*\) ipis_pv\/op=\([0-9.n\/a]*\) ipis_icr\/op=\([0-9.n\/a]*\) wake_us=\([0-9.n\/a]*\) wake_preempts\/op=\([0-9.n\/a]*\).*/$vcpus $sched $pv \1 \2 \3 \4 \5 \6 \7 \8/p" "$LOG")
"
	done
done
# exits/op: every exit of every vCPU (senders and receivers); pv-targets/op: IPI targets
# reached through the hypercall (one exit per call); icr-writes/op: IPIs sent by ICR
# writes (one exit each); wake-us: the mean wake-up latency of the VM's vCPUs during the
# benchmark (hv/sched.c: from the kick that made a vCPU runnable to its guest entry);
# preempts/op: turns cut short for a woken vCPU.
printf '\n%-6s %-6s %-10s %-16s %6s %10s %9s %14s %13s %9s %12s\n' vcpus sched pv \
	benchmark ops ns/op exits/op pv-targets/op icr-writes/op wake-us preempts/op
printf '%s' "$rows" | while read -r v s p b o n e pvt icr wus wpre; do
	[ -n "$v" ] && printf '%-6s %-6s %-10s %-16s %6s %10s %9s %14s %13s %9s %12s\n' \
		"$v" "$s" "$p" "$b" "$o" "$n" "$e" "$pvt" "$icr" "$wus" "$wpre"
done
