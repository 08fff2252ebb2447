#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/run.sh unit|all
# Runs the host unit tests (build/unit/AREA/test_*) and, for `all`, each fuzz harness
# (build/fuzz/fuzz_*, see tests/fuzz/run.sh) for FUZZ_TEST_S seconds (default 4), then
# every emulator test, tests/emu/*.sh (x86-64 unless the test exports ARCH=aarch64) and the
# rows of tests/emu/scenarios, one QEMU at a time, in the order of their names.
# Logs go to build/test-logs/. Ends with the line "N passed, N failed, N parts skipped"
# and exits non-zero when anything failed.
TOP=$(cd "$(dirname "$0")/.." && pwd)
LOGS=$TOP/build/test-logs
mkdir -p "$LOGS"
pass=0 fail=0 skipped=0 failed_tests=
result() { # name rc seconds
	if [ "$2" = 0 ]; then
		pass=$((pass + 1))
		echo "PASS $1 (${3}s)"
	else
		fail=$((fail + 1))
		failed_tests="$failed_tests $1"
		echo "FAIL $1 (${3}s, log: $LOGS/$1.log)"
	fi
}
# The emulator tests' names: each tests/emu/*.sh and each row of tests/emu/scenarios.
emu_tests() {
	{
		for t in "$TOP"/tests/emu/*.sh; do
			[ "$(basename "$t")" = lib.sh ] || basename "$t" .sh
		done
		grep -v '^#' "$TOP/tests/emu/scenarios" | awk 'NF { print $1 }'
	} | sort
}
# emu_test NAME LOG: runs it, its script, else its scenario (ARCH, the variables, then
# lib.sh's function and arguments, as a script of its own would).
emu_test() {
	emu=$1 log=$2
	if [ -f "$TOP/tests/emu/$emu.sh" ]; then
		ARCH=x86_64 sh "$TOP/tests/emu/$emu.sh" "$log"
		return
	fi
	row=$(awk -v n="$emu" '$1 == n' "$TOP/tests/emu/scenarios")
	vars=${row%%:*} run=${row#*:}
	# shellcheck disable=SC2086 # NAME ARCH VARIABLE=VALUE ...: words without blanks
	set -- $vars
	arch=$2
	shift 2
	env TOP="$TOP" ARCH="$arch" "$@" sh -c ". \"$TOP/tests/emu/lib.sh\"; $run; finish" \
		"$TOP/tests/emu/$emu" "$log"
}
# A unit test program ends with "N checks, N failed, N skipped" (tests/unit/test.h): one
# that ran no check fails, and the parts it skipped (an input not built) are said.
for t in "$TOP"/build/unit/*/test_*; do
	[ -x "$t" ] || continue
	n=unit/${t#"$TOP"/build/unit/}
	mkdir -p "$LOGS/$(dirname "$n")"
	s=$(date +%s)
	"$t" > "$LOGS/$n.log" 2>&1
	rc=$?
	if [ $rc = 0 ] && ! grep -q "^[1-9][0-9]* checks, 0 failed, " "$LOGS/$n.log"; then
		echo "$n ran no check" >> "$LOGS/$n.log"
		rc=1
	fi
	result "$n" $rc $(($(date +%s) - s))
	grep "^SKIP: " "$LOGS/$n.log" | sed 's/^/    /'
	skipped=$((skipped + $(grep -c "^SKIP: " "$LOGS/$n.log")))
	[ $rc = 0 ] || sed 's/^/    /' "$LOGS/$n.log" | tail -n 20
done
if [ "$1" = all ]; then
	mkdir -p "$LOGS/fuzz"
	for t in "$TOP"/tests/fuzz/fuzz_*.c; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .c | sed 's/^fuzz_//')
		n=fuzz/fuzz_$name
		s=$(date +%s)
		if [ -x "$TOP/build/fuzz/fuzz_$name" ]; then
			"$TOP/tests/fuzz/run.sh" "${FUZZ_TEST_S:-4}" "$name" > "$LOGS/$n.log" 2>&1
			rc=$?
		else
			echo "build/fuzz/fuzz_$name is not built (clang missing? make fuzz says)" > "$LOGS/$n.log"
			rc=1
		fi
		result "$n" $rc $(($(date +%s) - s))
		grep -v "^harness \|^fuzz_" "$LOGS/$n.log" | sed 's/^/    /'
	done
	mkdir -p "$LOGS/emu"
	for t in $(emu_tests); do
		n=emu/$t
		s=$(date +%s)
		emu_test "$t" "$LOGS/$n.log" > "$LOGS/$n.result" 2>&1
		rc=$?
		result "$n" $rc $(($(date +%s) - s))
		sed 's/^/    /' "$LOGS/$n.result"
		# CI shows only this output: where the failed test's boot stopped.
		if [ $rc != 0 ]; then
			echo "    its log ends:"
			sed 's/\x1b\[[0-9;=]*[A-Za-z]//g; s/\r//g' "$LOGS/$n.log" | grep -av '^[[:space:]]*$' |
				tail -n 8 | cut -c1-160 | sed 's/^/      | /'
		fi
	done
fi
# CI may show only the head and the tail of this output: the failed checks again, last.
for n in $failed_tests; do
	echo "failed: $n"
	# an emulator test's FAIL lines, a unit test's failed CHECKs, a fuzz harness's end
	f=$LOGS/$n.result
	[ -f "$f" ] || f=$LOGS/$n.log
	grep -a "^FAIL\|: CHECK[_A-Z]* failed\|FAILED\|reproducer" "$f" | head -n 10 | cut -c1-200 |
		sed 's/^/    /'
done
echo "$pass passed, $fail failed, $skipped parts skipped"
[ $fail = 0 ]
