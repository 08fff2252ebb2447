# SPDX-License-Identifier: GPL-2.0-only
# arm64 at EL2 with GICv3 (SGIs by trapped ICC_SGI1R_EL1 writes): see arm64_smp in lib.sh.
. "$(dirname "$0")/lib.sh"
arm64_smp 3 GICv3
finish
