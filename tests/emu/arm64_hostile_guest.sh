# SPDX-License-Identifier: GPL-2.0-only
# arm64: a hostile VM beside a victim VM that measures its own progress (issue 13). The
# attacker (2 vCPUs) runs a64fuzz (tests/guest/modules/a64fuzz.c) in rounds of a benign half
# (its threads merely spin in its kernel: the reference) and an attack half with every
# operation: SMCCC/PSCI with random IDs and arguments, CPU_ON to CPUs that are on or exist
# nowhere, the vGIC distributor and redistributors (GICv2: the CPU interface) at random
# offsets, widths and values, SGI storms, the PL011, debug, PMU, IMPLEMENTATION DEFINED,
# ACTLR and RAS registers, and loads and stores where nothing is. The victim (2 vCPUs)
# runs workmeter (tests/guest/linux/workmeter.c): a fixed CPU-bound loop in windows on
# each vCPU, each window's time printed. The 4 vCPUs share 2 pCPUs. The victim's windows
# are sorted into the two kinds of half by where their lines fall between a64fuzz's phase
# lines in the one serial log. Asserted: the victim finishes and keeps at least a third of
# its speed (median window under attack at most 3 times the median in the benign half; on
# 2 pCPUs under TCG the ratio swings: 0.93x, 1.05x and 2.1x in three GICv2 boots), both
# VMs end as they should (the attacker's kernel is whole: no oops, no warning), the
# hypervisor outlives them, a64fuzz saw nothing against its rules (no "a64fuzz: FAIL":
# CPU_ON never started a CPU, AFFINITY_INFO right, the guest's interrupt configuration
# and every register it restored as they were), and every bad access was counted: the
# hypervisor's bad-accesses at least (GICv2 boot: exactly) the victim's plus what a64fuzz
# knows it must have refused (vGIC widths and alignments, accesses without syndrome, PL011
# offsets that are no register, GET_STATS buffers outside RAM, PMU register UNDEFs; the
# IMPLEMENTATION DEFINED ones under QEMU 10, whose CPU has the TIDCP trap), its
# unclaimed-io exactly the victim's (the same kernel's probes) plus a64fuzz's accesses where
# nothing is. Boot 1: GICv3, every operation, 3 rounds (bad-accesses at least: the
# hypervisor also counts accesses to reserved GIC offsets, which a64fuzz does not model);
# boot 2: GICv2, all but the distributor, 1 round (exactly). SEED=N replays with another
# seed (default 13), WORK=N sets the victim's window (million rounds, default 40).
# Under QEMU 10 by default (QEMU=7 runs Debian 12's QEMU 7.2, without the TIDCP trap).
export QEMU=${QEMU:-10}
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64
SEED=${SEED:-13}
FINAL=$LOG
vms() { # fuzz seconds, rounds, ops; victim seconds
	linux_vm fuzz 2 192M "hv.mode=test hv.modules=a64fuzz hv.a64fuzz=seconds=$1:rounds=$2:ops=$3:seed=$SEED"
	linux_vm victim 2 192M "hv.mode=test hv.tools=workmeter hv.workmeter=seconds=$4:work=${WORK:-40}"
}

# check GIC: the assertions on one boot's log ($LOG)
check() { # GIC [exact]
	gic=$1
	expect "GICv$1 found" "hv: GICv$1"
	expect_vm fuzz "v$1: the attacker's rounds ran" "a64fuzz: phase end"
	expect_vm fuzz "v$1: the fuzzer ran to its end" "a64fuzz: done"
	expect_guest_ok fuzz 2
	expect_guest_ok victim 2
	expect_vm victim "v$1: the victim finished its measurement" "workmeter: done cpus=2"
	expect "v$1: the hypervisor outlived both" "hv: no VM left"
	expect_not "v$1: a64fuzz saw no broken rule" "a64fuzz: FAIL"
	for w in "Internal error" "Unable to handle" "WARNING:" "BUG:" "Kernel panic" "rcu:"; do
		expect_not "v$1: no '$w' in a guest" "$w"
	done
	expect_not "v$1: no VM stopped by the hypervisor" "stopping the VM"

	# The victim's windows, by half (lib.sh).
	victim_windows a64fuzz
	expect_victim_speed "v$gic: the victim kept at least a third of its speed under attack" 2 3

	# Every bad access counted: at least (exact: $2 = exact) what a64fuzz knows hv must
	# have refused, on top of the victim's (the same kernel's boot); every access where
	# nothing is counted as unclaimed, exactly.
	hv=$(sed -n 's/.*\[fuzz\] GUEST-a64fuzz a64fuzz: hv-counted: bad=\([0-9]*\) impdef-undef=\([0-9]*\) unclaimed=\([0-9]*\).*/\1 \2 \3/p' "$LOG" | head -n1)
	exact=${2:-}
	# shellcheck disable=SC2086 # three numbers
	set -- $hv
	bad=${1:-1} impdef=${2:-0} unclaimed=${3:-1}
	[ "$QEMU" = 10 ] && bad=$((bad + impdef))
	bad=$((bad + $(counter victim bad-accesses)))
	unclaimed=$((unclaimed + $(counter victim unclaimed-io)))
	n=$(counter fuzz bad-accesses)
	if [ "${n:-0}" -ge "$bad" ] && { [ "$exact" != exact ] || [ "$n" = "$bad" ]; }; then
		echo "ok:   v$gic: the attacker's refused accesses were counted (bad-accesses=$n, a64fuzz expects ${exact:-at least} $bad)"
	else
		echo "FAIL: v$gic: the attacker's refused accesses: bad-accesses=${n:-missing}, a64fuzz expects ${exact:-at least} $bad"
		failed=1
	fi
	n=$(counter fuzz unclaimed-io)
	if [ "$n" = "$unclaimed" ]; then
		echo "ok:   v$gic: the attacker's accesses to where nothing is were counted (unclaimed-io=$n)"
	else
		echo "FAIL: v$gic: unclaimed-io=${n:-missing}, a64fuzz made $unclaimed accesses where nothing is (with the victim's)"
		failed=1
	fi
	grep -F "[fuzz] GUEST-a64fuzz a64fuzz: " "$LOG" | grep -v "taints\|verification\|a64fuzz: phase" |
		sed "s/^/      /"
}

export GIC=3
LOG=$FINAL.v3
boot "$(vms 36 3 all 50)" 300
check 3
cat "$LOG" > "$FINAL"
if [ "${GICV2:-1}" = 1 ]; then
	export GIC=2
	LOG=$FINAL.v2
	boot "$(vms 12 1 smccc,cpuon,gicc,sgi,uart,sysreg,nowhere 20)" 200
	check 2 exact
	cat "$LOG" >> "$FINAL"
fi
LOG=$FINAL
finish
