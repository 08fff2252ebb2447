# SPDX-License-Identifier: GPL-2.0-only
# arm64 on the CPU models of real servers and boards, not only QEMU's `max`: Neoverse N1
# (Ampere Altra, Graviton 2) with GICv3 and Cortex-A72 with GICv2, each a 2-vCPU Linux
# guest that brings up both CPUs, runs its test steps and powers off. These CPUs lack
# `max`'s pointer authentication, SVE and newer features, so other paths of the
# hypervisor (no PAuth keys to switch) and of Linux run. Spectre (arch/arm64/spectre.h):
# N1 has CSV2 and is on the BHB loop list, so each pCPU's vectors run the loop (k=24) and
# Linux counts BHB mitigated; A72 has no CSV2 and QEMU's firmware no WORKAROUND_1, so it
# is vulnerable and the guest is told so.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64
for model in "neoverse-n1:3:BHB mitigated (loop, k=24):Mitigation: CSV2, BHB" \
	"cortex-a72:2:Spectre-v2 VULNERABLE (no firmware workaround):Vulnerable"; do
	spec=${model#*:*:} && model=${model%:"$spec"}
	export CPU=${model%:*} GIC=${model#*:}
	boot "[vm a]
kernel = /guests/Image
initrd = /guests/initrd.gz
cmdline = console=ttyAMA0 quiet hv.mode=test
vcpus = 2
memory = 192M" 200
	expect "$CPU: GICv$GIC found" "hv: GICv$GIC"
	expect_guest_ok a 2
	expect "$CPU: ${spec%%:*}" "${spec%%:*}"
	expect_vm a "$CPU: Linux's spectre_v2: ${spec#*:}" "GUEST-FACT spectre_v2=${spec#*:}"
	mv "$LOG" "$LOG.$CPU"
done
cat "$LOG".* > "$LOG" && rm -f "$LOG".*
finish
