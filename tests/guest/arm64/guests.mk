# SPDX-License-Identifier: GPL-2.0-only
# The bare-metal arm64 test guests: raw Images that emulator tests put on the boot volume
# (tests/emu/arm64_sgi_stress_*.sh, arm64_exceptions.sh, arm64_timers.sh,
# arm64_active_irqs.sh), built with ARCH=aarch64 into build/aarch64/guests-test/*.img.
# Freestanding, no FP/SIMD, linked at the guest's RAM; each is start.S and lib.c with its
# own main file.
TEST_GUEST_DIR := tests/guest/arm64
TEST_GUESTS := sgistress exceptions timers activeirqs
TEST_GUEST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding -fno-builtin -fno-pic \
	-fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -mgeneral-regs-only \
	-mstrict-align -mno-outline-atomics
TEST_GUEST_COMMON := $(addprefix $(BUILD)/guests-test/,start.o lib.o)
all: $(TEST_GUESTS:%=$(BUILD)/guests-test/%.img)
$(BUILD)/guests-test/%.img: $(BUILD)/guests-test/%.o $(TEST_GUEST_COMMON) $(TEST_GUEST_DIR)/guest.ld
	$(LD) -nostdlib -static --no-warn-rwx-segments -T $(TEST_GUEST_DIR)/guest.ld $(TEST_GUEST_COMMON) $< -o $@.elf
	$(OBJCOPY) -O binary $@.elf $@
include tests/guest/rules.mk
