/* SPDX-License-Identifier: GPL-2.0-only */
/* What the two UART model harnesses (fuzz_vuart.c, fuzz_vpl011.c) share: the device-bus
 * callbacks driven by the input, with host input arriving between guest accesses. A
 * harness defines transmits() and check() for its model and UART_FUZZ_HARNESS().
 * Operations, each an opcode byte and its arguments:
 *   0 read: offset (2 bytes, within the model's frame), size (bits 0-1: 1, 2, 4, 8)
 *   1 write: offset, size, value (4 bytes)
 *   other: host input: one byte, accepted exactly when the model said it had room
 * After each operation the model's own check runs, and a write that should transmit a
 * byte (the model says which) has handed exactly one to the sink, others none. */
#ifndef TESTS_FUZZ_UART_FUZZ_H
#define TESTS_FUZZ_UART_FUZZ_H

#include "../unit/uart_sink.h"
#include "fuzz.h"

struct uart_model {
	u64 frame;			       /* bytes of registers: offsets are below it */
	void (*init)(void *u, struct sink *s); /* reset, callbacks to the sink */
	u64 (*read)(void *u, u64 off, unsigned size);
	void (*write)(void *u, u64 off, unsigned size, u64 val);
	bool (*push)(void *u, u8 byte);
	bool (*space)(const void *u);
	bool (*transmits)(const void *u, u64 off); /* a write at off now goes to tx */
	void (*check)(const void *u, const struct sink *s);
};

/* One input on a fresh model; u has room for the model's state. */
static int uart_fuzz_one(const struct uart_model *m, void *u, const uint8_t *data, size_t size)
{
	static const unsigned sizes[4] = { 1, 2, 4, 8 };
	struct fuzz_in in = { data, size };
	struct sink s = { 0 };

	m->init(u, &s);
	while (in.n) {
		u8 op = take_u8(&in);
		if (op % 3 == 2) {
			bool room = m->space(u);
			FUZZ_CHECK(m->push(u, take_u8(&in)) == room);
		} else {
			u64 off = take_u16(&in) % m->frame;
			unsigned width = sizes[take_u8(&in) & 3];
			if (op % 3 == 0) {
				m->read(u, off, width);
			} else {
				bool tx = m->transmits(u, off);
				unsigned before = s.ntx;
				m->write(u, off, width, take_u32(&in));
				FUZZ_CHECK(s.ntx == before + tx);
			}
		}
		m->check(u, &s);
	}
	return 0;
}

/* The harness for the model `type` (struct type, with type_init, type_io_read,
 * type_io_write, type_rx_push and type_rx_space), registers in `frame` bytes. */
#define UART_FUZZ_HARNESS(type, frame)                                                   \
	static void init(void *u, struct sink *s)                                        \
	{                                                                                \
		static const struct type##_ops ops = { .tx = sink_tx, .irq = sink_irq }; \
		type##_init(u, &ops, s);                                                 \
	}                                                                                \
	static bool space(const void *u) { return type##_rx_space(u); }                  \
	static const struct uart_model model = {                                         \
		frame,		init,  type##_io_read, type##_io_write,                  \
		type##_rx_push, space, transmits,      check,                            \
	};                                                                               \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                     \
	{                                                                                \
		struct type u;                                                           \
		return uart_fuzz_one(&model, &u, data, size);                            \
	}

#endif
