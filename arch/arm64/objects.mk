# SPDX-License-Identifier: GPL-2.0-only
# The arm64 backend (only built for ARCH=aarch64).
objs-y += $(addprefix arch/arm64/,boot.o critical_section.o entry.o esr.o gic_host.o guest_fdt.o id_regs.o \
	linux_image.o pcpu.o platform.o ptimer.o pvtime.o random.o selftest.o smccc.o spectre.o spectre_hw.o stage2.o vcpu.o vgic.o vgic_hw.o \
	vgic_mmio.o vm.o vsysreg.o vsysreg_hw.o vtimer.o)
