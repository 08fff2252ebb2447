# SPDX-License-Identifier: GPL-2.0-only
# x86: the telemetry after the takeover (see telemetry in lib.sh), with a static address
# (QEMU's user network: 10.0.2.15/24, its gateway 10.0.2.2).
. "$(dirname "$0")/lib.sh"
telemetry "address = 10.0.2.15/24
gateway = 10.0.2.2
console = yes" static
finish
