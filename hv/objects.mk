# SPDX-License-Identifier: GPL-2.0-only
# The architecture-neutral core.
objs-y += hv/console.o hv/file_kind.o hv/gunzip.o hv/iobus.o hv/lib.o hv/mem.o hv/printk.o hv/random.o hv/siphash.o \
	hv/on_exit.o hv/page_alloc.o hv/pv_features.o hv/pvclock.o hv/sched.o hv/sched_policy.o \
	hv/selftest.o hv/stats.o hv/vm.o
