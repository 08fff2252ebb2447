/* SPDX-License-Identifier: GPL-2.0-only */
/* The test exit port (`exit_port = N` of a [vm] section): QEMU's isa-debug-exit device
 * with iosize 4, as kvm-unit-tests and other bare-metal tests use it to end a run with a
 * status. A guest write of V (byte, word or dword) to any of ports N..N+3 stops the VM;
 * QEMU would exit with (V << 1) | 1, of which a shell sees the low 8 bits
 * (hw/misc/debugexit.c). Reads give 0, as QEMU's. */
#include "arch/x86/guest.h"
#include "hv/vm_config.h"
#include "hv/printk.h"

#define EXIT_PORT_LEN 4

static u64 exit_port_read(void *opaque, u64 off, unsigned size)
{
	(void)opaque, (void)off, (void)size;
	return 0;
}

static void exit_port_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct vm *vm = opaque;
	(void)off, (void)size;
	if (vm_request_stop(vm, VM_EXIT_PORT))
		printk("hv: VM '%s' exit port 0x%x: status %llu (QEMU would exit with %llu)\n",
		       vm->name, vm->arch.exit_port, (unsigned long long)val,
		       (unsigned long long)(((val << 1) | 1) & 0xFF));
}

int x86_exit_port_init(struct vm *vm, const struct vm_config *cfg)
{
	if (!cfg->exit_port_line)
		return 0;
	const struct io_region *r = iobus_find(&vm->bus, IO_PORT, cfg->exit_port, EXIT_PORT_LEN);
	if (r) {
		printk("hv: VM '%s': %s:%d: exit_port 0x%x: its ports 0x%x-0x%x overlap an "
		       "emulated device's, 0x%llx-0x%llx\n",
		       vm->name, config_file, cfg->exit_port_line, cfg->exit_port, cfg->exit_port,
		       cfg->exit_port + EXIT_PORT_LEN - 1, (unsigned long long)r->base,
		       (unsigned long long)(r->base + r->len - 1));
		return -1;
	}
	vm->arch.exit_port = cfg->exit_port;
	iobus_register(&vm->bus, &(struct io_region){ IO_PORT, cfg->exit_port, EXIT_PORT_LEN,
						      exit_port_read, exit_port_write, vm, NULL });
	return 0;
}
