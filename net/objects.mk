# SPDX-License-Identifier: GPL-2.0-only
# The network stack's port and drivers: lwIP (lib/lwip/lwip.mk) on the firmware's NIC.
objs-y += net/lwip_port.o
