# SPDX-License-Identifier: GPL-2.0-only
# An Intel CPU: the hypervisor reads the vendor before any AMD MSR, names the CPU and what
# is missing, and gives the machine back to the firmware untouched. QEMU's TCG has no VMX,
# so its Intel models have none: Skylake-Client, and `max` with Intel's vendor string,
# which keeps the SVM flag (meaningless on an Intel CPU, where reading AMD's VM_CR raises
# #GP: the vendor must decide, not the flag).
. "$(dirname "$0")/lib.sh"
cfg="[vm linux0]
kernel = /guests/vmlinuz"
refused() { # DESCRIPTION: the checks of one boot
	expect "$1: the banner names no backend" "(x86_64, no backend for this CPU)"
	expect "$1: refused, naming the CPU and the missing VMX" \
		"hv: CPU GenuineIntel has no VMX (CPUID 1 ECX[5] clear): it cannot run guests"
	expect "$1: nothing started" "hv: nothing was started; returning to the firmware"
	expect "$1: the firmware took over again (its shell)" "Shell>"
	expect_not "$1: no SVM leaf read as AMD's" "SVM rev"
	expect_not "$1: no exception" "X64 Exception"
}
export CPU=Skylake-Client
STOP_AT="Shell>" boot "$cfg" 120 1
expect "Skylake-Client: the CPU named" "hv: CPU GenuineIntel (Intel Core Processor (Skylake))"
refused Skylake-Client
mv "$LOG" "$LOG.1"
export CPU=max,vendor=GenuineIntel
STOP_AT="Shell>" boot "$cfg" 120 1
refused "max with vendor GenuineIntel"
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1"
finish
