# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the scripts that make boot volumes (needs TOP, the repository's root).
# arch_defaults ARCH sets what a boot volume of that architecture holds by default:
#   BOOT         the firmware's removable-media boot file in EFI/BOOT/ (UEFI 2.10, 3.5.1.1)
#   KERNEL       the default guest kernel's file name, in build/guests/ARCH/
#   DEFAULT_CFG  the configuration `make run` boots
# shellcheck disable=SC2034 # the variables are for the scripts that source this
arch_defaults() {
	case "$1" in
	x86_64) BOOT=BOOTX64.EFI KERNEL=vmlinuz DEFAULT_CFG=$TOP/scripts/default.cfg ;;
	aarch64) BOOT=BOOTAA64.EFI KERNEL=Image DEFAULT_CFG=$TOP/scripts/default-aarch64.cfg ;;
	*) echo "ARCH=$1 not supported (x86_64 or aarch64)" >&2; return 1 ;;
	esac
}
