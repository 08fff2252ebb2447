# SPDX-License-Identifier: GPL-2.0-only
# The bare-metal arm64 test guests: raw Images that emulator tests put on the boot volume
# (tests/emu/arm64_sgi_stress_*.sh), built with ARCH=aarch64 into
# build/aarch64/guests-test/*.img. Freestanding, no FP/SIMD, linked at the guest's RAM.
TEST_GUEST_DIR := tests/guest/arm64
TEST_GUEST_OBJS := $(addprefix $(BUILD)/guests-test/,start.o sgistress.o)
TEST_GUEST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding -fno-builtin -fno-pic \
	-fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -mgeneral-regs-only \
	-mstrict-align -mno-outline-atomics
all: $(BUILD)/guests-test/sgistress.img
$(BUILD)/guests-test/%.o: $(TEST_GUEST_DIR)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $< (test guest)"
	@$(CC) $(TEST_GUEST_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/guests-test/%.o: $(TEST_GUEST_DIR)/%.S
	@mkdir -p $(dir $@)
	@echo "  AS $< (test guest)"
	@$(CC) $(TEST_GUEST_CFLAGS) $(DEPFLAGS) -D__ASSEMBLY__ -c $< -o $@
$(BUILD)/guests-test/sgistress.img: $(TEST_GUEST_OBJS) $(TEST_GUEST_DIR)/sgistress.ld
	$(LD) -nostdlib -static --no-warn-rwx-segments -T $(TEST_GUEST_DIR)/sgistress.ld $(TEST_GUEST_OBJS) -o $@.elf
	$(OBJCOPY) -O binary $@.elf $@
-include $(TEST_GUEST_OBJS:%=%.d)
