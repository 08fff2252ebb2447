# SPDX-License-Identifier: GPL-2.0-only
# The bare-metal x86 test guests: PVH ELF images that emulator tests put on the boot
# volume (tests/emu/bochs_vmx_guest.sh), built with ARCH=x86_64 into
# build/x86_64/guests-test/*.elf. 32-bit code (protected mode, paging off) in an ELF64
# file, as the PVH loader takes it; each is start.S and lib.c with its own main file.
TEST_GUEST_DIR := tests/guest/x86
TEST_GUESTS := apictest
TEST_GUEST_CFLAGS := -std=gnu11 -m32 -O2 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
	-fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -mgeneral-regs-only -I.
TEST_GUEST_COMMON := $(addprefix $(BUILD)/guests-test/,start.o lib.o)
all: $(TEST_GUESTS:%=$(BUILD)/guests-test/%.elf)
$(BUILD)/guests-test/%.elf: $(BUILD)/guests-test/%.o $(TEST_GUEST_COMMON) $(TEST_GUEST_DIR)/guest.ld
	$(LD) -m elf_i386 -nostdlib -static --no-warn-rwx-segments -T $(TEST_GUEST_DIR)/guest.ld $(TEST_GUEST_COMMON) $< -o $@.32
	$(OBJCOPY) -O elf64-x86-64 $@.32 $@
include tests/guest/rules.mk
# The multiboot test kernel (tests/emu/multiboot.sh): NASM, an ELF32 i386 file at 2 MiB
# with a multiboot header, as QEMU's -kernel takes it.
all: $(BUILD)/guests-test/mbtest.elf
$(BUILD)/guests-test/mbtest.elf: $(TEST_GUEST_DIR)/mbtest.asm
	@mkdir -p $(dir $@)
	@echo "  NASM $< (test guest)"
	@nasm -f elf32 $< -o $@.o
	@$(LD) -m elf_i386 -nostdlib -static -Ttext=0x200000 -e start $@.o -o $@
