# SPDX-License-Identifier: GPL-2.0-only
# The machine's own hardware: its console UART and firmware tables.
objs-y += drivers/acpi.o
objs-x86_64 += drivers/uart16550.o
objs-aarch64 += drivers/pl011.o drivers/fdt_platform.o
