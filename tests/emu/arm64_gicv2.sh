# SPDX-License-Identifier: GPL-2.0-only
# arm64 at EL2 with GICv2 (SGIs by GICD_SGIR writes, the CPU interface is the hardware's
# GICV frame): see arm64_smp in lib.sh.
. "$(dirname "$0")/lib.sh"
arm64_smp 2 GIC-0
finish
