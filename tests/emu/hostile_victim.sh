# SPDX-License-Identifier: GPL-2.0-only
# A hostile VM beside a victim VM that measures its own progress (issue 13). The victim
# (tests/guest/linux/workmeter.c) runs a fixed CPU-bound loop in windows on each of its
# vCPUs and prints each window's time. The attacker runs hcfuzz on as many threads as
# vCPUs in rounds of a benign half (its threads merely spin: the reference) and an attack
# half with every operation (hypercalls, PV MSRs, x2APIC ICR/LVT/timer and the timer
# storm, the IOAPIC, MMIO in odd encodings where nothing is, CR4 and XCR0, random MSRs,
# kick storms), interleaved so that a change in the host's load weighs on both; then the
# user-space tool hostile (#AC, #DB, INT1, MMIO through /dev/mem with page-table games).
# 4 vCPUs share 2 pCPUs throughout. The victim's windows are sorted into the two kinds of
# half by where their lines fall between hcfuzz's phase lines in the one serial log. The
# test asserts that the victim finishes and keeps at least half its speed (median window
# under attack at most twice the benign median), that both VMs end as they should (the
# attacker's kernel without an oops, a warning or a state hcfuzz could not restore) and
# the hypervisor outlives them, that the attacker's bad accesses were counted: at
# least as many as the MSR accesses that faulted in it, and at least as many accesses to
# where nothing is as it made, and that an 8-byte access across a RAM and an MMIO page
# reads and writes each half where it is. Run time: about 75 s. Under QEMU 10 by default:
# its 600,000-odd exits made QEMU 7.2's "state saved at #VMEXIT is the host's" fault
# likely (two fresh-clone runs of make test each needed the retry); QEMU=7 runs it there.
export QEMU=${QEMU:-10}
. "$(dirname "$0")/lib.sh"
SEED=${SEED:-13}
boot "$(linux_vm fuzz 2 256M "hv.mode=test hv.modules=hcfuzz \
hv.hcfuzz=seconds=36:rounds=3:seed=$SEED:threads=2 hv.tools=hostile hv.hostile=rounds=2000")
$(linux_vm victim 2 256M "hv.mode=test hv.tools=workmeter hv.workmeter=seconds=50:work=60")" 360
expect_vm fuzz "the attacker's rounds ran" "hcfuzz: phase end"
expect_vm fuzz "the fuzzer ran to its end" "hcfuzz: done"
expect_vm fuzz "the user-space attacks ran to their end" "hostile: done"
expect_guest_ok fuzz 2
expect_guest_ok victim 2
expect_vm victim "the victim finished its measurement" "workmeter: done cpus=2"
expect "the hypervisor outlived both" "hv: no VM left"
expect_not "no MMIO access stopped a VM" "cannot emulate"
bad=$(grep -a "^\[fuzz\] " "$LOG" | grep -E "Oops|WARNING:|BUG:|restores failed|guard byte|hcfuzz: mmio:" | head -n1)
if [ -z "$bad" ]; then
	echo "ok:   the attacker's kernel stayed whole (no oops, warning, failed restore or wrong load)"
else
	echo "FAIL: the attacker's kernel: $bad"
	failed=1
fi

# The victim's windows, by half (lib.sh).
victim_windows hcfuzz
expect_victim_speed "the victim kept at least half its speed under attack" 3 2

# Every bad access counted: each MSR access that faulted in hcfuzz was a #GP the
# hypervisor answered; each access to where nothing is (hcfuzz's, hostile's) an
# unclaimed one, on top of the port probes of a boot (the victim's count: the same kernel).
faults=$(sed -n 's/.*\[fuzz\] GUEST-hcfuzz hcfuzz: hv-counted: faults=\([0-9]*\).*/\1/p' "$LOG")
mmio=$(sed -n 's/.*\[fuzz\] GUEST-hcfuzz hcfuzz: hv-counted: .*unclaimed-mmio=\([0-9]*\).*/\1/p' "$LOG")
umm=$(sed -n 's/.*\[fuzz\] GUEST-hostile hostile: mmio accesses=\([0-9]*\).*/\1/p' "$LOG")
expect_counter "the attacker's faulting MSR accesses were counted" fuzz bad-accesses "${faults:-1}"
expect_counter "the attacker's accesses to where nothing is were counted" fuzz unclaimed-io \
	$(($(counter victim unclaimed-io) + ${mmio:-1} + ${umm:-1}))
# The timer storm: no more than one interrupt per 200 us (the hypervisor's floor).
us=$(sed -n 's/.*hcfuzz: x2apic: .* us-per-tick=\([0-9]*\).*/\1/p' "$LOG")
if [ "${us:-0}" -ge 180 ]; then
	echo "ok:   the timer storm was held to the floor ($us us per tick)"
else
	echo "FAIL: the timer storm: ${us:-no} us per tick, expected at least 180 (the floor: 200)"
	failed=1
fi
# #DB from single steps and a hardware breakpoint, each reflected to the guest. (#AC is
# printed, not checked: QEMU's TCG does not raise it.)
for w in step bp; do
	l=$(sed -n "s/.*\[fuzz\] GUEST-hostile hostile: $w=\([0-9]*\/[0-9]*\).*/\1/p" "$LOG")
	if [ -n "$l" ] && [ "${l%/*}" = "${l#*/}" ]; then
		echo "ok:   every $w exception reached the guest ($l)"
	else
		echo "FAIL: $w exceptions: ${l:-missing} reached the guest"
		failed=1
	fi
done
# An 8-byte access across a RAM page and an MMIO page, each order: the load reads the RAM
# half from RAM and the other half from the MMIO page, the store keeps its RAM half.
for order in "ram|mmio" "mmio|ram"; do
	l=$(grep -aF "[fuzz] GUEST-hostile hostile: mmio split $order " "$LOG" | head -n1)
	load=$(echo "$l" | sed -n 's/.* load=\(0x[0-9a-f]*\) expected=\(0x[0-9a-f]*\) .*/\1 \2/p')
	if [ -n "$load" ] && [ "${load% *}" = "${load#* }" ] &&
		echo "$l" | grep -q "store=kept"; then
		echo "ok:   a split $order load reads each half from its page, a store keeps" \
			"its RAM half"
	else
		echo "FAIL: a split $order access: ${l#*hostile: }"
		failed=1
	fi
done
# INT1 (F1) must raise #DB (SIGTRAP); QEMU 7.2's TCG has no INT1 (F1 is #UD there), 10 has.
[ "${QEMU:-}" = 10 ] && expect_vm fuzz "INT1 raised #DB in the guest" "hostile: icebp=sigtrap"
grep -E "\[fuzz\] GUEST-(hcfuzz hcfuzz|hostile hostile): " "$LOG" |
	grep -v "taints\|verification\|hcfuzz: phase" | sed 's/^/      /'
finish
