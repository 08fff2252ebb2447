/* Console multiplexing (see console.h). Guest output is collected per VM up to a newline
 * so lines from different VMs and from the hypervisor never interleave mid-line. */
#include <stdarg.h>
#include "console.h"
#include "lib.h"
#include "spinlock.h"
#include "vm.h"
#include "drivers/uart16550.h"

#define CTRL_T 0x14
#define CTRL_BACKSLASH 0x1c
#define LINE_MAX 256

static void (*sink)(const char *s, size_t n);
static struct spinlock lock;
static struct vm *vms[MAX_VMS];
static char line[MAX_VMS][LINE_MAX];
static u32 line_len[MAX_VMS];
static u32 nvms, focus;

void console_set_sink(void (*write)(const char *s, size_t n))
{
	sink = write;
}

static void emit(const char *s, size_t n)
{
	if (sink)
		sink(s, n);
}

void printk(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	spin_lock(&lock);
	emit(buf, MIN((size_t)n, sizeof buf - 1));
	spin_unlock(&lock);
}

void console_register_vm(struct vm *vm)
{
	if (nvms < MAX_VMS)
		vms[nvms++] = vm;
}

static int slot_of(struct vm *vm)
{
	for (u32 i = 0; i < nvms; i++)
		if (vms[i] == vm)
			return (int)i;
	return -1;
}

static void flush_line(int i)
{
	char prefix[40];
	int n = snprintf(prefix, sizeof prefix, "[%s] ", vms[i]->name);
	emit(prefix, (size_t)n);
	emit(line[i], line_len[i]);
	emit("\n", 1);
	line_len[i] = 0;
}

void console_guest_putc(struct vm *vm, u8 c)
{
	int i = slot_of(vm);
	if (i < 0 || c == '\r')
		return;
	spin_lock(&lock);
	if (c == '\n')
		flush_line(i);
	else {
		line[i][line_len[i]++] = (char)c;
		if (line_len[i] == LINE_MAX)
			flush_line(i);
	}
	spin_unlock(&lock);
}

void console_unregister_vm(struct vm *vm)
{
	int i = slot_of(vm);
	if (i < 0)
		return;
	spin_lock(&lock);
	if (line_len[i])
		flush_line(i);
	spin_unlock(&lock);
	if (focus == (u32)i) /* hand the console to the next VM still running */
		for (u32 k = 1; k < nvms; k++)
			if (vms[(i + k) % nvms]->stop_reason == VM_RUNNING) {
				focus = (i + k) % nvms;
				break;
			}
}

void console_poll_input(void)
{
	int c;
	while ((c = uart_getc()) >= 0) {
		if (!nvms)
			continue;
		if (c == CTRL_BACKSLASH) {
			for (u32 i = 0; i < nvms; i++)
				vm_dump(vms[i]);
			continue;
		}
		if (c == CTRL_T) {
			focus = (focus + 1) % nvms;
			printk("hv: console input now goes to VM '%s' (Ctrl-T switches)\n", vms[focus]->name);
			continue;
		}
		struct vm *vm = vms[focus];
		if (vm->stop_reason == VM_RUNNING)
			vm_console_input(vm, (u8)c);
	}
}

void console_focus(const char *name)
{
	for (u32 i = 0; i < nvms; i++)
		if (!strcmp(vms[i]->name, name))
			focus = i;
}
