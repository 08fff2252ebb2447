# SPDX-License-Identifier: GPL-2.0-only
# arm64 on the CPU models of real servers and boards, not only QEMU's `max`: Neoverse N1
# (Ampere Altra, Graviton 2) with GICv3 and Cortex-A72 with GICv2, each a 2-vCPU Linux
# guest that brings up both CPUs, runs its test steps and powers off. These CPUs lack
# `max`'s pointer authentication, SVE and newer features, so other paths of the
# hypervisor (no PAuth keys to switch) and of Linux run.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64
for model in neoverse-n1:3 cortex-a72:2; do
	export CPU=${model%:*} GIC=${model#*:}
	boot "[vm a]
kernel = /guests/Image
initrd = /guests/initrd.gz
cmdline = console=ttyAMA0 quiet hv.mode=test
vcpus = 2
memory = 192M" 200
	expect "$CPU: GICv$GIC found" "hv: GICv$GIC"
	expect_guest_ok a 2
	mv "$LOG" "$LOG.$CPU"
done
cat "$LOG".* > "$LOG" && rm -f "$LOG".*
finish
