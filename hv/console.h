/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's console: its own messages, and each VM's serial output line by line
 * with a "[name] " prefix. Input from the machine's serial port goes to the VM that has
 * the console focus; Ctrl-T moves the focus to the next VM, Ctrl-\\ prints the state of
 * every vCPU (for a guest that seems hung). */
#ifndef HV_CONSOLE_H
#define HV_CONSOLE_H

#include "hv/printk.h"
#include "hv/types.h"

struct vm;

/* Where typed bytes come from (the serial port after the takeover): the next byte, or -1
 * when none waits. */
void console_set_source(int (*getc)(void));

/* A byte the guest's console UART sent; vm is the struct vm (a void pointer so that
 * this serves as the UART models' tx callback as it is). */
void console_guest_putc(void *vm, u8 c);
/* The VM's console UART: rx_push(uart, byte) puts a typed byte into its receiver, under
 * the VM's dev_lock, and returns false when the receiver is full (the byte is offered
 * again later). Its transmitter writes through console_guest_putc(). */
void console_register_vm(struct vm *vm, bool (*rx_push)(void *uart, u8 byte), void *uart);
void console_unregister_vm(struct vm *vm);
/* Reads the source and forwards input to the focused VM, handling Ctrl-T and Ctrl-\\
 * (pCPU 0's housekeeping, hv/sched.h). */
void console_poll_input(void);
/* The last bytes (at most max, from the start of a line when older ones are gone) that
 * the VM of that name wrote to its console, into out: their number, or (size_t)-1 when
 * there is no such VM. */
#define CONSOLE_TAIL 8192
size_t console_tail(const char *name, char *out, size_t max);
/* Gives the console input to the VM of that name. */
void console_focus(const char *name);

#endif
