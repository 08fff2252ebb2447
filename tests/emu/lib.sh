# Helpers for emulator tests. A test script gets its log path as $1, boots the
# hypervisor with a configuration in QEMU (TCG: emulated AMD SVM, or with ARCH=aarch64 an
# arm64 `virt` machine at EL2, GIC=2|3), then checks what the hypervisor and the guests
# printed. Each check prints one line; any failure fails the test.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
LOG=$1
failed=0

# boot CONFIG_TEXT TIMEOUT_SECONDS [SMP]; with STOP_AT set, QEMU is stopped as soon as
# that string appears in the log (for runs that do not end by themselves); with
# TYPE_AFTER and TYPE_LINES set, the lines are typed on the serial console once
# TYPE_AFTER has appeared.
boot() {
	cfg=$(mktemp /tmp/hv-test-cfg.XXXXXX)
	esp=$(mktemp /tmp/hv-test-esp.XXXXXX)
	printf '%s\n' "$1" > "$cfg"
	"$TOP/scripts/mkesp.sh" "$esp" "$cfg"
	start=$(date +%s)
	fifo=$(mktemp -u /tmp/hv-test-in.XXXXXX)
	mkfifo "$fifo"
	SMP=${3:-2} timeout "$2" "$TOP/scripts/qemu.sh" "$esp" < "$fifo" > "$LOG" 2>&1 &
	qpid=$!
	exec 3> "$fifo"
	if [ -n "$TYPE_AFTER" ]; then
		# Type each line of TYPE_LINES on the serial console once TYPE_AFTER appeared.
		while kill -0 $qpid 2>/dev/null && ! grep -qF -- "$TYPE_AFTER" "$LOG"; do sleep 1; done
		printf '%s\n' "$TYPE_LINES" | while IFS= read -r line; do
			sleep 2
			printf '%s\r' "$line" >&3
		done
	fi
	if [ -n "$STOP_AT" ]; then
		while kill -0 $qpid 2>/dev/null && ! grep -qF -- "$STOP_AT" "$LOG"; do sleep 1; done
		sleep 1
		kill -TERM $qpid 2>/dev/null
	fi
	wait $qpid
	echo "qemu exit $? after $(($(date +%s) - start))s" >> "$LOG"
	exec 3>&-
	rm -f "$cfg" "$esp" "$esp.vars" "$fifo"
}

# expect DESCRIPTION FIXED_STRING: the log must contain the string
expect() {
	if grep -qF -- "$2" "$LOG"; then
		echo "ok:   $1"
	else
		echo "FAIL: $1 (no '$2' in the log)"
		failed=1
	fi
}

# expect_vm VM DESCRIPTION FIXED_STRING: a line of that VM's console contains the string
expect_vm() {
	if grep -F "[$1] " "$LOG" | grep -qF -- "$3"; then
		echo "ok:   $2"
	else
		echo "FAIL: $2 (no '$3' from VM $1)"
		failed=1
	fi
}

# expect_not DESCRIPTION FIXED_STRING
expect_not() {
	if grep -qF -- "$2" "$LOG"; then
		echo "FAIL: $1 ('$2' is in the log)"
		failed=1
	else
		echo "ok:   $1"
	fi
}

# A Linux guest VM named $1 with $2 vCPUs that ran its test steps and stopped the way
# $3 says (default: powered off).
expect_guest_ok() {
	expect "$1: every vCPU online" "[$1] GUEST-READY cpus=$2 online=0$( [ "$2" -gt 1 ] && echo "-$(($2 - 1))")"
	if [ "${ARCH:-x86_64}" = aarch64 ]; then
		expect "$1: the generic timer in use" "[$1] GUEST-FACT clockevent=arch_sys_timer"
	else
		expect "$1: x2APIC in use" "[$1] GUEST-FACT x2apic=1"
		expect "$1: TSC-deadline timer in use" "[$1] GUEST-FACT clockevent=lapic-deadline"
	fi
	expect "$1: test steps finished" "[$1] GUEST-DONE"
	expect "$1: ${3:-powered off} and reported" "hv: VM '$1' ${3:-powered off};"
}

# counter VM NAME: a number from the hypervisor's report on that VM (pv, lazy-eois, ...)
counter() {
	sed -n "s/^hv: VM '$1' .* $2=\([0-9]*\).*/\1/p" "$LOG" | head -n1
}

# expect_counter DESCRIPTION VM NAME MIN: that counter is at least MIN
expect_counter() {
	n=$(counter "$2" "$3")
	if [ "${n:-0}" -ge "$4" ]; then
		echo "ok:   $1 ($3=$n)"
	else
		echo "FAIL: $1 ($3=${n:-missing}, expected at least $4)"
		failed=1
	fi
}

# expect_counter_zero DESCRIPTION VM NAME
expect_counter_zero() {
	n=$(counter "$2" "$3")
	if [ "$n" = 0 ]; then
		echo "ok:   $1"
	else
		echo "FAIL: $1 ($3=${n:-missing}, expected 0)"
		failed=1
	fi
}

# Prints the hypervisor's report lines (exit counts) into the test output, then exits.
finish() {
	grep -E "^hv: VM '.*' (powered|reset|triple|stopped)|^qemu exit" "$LOG" | sed 's/^/      /'
	exit $failed
}
