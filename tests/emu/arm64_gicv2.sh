# arm64 at EL2 with GICv2: a guest of 2 vCPUs and one of 4 vCPUs share 2 pCPUs, and a
# third with `pv = none`. Each sees every CPU, runs work pinned to each of them (IPIs:
# GICD_SGIR writes), takes timer interrupts, and powers off through PSCI.
export ARCH=aarch64 GIC=2
. "$(dirname "$0")/lib.sh"
guest() { # name vcpus [pv]
	printf '\n[vm %s]\nkernel = /guests/Image\ninitrd = /guests/initrd.gz\ncmdline = console=ttyAMA0 quiet hv.mode=test\nvcpus = %s\nmemory = 192M\npv = %s\n\n' "$1" "$2" "${3:-all}"
}
boot "$(guest a 2)
$(guest b 4)
$(guest c 1 none)" 150
expect "banner" "(aarch64, EL2 backend)"
expect "GICv2 found" "hv: GICv2"
expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
expect_guest_ok a 2
expect_guest_ok b 4
expect_guest_ok c 1
expect_vm a "a: Linux drives a GICv2" "GUEST-FACT gic=GIC-0"
expect_vm a "a: PV stolen time" "arm-pv: using stolen time PV"
expect_vm b "b: PV stolen time" "arm-pv: using stolen time PV"
if grep -q "^\[c\] .*arm-pv: using stolen time PV" "$LOG"; then echo "FAIL: c used stolen time"; failed=1; fi
expect_counter "a: SGIs sent" a fixed 1
expect_counter "b: SGIs sent" b fixed 1
expect_counter "b: steal time accounted (4 vCPUs on 2 pCPUs)" b steal 1
expect_counter "b: pCPUs kicked" b kicks 1
expect "machine powered off when the last VM stopped" "hv: no VM left, powering off"
finish
