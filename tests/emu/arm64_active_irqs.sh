# SPDX-License-Identifier: GPL-2.0-only
# arm64, GICv3 and GICv2: interrupts a guest holds active, more than the list registers,
# keep no higher-priority pending interrupt out, and each can still be deactivated
# (tests/guest/arm64/activeirqs.c: ISACTIVER, nested acknowledgements ended by EOIs in
# EOImode 0 and by DIRs in EOImode 1, the virtual timer). The same guest runs first on
# QEMU's virt machine alone, to show the guest is right.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64
IMG=$TOP/build/aarch64/guests-test/activeirqs.img
ESP_FILES="$IMG=/guests/activeirqs.img"
for GIC in 3 2; do
	export GIC
	boot_bare "$IMG" "" 60 1 "$GIC"
	mv "$LOG" "$LOG.bare$GIC"
	boot "[vm a]
kernel = /guests/activeirqs.img
vcpus = 1
memory = 64M" 120 1
	mv "$LOG" "$LOG.$GIC"
done
for GIC in 3 2; do
	cp "$LOG.$GIC" "$LOG"
	for phase in isactiver nested dir timer; do
		if grep -q "^ACTIVEIRQS $phase ok" "$LOG.bare$GIC" &&
			! grep -q "^ACTIVEIRQS $phase FAIL" "$LOG.bare$GIC"; then
			echo "ok:   GICv$GIC bare: $phase"
		else
			echo "FAIL: GICv$GIC bare: $phase (the guest itself is wrong: $LOG.bare$GIC)"
			failed=1
		fi
		expect_vm a "GICv$GIC: $phase: as on the bare machine" "ACTIVEIRQS $phase ok"
	done
	expect "GICv$GIC found" "hv: GICv$GIC"
	expect_not "GICv$GIC: no guest failure" "ACTIVEIRQS FAIL"
	expect_vm a "GICv$GIC: finished" "ACTIVEIRQS DONE"
	expect "GICv$GIC: powered off" "hv: VM 'a' powered off;"
	grep -h "ACTIVEIRQS .* FAIL" "$LOG" | sed 's/^/      /'
done
cat "$LOG.3" "$LOG.2" > "$LOG"
rm -f "$LOG.3" "$LOG.2"
finish
