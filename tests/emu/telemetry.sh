# SPDX-License-Identifier: GPL-2.0-only
# x86: the telemetry after the takeover (see telemetry in lib.sh), with a static address
# (QEMU's user network: 10.0.2.15/24, its gateway 10.0.2.2) and an allow list that lets
# QEMU's user network in (its connections come from 10.0.2.2; telemetry_allow.sh has
# one that does not). Then the flood (telemetry_flood.py): the guest is one vCPU on pCPU 0
# that measures its own progress, in turns of quiet and of a flood of requests.
. "$(dirname "$0")/lib.sh"
telemetry "address = 10.0.2.15/24
gateway = 10.0.2.2
console = yes
allow = 192.0.2.0/24, 10.0.2.2" static flood
expect "the console says who may reach it" \
	"hv: telemetry: only IPv4 frames from 192.0.2.0/24, 10.0.2.2/32 reach it (allow)"
finish
