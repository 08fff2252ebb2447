/* The machine's own 16550 serial port (COM1), polled. */
#ifndef DRIVERS_UART16550_H
#define DRIVERS_UART16550_H

#include "hv/types.h"

void uart_init(void);
void uart_putc(char c);
int uart_getc(void); /* -1 when no byte is waiting */

#endif
