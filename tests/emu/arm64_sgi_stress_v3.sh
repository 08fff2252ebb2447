# SPDX-License-Identifier: GPL-2.0-only
# arm64 at EL2 with GICv3: no SGI lost to a guest that never exits on its own (the SGI
# stress guest); see arm64_sgi_stress in lib.sh.
. "$(dirname "$0")/lib.sh"
arm64_sgi_stress 3
finish
