#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: the IPI microbenchmark (guest_abi/tools/ipibench.c) in a guest with the PV
# IPI hypercall and in one without it (pv = all,-ipi), with 4 vCPUs on 2 pCPUs and 2 on 2.
# Prints one table: configuration x benchmark -> ns/op, exits/op (from the hypervisor's
# own counters, read by the guest through HV_HC_GET_STATS). Exit counts are exact; times
# under QEMU TCG swing by 30-50% from run to run, so compare ratios within one table.
TOP=$(cd "$(dirname "$0")/.." && pwd)
ITERS=${ITERS:-200}
OUT=$TOP/build/bench
mkdir -p "$OUT"
. "$TOP/tests/emu/lib.sh" "$OUT/boot.log" > /dev/null
rows=""
for vcpus in 4 2; do
	for pv in all all,-ipi; do
		LOG=$OUT/vcpus$vcpus-$(echo "$pv" | tr -c 'a-z0-9\n' '_').log
		echo "bench: $vcpus vCPUs on 2 pCPUs, pv = $pv ..." >&2
		boot "[vm bench]
kernel = /guests/vmlinux
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=ipibench hv.ipibench=iters=$ITERS
vcpus = $vcpus
memory = 256M
pv = $pv" 900
		grep -q "ipibench: done" "$LOG" || echo "bench: no result in $LOG" >&2
		rows="$rows$(sed -n "s/^\[bench\] GUEST-ipibench ipibench: \([a-z-]*\) ops=\([0-9]*\) ns\/op=\([0-9]*\) exits\/op=\([0-9.n\/a]*\) ipis_pv\/op=\([0-9.n\/a]*\) ipis_icr\/op=\([0-9.n\/a]*\).*/$vcpus $pv \1 \2 \3 \4 \5 \6/p" "$LOG")
"
	done
done
# exits/op: every exit of every vCPU (senders and receivers); pv-targets/op: IPI targets
# reached through the hypercall (one exit per call); icr-writes/op: IPIs sent by ICR
# writes (one exit each).
printf '\n%-6s %-10s %-16s %6s %10s %9s %15s %14s\n' vcpus pv benchmark ops ns/op exits/op pv-targets/op icr-writes/op
printf '%s' "$rows" | while read -r v p b o n e pvt icr; do
	[ -n "$v" ] && printf '%-6s %-10s %-16s %6s %10s %9s %15s %14s\n' "$v" "$p" "$b" "$o" "$n" "$e" "$pvt" "$icr"
done
