# SPDX-License-Identifier: GPL-2.0-only
# The machine's own hardware: its console UART, firmware tables, PCI and the NIC.
objs-y += drivers/acpi.o
objs-x86_64 += drivers/uart16550.o
objs-aarch64 += drivers/pl011.o drivers/fdt_platform.o
objs-y += drivers/pci.o drivers/virtio_net.o
