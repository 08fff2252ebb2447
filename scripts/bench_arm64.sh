#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench, arm64: what an interrupt and an exit cost, measured by the SGI stress guest
# (tests/guest/arm64/sgistress.c, its bench phase) in a VM of 2 vCPUs on 2 pCPUs under
# the hypervisor with GICv3 and with GICv2, and on QEMU's virt machine without a
# hypervisor (bare: the floor). Prints one table: operation -> ns per operation, the
# median of RUNS boots each (default 3), and the VM's exits per SGI from the hypervisor's
# own counters. Times under QEMU TCG swing by 30-50% from run to run, and several times
# beside another emulator: benchmark on a quiet machine, compare within one table.
#   hvc            HVC (PSCI_VERSION) round trip
#   mmio-nodevice  MMIO read where the guest has no device (bare: a virtio-mmio register)
#   mmio-gicd      MMIO read of GICD_TYPER
#   eoi            the EOI of an SGI, in the receiver's handler
#   sgi-latency    from the sender's SGI write to the receiver's handler
#   sgi            an SGI to a vCPU spinning in the guest, sent, taken and seen handled
TOP=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
N=${N:-20000}
OUT=$TOP/build/bench
IMG=$TOP/build/aarch64/guests-test/sgistress.img
CMDLINE="sgistress.n=$N sgistress.nr=0 sgistress.nbench=$N"
OPS="hvc mmio-nodevice mmio-gicd eoi sgi-latency sgi"
mkdir -p "$OUT"
[ -f "$IMG" ] || { echo "bench: $IMG missing (make ARCH=aarch64)" >&2; exit 1; }
. "$TOP/tests/emu/lib.sh" "$OUT/arm64.log" > /dev/null
export ARCH=aarch64

# run SETUP GIC I: one boot; its log is $OUT/arm64-SETUP-vGIC-I.log
run() {
	LOG=$OUT/arm64-$1-v$2-$3.log
	if [ "$1" = bare ]; then
		boot_bare "$IMG" "$CMDLINE" 300 2 "$2"
	else
		GIC=$2 ESP_FILES="$IMG=/guests/sgistress.img" boot "[vm b]
kernel = /guests/sgistress.img
cmdline = $CMDLINE
vcpus = 2
memory = 64M" 300 2
	fi
	grep -q "SGISTRESS DONE" "$LOG" || echo "bench: no result in $LOG" >&2
}

# value LOG OP: ns/op of OP in that boot
value() {
	if [ "$2" = sgi ]; then
		sed -n 's/.*SGISTRESS gic=[23] unicast .* ns\/sgi=\([0-9]*\).*/\1/p' "$1"
	else
		sed -n "s/.*SGISTRESS gic=[23] bench op=$2 n=[0-9]* ns\/op=\([0-9]*\).*/\1/p" "$1"
	fi
}

# exits/SGI: the VM's exits less the bench loops' (one each), per SGI
exits_per_sgi() {
	e=$(sed -n "s/^hv: VM 'b' .*; \([0-9]*\) exits:.*/\1/p" "$1")
	[ -n "$e" ] && awk -v e="$e" -v n="$N" 'BEGIN { printf "%.2f", (e - 3 * n) / n }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

SETUPS="bare:3 hv:3 hv:2 bare:2"
for s in $SETUPS; do
	for i in $(seq "$RUNS"); do
		echo "bench: arm64 ${s%:*} GICv${s#*:}, run $i of $RUNS ..." >&2
		run "${s%:*}" "${s#*:}" "$i"
	done
done
printf '\narm64, QEMU TCG, 2 vCPUs on 2 pCPUs: ns per operation (median of %s boots)\n' "$RUNS"
printf '%-14s' operation
for s in $SETUPS; do printf ' %10s' "${s%:*}-v${s#*:}"; done
printf '\n'
for op in $OPS exits/sgi; do
	printf '%-14s' "$op"
	for s in $SETUPS; do
		v=$(for i in $(seq "$RUNS"); do
			f=$OUT/arm64-${s%:*}-v${s#*:}-$i.log
			if [ "$op" = exits/sgi ]; then
				[ "${s%:*}" = hv ] && exits_per_sgi "$f" && echo
			else
				value "$f" "$op"
			fi
		done | median)
		printf ' %10s' "$v"
	done
	printf '\n'
done
