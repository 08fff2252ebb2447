# SPDX-License-Identifier: GPL-2.0-only
# lwIP's port (lwip.mk builds lwIP itself): its start, clock, random numbers and
# assertions, TCP initial sequence numbers and the bound on half-open connections.
objs-y += lib/lwip/lwip_port.o lib/lwip/lwip_assert.o lib/lwip/tcp_isn.o lib/lwip/half_open.o
