# SPDX-License-Identifier: GPL-2.0-only
# Guest device models: each backend builds those its VMs have.
objs-x86_64 += hv/dev/vuart.o
objs-aarch64 += hv/dev/vpl011.o
