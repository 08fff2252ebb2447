# SPDX-License-Identifier: GPL-2.0-only
# kvm-unit-tests x86 as VMs of the hypervisor (scripts/kut.sh, docs/testing.md): the tests
# of the pinned tree (../shared/kvm-unit-tests/) that pass under plain QEMU TCG and run in
# seconds here must pass under the hypervisor too, unmodified: exceptions and NMIs
# injected (eventinj), two vCPUs brought up through the xAPIC (smptest), the TSC written
# (tsc), hypercalls (hypercall), CPUID exits (vmexit_cpuid), setjmp. The whole suite,
# slower, is `make kut`. Without the pinned tree (a user's
# clone) this test says so and passes: `make kut KUT=DIR` takes a tree of one's own.
# About 5 minutes (the tree's build included).
. "$(dirname "$0")/lib.sh"
TESTS="eventinj smptest tsc hypercall vmexit_cpuid setjmp"
if [ ! -f "$TOP/../shared/kvm-unit-tests/kvm-unit-tests-1da1819e.tar.gz" ]; then
	echo "SKIP: no pinned kvm-unit-tests tree in ../shared/kvm-unit-tests/ (make kut KUT=DIR)"
	exit 0
fi
KUT='' KUT_GROUP='' KUT_TESTS="$TESTS" "$TOP/scripts/kut.sh" > "$LOG" 2>&1 || {
	echo "FAIL: scripts/kut.sh did not run (its output: $LOG)"
	exit 1
}
for t in $TESTS; do
	# The table's row: TEST PLAIN-QEMU HV.
	row=$(awk -v t="$t" '$1 == t && NF == 3' "$LOG")
	if [ "$(echo "$row" | awk '{ print $3 }')" = PASS ]; then
		echo "ok:   $t passes under the hypervisor (plain QEMU: $(echo "$row" | awk '{ print $2 }'))"
	else
		echo "FAIL: $t under the hypervisor: ${row:-no verdict} ($(grep -F "hv $t:" "$LOG"))"
		failed=1
	fi
done
grep "passed under plain QEMU" "$LOG" | sed 's/^/      /'
exit $failed
