# SPDX-License-Identifier: GPL-2.0-only
# arm64: the exceptions a guest can provoke get a machine's answer, handled by the guest
# itself, and the VM runs on (tests/guest/arm64/exceptions.c): an instruction fetch from
# an address with no memory and from a device, a load pair from no device, a plain load,
# cache maintenance on no device and on a device. Then the system registers the
# hypervisor traps: debug registers that are each vCPU's own, no PMU, no IMPLEMENTATION
# DEFINED registers, ACTLR_EL1 kept per vCPU, no RAS error records; single-stepping an
# emulated instruction stops right after it; two such VMs share one pCPU, each with a
# breakpoint armed, and neither sees the other's breakpoint or debug register values
# (both run that phase first, at the same time). Under QEMU 10 (scripts/qemu10.sh): Debian 12's QEMU 7.2 does not
# emulate HCR_EL2.TIDCP and its CPU has no claim tags, so with QEMU=7 those two checks
# are left out.
export QEMU=${QEMU:-10}
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64 GIC=3
ESP_FILES="$TOP/build/aarch64/guests-test/exceptions.img=/guests/exceptions.img"
qemu7=0
[ "$QEMU" = 7 ] && qemu7=1
vm() { # name slot
	printf '\n[vm %s]\nkernel = /guests/exceptions.img\ncmdline = exc.iso=1 exc.slot=%s exc.qemu7=%s\nvcpus = 1\nmemory = 64M\npcpus = 0\n' "$1" "$2" $qemu7
}
boot "$(vm x 0)
$(vm y 1)" 180
for v in x y; do
	for what in fetch ldp ldr mmio-pc dc dbg-regs dfr0 dbg-count mdscr oslock claim pmu actlr \
		impdef step-mmio step-sysreg ras iso; do
		expect_vm $v "$v: $what: what a machine gives" "EXCEPTIONS $what ok"
	done
	expect_vm $v "$v: finished" "EXCEPTIONS DONE"
	expect "$v: the VM powered off by itself" "hv: VM '$v' powered off;"
	# Refused, counted and reported: the two prefetch aborts and the load pair; PMCR_EL0,
	# PMCCNTR_EL0 and the two IMPLEMENTATION DEFINED registers (UNDEFINED). DBGBVR15_EL1
	# is UNDEFINED by the CPU itself (QEMU's has 6 breakpoints), without a trap.
	want=$((7 - 2 * qemu7))
	n=$(counter $v bad-accesses)
	if [ "$n" = $want ]; then
		echo "ok:   $v: each refused access counted (bad-accesses=$n)"
	else
		echo "FAIL: $v: bad-accesses=${n:-missing}, expected $want"
		failed=1
	fi
done
expect_not "no guest failure" "EXCEPTIONS FAIL"
expect "each bad access counted and reported" "prefetch abort"
expect "a PMU access reported" "PMU register S3_3_C9_C12_0 read"
[ $qemu7 = 1 ] || expect "an IMPLEMENTATION DEFINED access reported" \
	"IMPLEMENTATION DEFINED register S3_1_C15_C2_0 read"
finish
