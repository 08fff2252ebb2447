#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/flake.sh OUTDIR UNTIL TEST[,TEST...] NAME=HV_EFI [NAME=HV_EFI ...]
#        (env: QEMU, QEMU_LIMIT=2, BOOT_S=120, HANG_S=BOOT_S, BOOTS, KEEP_PASSES)
# Boots x86 emulator tests again and again: each TEST (tests/emu/TEST.sh, or a soak
# configuration tests/soak/TEST.sh: the heaviest loads, not part of make test) in turn,
# each with the hv.efi builds given in turn (scripts/mkesp.sh's HV_EFI), and starts no
# boot that could end after UNTIL (a time `date -d` reads, e.g. 15:50) counting BOOT_S
# seconds for it, nor one past BOOTS boots in OUTDIR, nor one while QEMU_LIMIT or more
# QEMUs run on the machine (it waits). Each boot's outcome is a line of
# OUTDIR/results.tsv (boot, test, build, outcome, seconds, the test's first FAIL line or
# the last hypervisor line) and OUTDIR/summary.txt counts them per test and build.
# `make soak` runs it on the soak set. Outcomes: pass; host-state (the hypervisor's "BUG: the state saved at #VMEXIT
# ... is the host's"); idt-triple (a guest triple fault on "a mapped IDT entry"); guest-
# triple (any other guest triple fault); machine-reset (tests/emu/lib.sh's "qemu: the
# machine reset itself"); hang (the machine still ran after HANG_S seconds, and the boot
# failed: every CPU's registers, instructions and stack are in N-TEST-NAME.hang.regs); other.
# The logs of every boot that did not pass stay in OUTDIR (those of passes too with
# KEEP_PASSES set; each boot's QEMU note LOG.qemu beside it).
#
# A machine reset (a triple fault outside guest mode) leaves, with the tests' -no-reboot,
# only the line "Triple fault" in LOG.qemu: -d cpu_reset logs CPU state at resets, and
# -no-reboot turns the reset into QEMU's exit. (The dump of CPU 1 that every boot's
# LOG.qemu ends with is the one taken at the INIT by which the hypervisor starts it: its
# state in the firmware's AP loop, paging off; no fault.) So here QEMU also runs with
# `-action shutdown=pause` and a QMP socket, and scripts/qmp_watch.py ends it at the
# machine's end, after saving, for a reset, every CPU's registers as they were at that
# moment (N-TEST-NAME.regs: the state of the CPU that triple-faulted) and the machine's memory
# (N-TEST-NAME.mem, 2 GiB). The test then fails as that reset.
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1 UNTIL=$(date -d "$2" +%s) TESTS=$(echo "$3" | tr , ' ')
shift 3
# test_script NAME: its file, under tests/emu or tests/soak.
test_script() {
	for d in emu soak; do
		[ -f "$TOP/tests/$d/$1.sh" ] && { echo "$TOP/tests/$d/$1.sh"; return 0; }
	done
	echo "flake: no test $1 in tests/emu or tests/soak" >&2
	return 1
}
[ $# -ge 1 ] || { sed -n 3,4p "$0" >&2; exit 2; }
for t in $TESTS; do test_script "$t" > /dev/null || exit 2; done
mkdir -p "$OUT"
RES=$OUT/results.tsv
[ -f "$RES" ] || printf 'boot\ttest\tbuild\toutcome\tseconds\tdetail\n' > "$RES"
n=$(($(wc -l < "$RES") - 1))

classify() { # LOG RC
	if [ "$2" = 0 ]; then echo pass
	elif grep -aq "BUG: the state saved at #VMEXIT .* is the host's" "$1"; then echo host-state
	elif grep -aq "(a mapped IDT entry; " "$1"; then echo idt-triple
	elif grep -aq "^qemu: the machine reset itself" "$1"; then echo machine-reset
	elif grep -aq "^hv: VM '.*' vcpu[0-9]*: triple fault" "$1"; then echo guest-triple
	elif [ -f "${1%.log}.hang.regs" ]; then echo hang
	else echo other
	fi
}

while :; do
	for test in $TESTS; do
	for b in "$@"; do
		name=${b%%=*} efi=${b#*=}
		while [ "$(pgrep -c qemu-system)" -ge "${QEMU_LIMIT:-2}" ]; do sleep 5; done
		[ $(($(date +%s) + ${BOOT_S:-120})) -le "$UNTIL" ] || break 3
		[ -z "${BOOTS:-}" ] || [ "$n" -lt "$BOOTS" ] || break 3
		n=$((n + 1))
		base=$OUT/$n-$test-$name
		log=$base.log qmp=$base.qmp
		s=$(date +%s)
		rm -f "$qmp"
		python3 "$TOP/scripts/qmp_watch.py" "$qmp" "$base" $((2 << 30)) \
			"${HANG_S:-${BOOT_S:-120}}" > "$log.qmp-watch" 2>&1 &
		w=$!
		HV_EFI=$efi QEMU_ARGS="-action shutdown=pause -qmp unix:$qmp,server=on,wait=off" \
			sh "$(test_script "$test")" "$log" > "$log.result" 2>&1
		rc=$?
		kill $w 2>/dev/null
		wait $w 2>/dev/null
		rm -f "$qmp"
		secs=$(($(date +%s) - s))
		o=$(classify "$log" $rc)
		d=$(grep -m1 "^FAIL" "$log.result")
		[ "$o" = pass ] || d="$d | $(tr -d '\r' < "$log" | grep -a "^hv: " | tail -n1)"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$test" "$name" "$o" "$secs" "$d" >> "$RES"
		echo "$(date -u +%H:%M:%S) boot $n $test $name: $o (${secs}s)"
		[ "$o" = pass ] && [ -z "${KEEP_PASSES:-}" ] && rm -f "$log" "$log.qemu" "$log.result" "$log.qmp-watch" \
			"$base.hang.regs"
		awk -F'\t' 'NR > 1 { c[$2 "\t" $3 "\t" $4]++; t[$2 "\t" $3]++ }
			END { for (k in c) { split(k, a, "\t"); printf "%s\t%s\t%s\t%d of %d\n", a[1], a[2], a[3], c[k], t[a[1] "\t" a[2]] } }' \
			"$RES" | sort > "$OUT/summary.txt"
	done
	done
done
cat "$OUT/summary.txt"
