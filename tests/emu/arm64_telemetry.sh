# SPDX-License-Identifier: GPL-2.0-only
# arm64 (GICv3): the telemetry after the takeover (see telemetry in lib.sh), the address
# by DHCP.
export ARCH=aarch64 GIC=3
. "$(dirname "$0")/lib.sh"
telemetry "" DHCP
finish
