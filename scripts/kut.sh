#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: kut.sh [TEST ...]   (env: ARCH=x86_64|aarch64, default x86_64; KUT: a
#        kvm-unit-tests tree, default the pinned one unpacked into OUT (below); KUT_TESTS:
#        the tests, as the arguments; KUT_GROUP: only that group of unittests.cfg; KUT_QEMU:
#        the QEMU, default qemu-system-ARCH; TIMEOUT: each test's, instead of unittests.cfg's)
# make kut: builds kvm-unit-tests for ARCH and runs its runner twice, one test at a
# time: under plain QEMU (TCG), then with scripts/kut/qemu-hv.sh as its QEMU, each test a
# VM of the hypervisor booted in QEMU. Prints each test's verdicts side by side, the
# first failing check (and the last line) of each test that failed under the hypervisor,
# and a total.
# OUT: build/kut (x86_64), build/kut-aarch64 (arm64: a tree configured for one
# architecture builds only that one). Runner logs: OUT/logs-qemu/, OUT/logs-hv/; the
# hypervisor's: OUT/hv-logs/.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${ARCH:-x86_64}
case $ARCH in
x86_64) OUT=$TOP/build/kut KUT_ARCH=x86_64 CONFIGURE=--arch=x86_64 ;;
aarch64)
	OUT=$TOP/build/kut-aarch64 KUT_ARCH=arm64
	CONFIGURE="--arch=arm64 --cross-prefix=aarch64-linux-gnu-"
	;;
*) echo "kut: ARCH=$ARCH: x86_64 or aarch64" >&2 && exit 1 ;;
esac
PINNED=$TOP/../shared/kvm-unit-tests/kvm-unit-tests-1da1819e.tar.gz
mkdir -p "$OUT"
if [ -z "${KUT:-}" ]; then
	[ -f "$PINNED" ] || {
		echo "kut: no $PINNED: point KUT at a kvm-unit-tests tree (make kut KUT=DIR)" >&2
		exit 1
	}
	KUT=$OUT/kvm-unit-tests
	[ -d "$KUT" ] || tar -xzf "$PINNED" -C "$OUT"
fi
KUT=$(cd "$KUT" && pwd)
QEMU_BIN=$(command -v "${KUT_QEMU:-qemu-system-$ARCH}") || {
	echo "kut: no ${KUT_QEMU:-qemu-system-$ARCH}" >&2
	exit 1
}
built=$(sed -n 's/^ARCH=//p' "$KUT/config.mak" 2> /dev/null || true)
[ -z "$built" ] || [ "$built" = "$KUT_ARCH" ] || {
	echo "kut: $KUT is configured for $built, not $KUT_ARCH: give ARCH=$ARCH its own tree" >&2
	exit 1
}
echo "kut: building $KUT ($OUT/build.log)"
# Its own make, without ours (make kut ARCH=aarch64 would pass ARCH on and override the
# tree's ARCH=arm64).
# shellcheck disable=SC2086 # CONFIGURE: options
(cd "$KUT" && unset MAKEFLAGS MFLAGS MAKELEVEL && { [ -f config.mak ] || ./configure $CONFIGURE; } &&
	make -j2) > "$OUT/build.log" 2>&1 ||
	{ tail -n 20 "$OUT/build.log" >&2; exit 1; }

# run NAME QEMU: the runner, one QEMU at a time; verdicts "TEST VERDICT" in OUT/NAME.txt
run() {
	name=$1 q=$2
	shift 2
	echo "kut: running the tests under $name ($OUT/$name.out)"
	rm -rf "$OUT/logs-$name" "$OUT/hv-logs"
	# shellcheck disable=SC2086 # KUT_TESTS: test names, split on blanks
	(cd "$KUT" && ACCEL=tcg QEMU=$q KUT_QEMU=$QEMU_BIN KUT_HV_LOGS=$OUT/hv-logs \
		unittest_log_dir=$OUT/logs-$name \
		./run_tests.sh -j 1 ${KUT_GROUP:+-g "$KUT_GROUP"} ${KUT_TESTS:-} "$@") > "$OUT/$name.out" 2>&1 || true
	sed 's/\x1b\[[0-9;]*m//g' "$OUT/$name.out" | awk '$1 ~ /^(PASS|FAIL|SKIP)$/ { print $2, $1 }' > "$OUT/$name.txt"
}
run qemu "$QEMU_BIN" "$@"
run hv "$TOP/scripts/kut/qemu-hv.sh" "$@"

# The first column as wide as the longest test name (arm64's reach 31 characters).
w=$(awk 'length($1) > w { w = length($1) } END { print (w > 24 ? w : 24) }' "$OUT/qemu.txt" "$OUT/hv.txt")
printf "%-${w}s %-10s %s\n" test plain-QEMU hv
awk -v f="%-${w}s %-10s %s\n" 'NR == FNR { q[$1] = $2; next } { printf f, $1, ($1 in q) ? q[$1] : "-", $2 }' \
	"$OUT/qemu.txt" "$OUT/hv.txt"
awk '$2 == "FAIL" { print $1 }' "$OUT/hv.txt" | while read -r t; do
	l=$OUT/logs-hv/$t.log
	first=$(grep -a -m1 "^FAIL\|^Unhandled exception\|assert failed\|^qemu-hv: " "$l" 2> /dev/null || true)
	last=$(awk '/^Unhandled exception|assert failed/ { exit } /^[A-Za-z]/ && !/^qemu-hv: / { x = $0 }
		END { print x }' "$l" 2> /dev/null || true)
	echo "hv $t: ${first:-no FAIL line}; its last line: $last"
done
awk 'NR == FNR { if ($2 == "PASS") m++; next } { n[$2]++ }
	END { printf "%d passed, %d failed, %d skipped under the hypervisor; %d passed under plain QEMU\n",
		n["PASS"], n["FAIL"], n["SKIP"], m }' "$OUT/qemu.txt" "$OUT/hv.txt"
