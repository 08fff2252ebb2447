# SPDX-License-Identifier: GPL-2.0-only
# arm64: the EL1 physical timer works for a guest that waits for it in WFI
# (tests/guest/arm64/timers.c): a one-shot, masking, 200 periods of 200 us, disarming.
# The same guest runs first on QEMU's virt machine alone, to show the guest is right.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64 GIC=3
IMG=$TOP/build/aarch64/guests-test/timers.img
boot_bare "$IMG" "timers.n=200" 60 1 3
mv "$LOG" "$LOG.bare"
ESP_FILES="$IMG=/guests/timers.img"
boot "[vm t]
kernel = /guests/timers.img
cmdline = timers.n=200
vcpus = 1
memory = 64M" 120 1
for phase in oneshot imask periodic off; do
	if grep -q "^TIMERS $phase ok" "$LOG.bare"; then
		echo "ok:   bare: $phase"
	else
		echo "FAIL: bare: $phase (the guest itself is wrong: $LOG.bare)"
		failed=1
	fi
	expect_vm t "$phase: as on the bare machine" "TIMERS $phase ok"
done
expect_not "no guest failure" "TIMERS FAIL"
expect_vm t "finished" "TIMERS DONE"
expect "powered off" "hv: VM 't' powered off;"
grep -h "TIMERS oneshot" "$LOG.bare" "$LOG" | sed 's/^/      /'
finish
